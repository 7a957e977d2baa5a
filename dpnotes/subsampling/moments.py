r"""The moments of the Poisson-subsampled Gaussian, numerically: log A_α and log B_α.

For the pair (1 − q)N(0, σ²) + qN(1, σ²) against N(0, σ²) (the forward
direction) the RDP is log A_α/(α − 1) with
A_α = E_{z∼N(0,σ²)}[(1 − q + q e^{(2z−1)/(2σ²)})^α]; the reverse direction
needs B_α, the same expectation with exponent 1 − α. This module computes
both in log space, always through A_α − 1 (B_α − 1) written as a sum or
integral of non-negative terms:

* :func:`log_a_sampled_gaussian`: integer α by the binomial sum of Claim 27
  (:func:`_log_am1_int`), fractional α by the trapezoidal rule
  (:func:`_log_a_quad`) on the (at most two) windows found by
  :func:`_windows_forward`;
* :func:`log_b_quadrature`: log B_α by the trapezoidal rule on one window.

The elementary helpers (the log-likelihood ratio :func:`_ell`, the step
:func:`_spacing`, vectorised bisection :func:`_bisect`, the rule
:func:`_trapezoid_log` and :func:`_node_count`) and the window constants
(:data:`_T`, :data:`SMALL_LOG`, :data:`_T_SMALL`) are here too. The public
functions and their argument checks are in
:mod:`dpnotes.subsampling.sampled_gaussian`.
"""

import numpy as np
from scipy.special import expit, gammaln

from .._logspace import log_expm1, log_phi, log_psi
from ..privacy_loss.mixture import mixture_privacy_loss_unchecked


_LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)
# Integer orders up to this value use the exact binomial sum (Claim 27).
_MAX_BINOMIAL = 200_000
# Trapezoid windows keep every z where the log-integrand is within _T of its max.
_T = 60.0
# Small regime (A − 1 < e^{SMALL_LOG} − 1): integrate A − 1 over a wide window.
SMALL_LOG = 1e-3
_T_SMALL = 95.0
# Orders whose whole window [−σ√(2_T), α + σ√(2_T)] needs at most this many nodes skip the window search.
_MAX_WIDE_NODES = 4096


# ----------------------------------------------------------------------------
# Elementary log-space helpers
# ----------------------------------------------------------------------------

def _ell(z, q, t):
    """ℓ(z) = log(1 − q + q e^{L}), L = (z − ½)/σ² (t = 1/σ²): the log-likelihood ratio of the mixture."""
    return mixture_privacy_loss_unchecked((z - 0.5) * t, q)


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
    vals = vals + logw[None, :]
    # log Σ e^v by the row maximum (scipy's logsumexp costs more than the rule itself at these sizes)
    peak = np.max(vals, axis=1)
    shift = np.where(np.isfinite(peak), peak, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(vals - shift[:, None]), axis=1)) + shift + np.log(h)


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

    out = np.empty_like(alpha)
    B = sigma * np.sqrt(2.0 * _T)
    # [−B, α + B] holds every z with h(z) ≥ max h − _T (h rises on z < 0 at least as −z²/(2σ²) falls, and
    # falls on z > α at least as fast): where that window needs few nodes, no window search is needed
    wide = (alpha + 2.0 * B) / d <= _MAX_WIDE_NODES
    if np.any(wide):
        a = alpha[wide]
        lo, hi = np.full(a.shape, -B), a + B
        out[wide] = _trapezoid_log(lambda z: log_f(z, a), lo, hi, _node_count(hi - lo, d))
    if not np.all(wide):
        narrow = np.flatnonzero(~wide)
        out[narrow] = _log_a_quad_windows(alpha[narrow], q, t, sigma, d, log_f)
    small = out < SMALL_LOG
    if np.any(small):
        out[small] = log_a_small_quadrature(alpha[small], q, sigma)
    return out


def log_a_small_quadrature(alpha, q, sigma):
    """log A_α = log(1 + (A_α − 1)) with A_α − 1 the trapezoidal integral of the non-negative g (any α > 1);
    what :func:`_log_a_quad` uses where A_α − 1 < e^{SMALL_LOG} − 1."""
    t = 1.0 / sigma ** 2
    d = _spacing(sigma)
    norm = -np.log(sigma) - _LOG_SQRT_2PI
    beta = alpha - 1.0
    B = sigma * np.sqrt(2.0 * _T_SMALL)

    def log_g(z):
        ell = _ell(z, q, t)
        with np.errstate(divide="ignore"):
            lg = np.logaddexp(np.log(beta)[:, None] + log_phi(ell),
                              ell + log_psi(beta[:, None] * ell))
        return -0.5 * t * z * z + norm + lg

    lo, hi = np.full(alpha.shape, -B), alpha + 1.0 + B
    log_am1 = _trapezoid_log(log_g, lo, hi, _node_count(hi - lo, 0.7 * d))
    return np.logaddexp(0.0, log_am1)


def _log_a_quad_windows(alpha, q, t, sigma, d, log_f):
    """log A_α by the trapezoidal rule on the (at most two) windows of :func:`_windows_forward`."""
    (lo1, hi1), (lo2, hi2, two) = _windows_forward(alpha, q, t, sigma, _T)
    out = _trapezoid_log(lambda z: log_f(z, alpha), lo1, hi1, _node_count(hi1 - lo1, d))
    if np.any(two):
        sel = np.flatnonzero(two)
        extra = _trapezoid_log(lambda z: log_f(z, alpha[sel]), lo2[sel], hi2[sel],
                               _node_count(hi2[sel] - lo2[sel], d))
        out[sel] = np.logaddexp(out[sel], extra)
    return out


