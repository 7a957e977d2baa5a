r"""The exact RDP of the Poisson-subsampled Gaussian mechanism, in both directions.

:func:`rdp_subsampled_gaussian` is the RDP of (1 − q)N(0, σ²) + qN(1, σ²)
against N(0, σ²) (Mironov, Talwar and Zhang 2019; source S4, Claim 27),
:func:`rdp_subsampled_gaussian_reverse` the reverse divergence and
:func:`log_moment_subsampled_gaussian` the moment log A_α behind the first.
They check their arguments, apply the limits outside the computed range
(σ outside [:data:`SIGMA_LOW`, :data:`SIGMA_HIGH`], α above
:data:`_ALPHA_HIGH`) and evaluate one (q, σ) pair at a time
(:func:`_broadcast_apply`); the moments themselves come from
:mod:`dpnotes.subsampling.moments`.
"""

import numpy as np

from .._validation import (
    broadcast,
    check_cost,
    check_interval,
    check_order,
    check_positive,
    check_probability,
    named_shapes,
    scalar_or_array,
)
from .moments import log_a_sampled_gaussian, log_b_node_bound, log_b_quadrature


# ----------------------------------------------------------------------------
# log A_α for the forward pair  (1 − q)N(0,σ²) + qN(1,σ²)  ‖  N(0,σ²)
# ----------------------------------------------------------------------------

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
    sigma = float(check_interval(sigma, "sigma", SIGMA_LOW, SIGMA_HIGH))
    if alpha.ndim != 1:
        raise ValueError(f"alpha must be a number or a 1-D array (got shape {alpha.shape})")
    return log_a_sampled_gaussian(alpha, q, sigma)


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
    return log_a_sampled_gaussian(alpha, q, sigma) / (alpha - 1.0)


#: outside [SIGMA_LOW, SIGMA_HIGH] the RDP of the subsampled Gaussian is given by its limits
SIGMA_LOW, SIGMA_HIGH = 1e-100, 1e150
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

    *Integer α* — source S4, Claim 27 and (9.5), rewritten with
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
    Source S4, Claim 27 and (9.5) (S4-14), Example 4 (S4-11); Mironov, Talwar &
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
    out = np.asarray(_broadcast_apply(_rdp_forward, inner, q, np.clip(sigma, SIGMA_LOW, SIGMA_HIGH)), dtype=float)
    high, low = sigma > SIGMA_HIGH, (sigma < SIGMA_LOW) | huge
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

#: trapezoid entries (orders × nodes) of one block of the reverse direction's quadrature (16 MB a table)
_REVERSE_BLOCK_ENTRIES = 2**21
#: CPU seconds of the reverse direction per trapezoid entry and per order (its three bisections), measured on a
#: 2-core machine at load average 9 (2e-8 to 9e-8 an entry with about 3e-5 an order) and rounded up
REVERSE_SECONDS_PER_ENTRY, REVERSE_SECONDS_PER_ORDER = 6e-8, 5e-5


def _rdp_reverse(alpha, q, sigma):
    if q == 0.0:
        return np.zeros_like(alpha)
    if q == 1.0:
        return alpha / (2.0 * sigma ** 2)
    # orders in increasing blocks of bounded size: the rule's table is (orders of a block) × (nodes), the step set
    # by the block's largest order (the node bound grows with α, so a block's bound is that of its last order)
    order = np.argsort(alpha, kind="stable")
    bound = log_b_node_bound(alpha[order], sigma)
    out = np.empty(alpha.shape)
    start = 0
    while start < order.size:
        most = max(int(_REVERSE_BLOCK_ENTRIES // bound[start]), 1)
        sizes = np.arange(1, min(most, order.size - start) + 1) * bound[start:start + most]
        stop = start + max(int(np.searchsorted(sizes, _REVERSE_BLOCK_ENTRIES, side="right")), 1)
        idx = order[start:stop]
        out[idx] = log_b_quadrature(alpha[idx], q, sigma) / (alpha[idx] - 1.0)
        start = stop
    return out


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
    Mironov, Talwar & Zhang (2019), §3; source S4, Claim 26 (Part 1).

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
    in_range = (sigma >= SIGMA_LOW) & (sigma <= SIGMA_HIGH)
    inside = (q > 0) & (q < 1) & in_range  # where the quadrature runs
    entries = float(np.sum(log_b_node_bound(alpha[inside], sigma[inside], q[inside]))) if np.any(inside) else 0.0
    check_cost(f"rdp_subsampled_gaussian_reverse on {alpha.size} (alpha, q, sigma) triples (about {entries:.3g} "
               f"quadrature nodes)", "pass fewer orders, or a larger sigma",
               seconds=REVERSE_SECONDS_PER_ENTRY * entries + REVERSE_SECONDS_PER_ORDER * np.count_nonzero(inside),
               nbytes=48.0 * alpha.size + 48.0 * _REVERSE_BLOCK_ENTRIES)
    # σ outside [SIGMA_LOW, SIGMA_HIGH] takes its limit below: no quadrature there (σ = 1 stands in, and is replaced)
    out = np.asarray(_broadcast_apply(_rdp_reverse, alpha, q, np.where(in_range, sigma, 1.0)), dtype=float)
    # σ → ∞: the same first order αq²/(2σ²) as the forward direction; σ → 0: −log(1 − q), the weight of the
    # mixture's component at 0 (the other is e^{−1/(8σ²)} away)
    with np.errstate(divide="ignore"):
        out = np.where(sigma > SIGMA_HIGH, alpha * q * q / 2 * np.reciprocal(sigma) ** 2, out)
        low = np.where(q == 1.0, alpha / 2.0 * np.reciprocal(sigma) ** 2, -np.log1p(-q))  # q = 1: N(0,σ²)‖N(1,σ²)
    if not np.all(np.isfinite(low[sigma < SIGMA_LOW])):
        raise ValueError(f"sigma = {np.min(sigma):g} with q = 1 gives α/(2σ²) beyond the floating-point range")
    out = np.where(sigma < SIGMA_LOW, low, out)
    return scalar_or_array(out)
