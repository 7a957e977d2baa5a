r"""Discrete noise on ℤ: the discrete Gaussian and the discrete Laplace, one noise or a sum of m.

:func:`rdp_discrete_shift` is D_α(P + Δ ‖ P) for one noise, by a truncated sum
with a certified tail; :func:`discrete_shift_table` shows that the proposed
D_α(P + Δ‖P) ≤ Δ·D_α(P + 1‖P) fails for one noise at every finite order.
:func:`rdp_discrete_convolution_shift` is the divergence of the sum of m
noises shifted by Δ, for which the inequality holds when Δ ≤ m (its m-fold
convolution in log space is :func:`_log_convolve`). The summation windows are
bounded by :data:`_MAX_WORK` (:func:`_check_window`).
"""

import math
from functools import lru_cache

import numpy as np
from scipy.special import logsumexp

from .._validation import check_cost, check_count, check_order, check_positive, check_work, named_shapes, scalar_or_array
from .continuous import check_noise, renyi_divergence_from_nodes


_MAX_WORK = 1e8  # the most points (or point operations) one call may sum over


# ---------------------------------------------------------------- discrete noise


def _discrete_unnormalised_log(k, noise, scale):
    if noise == "gaussian":
        return -(k**2) / (2.0 * scale**2)
    return -np.abs(k) / scale


@lru_cache(maxsize=4096)
def _discrete_shift_scalar(alpha, shift, noise, scale):
    if shift == 0:
        return 0.0
    if np.isinf(alpha):
        if noise == "laplace":
            return shift / scale
        return np.inf
    # truncation: the summand decays like e^{−k²/(2σ²)} or e^{−|k|/b} beyond the
    # window; a margin of 13σ (e^{−84}) or 85b (e^{−85}) leaves a relative tail < 1e-35
    margin = int(np.ceil(13.0 * scale + 2.0)) if noise == "gaussian" else int(np.ceil(85.0 * scale + 2.0))
    centre = alpha * shift if noise == "gaussian" else 0.0
    lo = int(np.floor(min(-margin, centre - margin)))
    hi = int(np.ceil(max(shift + margin, centre + margin)))
    k = np.arange(lo, hi + 1, dtype=float)
    u = _discrete_unnormalised_log(k, noise, scale)
    logz = logsumexp(_discrete_unnormalised_log(np.arange(-margin, margin + 1, dtype=float), noise, scale))
    L = _discrete_unnormalised_log(k - shift, noise, scale) - u
    return renyi_divergence_from_nodes(u - logz, L, alpha)


def _check_window(alpha, shift, scale, shift_name="shift"):
    """Refuse a summation window (about α·Δ + Δ + 170 b points, see :func:`_discrete_shift_scalar`) that is too long."""
    a = np.where(np.isfinite(alpha), alpha, 1.0)
    b = float(np.max(check_positive(scale, "scale")))
    points = float(np.max(a * shift + shift)) + 170.0 * b + 30.0
    check_work(points, _MAX_WORK, f"the summation window of this alpha, {shift_name} and scale",
               f"use a smaller alpha, {shift_name} or scale")


@named_shapes
def rdp_discrete_shift(alpha, shift, noise="gaussian", scale=1.0):
    r"""D_α(P + Δ ‖ P) for discrete Gaussian or discrete Laplace noise P on ℤ.

    P has mass P(x) ∝ e^{−x²/(2σ²)} (discrete Gaussian, scale σ) or ∝ e^{−|x|/b}
    (discrete Laplace, scale b) at x ∈ ℤ, and Δ is a non-negative integer:

    .. math:: D_\alpha(P+\Delta\,\|\,P) = \frac{1}{\alpha-1}
              \log\sum_{x\in\mathbb Z} P(x-\Delta)^\alpha P(x)^{1-\alpha}.

    The series is truncated where its terms fall below e^{−84} of the peak
    (certified geometric/Gaussian tail, relative error < 1e-35) and summed in
    the excess form (no cancellation for small divergences) or in log space.

    Parameters
    ----------
    alpha : float or array, α ∈ [1, ∞]
    shift : int or array, Δ ∈ {0, 1, 2, …}
    noise : {"gaussian", "laplace"}
    scale : float or array, σ or b in [0.05, 1e3]

    Returns
    -------
    float or ndarray (α = ∞: Δ/b for the discrete Laplace, ∞ for the discrete Gaussian)

    Raises
    ------
    ValueError
        If α < 1, Δ is not a non-negative integer, the scale is outside [0.05, 1e3]
        or noise is unknown.

    References
    ----------
    Source S1, "Discrete distributions" (claim S1-06); Canonne, Kamath, Steinke
    (2020), "The discrete Gaussian for differential privacy", Prop. 13.

    Examples
    --------
    >>> round(rdp_discrete_shift(2.0, 1, "laplace", 1.0), 10)  # log(cosh(3/2)/cosh(1/2))
    0.7353256641
    >>> round(rdp_discrete_shift(2.0, 1, "gaussian", 1.0), 10)  # αΔ²/(2σ²) when αΔ ∈ ℤ
    1.0
    """
    check_noise(noise)
    alpha = check_order(alpha, allow_one=True, allow_inf=True)
    shift = check_count(shift, "shift", minimum=0)
    _check_window(alpha, shift, scale)
    scale = check_positive(scale, "scale")
    if np.any((scale < 0.05) | (scale > 1e3)):
        raise ValueError(f"scale must be in [0.05, 1e3] (got {np.ravel(scale)[:3]})")
    fn = np.vectorize(
        lambda a, d, s: _discrete_shift_scalar(float(a), int(d), noise, float(s)), otypes=[float]
    )
    return scalar_or_array(fn(alpha, shift, scale))


