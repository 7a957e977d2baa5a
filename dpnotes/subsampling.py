r"""Rényi DP of subsampled mechanisms: the generic bound and the exact sampled Gaussian.

Two routes to the privacy of a subsampled mechanism:

* the generic bound of seed 004, Claim 24, which needs nothing but the RDP
  curve ε(α) of the inner mechanism and gains a factor q (the sampling rate), and
* the exact RDP of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar
  and Zhang 2019), which gains q² for small q — the gap of seed 004, Example 4
  and Claim 26.

The exact value is computed from
:math:`A_\alpha = \mathbb E_{z\sim\mathcal N(0,\sigma^2)}\big[(1-q+q\,e^{(2z-1)/(2\sigma^2)})^\alpha\big]`
— by the binomial expansion (seed 004, Claim 27 / (9.5)) for integer α and by
an error-controlled trapezoidal rule for fractional α — always through
:math:`A_\alpha-1` written as a sum or integral of non-negative terms, so that
tiny values (q = 10⁻⁶, σ = 10³: ε ≈ 10⁻¹⁸) keep full relative precision.

Used in: book/05-subsampling
"""

import functools
from fractions import Fraction

import numpy as np
from scipy.special import expit, gammaln, logsumexp

from ._logspace import log_expm1, log_phi, log_psi
from ._validation import (
    broadcast,
    check_count,
    check_interval,
    check_nonnegative,
    check_order,
    check_positive,
    check_probability,
    named_shapes,
    scalar_or_array,
)

__all__ = [
    "rdp_subsampled_gaussian",
    "log_moment_subsampled_gaussian",
    "rdp_subsampled_gaussian_reverse",
    "rdp_subsampled",
    "rdp_subsampled_relaxed",
    "claim26_constant",
    "claim26_constant_bracket",
    "claim26_seed_sum",
    "conjecture1_counterexample",
]

_LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)
# Integer orders up to this value use the exact binomial sum (Claim 27).
_MAX_BINOMIAL = 200_000
_MAX_SEED_SUM = 10**7  # the most terms of claim26_seed_sum
# Trapezoid windows keep every z where the log-integrand is within _T of its max.
_T = 60.0
# Small regime (A − 1 < e^{_SMALL_LOG} − 1): integrate A − 1 over a wide window.
_SMALL_LOG = 1e-3
_T_SMALL = 95.0


# ----------------------------------------------------------------------------
# Elementary log-space helpers
# ----------------------------------------------------------------------------

def _ell(z, q, t):
    """ℓ(z) = log(1 − q + q e^{L}), L = (z − ½)/σ² (t = 1/σ²): the log-likelihood ratio of the mixture."""
    L = (z - 0.5) * t
    with np.errstate(over="ignore", invalid="ignore"):
        near = np.log1p(q * np.expm1(np.minimum(L, 30.0)))
        far = np.logaddexp(np.log1p(-q), np.log(q) + L)
    return np.where(L < 30.0, near, far)


def _spacing(sigma):
    r"""Trapezoid step for a relative error below e^{-45}.

    The integrands are analytic in the strip |Im z| < πσ² (branch point of
    (1 − q + q e^{ℓ₁(z)})^α, ℓ₁(z) = (z − ½)/σ²) and grow at most like
    e^{y²/(2σ²)} off the real axis,
    so the trapezoidal error is ≲ exp(y²/(2σ²) − 2πy/d) relative (Trefethen &
    Weideman 2014, Thm 5.1).  Taking y = 2πσ²/d when that lies in the strip,
    otherwise y = 0.99πσ², gives the two branches below.
    """
    if 0.662 * sigma >= 2.02:
        return 0.662 * sigma
    return 1.98 / (0.49 + 45.0 / (np.pi ** 2 * sigma ** 2))


def _bisect(f, lo, hi, n=64):
    """Root of f on [lo, hi] (vectorised) assuming a sign change; 64 halvings."""
    pos_lo = f(lo) > 0
    for _ in range(n):
        mid = 0.5 * (lo + hi)
        same = (f(mid) > 0) == pos_lo
        lo = np.where(same, mid, lo)
        hi = np.where(same, hi, mid)
    return 0.5 * (lo + hi)


def _trapezoid_log(log_f, lo, hi, n):
    """log ∫_lo^hi exp(log_f(z)) dz by the trapezoidal rule with n nodes per row."""
    u = np.linspace(0.0, 1.0, n)
    z = lo[:, None] + (hi - lo)[:, None] * u[None, :]
    vals = log_f(z)
    logw = np.full(n, 0.0)
    logw[[0, -1]] = np.log(0.5)
    h = (hi - lo) / (n - 1)
    with np.errstate(divide="ignore"):
        return logsumexp(vals + logw[None, :], axis=1) + np.log(h)


def _node_count(width, d, cap=200_000):
    n = int(np.max(np.ceil(np.asarray(width) / d))) + 1
    return int(min(max(n, 3), cap))


# ----------------------------------------------------------------------------
# log A_α for the forward pair  (1 − q)N(0,σ²) + qN(1,σ²)  ‖  N(0,σ²)
# ----------------------------------------------------------------------------

def _log_am1_int(alpha, q, t):
    r"""log(A_α − 1) for integer α ≥ 2 by Claim 27 with the identity Σ binom = 1.

    A_α − 1 = Σ_{k=2}^{α} binom(α,k) q^k (1−q)^{α−k} (e^{k(k−1)/(2σ²)} − 1): every term ≥ 0
    (k: the summation index).
    """
    n = alpha.astype(np.int64)
    counts = n - 1
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    owner = np.repeat(np.arange(n.size), counts)
    k = (np.arange(counts.sum()) - np.repeat(starts, counts) + 2).astype(float)
    a = alpha[owner]
    terms = (gammaln(a + 1.0) - gammaln(k + 1.0) - gammaln(a - k + 1.0)
             + k * np.log(q) + (a - k) * np.log1p(-q)
             + log_expm1(0.5 * t * k * (k - 1.0)))
    peak = np.maximum.reduceat(terms, starts)
    total = np.add.reduceat(np.exp(terms - peak[owner]), starts)
    return peak + np.log(total)


