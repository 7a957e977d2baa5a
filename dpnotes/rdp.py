"""Rényi differential privacy of the basic mechanisms, in closed form.

Every function broadcasts over numpy arrays and accepts the limits α = 1
(Kullback–Leibler divergence) and, where finite, α = ∞ (max divergence).
"""

import numpy as np

from ._logspace import log_psi
from ._validation import (
    check_interval,
    check_nonnegative,
    check_order,
    check_positive,
    named_shapes,
    scalar_or_array,
)

__all__ = ["rdp_gaussian", "rdp_laplace", "rdp_randomized_response"]

# Below this value of (α − 1)·(log-ratio range) the two-point formulas switch
# from logaddexp to log1p/expm1, which keeps full precision as α → 1.
_SMALL = 0.5


@named_shapes
def rdp_gaussian(alpha, sigma, sensitivity=1.0):
    r"""Rényi divergence of the Gaussian mechanism.

    .. math:: D_\alpha(\mathcal N(\Delta, \sigma^2) \,\|\, \mathcal N(0, \sigma^2))
              = \frac{\alpha \Delta^2}{2\sigma^2}

    At α = 1 this is the KL divergence Δ²/(2σ²); at α = ∞ it is infinite
    (the privacy loss of the Gaussian mechanism is unbounded).

    Parameters
    ----------
    alpha : float or array, α ∈ [1, ∞]
    sigma : float or array, σ > 0 (noise standard deviation)
    sensitivity : float or array, Δ ≥ 0 (ℓ2 sensitivity, the distance of the means)

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If α < 1, σ ≤ 0 or Δ < 0.

    References
    ----------
    Source S2, RDP property 4; source S4, Example 1; Mironov (2017), Prop. 7.

    Examples
    --------
    >>> rdp_gaussian(2.0, 1.0)
    1.0
    >>> rdp_gaussian([1.0, 10.0], 2.0, sensitivity=2.0)
    array([0.5, 5. ])
    """
    alpha = check_order(alpha, allow_one=True, allow_inf=True)
    sigma = check_positive(sigma, "sigma")
    delta_ = check_nonnegative(sensitivity, "sensitivity")
    with np.errstate(invalid="ignore"):
        out = alpha * (delta_ / sigma) ** 2 / 2.0  # the ratio first: Δ² and σ² alone may underflow to 0
    # α = ∞ is ∞ for every Δ > 0, also where (Δ/σ)² underflows to 0 (Δ/σ < 1e-162: ∞·0 was NaN); with Δ = 0 it is 0
    # (identical distributions)
    out = np.where(np.isinf(alpha) & (delta_ > 0), np.inf, out)
    out = np.where(delta_ == 0, 0.0, out)
    return scalar_or_array(out)


@named_shapes
def rdp_laplace(alpha, scale, sensitivity=1.0):
    r"""Rényi divergence of the Laplace mechanism with scale b and shift Δ.

    For 1 < α < ∞ (Mironov 2017, Table II):

    .. math:: D_\alpha = \frac{1}{\alpha-1}\log\Big(\frac{\alpha}{2\alpha-1}e^{(\alpha-1)\Delta/b}
              + \frac{\alpha-1}{2\alpha-1}e^{-\alpha\Delta/b}\Big),

    with limits D_1 = Δ/b + e^{−Δ/b} − 1 (KL) and D_∞ = Δ/b (pure (Δ/b)-DP).

    Parameters
    ----------
    alpha : float or array, α ∈ [1, ∞]
    scale : float or array, b > 0
    sensitivity : float or array, Δ ≥ 0 (ℓ1 sensitivity)

    Raises
    ------
    ValueError
        If α < 1, b ≤ 0 or Δ < 0.

    References
    ----------
    Mironov (2017), "Rényi differential privacy", Table II; source S1 (Laplace noise).

    Examples
    --------
    >>> round(rdp_laplace(2.0, 1.0), 8)  # log(2/3·e + 1/3·e^{-2})
    0.61912363
    >>> float(rdp_laplace(np.inf, 0.5))
    2.0
    """
    alpha = check_order(alpha, allow_one=True, allow_inf=True)
    b = check_positive(scale, "scale")
    t = check_nonnegative(sensitivity, "sensitivity") / b
    alpha, t = np.broadcast_arrays(alpha, t)
    finite = np.isfinite(alpha)
    u = np.where(finite, alpha - 1.0, 1.0)
    safe_u = np.where(u > 0, u, 1.0)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        # mixture weights α/(2α−1) and (α−1)/(2α−1), exponents (α−1)t and −αt (t = Δ/b); the factor e^{(α−1)t}
        # taken out, log(mixture)/(α−1) = t + log(α/(2α−1) + (α−1)/(2α−1)·e^{−(2α−1)t})/(α−1): nothing overflows
        # up to α = 1.8e308 (log(2α−1) = log 2 + log(α − ½) for α > 2, where 2α − 1 may overflow)
        log_2u1 = np.where(u > 1.0, np.log(2.0) + np.log(u + 0.5), np.log1p(2.0 * np.minimum(u, 1.0)))
        log_rest = np.logaddexp(np.log1p(u) - log_2u1, np.log(u) - log_2u1 - (t + 2.0 * (u * t)))
        val = np.where(u * t > _SMALL, t + log_rest / safe_u, _laplace_small_u(u, t))
    out = np.where(finite, val, t)
    return scalar_or_array(out)