@named_shapes
def discrete_shift_table(alpha, max_shift=5, noise="gaussian", scale=1.0):
    r"""Check the single-noise reading of D_α(P+Δ‖P) ≤ Δ·D_α(P+1‖P) for Δ = 1..max_shift.

    For one noise the inequality is false at every finite order (for a sum of
    m ≥ Δ noises it holds: :func:`rdp_discrete_convolution_shift`). For discrete Gaussian noise
    D_α(P+Δ‖P) ≈ αΔ²/(2σ²) grows like Δ² (exactly αΔ²/(2σ²) when αΔ ∈ ℤ), so it
    fails at every Δ ≥ 2. For discrete Laplace noise Δ ↦ D_α(P+Δ‖P) is convex
    with value 0 at Δ = 0 (quadratic for Δ ≪ b, then Δ/b minus a constant), so
    D_α(P+Δ‖P)/Δ increases with Δ and the proposal fails too; it becomes an
    equality only in the pure-DP limit α = ∞ (D_∞(P+Δ‖P) = Δ/b, group privacy),
    which is the one case where it holds in general: log-ratios add along
    0 → 1 → … → Δ, so D_∞(P+Δ‖P) ≤ Δ·D_∞(P+1‖P) for any P on ℤ.

    Parameters
    ----------
    alpha : float, α ∈ (1, ∞]
    max_shift : int ≥ 1
    noise : {"gaussian", "laplace"}
    scale : float, σ or b in [0.05, 1e3]

    Returns
    -------
    dict of 1-D ndarrays
        ``shift`` (Δ), ``divergence`` (D_α(P+Δ‖P)), ``linear`` (Δ·D_α(P+1‖P))
        and ``holds`` (divergence ≤ linear, with a 1e-12 relative slack).

    References
    ----------
    Source S1, "Discrete distributions" (claim S1-06; the source's statement is
    wrong for α < ∞).

    Examples
    --------
    >>> t = discrete_shift_table(2.0, 3, "gaussian", 2.0)
    >>> t["holds"].tolist()
    [True, False, False]
    """
    alpha = float(check_order(alpha, allow_inf=True))
    max_shift = int(check_count(max_shift, "max_shift"))
    _check_window(alpha, max_shift, scale, "max_shift")
    # one window per shift Δ = 1 … max_shift (about αΔ + Δ + 170b points each): their total, at ~60 ns a point
    # (measured under load: 2.3e8 points in 11 s)
    a = alpha if math.isfinite(alpha) else 1.0
    b = float(np.max(check_positive(scale, "scale")))
    points = (a + 1.0) * max_shift * (max_shift + 1) / 2.0 + max_shift * (170.0 * b + 30.0)
    check_cost(f"discrete_shift_table(alpha = {alpha:g}, max_shift = {max_shift})", "use a smaller alpha or max_shift",
               seconds=6e-8 * points + 2e-5 * max_shift, nbytes=8.0 * 8 * float(np.max(a * max_shift)) + 8.0 * 8 * 170 * b)
    deltas = np.arange(1, max_shift + 1)
    div = np.atleast_1d(rdp_discrete_shift(alpha, deltas, noise, scale))
    linear = deltas * div[0]
    return {
        "shift": deltas,
        "divergence": div,
        "linear": linear,
        "holds": div <= linear * (1.0 + 1e-12),
    }


def _log_convolve(a, b):
    """log of the convolution of two mass vectors given as logs (no underflow in the tails)."""
    out = np.full(a.size + b.size - 1, -np.inf)
    for j, lb in enumerate(b):
        out[j:j + a.size] = np.logaddexp(out[j:j + a.size], a + lb)
    return out


@lru_cache(maxsize=512)
def _discrete_convolution_shift_scalar(alpha, parties, shift, noise, scale):
    if shift == 0:
        return 0.0
    # window for one party's noise: its mass beyond the margin is < e^{−84} of the peak;
    # the Gaussian margin also covers the tilt of the order-α summand (centred near αΔ)
    if noise == "gaussian":
        margin = int(np.ceil(13.0 * scale + 2.0 + alpha * shift / parties))
    else:
        margin = int(np.ceil(85.0 * scale + 2.0))
    k = np.arange(-margin, margin + 1, dtype=float)
    one = _discrete_unnormalised_log(k, noise, scale)
    one = one - logsumexp(one)
    total = one
    for _ in range(parties - 1):
        total = _log_convolve(total, one)
    # P^{*m} on −m·margin … m·margin; compare P^{*m}(x − Δ) with P^{*m}(x) where both are in the window
    logq = total[shift:]
    logp = total[:-shift]
    return renyi_divergence_from_nodes(logq, logp - logq, alpha)