def _windows_forward(alpha, q, t, sigma, T):
    """Up to two intervals holding all z with h(z) ≥ max h − T, h = −z²/(2σ²) + α ℓ(z)."""
    z0 = 0.5 + (np.log1p(-q) - np.log(q)) / t

    def h(z):
        return -0.5 * t * z * z + alpha * _ell(z, q, t)

    def phi(z):  # h'(z)/t
        return alpha * expit((z - z0) * t) - z

    nonconc = alpha * t > 4.0
    disc = np.sqrt(np.clip(1.0 - 4.0 / (alpha * t), 0.0, 1.0))
    with np.errstate(divide="ignore"):
        s_lo, s_hi = 0.5 * (1.0 - disc), 0.5 * (1.0 + disc)
        za = np.where(nonconc, z0 + (np.log(s_lo) - np.log1p(-s_lo)) / t, alpha)
        zb = np.where(nonconc, z0 + (np.log(s_hi) - np.log1p(-s_hi)) / t, alpha)
    za = np.clip(za, 0.0, alpha)
    zb = np.clip(zb, 0.0, alpha)
    left = ~nonconc | (phi(za) < 0)
    right = nonconc & (phi(zb) > 0)
    both = left & right
    z1 = _bisect(phi, np.where(left, 0.0, zb), np.where(left, np.where(nonconc, za, alpha), alpha))
    z2 = _bisect(phi, zb, np.broadcast_to(alpha, zb.shape).astype(float))
    zm = _bisect(phi, za, np.where(both, zb, za + 1.0))
    h1, h2 = h(z1), np.where(both, h(z2), -np.inf)
    H = np.maximum(h1, h2)
    B = sigma * np.sqrt(2.0 * T)

    def g(z):
        return h(z) - (H - T)

    far_left, far_right = -B + 0.0 * alpha, alpha + B
    l1 = np.where(g(far_left) >= 0, far_left, _bisect(g, far_left, z1))
    merged = both & (g(zm) >= 0)
    r1_end = np.where(both, zm, far_right)
    r1 = np.where(g(r1_end) >= 0, r1_end, _bisect(g, z1, r1_end))
    l2 = np.where(g(zm) >= 0, zm, _bisect(g, zm, z2))
    r2 = np.where(g(far_right) >= 0, far_right, _bisect(g, z2, far_right))
    # window 1: [l1, r1] (or [l1, r2] when the valley is not negligible); window 2: [l2, r2]
    active1 = h1 >= H - T
    active2 = both & ~merged & (h2 >= H - T)
    lo1 = np.where(active1, l1, l2)
    hi1 = np.where(merged, r2, np.where(active1, r1, r2))
    return (lo1, hi1), (l2, r2, active2 & active1)


def _log_a_quad(alpha, q, sigma):
    """log A_α by the trapezoidal rule (any α > 1); full relative precision in A_α − 1."""
    t = 1.0 / sigma ** 2
    d = _spacing(sigma)
    norm = -np.log(sigma) - _LOG_SQRT_2PI

    def log_f(z, a=alpha):
        return -0.5 * t * z * z + a[:, None] * _ell(z, q, t) + norm

    (lo1, hi1), (lo2, hi2, two) = _windows_forward(alpha, q, t, sigma, _T)
    out = _trapezoid_log(log_f, lo1, hi1, _node_count(hi1 - lo1, d))
    if np.any(two):
        sel = np.flatnonzero(two)
        extra = _trapezoid_log(lambda z: log_f(z, alpha[sel]), lo2[sel], hi2[sel],
                               _node_count(hi2[sel] - lo2[sel], d))
        out[sel] = np.logaddexp(out[sel], extra)
    small = out < _SMALL_LOG
    if np.any(small):
        a = alpha[small]
        beta = a - 1.0
        B = sigma * np.sqrt(2.0 * _T_SMALL)

        def log_g(z):
            ell = _ell(z, q, t)
            with np.errstate(divide="ignore"):
                lg = np.logaddexp(np.log(beta)[:, None] + log_phi(ell),
                                  ell + log_psi(beta[:, None] * ell))
            return -0.5 * t * z * z + norm + lg

        lo, hi = np.full(a.shape, -B), a + 1.0 + B
        log_am1 = _trapezoid_log(log_g, lo, hi, _node_count(hi - lo, 0.7 * d))
        out[small] = np.logaddexp(0.0, log_am1)
    return out


def _log_a(alpha, q, sigma):
    """log A_α for a 1-D array of orders α > 1 and scalars 0 < q < 1, σ > 0."""
    alpha = np.asarray(alpha, dtype=float)
    out = np.empty_like(alpha)
    is_int = (alpha == np.round(alpha)) & (alpha <= _MAX_BINOMIAL)
    if np.any(is_int):
        out[is_int] = np.logaddexp(0.0, _log_am1_int(alpha[is_int], q, 1.0 / sigma ** 2))
    if np.any(~is_int):
        out[~is_int] = _log_a_quad(alpha[~is_int], q, sigma)
    return out


@named_shapes
def log_moment_subsampled_gaussian(alpha, q, sigma):
    r"""log A_α, the moment whose logarithm over α − 1 is the subsampled Gaussian's RDP.

    .. math:: A_\alpha = \mathbb E_{z\sim\mathcal N(0,\sigma^2)}\Big[\big(1-q+q\,e^{(2z-1)/(2\sigma^2)}\big)^\alpha\Big]

    Parameters
    ----------
    alpha : float or 1-D array, α > 1
    q : float, 0 < q < 1
    sigma : float, σ > 0

    Returns
    -------
    ndarray (one value per order)

    References
    ----------
    Mironov, Talwar & Zhang (2019), §3; Abadi et al. (2016).

    Examples
    --------
    >>> float(np.round(log_moment_subsampled_gaussian(2.0, 0.5, 1.0)[0], 12))  # log(1 + q²(e − 1))
    0.357374019509
    """
    alpha = np.atleast_1d(check_order(alpha))
    if np.any(alpha > _ALPHA_HIGH):
        raise ValueError(f"alpha must be ≤ {_ALPHA_HIGH:g} (got {np.max(alpha):g})")
    q = float(check_interval(q, "q", 0.0, 1.0, closed_low=False, closed_high=False))
    sigma = float(check_interval(sigma, "sigma", _SIGMA_LOW, _SIGMA_HIGH))
    if alpha.ndim != 1:
        raise ValueError(f"alpha must be a number or a 1-D array (got shape {alpha.shape})")
    return _log_a(alpha, q, sigma)