def log_a_shared_grid(q, sigma, alpha_max, max_nodes=20_000):
    """α ↦ log A_α for fractional orders 1 < α ≤ ``alpha_max``, by the trapezoidal rule on one grid of z
    shared by every order and every call (None when that grid would need more than ``max_nodes`` nodes).

    The grid [−σ√(2·_T_SMALL), α_max + 1 + σ√(2·_T_SMALL)] with step ≤ 0.7·:func:`_spacing` contains the
    window and is at least as fine as the step that :func:`_log_a_quad` uses for each α ≤ α_max, in both of
    its passes (the plain integrand, and the non-negative one for A_α − 1 when that is below
    e^{SMALL_LOG} − 1), so it gives the same values to rounding; what is shared (ℓ(z), the Gaussian
    factor, log φ(ℓ)) is computed once, which makes a call a few numpy operations. The returned
    function takes ``small_log`` (default SMALL_LOG): below SMALL_LOG it keeps the plain integrand down
    to log A_α = small_log, accurate there to a few units of 10⁻¹⁵ absolute (≈ 3·10⁻¹⁵/small_log
    relative): enough to locate a minimum, not for a result.
    """
    t = 1.0 / sigma ** 2
    B = sigma * np.sqrt(2.0 * _T_SMALL)
    n = int(np.ceil((alpha_max + 1.0 + 2.0 * B) / (0.7 * _spacing(sigma)))) + 1
    if n > max_nodes:
        return None
    z = np.linspace(-B, alpha_max + 1.0 + B, max(n, 3))
    logw = np.zeros(z.size)
    logw[[0, -1]] = np.log(0.5)
    base = -0.5 * t * z * z - np.log(sigma) - _LOG_SQRT_2PI + np.log(z[1] - z[0]) + logw
    ell = _ell(z, q, t)
    with np.errstate(divide="ignore"):
        log_phi_ell = log_phi(ell)

    def log_sum(v):
        peak = np.max(v, axis=1)
        return np.log(np.sum(np.exp(v - peak[:, None]), axis=1)) + peak

    def log_a(alpha, small_log=SMALL_LOG):
        out = log_sum(base + alpha[:, None] * ell)
        small = out < small_log
        if np.any(small):
            beta = alpha[small] - 1.0
            with np.errstate(divide="ignore"):
                lg = np.logaddexp(np.log(beta)[:, None] + log_phi_ell, ell + log_psi(beta[:, None] * ell))
            out[small] = np.logaddexp(0.0, log_sum(base + lg))
        return out
    return log_a


def log_a_sampled_gaussian(alpha, q, sigma):
    """log A_α for a 1-D array of orders α > 1 and scalars 0 < q < 1, σ > 0."""
    alpha = np.asarray(alpha, dtype=float)
    out = np.empty_like(alpha)
    is_int = (alpha == np.round(alpha)) & (alpha <= _MAX_BINOMIAL)
    if np.any(is_int):
        out[is_int] = np.logaddexp(0.0, _log_am1_int(alpha[is_int], q, 1.0 / sigma ** 2))
    if np.any(~is_int):
        out[~is_int] = _log_a_quad(alpha[~is_int], q, sigma)
    return out


# ----------------------------------------------------------------------------
# Reverse direction  N(0,σ²) ‖ (1 − q)N(0,σ²) + qN(1,σ²)
# ----------------------------------------------------------------------------

def log_b_node_bound(alpha, sigma, q=None):
    """An upper bound on the trapezoid nodes :func:`log_b_quadrature` puts on each order α (elementwise,
    for σ inside the quadrature's range): the main window of width ≤ 2σ√(2·60) at the step d(α, σ), and,
    where log B_α may fall below 10⁻³, the small-value window (≤ α + 1 + 2σ√(2·95) wide, at step 0.7·d);
    each at most the rule's cap. With ``q`` the small window is counted only where the second-order term
    α(α − 1)q²(e^{1/σ²} − 1)/2 of log B_α is below 10⁻² (ten times the threshold); without, everywhere.
    For the cost model of the reverse direction."""
    alpha, sigma = np.broadcast_arrays(np.asarray(alpha, dtype=float), np.asarray(sigma, dtype=float))
    spacing = np.where(0.662 * sigma >= 2.02, 0.662 * sigma, 1.98 / (0.49 + 45.0 / (np.pi ** 2 * sigma ** 2)))
    with np.errstate(over="ignore"):
        d = np.minimum(spacing, 0.6 * sigma / np.sqrt(1.0 + (alpha - 1.0) / (4.0 * sigma * sigma)))
        main = np.minimum(2.0 * sigma * np.sqrt(2.0 * _T) / d + 2.0, 200_000)
        small = np.minimum((alpha + 1.0 + 2.0 * sigma * np.sqrt(2.0 * _T_SMALL)) / (0.7 * d) + 2.0, 200_000)
    if q is not None:
        with np.errstate(over="ignore"):
            second = 0.5 * alpha * (alpha - 1.0) * np.asarray(q, dtype=float) ** 2 * np.expm1(1.0 / (sigma * sigma))
        small = np.where(second < 1e-2, small, 0.0)
    return main + small


def log_b_quadrature(alpha, q, sigma):
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
    small = out < SMALL_LOG
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