@named_shapes
def rdp_discrete_convolution_shift(alpha, parties, shift, noise="gaussian", scale=1.0):
    r"""D_α(P^{∗m} + Δ ‖ P^{∗m}): m parties each add discrete noise P on ℤ, the sum shifts by Δ.

    .. math:: D_\alpha(P^{*m}+\Delta\,\|\,P^{*m}) = \frac{1}{\alpha-1}\log
              \sum_{x\in\mathbb Z} P^{*m}(x-\Delta)^\alpha\, P^{*m}(x)^{1-\alpha},

    with P the discrete Gaussian (mass ∝ e^{−x²/(2σ²)}) or the discrete Laplace
    (mass ∝ e^{−|x|/b}) law. This is the reading of the discrete proposal
    "D_α(P + Δ‖P) ≤ Δ·D_α(P + 1‖P)" that its context (noise added by m parties,
    "crank up Δ and rescale") suggests, and it holds for every law P on ℤ, every
    order α ≥ 1 and every integer Δ ≤ m:

    .. math:: D_\alpha(P^{*m}+\Delta\,\|\,P^{*m}) \le \Delta\, D_\alpha(P+1\,\|\,P)
              \qquad (1 \le \Delta \le m).

    Proof: with X₁, …, X_m i.i.d. ∼ P, the vectors (X₁ + 1, …, X_Δ + 1) and
    (X₁, …, X_Δ) have divergence Δ·D_α(P + 1‖P) (additivity over products);
    adding the coordinates and the independent X_{Δ+1} + … + X_m is the same
    post-processing of both, which cannot increase the divergence.

    The m-fold convolution is computed in log space from the mass on a window
    outside which P has relative mass < e^{−84}; the sum runs over the window.

    Parameters
    ----------
    alpha : float, α ∈ [1, ∞)
    parties : int, m ≥ 1 (the number of noises added)
    shift : int, Δ ≥ 0
    noise : {"gaussian", "laplace"}
    scale : float, σ or b in [0.05, 50]

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If α < 1 or α = ∞, m < 1, m > 200, Δ is not a non-negative integer,
        the scale is outside [0.05, 50] or noise is unknown.

    References
    ----------
    van Erven & Harremoës (2014), "Rényi divergence and Kullback–Leibler
    divergence" (additivity, data processing); Canonne, Kamath & Steinke (2020),
    "The discrete Gaussian for differential privacy"; the blog post "Privacy
    amplification by repeated noise addition", section "Discrete distributions"
    (claim S1-06).

    Examples
    --------
    >>> d = rdp_discrete_convolution_shift(2.0, 2, 2, "gaussian", 2.0)
    >>> d <= 2 * rdp_discrete_shift(2.0, 1, "gaussian", 2.0) + 1e-12  # Δ·D_α(P+1‖P) = 0.5
    True
    """
    check_noise(noise)
    alpha = float(check_order(alpha, allow_one=True))
    parties = int(check_count(parties, "parties"))
    if parties > 200:
        raise ValueError(f"parties must be in [1, 200] (got {parties})")
    shift = int(check_count(shift, "shift", minimum=0))
    scale = float(check_positive(scale, "scale"))
    if not 0.05 <= scale <= 50.0:
        raise ValueError(f"scale must be in [0.05, 50] (got {scale})")
    margin = 13.0 * scale + 2.0 + alpha * shift / parties if noise == "gaussian" else 85.0 * scale + 2.0
    check_work(parties**2 * (2 * margin + 1), _MAX_WORK, f"alpha = {alpha:g}, parties = {parties}, shift = {shift}",
               "use a smaller order, shift or number of parties")
    # the m − 1 log-space convolutions: the k-th is a loop over the 2·margin + 1 points of one party (~2 µs each)
    # over a vector of k(2·margin) + 1 entries (logaddexp: measured 8–15 ns each on this 2-core machine, idle, the
    # most at the widest windows (width 3·10⁴, out of cache); the rate below is 1.5× that)
    width = 2.0 * margin + 1.0
    check_cost(f"rdp_discrete_convolution_shift(alpha = {alpha:g}, parties = {parties}, shift = {shift})",
               "use a smaller order, shift or number of parties",
               seconds=(parties - 1) * width * 2e-6 + 2.2e-8 * width * width * parties * (parties - 1) / 2.0,
               nbytes=8.0 * 8 * parties * width)
    return _discrete_convolution_shift_scalar(alpha, parties, shift, noise, scale)