def _laplace_small_u(u, t):
    """(1/u)·log(mixture) for the Laplace formula, stable as u = α − 1 → 0 and as t → 0."""
    safe_u = np.where(u > 0, u, 1.0)
    # inner − 1 = u·g, g = [(1+u)·f(ut)/u + f(−(1+u)t)] / (1+2u) with f(x) = eˣ − 1 − x ≥ 0:
    # the O(t) terms cancel exactly, so g is a sum of non-negative terms (no cancellation);
    # g → t + e^{−t} − 1 as u → 0.
    first = np.where(u > 0, np.exp(log_psi(u * t)) / safe_u, 0.0)
    g = ((1.0 + u) * first + np.exp(log_psi(-(1.0 + u) * t))) / (1.0 + 2.0 * u)
    return np.where(u > 0, np.log1p(u * g) / safe_u, g)


@named_shapes
def rdp_randomized_response(alpha, p):
    r"""Rényi divergence of binary randomized response.

    The true bit is reported with probability p, so the output laws on two
    neighbouring inputs are P = (p, 1 − p) and Q = (1 − p, p). With
    ℓ = log(p/(1 − p)), for 1 < α < ∞:

    .. math:: D_\alpha(P\|Q) = \frac{1}{\alpha-1}\log\big(p\,e^{(\alpha-1)\ell}
              + (1-p)\,e^{-(\alpha-1)\ell}\big),

    with limits D_1 = (2p − 1)ℓ (KL) and D_∞ = |ℓ| (pure |ℓ|-DP). The value is
    symmetric under p ↦ 1 − p.

    Parameters
    ----------
    alpha : float or array, α ∈ [1, ∞]
    p : float or array, p ∈ (0, 1)

    Raises
    ------
    ValueError
        If α < 1 or p ∉ (0, 1).

    References
    ----------
    Mironov (2017), Table II; Warner (1965) for the mechanism.

    Examples
    --------
    >>> round(rdp_randomized_response(1.0, 0.75), 12)  # (2p−1)·log 3
    0.549306144334
    >>> round(rdp_randomized_response(np.inf, 0.75), 12)
    1.098612288668
    """
    alpha = check_order(alpha, allow_one=True, allow_inf=True)
    p = check_interval(p, "p", 0, 1, closed_low=False, closed_high=False)
    # By symmetry work with the smaller probability m = min(p, 1 − p), kept exact: p̄ = 1 − m
    # rounds to 1 for m < 1e-17, so every logarithm is taken of m, never of 1 − p̄.
    alpha, m = np.broadcast_arrays(alpha, np.minimum(p, 1.0 - p))
    log_m, log_pbar = np.log(m), np.log1p(-m)
    ell = log_pbar - log_m
    finite = np.isfinite(alpha)
    u = np.where(finite, alpha - 1.0, 1.0)
    safe_u = np.where(u > 0, u, 1.0)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        big = u * ell > _SMALL
        direct = np.logaddexp(log_pbar + u * ell, log_m - u * ell)
        near = np.log1p((1.0 - m) * np.expm1(u * ell) + m * np.expm1(-u * ell))
        log_mix = np.where(big, direct, near)
        kl = (1.0 - 2.0 * m) * ell
        val = np.where(u > 0, log_mix / safe_u, kl)
    out = np.where(finite, val, ell)
    return scalar_or_array(out)