def _broadcast_apply(fn, alpha, q, sigma):
    alpha, q, sigma = np.broadcast_arrays(alpha, q, sigma)
    out = np.zeros(alpha.shape)
    flat_a, flat_q, flat_s = alpha.ravel(), q.ravel(), sigma.ravel()
    res = out.ravel()
    pairs = np.stack([flat_q, flat_s], axis=1)
    uniq, inv = np.unique(pairs, axis=0, return_inverse=True)
    inv = np.ravel(inv)
    for i, (qq, ss) in enumerate(uniq):
        idx = np.flatnonzero(inv == i)
        res[idx] = fn(flat_a[idx], float(qq), float(ss))
    return res.reshape(alpha.shape)


def _rdp_forward(alpha, q, sigma):
    if q == 0.0:
        return np.zeros_like(alpha)
    if q == 1.0:
        return alpha / (2.0 * sigma ** 2)
    return _log_a(alpha, q, sigma) / (alpha - 1.0)


#: outside [_SIGMA_LOW, _SIGMA_HIGH] the RDP of the subsampled Gaussian is given by its limits
_SIGMA_LOW, _SIGMA_HIGH = 1e-100, 1e150
_ALPHA_HIGH = 1e15  # beyond, the quadrature is not used (see rdp_subsampled_gaussian)


@named_shapes
def rdp_subsampled_gaussian(alpha, q, sigma):
    r"""Exact RDP of the Poisson-subsampled Gaussian mechanism (sensitivity 1).

    .. math:: \varepsilon(\alpha) = D_\alpha\big((1-q)\mathcal N(0,\sigma^2) + q\,\mathcal N(1,\sigma^2)
              \,\big\|\, \mathcal N(0,\sigma^2)\big) = \frac{\log A_\alpha}{\alpha-1},\qquad
              A_\alpha = \mathbb E_{z\sim\mathcal N(0,\sigma^2)}\Big[\big(1-q+q\,e^{(2z-1)/(2\sigma^2)}\big)^\alpha\Big].

    Under add/remove adjacency the RDP is the larger of this and the reverse
    divergence :func:`rdp_subsampled_gaussian_reverse`; Mironov, Talwar and
    Zhang (2019, §3) show the direction above dominates, and the tests check
    it on a grid α ∈ [1.01, 10⁴], q ∈ [10⁻⁶, 1], σ ∈ [0.3, 10³] (the reverse
    value is smaller everywhere we looked, by a factor ≥ 1 − 10⁻¹⁰), so this
    function returns the exact RDP.

    *Integer α* — seed 004, Claim 27 and (9.5), rewritten with
    Σ_j binom(α,j) q^j (1−q)^{α−j} = 1 so that every term is non-negative:

    .. math:: A_\alpha - 1 = \sum_{j=2}^{\alpha}\binom{\alpha}{j} q^j (1-q)^{\alpha-j}
              \big(e^{j(j-1)/(2\sigma^2)} - 1\big).

    *Fractional α* — the same expectation as an integral over z, computed
    by the trapezoidal rule on the (at most two) windows where the integrand
    is within e⁻⁶⁰ of its maximum (located from the stationary points
    z = α·s(z), s a logistic function; at most two maxima).  The integrand is
    analytic in a strip, so the rule converges geometrically; the step is set
    for a relative error ≲ e⁻⁴⁵.  When A_α − 1 < 10⁻³ the integrand is
    replaced by the non-negative
    :math:`g = (\alpha-1)\,[e^\ell(\ell-1)+1] + e^\ell\,[e^{(\alpha-1)\ell}-1-(\alpha-1)\ell]`,
    ℓ = log(1 − q + q e^{ℓ₁}) with ℓ₁ = (2z − 1)/(2σ²) (the privacy loss of the
    unsampled Gaussian at z), whose integral is A_α − 1 itself (since
    E[e^{ℓ₁}] = 1).  Both routes thus give A_α − 1 to full relative precision,
    which the textbook binomial sum (and dp-accounting) cannot do when
    A_α − 1 ≲ 10⁻⁸.  The result equals the two-sided series of Mironov et
    al. (2019, §3.3) but needs no truncation rule.

    Parameters
    ----------
    alpha : float or array, α > 1
    q : float or array, sampling probability q ∈ [0, 1]
    sigma : float or array, noise multiplier σ > 0

    Returns
    -------
    float or ndarray
        ε(α); 0 for q = 0 and α/(2σ²) for q = 1.

    Raises
    ------
    ValueError
        If α ≤ 1 or α = ∞, q ∉ [0, 1] or σ ≤ 0.

    References
    ----------
    Seed 004, Claim 27 and (9.5) (S4-14), Example 4 (S4-11); Mironov, Talwar &
    Zhang (2019), "Rényi differential privacy of the sampled Gaussian
    mechanism", §3; Abadi et al. (2016).

    Examples
    --------
    >>> round(rdp_subsampled_gaussian(2.0, 0.5, 1.0), 12)  # log(1 + q²(e − 1))
    0.357374019509
    >>> round(rdp_subsampled_gaussian(3.0, 1.0, 2.0), 12)  # q = 1: α/(2σ²)
    0.375
    >>> bool(rdp_subsampled_gaussian(2.5, 1e-3, 4.0) < 1e-6)
    True
    """
    alpha = check_order(alpha)
    q = check_probability(q)
    sigma = check_positive(sigma, "sigma")
    alpha, q, sigma = broadcast(alpha=alpha, q=q, sigma=sigma)
    huge = alpha > _ALPHA_HIGH
    if np.any(huge):
        # the term j = α dominates when (α − 1)/σ² ≥ log(α/q) + 40 (each earlier term is e^{−40} of the next)
        with np.errstate(divide="ignore", over="ignore"):
            dominant = (q == 0) | (alpha * np.reciprocal(sigma) ** 2 >= np.log(alpha) - np.log(q) + 40.0)
        if not np.all(dominant[huge]):
            raise ValueError(f"alpha must be ≤ {_ALPHA_HIGH:g} at this q and sigma (got alpha = {np.max(alpha):g}): "
                             f"beyond, only orders where the last binomial term dominates are computed")
    inner = np.where(huge, 2.0, alpha)
    out = np.asarray(_broadcast_apply(_rdp_forward, inner, q, np.clip(sigma, _SIGMA_LOW, _SIGMA_HIGH)), dtype=float)
    high, low = sigma > _SIGMA_HIGH, (sigma < _SIGMA_LOW) | huge
    if np.any(high):
        # A_α − 1 = α(α−1)q²/(2σ²)·(1 + O(α²/σ²)): the first order is exact in double precision here
        out = np.where(high, alpha * q * q / 2 * np.reciprocal(sigma) ** 2, out)
    if np.any(low):
        # the term j = α of the binomial sum dominates: log A = α(α−1)/(2σ²) + α log q, up to e^{−1/σ²} (small σ)
        # or e^{−40} (huge α)
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            big = np.where(q > 0, alpha / (2.0 * sigma**2) + alpha * np.log(q) / (alpha - 1.0), 0.0)
        if not np.all(np.isfinite(big[low])):
            raise ValueError(f"sigma must be ≥ {np.sqrt(np.max(alpha) / np.finfo(float).max):.3g} for this α: "
                             f"ε(α) ≈ α/(2σ²) is beyond the floating-point range (got sigma = {np.min(sigma):g})")
        out = np.where(low, big, out)
    return scalar_or_array(out)


