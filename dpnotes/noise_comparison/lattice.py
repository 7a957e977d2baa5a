r"""A law that beats the Gaussian's KL divergence: a discrete Gaussian on ℤ smoothed by a little Gaussian noise.

:func:`smoothed_lattice_variance` is its variance and
:func:`kl_smoothed_lattice_shift` its KL(P + Δ ‖ P); for a unit shift the KL
is below the Gaussian's 1/(2v) at the same variance
(:func:`_check_smoothed_lattice` checks the parameters and builds the lattice
weights).
"""

import numpy as np
from scipy import special

from .._validation import MAX_SECONDS, check_cost, check_positive, named_shapes

#: CPU seconds per (point, lattice point) term of the log-density sums (measured on a loaded 2-core machine:
#: 5.3e8 terms in 10.4 s; rounded up)
SECONDS_PER_TERM = 2.5e-8


def _check_smoothed_lattice(tau, smoothing):
    tau = float(check_positive(tau, "tau"))
    smoothing = float(check_positive(smoothing, "smoothing"))
    if not 0.05 <= tau <= 20.0:
        raise ValueError(f"tau must be in [0.05, 20] (got {tau})")
    if not 0.01 <= smoothing <= 20.0:
        raise ValueError(f"smoothing must be in [0.01, 20] (got {smoothing})")
    # lattice points carrying mass above e^{−200} of the peak
    k = np.arange(-int(np.ceil(20.0 * tau + 1.0)), int(np.ceil(20.0 * tau + 1.0)) + 1, dtype=float)
    logw = -k * k / (2.0 * tau * tau)
    return tau, smoothing, k, logw - special.logsumexp(logw)


@named_shapes
def smoothed_lattice_variance(tau, smoothing):
    r"""Variance of the discrete Gaussian on ℤ (parameter τ) plus independent N(0, s²) noise.

    .. math:: v = \sum_{k\in\mathbb Z} k^2 w_k + s^2, \qquad w_k \propto e^{-k^2/(2\tau^2)}.

    Parameters
    ----------
    tau : float, τ ∈ [0.05, 20]
    smoothing : float, s ∈ [0.01, 20]

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If τ or s is outside its range.

    References
    ----------
    Canonne, Kamath & Steinke (2020), "The discrete Gaussian for differential privacy".

    Examples
    --------
    >>> round(smoothed_lattice_variance(0.5, 0.1), 5)
    0.22501
    """
    _, smoothing, k, logw = _check_smoothed_lattice(tau, smoothing)
    return float(np.sum(np.exp(logw) * k * k) + smoothing * smoothing)


@named_shapes
def kl_smoothed_lattice_shift(tau, smoothing, shift=1.0):
    r"""KL(P + Δ ‖ P) for P = discrete Gaussian on ℤ (τ) convolved with N(0, s²).

    .. math:: \mathrm{KL}(P+\Delta\,\|\,P) = \int f(x-\Delta)\log\frac{f(x-\Delta)}{f(x)}\,dx,
              \qquad f(x) = \sum_{k\in\mathbb Z} w_k\,\varphi_s(x - k).

    For a unit shift the lattice part moves onto itself, so P + 1 and P differ
    only through the tilt of the weights: KL is close to 1/(2τ²), whatever s,
    while the variance v is below τ² + s². With τ = 0.5 and s = 0.1, v ≈ 0.22501
    and KL ≈ 1.99999 < 1/(2v) ≈ 2.2221, the Gaussian's value at the same
    variance: the Gaussian does **not** minimise the KL divergence of a unit
    shift among all laws of a given variance. It does as Δ → 0, where
    KL = Δ²I(P)/2 + o(Δ²) and the Fisher information satisfies I(P) ≥ 1/v
    (Cramér–Rao), with equality only for the Gaussian.

    The density is a mixture of narrow Gaussians, evaluated in log space; the
    integral is a trapezoidal sum with spacing s/24 on a window holding all but
    e^{−200} of the mass (the integrand is analytic, so the sum converges
    geometrically in the spacing).

    Parameters
    ----------
    tau : float, τ ∈ [0.05, 20]
    smoothing : float, s ∈ [0.01, 20]
    shift : float, Δ ∈ (0, 10]

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If τ, s or Δ is outside its range, or, before any work, if the sum would take more than
        the package's time limit (10 s) by its cost model (2·(number of lattice points)·(number
        of abscissae) terms at ``SECONDS_PER_TERM`` = 2.5e-8 s each): small s at large τ; the
        message gives the smallest s that fits at that τ.

    References
    ----------
    Cover & Thomas (2006), *Elements of Information Theory*, §11.10 (Fisher
    information and the Cramér–Rao inequality); Canonne, Kamath & Steinke
    (2020), "The discrete Gaussian for differential privacy".

    Examples
    --------
    >>> kl = kl_smoothed_lattice_shift(0.5, 0.1)
    >>> kl < 1 / (2 * smoothed_lattice_variance(0.5, 0.1))  # below the Gaussian's KL
    True
    """
    tau, s, k, logw = _check_smoothed_lattice(tau, smoothing)
    shift = float(check_positive(shift, "shift"))
    if shift > 10.0:
        raise ValueError(f"shift must be in (0, 10] (got {shift})")
    h = s / 24.0
    lo, hi = k[0] - 21.0 * s, k[-1] + 21.0 * s + shift
    # cost model: two log-densities, each a sum over k.size lattice points at every one of (hi − lo)/h points
    span = k[-1] - k[0] + shift
    terms = 2.0 * k.size * ((hi - lo) / h + 1.0)
    if terms * SECONDS_PER_TERM > MAX_SECONDS:
        per_s = 2.0 * k.size * 24.0 * SECONDS_PER_TERM  # seconds ≈ per_s·(span + 42 s)/s
        room = MAX_SECONDS - per_s * 42.0
        need = f"smoothing ≥ {per_s * span / room:.3g}" if room > 0 else "a smaller tau"
        check_cost(f"kl_smoothed_lattice_shift(tau = {tau:g}, smoothing = {s:g}, shift = {shift:g}): "
                   f"{terms:.3g} log-density terms", f"smoothing must be in [0.01, 20] and, at tau = {tau:g}, large "
                   f"enough for the time limit (got {s:g}): use {need} or a smaller tau",
                   seconds=terms * SECONDS_PER_TERM)
    x = np.linspace(lo, hi, int(np.ceil((hi - lo) / h)) + 1)
    step = x[1] - x[0]

    def log_f(y):
        out = np.empty(y.size)
        rows = max(1, 2**22 // k.size)  # in blocks of about 32 MB: memory bounded for every τ and s
        for start in range(0, y.size, rows):
            z = (y[start:start + rows, None] - k[None, :]) / s
            out[start:start + rows] = special.logsumexp(logw[None, :] - 0.5 * z * z, axis=1)
        return out - np.log(s * np.sqrt(2.0 * np.pi))

    lp, lq = log_f(x - shift), log_f(x)
    return float(np.sum(np.exp(lp) * (lp - lq)) * step)