# ----------------------------------------------------------------------------
# Reverse direction  N(0,σ²) ‖ (1 − q)N(0,σ²) + qN(1,σ²)
# ----------------------------------------------------------------------------

def _log_b_quad(alpha, q, sigma):
    """log B_α, B_α = E_{z~N(0,σ²)}[(1 − q + q e^{ℓ₁(z)})^{1−α}], ℓ₁(z) = (z − ½)/σ², trapezoidal rule.

    ``gam`` holds 1 − α.
    """
    t = 1.0 / sigma ** 2
    norm = -np.log(sigma) - _LOG_SQRT_2PI
    gam = 1.0 - alpha

    def h(z):
        return -0.5 * t * z * z + gam * _ell(z, q, t)

    z0 = 0.5 + (np.log1p(-q) - np.log(q)) / t
    zs = _bisect(lambda z: gam * expit((z - z0) * t) - z, gam.copy(), np.zeros_like(gam))
    H = h(zs)
    B = sigma * np.sqrt(2.0 * _T)  # h'' ≤ −1/σ²: the window is at most this wide
    lo = _bisect(lambda z: h(z) - (H - _T), zs - B, zs)
    hi = _bisect(lambda z: h(z) - (H - _T), zs, zs + B)
    # curvature can reach (1 + (α−1)/(4σ²))/σ²: shrink the step accordingly
    d = min(_spacing(sigma), float(np.min(0.6 * sigma / np.sqrt(1.0 + (alpha - 1.0) * t / 4.0))))

    def log_f(z, a=gam):
        return -0.5 * t * z * z + a[:, None] * _ell(z, q, t) + norm

    out = _trapezoid_log(log_f, lo, hi, _node_count(hi - lo, d))
    small = out < _SMALL_LOG
    if np.any(small):
        g_ = gam[small]
        Bs = sigma * np.sqrt(2.0 * _T_SMALL)

        def log_g(z):  # (1+y)^{1−α} − 1 − (1−α)y = ψ((1−α)ℓ) − (1−α)ψ(ℓ), both ≥ 0 as 1 − α < 0
            ell = _ell(z, q, t)
            lg = np.logaddexp(log_psi(g_[:, None] * ell), np.log(-g_)[:, None] + log_psi(ell))
            return -0.5 * t * z * z + norm + lg

        lo_s = np.minimum(zs[small] - Bs, -Bs)
        hi_s = np.maximum(zs[small] + Bs, 1.0 + Bs)
        log_bm1 = _trapezoid_log(log_g, lo_s, hi_s, _node_count(hi_s - lo_s, 0.7 * d))
        out[small] = np.logaddexp(0.0, log_bm1)
    return out


def _rdp_reverse(alpha, q, sigma):
    if q == 0.0:
        return np.zeros_like(alpha)
    if q == 1.0:
        return alpha / (2.0 * sigma ** 2)
    return _log_b_quad(alpha, q, sigma) / (alpha - 1.0)


@named_shapes
def rdp_subsampled_gaussian_reverse(alpha, q, sigma):
    r"""Rényi divergence of N(0, σ²) from the subsampled-Gaussian mixture (the reverse direction).

    .. math:: D_\alpha\big(\mathcal N(0,\sigma^2)\,\big\|\,(1-q)\mathcal N(0,\sigma^2)
              + q\,\mathcal N(1,\sigma^2)\big) = \frac{1}{\alpha-1}\log
              \mathbb E_{z\sim\mathcal N(0,\sigma^2)}\Big[\big(1-q+q\,e^{(2z-1)/(2\sigma^2)}\big)^{1-\alpha}\Big]

    This is the "remove" half of add/remove adjacency.  It never exceeded
    :func:`rdp_subsampled_gaussian` in our checks, in line with Mironov,
    Talwar and Zhang (2019, §3).  Computed by the trapezoidal rule (the
    log-integrand is strictly concave, so one window suffices), with the
    non-negative integrand ψ((1 − α)ℓ) − (1 − α)ψ(ℓ), ψ(v) = e^v − 1 − v, when
    the value is tiny.

    Parameters
    ----------
    alpha : float or array, α > 1
    q : float or array, q ∈ [0, 1]
    sigma : float or array, σ > 0

    Raises
    ------
    ValueError
        If α ≤ 1, q ∉ [0, 1] or σ ≤ 0.

    References
    ----------
    Mironov, Talwar & Zhang (2019), §3; seed 004, Claim 26 (Part 1).

    Examples
    --------
    >>> a, q, s = np.array([2.0, 8.0]), 0.1, 1.0
    >>> bool(np.all(rdp_subsampled_gaussian_reverse(a, q, s) <= rdp_subsampled_gaussian(a, q, s)))
    True
    """
    alpha = check_order(alpha)
    q = check_probability(q)
    sigma = check_positive(sigma, "sigma")
    alpha, q, sigma = broadcast(alpha=alpha, q=q, sigma=sigma)
    if np.any(alpha > _ALPHA_HIGH):
        raise ValueError(f"alpha must be ≤ {_ALPHA_HIGH:g} (got {np.max(alpha):g}); the divergence is below its "
                         f"limit −log(1 − q) as α → ∞")
    out = np.asarray(_broadcast_apply(_rdp_reverse, alpha, q, np.clip(sigma, _SIGMA_LOW, _SIGMA_HIGH)), dtype=float)
    # σ → ∞: the same first order αq²/(2σ²) as the forward direction; σ → 0: −log(1 − q), the weight of the
    # mixture's component at 0 (the other is e^{−1/(8σ²)} away)
    with np.errstate(divide="ignore"):
        out = np.where(sigma > _SIGMA_HIGH, alpha * q * q / 2 * np.reciprocal(sigma) ** 2, out)
        low = np.where(q == 1.0, alpha / 2.0 * np.reciprocal(sigma) ** 2, -np.log1p(-q))  # q = 1: N(0,σ²)‖N(1,σ²)
    if not np.all(np.isfinite(low[sigma < _SIGMA_LOW])):
        raise ValueError(f"sigma = {np.min(sigma):g} with q = 1 gives α/(2σ²) beyond the floating-point range")
    out = np.where(sigma < _SIGMA_LOW, low, out)
    return scalar_or_array(out)


# ----------------------------------------------------------------------------
# Claim 24: the generic subsampling bound
# ----------------------------------------------------------------------------

def _rho_at(alpha, rdp):
    # the inner mechanism's RDP curve ε(α), from values or a callable
    if callable(rdp):
        rho = np.asarray(rdp(alpha), dtype=float)
    else:
        rho = rdp
    return check_nonnegative(rho, "rdp", allow_inf=True)


@named_shapes
def rdp_subsampled(alpha, rate, rdp):
    r"""RDP after subsampling without replacement, by the generic bound of Claim 24.

    .. math:: \varepsilon'(\alpha) = \frac{1}{\alpha-1}\log\big(1 + q\,(e^{(\alpha-1)\varepsilon(\alpha)} - 1)\big)

    computed as (log q + log(e^{(α−1)ε(α)} − 1)) passed through log1p/logaddexp,
    so (α − 1)ε(α) in the thousands does not overflow (the value then tends to
    ε(α) + log(q)/(α − 1)).

    Parameters
    ----------
    alpha : float or array, α > 1
    rate : float or array, the sampling rate q (batch size over n) ∈ [0, 1]
    rdp : float, array or callable
        The RDP curve ε(α) ≥ 0 of the inner mechanism: values at the given orders, or a
        function of α (e.g. ``lambda a: rdp_gaussian(a, sigma)``).

    Returns
    -------
    float or ndarray
        ε'(α), the RDP curve of the subsampled mechanism.

    Raises
    ------
    ValueError
        If α ≤ 1, q ∉ [0, 1] or ε(α) < 0.

    Notes
    -----
    The seed states Claim 25 (used in the proof) for "nonnegative integers"
    p_i, q_i; the proof (Jensen) and the use in (9) need non-negative *reals*.
    The proof also overloads n for both the dataset size and |𝓘|.

    References
    ----------
    Seed 004, Claim 24 (S4-09) and Claim 25 (S4-10).

    Examples
    --------
    >>> round(rdp_subsampled(2.0, 0.1, 1.0), 10)  # log(1 + 0.1(e − 1))
    0.1585650787
    >>> round(float(rdp_subsampled(3.0, 0.01, 500.0)), 6)  # ε(α) + log(q)/(α−1)
    497.697415
    """
    alpha = check_order(alpha)
    r = check_probability(rate, "rate")
    rho = _rho_at(alpha, rdp)
    alpha, r, rho = np.broadcast_arrays(alpha, r, rho)
    x = (alpha - 1.0) * rho
    with np.errstate(divide="ignore", invalid="ignore"):
        log_term = np.log(r) + log_expm1(np.where(x > 0, x, 1.0))  # log(q(e^x − 1)), r holds q
        out = np.logaddexp(0.0, log_term) / (alpha - 1.0)
    out = np.where((x == 0) | (r == 0), 0.0, out)
    out = np.where(np.isinf(rho) & (r > 0), np.inf, out)
    return scalar_or_array(out)


@named_shapes
def rdp_subsampled_relaxed(alpha, rate, rdp):
    r"""The relaxation of Claim 24 via 1 + x ≤ e^x.

    .. math:: \varepsilon'(\alpha) \le \frac{q\,(e^{(\alpha-1)\varepsilon(\alpha)} - 1)}{\alpha-1}

    which is ≤ (e^c − 1)/c · qε(α) when (α − 1)ε(α) ≤ c, i.e. O(qε(α)) (seed 004, after
    Claim 24).  May be infinite when (α − 1)ε(α) > ~709 + log(1/q).

    Parameters
    ----------
    alpha : float or array, α > 1
    rate : float or array, the sampling rate q ∈ [0, 1]
    rdp : float, array or callable, the inner RDP curve ε(α) ≥ 0

    Raises
    ------
    ValueError
        If α ≤ 1, q ∉ [0, 1] or ε(α) < 0.

    References
    ----------
    Seed 004, Claim 24 and the remark after it (S4-09, S4-11).

    Examples
    --------
    >>> round(rdp_subsampled_relaxed(2.0, 0.1, 1.0), 10)  # q(e − 1), q = 0.1
    0.1718281828
    """
    alpha = check_order(alpha)
    r = check_probability(rate, "rate")
    rho = _rho_at(alpha, rdp)
    alpha, r, rho = np.broadcast_arrays(alpha, r, rho)
    x = (alpha - 1.0) * rho
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        out = np.exp(np.log(r) + log_expm1(np.where(x > 0, x, 1.0))) / (alpha - 1.0)
    out = np.where((x == 0) | (r == 0), 0.0, out)
    return scalar_or_array(out)


# ----------------------------------------------------------------------------
# Claim 26: the constant K(c1, c2)
# ----------------------------------------------------------------------------

def _log_moment_trapezoid(alpha, q, sigma, h=0.02):
    """log A_α(q, σ) for arrays (α/σ ≤ 2000, q < 1) by one trapezoidal sum over y = x/σ.

    A_α = E_Y[(1 + q(e^u − 1))^α], u = (2σY − 1)/(2σ²), Y ∼ N(0, 1). The log
    integrand −y²/2 + α log(1 + q(e^u − 1)) is analytic, concave near its peak
    (which lies in [0, α/σ]) with curvature of order one, so the sum on
    [−12, α/σ + 12] with spacing h = 0.02 agrees with :func:`_log_a` to ~1e-12
    (the tests check it). Rows are summed in chunks of bounded memory.
    """
    out = np.empty_like(alpha)
    order = np.argsort(alpha / sigma)
    start = 0
    while start < order.size:
        n_nodes = int(np.ceil((float(alpha[order[start]] / sigma[order[start]]) + 24.0) / h)) + 1
        stop = start + 1
        while stop < order.size and stop - start < 64:
            need = int(np.ceil((float(alpha[order[stop]] / sigma[order[stop]]) + 24.0) / h)) + 1
            if need * (stop - start + 1) > 4_000_000:
                break
            n_nodes, stop = need, stop + 1
        rows = order[start:stop]
        y = -12.0 + h * np.arange(n_nodes)
        sg, qq, al = sigma[rows, None], q[rows, None], alpha[rows, None]
        u = (2.0 * sg * y[None, :] - 1.0) / (2.0 * sg**2)
        with np.errstate(over="ignore", divide="ignore"):
            up = np.maximum(u, 0.0)
            log_ratio = np.where(u < 0.0, np.log1p(qq * np.expm1(np.minimum(u, 0.0))),
                                 up + np.log(qq + (1.0 - qq) * np.exp(-up)))
        out[rows] = logsumexp(-0.5 * y[None, :] ** 2 + al * log_ratio, axis=1) + np.log(h) - 0.5 * np.log(2.0 * np.pi)
        start = stop
    return out


def _claim26_log_moments(alpha, q, sigma):
    """log A_α(q, σ) of the sampled Gaussian for arrays; the plain Gaussian's α(α − 1)/(2σ²) once q ≥ 1."""
    alpha, q, sigma = (np.asarray(v, dtype=float) for v in (alpha, q, sigma))
    out = np.empty_like(alpha)
    plain = q >= 1.0
    out[plain] = alpha[plain] * (alpha[plain] - 1.0) / (2.0 * sigma[plain] ** 2)
    fast = ~plain & (alpha / sigma <= 2000.0)
    if np.any(fast):
        out[fast] = _log_moment_trapezoid(alpha[fast], q[fast], sigma[fast])
    for i in np.flatnonzero(~plain & ~fast):
        out[i] = _log_a(alpha[i:i + 1], float(q[i]), float(sigma[i]))[0]
    return out


# assumed error of the computed log A_α (relative, plus an absolute floor for log A near 0):
# the trapezoidal sum and _log_a agree with 30-digit mpmath to ~1e-12 (see the tests)
_LOG_A_RTOL, _LOG_A_ATOL = 1e-10, 1e-12


@named_shapes
def claim26_constant_bracket(c1, c2, *, rtol=1e-4, sigma_max=1e3, max_cells=20000):
    r"""A certified bracket [lower, upper] of K(c₁, c₂) = sup_σ G(σ), and the maximiser.

    .. math:: G(\sigma) = A_{c_2\sigma^2}\big(c_1/\sigma,\ \sigma\big),\qquad
              K(c_1, c_2) = \sup_{\sigma_0 \le \sigma \le \sigma_{\max}} G(\sigma),\quad
              \sigma_0 = \max\big(1, c_1, \sqrt{1.01/c_2}\big),

    where A_α(q, σ) = E_{P₀}[(P/P₀)^α] is the moment of the sampled Gaussian
    (P = qN(1, σ²) + (1 − q)N(0, σ²), P₀ = N(0, σ²)), i.e. exp((α − 1)ε(α)).

    **Certificate.** A_α(q, σ) is non-decreasing in α ≥ 1 (log A_α is convex in
    α and vanishes at α = 0 and 1), non-decreasing in q ∈ [0, 1] (A is convex
    in q with zero slope at q = 0) and non-increasing in σ (adding independent
    noise to both laws is post-processing). Hence on a cell σ ∈ [a, b]

    .. math:: G(\sigma) \le A_{c_2 b^2}\big(\min(1, c_1/a),\ a\big),

    and every evaluated G(σ) is a lower bound. Cells are bisected (geometrically)
    in order of their upper bound until upper ≤ (1 + rtol)·lower. The upper end
    is padded by the assumed error of log A (1e-10 relative). If ``max_cells``
    is reached first, the bracket returned is still valid, only wider, and a
    RuntimeWarning says so.

    **Beyond σ_max.** As σ → ∞, log G(σ) = c₁²c₂²/2 + c₁³c₂³/(2σ) + O(σ⁻²)
    (expand log(1 + q(e^u − 1)) with u = Y/σ − 1/(2σ²), Y ∼ N(0, 1)): G tends to
    e^{c₁²c₂²/2} from above and decreases, so for σ > σ_max it stays below
    G(σ_max) ≤ K. This tail argument is asymptotic, not certified; the tests
    check it at 10σ_max and 100σ_max against mpmath. G is not monotone on
    [σ₀, σ_max]: for (c₁, c₂) = (1, 2) it peaks at 34.18 near σ = 3.08, far above
    its limit e² = 7.39.

    Parameters
    ----------
    c1, c2 : float, c₁ ∈ (0, 10], c₂ ∈ (0, 10]
    rtol : float, in [1e-10, 0.1], the relative width asked for
    sigma_max : float, in [10σ₀, 1e6]
    max_cells : int, in [16, 10⁵], a bound on the work (cells evaluated)

    Returns
    -------
    (lower, upper, sigma) : floats
        lower ≤ K(c₁, c₂) ≤ upper, and the σ where the lower bound is attained.

    Raises
    ------
    ValueError
        If a parameter is outside its range.

    References
    ----------
    Abadi et al. (2016), "Deep learning with differential privacy" (Lemma 3);
    Mironov, Talwar & Zhang (2019), "Rényi differential privacy of the sampled
    Gaussian mechanism"; van Erven & Harremoës (2014) (monotonicity and data
    processing); the blog post "Great but Manageable Expectations", Claim 26
    and its "further questions" (S4-13).

    Examples
    --------
    >>> lo, hi, s = claim26_constant_bracket(1.0, 2.0)
    >>> round(lo, 2), round(s, 1), hi / lo - 1 <= 1e-4
    (34.18, 3.1, True)
    """
    import warnings

    c1 = float(check_interval(c1, "c1", 0.0, 10.0, closed_low=False))
    c2 = float(check_interval(c2, "c2", 1e-3, 10.0))  # below 10⁻³ the cells start beyond σ = 30
    rtol = float(check_interval(rtol, "rtol", 1e-10, 0.1))
    s0 = max(1.0, c1, float(np.sqrt(1.01 / c2)))
    sigma_max = float(check_interval(sigma_max, "sigma_max", 10.0 * s0, 1e6))
    max_cells = int(check_interval(max_cells, "max_cells", 16, 1e5))
    lower, upper, at, width = _claim26_bracket(c1, c2, rtol, sigma_max, max_cells)
    if width > rtol:
        warnings.warn(f"claim26_constant_bracket: max_cells = {max_cells} reached; the bracket is "
                      f"{width:.2e} wide (asked {rtol:.1e})", RuntimeWarning, stacklevel=2)
    return lower, upper, at


@functools.lru_cache(maxsize=256)
def _claim26_bracket(c1, c2, rtol, sigma_max, max_cells):
    """The bisection of :func:`claim26_constant_bracket` (cached: it returns floats only)."""
    import heapq

    s0 = max(1.0, c1, float(np.sqrt(1.01 / c2)))
    def log_g(sig):
        return _claim26_log_moments(c2 * sig * sig, c1 / sig, sig)

    def log_upper(lo, hi):
        v = _claim26_log_moments(c2 * hi * hi, np.minimum(1.0, c1 / lo), lo)
        return v + _LOG_A_RTOL * np.abs(v) + _LOG_A_ATOL

    edges = np.geomspace(s0, sigma_max, 65)
    values = log_g(edges)
    best, best_s = float(values.max()), float(edges[int(values.argmax())])
    uppers = log_upper(edges[:-1], edges[1:])
    heap = [(-float(u), float(a), float(b)) for u, a, b in zip(uppers, edges[:-1], edges[1:])]
    heapq.heapify(heap)
    cells = len(edges)
    target = float(np.log1p(rtol))
    while -heap[0][0] > best + target and cells < max_cells:
        batch = []  # split up to 32 of the cells whose upper bound is above the target, at once
        while heap and -heap[0][0] > best + target and len(batch) < 32:
            batch.append(heapq.heappop(heap))
        lo = np.array([c[1] for c in batch])
        hi = np.array([c[2] for c in batch])
        mid = np.sqrt(lo * hi)
        values = log_g(mid)
        if values.max() > best:
            best, best_s = float(values.max()), float(mid[int(values.argmax())])
        ups = log_upper(np.concatenate([lo, mid]), np.concatenate([mid, hi]))
        for u, a, b in zip(ups, np.concatenate([lo, mid]), np.concatenate([mid, hi])):
            heapq.heappush(heap, (-float(u), float(a), float(b)))
        cells += len(batch)
        if not heap:
            break
    upper = max(-heap[0][0] if heap else best, best)
    return float(np.exp(best)), float(np.exp(upper)), best_s, float(np.expm1(upper - best))


@named_shapes
def claim26_constant(c1, c2, *, rtol=1e-4, sigma_max=1e3):
    r"""The constant K(c₁, c₂) of Claim 26, as a certified upper bound of the supremum.

    .. math:: K(c_1, c_2) = \sup_{\sigma \ge \sigma_0} A_{c_2\sigma^2}\big(c_1/\sigma,\ \sigma\big),
              \quad \sigma_0 = \max\big(1, c_1, \sqrt{1.01/c_2}\big),

    with A_α(q, σ) = exp((α − 1)ε(α)) the moment of the sampled Gaussian. What
    the claim gives: the sampled Gaussian with rate q ≤ c₁/σ is
    (α, log K/(α − 1))-RDP at every order 1 < α ≤ c₂σ² (A_α grows with α and q).
    At the boundary q = c₁/σ, α = c₂σ² that is about
    (log K/(c₁²c₂²))·q²α/σ², the claimed O(q²α/σ²); at interior points K alone
    does not give that order (c₁ = c₂ = 1, σ = 10, q = 0.1, α = 2: log K = 0.587
    against q²α/σ² = 2·10⁻⁴).

    Returns the upper end of :func:`claim26_constant_bracket`: a value ≥ the
    supremum over [σ₀, σ_max], within a relative ``rtol`` of it (see there for the
    certificate and for σ > σ_max). K is not the limit e^{c₁²c₂²/2} of the moment
    as σ → ∞; it can be much larger (K(1, 2) = 34.18 against e² = 7.39).

    Parameters
    ----------
    c1, c2 : float, in (0, 10]
    rtol : float, in [1e-10, 0.1]
    sigma_max : float, in [10σ₀, 1e6]

    Returns
    -------
    float
        K(c₁, c₂) (≥ 1).

    Raises
    ------
    ValueError
        If a parameter is outside its range.

    References
    ----------
    Abadi et al. (2016), "Deep learning with differential privacy";
    Mironov, Talwar & Zhang (2019), "Rényi differential privacy of the sampled
    Gaussian mechanism"; the blog post "Great but Manageable Expectations",
    Claim 26 (S4-13).

    Examples
    --------
    >>> K = claim26_constant(0.5, 0.5)
    >>> float(np.exp(0.5**4 / 2)) < K < 1.04  # above its σ → ∞ limit exp(c₁²c₂²/2)
    True
    """
    return claim26_constant_bracket(c1, c2, rtol=rtol, sigma_max=sigma_max)[1]


@named_shapes
def claim26_seed_sum(c1, c2, n):
    r"""The sum in the seed's proof of Claim 26 (Part 2), for integer n = ⌈σ²⌉.

    .. math:: S_n(c_1, c_2) = \sum_{j=0}^{n}\binom{n}{j}\Big(\frac{c_1}{\sqrt n}\Big)^j
              \Big(1-\frac{c_1}{\sqrt n}\Big)^{n-j} e^{c_2 j(j-1)/(2n)}

    Computed in log space.  S_n ≥ 1 for every n (it is E[e^{c₂J(J−1)/(2n)}] for a
    binomial J), so the seed's conclusion lim S_n = 0 is false; in fact
    S_n → exp(c₁²c₂/2) (J/√n → c₁).  Here n is the seed's number of binomial
    trials, not a number of records.

    Parameters
    ----------
    c1, c2 : float, c₁ > 0, c₂ > 0
    n : int, n > c₁² (so that c₁/√n < 1)

    Raises
    ------
    ValueError
        If c₁ ≤ 0, c₂ ≤ 0 or n ≤ c₁².

    References
    ----------
    Seed 004, proof of Claim 26 (S4-13).

    Examples
    --------
    >>> s = claim26_seed_sum(1.0, 1.0, 10_000)
    >>> 1.0 < s < float(np.exp(0.5)) * 1.02
    True
    """
    c1 = float(check_positive(c1, "c1"))
    c2 = float(check_positive(c2, "c2"))
    n = int(check_count(n, "n", maximum=_MAX_SEED_SUM))
    if not n > c1 * c1:
        raise ValueError(f"n must be > c1² = {c1 * c1:g} (so that q = c1/√n < 1; got n = {n}, c1 = {c1:g})")
    r = c1 / np.sqrt(n)
    j = np.arange(n + 1, dtype=float)
    terms = (gammaln(n + 1.0) - gammaln(j + 1.0) - gammaln(n - j + 1.0)
             + j * np.log(r) + (n - j) * np.log1p(-r) + c2 * j * (j - 1.0) / (2.0 * n))
    return float(np.exp(logsumexp(terms)))


# ----------------------------------------------------------------------------
# Conjecture 1: a counterexample
# ----------------------------------------------------------------------------

@named_shapes
def conjecture1_counterexample():
    r"""A counterexample to the seed's Conjecture 1 (mixtures preserve divergence order).

    The conjecture: if D_α(P_i‖Q_i) ≤ D_α(P'_i‖Q'_i) for every i, then the
    same holds for the mixtures Σ w_i P_i, Σ w_i Q_i against Σ w_i P'_i, Σ w_i Q'_i.
    On two points, with the randomized-response laws Ber(p) = (p, 1 − p):

    .. math:: P_1=P_2=\mathrm{Ber}(\tfrac23),\ Q_1=Q_2=\mathrm{Ber}(\tfrac13);\qquad
              P'_1=\mathrm{Ber}(\tfrac34),\ Q'_1=\mathrm{Ber}(\tfrac14);\quad
              P'_2=\mathrm{Ber}(\tfrac14),\ Q'_2=\mathrm{Ber}(\tfrac34).

    For every α > 1, D_α(P_i‖Q_i) = D_α(Ber(⅔)‖Ber(⅓)) < D_α(Ber(¾)‖Ber(¼)) = D_α(P'_i‖Q'_i)
    (randomized response is symmetric and its divergence grows with the bias),
    yet the averages (w_i = ½) give D_α(Ber(⅔)‖Ber(⅓)) > 0 = D_α(½(P'_1+P'_2) ‖ ½(Q'_1+Q'_2)):
    swapping the roles in the second pair makes the two primed mixtures identical.
    At α = 2: log(3/2) > 0 while log(7/3) ≥ log(3/2) pairwise.

    What does hold for the sampled Gaussian is proved directly, not via
    Conjecture 1: for Poisson sampling the output laws on neighbouring
    datasets are N(m, σ²I) and (1 − q)N(m, σ²I) + qN(m + v, σ²I), ‖v‖ ≤ 1, and
    by translation/rotation invariance their divergence is that of the 1-D
    pair with mean shift ‖v‖ — increasing in ‖v‖ (equivalently decreasing in
    σ, which the tests check), so the worst case is ‖v‖ = 1: Part 1 of Claim
    26 (Mironov, Talwar & Zhang 2019, §3).

    Returns
    -------
    dict
        ``pairs``: [(P₁, Q₁, P'₁, Q'₁), (P₂, Q₂, P'₂, Q'₂)], each law a tuple of
        :class:`fractions.Fraction`; ``lam``: 2, the order α (the example works
        for every α > 1).

    References
    ----------
    Seed 004, Conjecture 1 (S4-12); Mironov, Talwar & Zhang (2019).

    Examples
    --------
    >>> ex = conjecture1_counterexample()
    >>> (p1, q1, m1, n1), (p2, q2, m2, n2) = ex["pairs"]
    >>> [(a + b) / 2 for a, b in zip(m1, m2)] == [(a + b) / 2 for a, b in zip(n1, n2)]
    True
    """
    F = Fraction
    P, Q = (F(2, 3), F(1, 3)), (F(1, 3), F(2, 3))
    M, N = (F(3, 4), F(1, 4)), (F(1, 4), F(3, 4))
    return {"pairs": [(P, Q, M, N), (P, Q, N, M)], "lam": 2}
