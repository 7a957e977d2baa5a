r"""DP-SGD front ends: the ε or δ of T steps of the Poisson-subsampled Gaussian by PLD.

:func:`dpsgd_epsilon_bracket` returns certified lower and upper bounds on ε
(an :class:`EpsilonBracket`), each end on a grid chosen up front from the requested
width by an error model (``_end_intervals``, :func:`_width_interval`, from a one-step
Chernoff pilot :func:`_chernoff_pilot`), refined only if the bracket misses it, both
bounds composed in the Fourier domain (:meth:`~dpnotes.pld.grid.LossGrid.power`);
without a requested width it keeps the book's grid and repeated squaring.
:func:`dpsgd_epsilon_pld` composes the upper PLD alone on the a-priori grid,
:func:`dpsgd_composed_plds` returns the composed pair on a given grid (the
figures use it) and :func:`dpsgd_delta_pld` is the certified δ at ε. Before any work, :func:`_check_dpsgd_cost` refuses a
composition whose grid would be too large (the per-step loss scale is
:func:`_step_loss_std`). :func:`dpsgd_clt_mu` is the μ of the Gaussian-DP
central limit, an approximation rather than a bound.
"""

import math
import sys
import warnings
from statistics import NormalDist

import numpy as np

from .._validation import (
    AccuracyWarning,
    MAX_SECONDS,
    check_cost,
    check_count,
    check_delta,
    check_grid_points,
    check_interval,
    check_noise_multiplier,
    check_nonnegative,
    check_probability,
    check_steps,
    check_tail_mass,
    named_shapes,
)
from .constructors import MAX_INTERVAL, pld_subsampled_gaussian
from .distribution import PrivacyLossDistribution
from .grid import DEFAULT_TAIL_MASS, MAX_POINTS, LossGrid


_LOG_MAX_FLOAT = math.log(sys.float_info.max)


@named_shapes
def dpsgd_clt_mu(q, sigma, steps):
    r"""μ of the Gaussian-DP central limit for DP-SGD (an approximation, not a bound).

    .. math:: \mu = q\sqrt{T}\sqrt{e^{1/\sigma^2} - 1}

    As T → ∞ with q√T fixed, T steps of the subsampled Gaussian tend to μ-GDP,
    whose curve is :func:`gaussian_delta_exact`. At finite T the CLT curve can
    lie *below* the certified lower bound (the tests show one), so it is no
    upper bound on δ.

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1

    Returns
    -------
    float
        μ, computed in log space as log μ = log q + ½ log T + ½ (1/σ² + log(1 − e^{−1/σ²}))
        (e^{1/σ²} alone overflows below σ ≈ 0.0376 while μ may still be a float).

    Raises
    ------
    ValueError
        For parameters outside their ranges, or when μ exceeds the largest float (≈ 1.8e308:
        σ below about 0.0266 for q√T near 1); no value is capped.

    References
    ----------
    Bu, Dong, Long, Su (2020), "Deep learning with Gaussian differential privacy", Thm 5;
    Dong, Roth, Su (2022), Thm 3.5.

    Examples
    --------
    >>> round(dpsgd_clt_mu(0.01, 1.0, 1000), 6)
    0.414522
    """
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    if q == 0.0:
        return 0.0
    inv = 1.0 / sigma**2
    log_mu = math.log(q) + 0.5 * math.log(steps) + 0.5 * (inv + math.log(-math.expm1(-inv)))
    if log_mu > _LOG_MAX_FLOAT:
        raise ValueError(f"dpsgd_clt_mu: μ = e^{log_mu:.6g} exceeds the largest float for q = {q:g}, sigma = {sigma:g}, "
                         f"steps = {steps} (log μ must be ≤ {_LOG_MAX_FLOAT:.6g}); use a larger sigma")
    return math.exp(log_mu)


@named_shapes
def dpsgd_grid_interval(q, sigma, steps):
    r"""The grid spacing h the DP-SGD PLD routes start from: the O(T·h²) error of the bracket near 10⁻⁴·ε.

    .. math:: h = \min\Big(\sqrt{5\cdot 10^{-5}\,\hat\varepsilon/T},\ s/4,\ 0.05\Big),\quad
              s = \min\big(q\sqrt{e^{1/\sigma^2} - 1},\ 1/\sigma\big),\quad
              \hat\varepsilon = \max(4\mu + \mu^2/2,\ 10^{-3}),\ \mu = s\sqrt T

    (s the standard deviation of one step's privacy loss, ε̂ a rough guess of ε).

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ in :data:`dpnotes._validation.SIGMA_RANGE`
    steps : int, T ≥ 1

    Returns
    -------
    float

    References
    ----------
    Koskela et al. (2020); Gopi, Lee & Wutschitz (2021) (the grid error is quadratic in h).

    Examples
    --------
    >>> round(dpsgd_grid_interval(0.01, 1.0, 1000), 6)
    0.000295
    """
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    s = max(_step_loss_std(q, sigma), 1e-12)
    mu = s * math.sqrt(steps)
    eps_guess = max(mu * 4.0 + 0.5 * mu * mu, 1e-3)
    d = math.sqrt(5e-5 * eps_guess / steps)
    return float(min(d, s / 4, 0.05))


def _step_loss_std(q, sigma):
    """About the standard deviation of one DP-SGD step's privacy loss: min(q√(e^{1/σ²} − 1), 1/σ)."""
    return min(q * math.sqrt(math.expm1(min(1.0 / sigma**2, 700.0))), 1.0 / sigma)


def _composed_loss_span(q, sigma, steps):
    """About the span of losses of the T-fold composition: mean + 40 standard deviations (s per step; s at least
    10⁻¹², the floor of the grid spacings' models, so the span stays positive where q·e^{1/(2σ²)} underflows)."""
    s = max(_step_loss_std(q, sigma), 1e-12)
    return steps * s * s / 2 + 40.0 * math.sqrt(steps) * s + 40.0 * s


def _check_dpsgd_cost(q, sigma, steps, interval, tail_mass=DEFAULT_TAIL_MASS, kinds=1, algorithm="power", timed=True):
    """Refuse before any work a DP-SGD composition whose grid would exceed :data:`MAX_POINTS` points,
    or whose estimated time exceeds :data:`dpnotes._validation.MAX_SECONDS`.

    The composed loss has mean ≈ T·s²/2 and standard deviation ≈ √T·s (s the per-step loss
    standard deviation of :func:`dpsgd_grid_interval`); the grid spans about mean + 40 standard
    deviations (:func:`_composed_loss_span`). The time is :func:`_dpsgd_seconds` for ``kinds``
    PLDs (1: an upper bound; 2: the bracket's upper and lower bounds).
    """
    _check_pld_steps(steps)
    check_grid_points(_composed_loss_span(q, sigma, steps) / interval, f"steps = {steps:g} at interval = {interval:.3g}",
                  "use fewer steps, a larger interval, or an RDP or CLT route (dpnotes.dpsgd)")
    if not timed:
        return
    seconds, nbytes = _dpsgd_seconds(q, sigma, steps, interval, tail_mass, kinds, algorithm)
    check_cost(f"the PLD of steps = {steps:g} (q = {q:g}, sigma = {sigma:g}) at interval = {interval:.3g}",
               "use a larger interval or rel_width, fewer steps, or an RDP or CLT route (dpnotes.dpsgd)",
               seconds=seconds, nbytes=nbytes)


#: seconds per grid point of one step's subsampled-Gaussian PLD (a quadrature per bin): half the rate
#: measured on this 2-core machine under a load of 11; and per point·log₂(points) of the window model of an
#: FFT composition (plain and tilted), calibrated so that the model meets the measured times of the
#: default bracket at (q, σ, T) = (256/60000, 1.1, 10⁵) and (0.05, 0.8, 10⁴) on this machine under load
_SECONDS_PER_STEP_POINT = 6e-6
_SECONDS_PER_FFT_POINT_LOG = 2e-8


def _step_points(q, sigma, steps, interval, tail_mass):
    """About the grid points of one step's PLD with tail_mass/T cut from each side: the span of the loss
    ℓ(y) = log(1 − q + q e^{(2y − 1)/(2σ²)}) over y ∈ [−zσ, 1 + zσ], z = Φ⁻¹(1 − tail_mass/T), over the spacing
    (within a few per cent of the constructed grids for q ≥ 10⁻³)."""
    z = -NormalDist().inv_cdf(max(min(tail_mass / steps, 0.5), 1e-300))

    def loss(y):
        u = (2.0 * y - 1.0) / (2.0 * sigma * sigma)
        if q >= 1.0:
            return u
        if q <= 0.0:  # no record sampled: the loss is 0
            return 0.0
        a, b = math.log1p(-q), math.log(q) + u  # log(e^a + e^b)
        return max(a, b) + math.log1p(math.exp(-abs(a - b)))

    return (loss(1.0 + z * sigma) - loss(-z * sigma)) / interval + 2.0


def _dpsgd_seconds(q, sigma, steps, interval, tail_mass, kinds=1, algorithm="power"):
    """(seconds, bytes) estimated for ``kinds`` T-fold DP-SGD PLDs on one grid (two directions each):
    the step grids by quadrature, then the composition, whose kept window after 2^j steps is about
    2z√(2^j)·s/h points wide (s the per-step loss standard deviation), by squaring (every level) or
    by one power of the transform (the last window, log₂T multiplications)."""
    n1 = _step_points(q, sigma, steps, interval, tail_mass)
    s = _step_loss_std(q, sigma)
    z = math.sqrt(2.0 * math.log(steps / tail_mass))
    directions = 1 if q >= 1.0 else 2
    levels = max(math.ceil(math.log2(steps)), 0)

    def window(t):
        return min(2.0 * z * math.sqrt(t) * s / interval + n1, float(MAX_POINTS))

    if algorithm == "power":
        big = window(steps)
        fft = big * (math.log2(big + 2) + levels)
    else:
        fft = sum(window(2.0**j) * math.log2(window(2.0**j) + 2) for j in range(1, levels + 1))
    seconds = kinds * directions * (_SECONDS_PER_STEP_POINT * n1 + _SECONDS_PER_FFT_POINT_LOG * fft)
    nbytes = 16.0 * 8 * window(steps)  # a few complex and real arrays of the largest window
    return seconds, nbytes


class EpsilonBracket(tuple):
    """A pair (lower, upper) of bounds on ε, with ``width_met``: whether the target relative width was reached."""

    def __new__(cls, lower, upper, width_met):
        self = super().__new__(cls, (float(lower), float(upper)))
        self.width_met = bool(width_met)
        return self

    def __getnewargs__(self):
        return self[0], self[1], self.width_met

    lower = property(lambda self: self[0], doc="the lower bound on ε")
    upper = property(lambda self: self[1], doc="the upper bound on ε")


def _chernoff_pilot(q, sigma, steps, delta, tail_mass, pilot_pld=None):
    r"""(λ̂ per direction, ε̂) of T steps from one step on a coarse grid: the Chernoff tilts and the Chernoff ε.

    One pessimistic step on the spacing s/4 (s = :func:`_step_loss_std`), κ(λ) its
    log-MGF per direction, and

    .. math:: \hat\varepsilon = \max_{\rm dir}\min_{\lambda>0}\frac{T\kappa(\lambda) + \log(1/\delta)}{\lambda},

    the Chernoff bound on ε (≥ the true ε), attained at λ̂. Used only to choose a grid and
    the FFT tilt, so neither needs to be exact. ``pilot_pld``: that step on another grid
    (:func:`_upper_pilot`), if already built.
    """
    s = max(_step_loss_std(q, sigma), 1e-12)
    pilot = pilot_pld if pilot_pld is not None else pld_subsampled_gaussian(q, sigma, interval=min(s / 4, 0.05),
                                                                            tail_mass=tail_mass / steps)
    lams = pilot.chernoff_tilt(steps, delta=delta)
    eps = [(steps * float(g.log_mgf(lam)) + math.log(1.0 / delta)) / lam for g, lam in zip(pilot.grids, lams)]
    return lams, max(max(eps), 1e-12)


def _width_interval(q, sigma, steps, delta, rel_width, tail_mass, upper_only=False, pilot=None):
    r"""The grid spacing whose bracket (or upper bound) the error model puts ``rel_width``·ε off (a-priori).

    Connect-the-dots spreads each step's loss by a variance ≤ h²/4 and merging
    narrows it by about h²/12; after T steps the composed loss has its variance
    moved by about T·h²/c, which moves the ε where the tail (of log-slope λ,
    the Chernoff tilt) reaches δ by about (1 + λ)·T·h²/(2c). Hence, with
    x = e^{3/max(σ, 0.8)²},

    .. math:: \text{width} \approx (1 + \hat\lambda)\,T h^2\,\big(K_0 + c\,h\big),\quad c = x/(2q),\qquad
              \text{upper} - \varepsilon \approx (1 + \hat\lambda)\,T h^2\,K_0',

    solved for h (h ≤ s/2), with (λ̂, ε̂) from :func:`_chernoff_pilot` (λ̂ the
    larger of the two directions), K₀ = :data:`_WIDTH_K`, K₀' = :data:`_UPPER_K`.
    The constants are fitted to measurements at q ∈ {10⁻³, 10⁻², 0.05}, σ ∈
    {0.8, 1.1, 2, 4}, T ∈ {10³, 10⁴} (benchmarks/bench_pld.py): width/((1 + λ̂)T h²)
    is near 0.1 for σ ≥ 2 and grows roughly like h·e^{3/σ²}/q below (the
    merged lower bound then errs at order h³: the per-step loss has a long,
    steep right tail), while the upper bound alone stays at order h².
    For σ < 0.9, where the merged grid puts a point on the support edge's bin,
    c is a quarter of that (:func:`_lower_cubic`; checked at the h found, and
    solved again with the full c where the edge bin is not aligned).
    Where the model is off the bracket refines (:func:`dpsgd_epsilon_bracket`).

    ``pilot``: (λ̂, ε̂) of :func:`_chernoff_pilot` if already computed.

    Returns
    -------
    (float, tuple)
        The spacing h, and the Chernoff tilts λ̂ of the pilot (one per direction).
    """
    lams, eps_hat = _chernoff_pilot(q, sigma, steps, delta, tail_mass) if pilot is None else pilot
    s = max(_step_loss_std(q, sigma), 1e-12)
    x = math.exp(3.0 / max(sigma, 0.8)**2)  # fitted for σ ≥ 0.8 only
    target = rel_width * eps_hat / ((1.0 + max(lams)) * steps)  # = h²·K(h)
    if upper_only:
        h = math.sqrt(target / _UPPER_K)
    else:  # h²(K₀ + c·h) = target, c = x/(2q): the root of an increasing cubic, by bisection in log h
        def root(c):
            hi = math.log(math.sqrt(target / _WIDTH_K))  # h ≤ √(target/K₀)
            lo = hi - 40.0
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                h = math.exp(mid)
                lo, hi = (mid, hi) if h * h * (_WIDTH_K + c * h) <= target else (lo, mid)
            return math.exp(lo)

        h = root(_lower_cubic(q, sigma))
        if _lower_cubic(q, sigma, h) != _lower_cubic(q, sigma):  # no edge bin aligned at that h: the full h³ term
            h = root(_lower_cubic(q, sigma, h))
    return float(min(h, s / 2, 0.05)), lams


def _end_intervals(q, sigma, steps, delta, rel_width, tail_mass):
    r"""Spacings (h_upper, h_lower, α) for a bracket of relative width ``rel_width``, each end on its own grid; the tilts.

    The two ends are independent certified bounds, so each may have its own grid. Of the width
    r·ε̂, a share α goes to the upper end (its error model, :func:`_width_interval` with
    ``upper_only``, asked for α·r) and 1 − α to the lower end (the bracket's model asked for
    (1 − α)·r: conservative, as that model holds the whole width). α ∈ {0.1, 0.2, …, 0.9} is
    the one with the fewest grid points, 1/h_upper + 1/h_lower (the cost of the step grids and
    of the transforms is about linear in them), unless one grid for both ends, by the bracket's
    model for the whole width, holds fewer (then α = 0) and the model's h³ term (x·h/(2q)) is below
    its h² term (K₀): where it is above, the merged lower end errs at order h³/q, the model is least
    sure (it missed by up to 3× at q = 10⁻³, σ ≤ 1.1) and the lower end gets most of the width
    on its own grid, refined alone on a miss; elsewhere one grid mostly serves both.
    """
    pilot = _chernoff_pilot(q, sigma, steps, delta, tail_mass)
    shared, _ = _width_interval(q, sigma, steps, delta, rel_width, tail_mass, pilot=pilot)
    best = (shared, shared, 0.0)  # one grid for both ends, the whole width by the bracket's model (α = 0)
    if _lower_cubic(q, sigma) * shared >= _WIDTH_K:  # the lower end's h³ term dominates:
        best = None  # its model is least sure there (it missed by up to 3×): split, and refine the lower end alone
    for alpha in np.arange(1, 10) / 10:
        h_up, _ = _width_interval(q, sigma, steps, delta, alpha * rel_width, tail_mass, upper_only=True, pilot=pilot)
        h_lo, _ = _width_interval(q, sigma, steps, delta, (1 - alpha) * rel_width, tail_mass, pilot=pilot)
        if best is None or 1 / h_up + 1 / h_lo < 1 / best[0] + 1 / best[1]:
            best = (h_up, h_lo, alpha)
    return best[0], best[1], best[2], pilot[0]


def _lower_step(q, sigma, h, ratio):
    r"""The factor s on the spacing h that scales the lower end's error by ``ratio`` < 1 in the model of
    :func:`_width_interval`: s²(K₀ + c·s·h)/(K₀ + c·h) = ratio, c = x/(2q) (between s = √ratio where the h² term
    dominates and s = ratio^{1/3} where the h³ term does), by bisection in s ∈ (0, 1)."""
    c = _lower_cubic(q, sigma, h)
    lo, hi = 0.0, 1.0
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if mid * mid * (_WIDTH_K + c * mid * h) <= ratio * (_WIDTH_K + c * h) else (lo, mid)
    return lo


def _lower_cubic(q, sigma, h=None):
    r"""c of the lower end's h³ term in the model of :func:`_width_interval`: x/(2q), x = e^{3/max(σ, 0.8)²}, divided
    by :data:`_ALIGNED_CUBIC_GAIN` where the merged grid of spacing ``h`` puts a point on the support edge's bin
    (``_edge_bin`` of :mod:`dpnotes.pld.discretise`, which aligns only an edge bin at most 1.45 spacings wide): for
    σ < 0.9 and h ≥ :data:`_ALIGNED_MIN_H`·q (measured at σ = 0.8: the bin is 1.45h wide at h ≈ 0.04q for
    q ∈ {10⁻³, 10⁻², 0.05}, wider at finer h, where the loss density near log(1 − q) is sparse against h);
    ``h=None``: as if aligned."""
    c = math.exp(3.0 / max(sigma, 0.8)**2) / (2.0 * q)
    if sigma >= 0.9 or (h is not None and h < _ALIGNED_MIN_H * q):
        return c
    return c / _ALIGNED_CUBIC_GAIN


_ALIGNED_MIN_H = 0.04

# measured at σ = 0.8, q ∈ {10⁻³, 10⁻², 0.05}, T ∈ {10³, 10⁴}, at h, 2h and 4h of the lower grid chosen for r = 10⁻³:
# with the edge bin aligned the lower end's error/((1 + λ̂)T h²/ε̂) was 0.07–1.9, 2–10× below the grid through 0
# (0.3–13), and within 1.3× of K₀ + x·h/(8q) at its largest misses
_ALIGNED_CUBIC_GAIN = 4.0

_WIDTH_K = 0.14  # K₀ of :func:`_width_interval` (measured ≈ 0.1, plus a margin so the first grid mostly suffices)
# K₀' of :func:`_width_interval`: upper − ε measured 0.05–0.15·(1 + λ̂)T h²/ε̂·ε over the quick grid (q ∈ {10⁻³, 10⁻²,
# 0.05}, σ ∈ {0.8, 1.1, 2, 4}, T ∈ {10³, 10⁴}, r = 10⁻³), with no trend in σ (an earlier factor √(1 + x/4) made the
# grid up to 5× finer than needed at σ = 0.8)
_UPPER_K = 0.16


def _step_pld(q, sigma, steps, interval, tail_mass, pessimistic):
    """One step's PLD (upper bound if ``pessimistic``), ``tail_mass``/T cut from each tail."""
    return pld_subsampled_gaussian(q, sigma, interval=interval, pessimistic=pessimistic, tail_mass=tail_mass / steps)


#: the upper bound reuses its pilot's step grid (:func:`_upper_pilot`) where the model's spacing is at most this many
#: times the pilot's: one step grid built instead of two, on a grid at most this much finer than asked
_PILOT_REUSE = 1.6
#: composed points, and points of one step, below which :func:`_upper_pilot` puts the pilot on the spacing the model is
#: expected to choose (there the fixed cost of a second step grid outweighs a grid up to 1/0.7 times finer)
_SMALL_COMPOSED = 3e4
_SMALL_STEP = 4e3


def _upper_pilot(q, sigma, steps, rel_width, tail_mass):
    r"""The step PLD of :func:`_chernoff_pilot` for the upper bound, on a spacing it may be reused at.

    The pilot's spacing is s/4 (s = :func:`_step_loss_std`), or, where the composed grid and the step's are small
    (≤ :data:`_SMALL_COMPOSED` and :data:`_SMALL_STEP` points, :func:`_step_points`: building a step grid is then
    mostly fixed cost; at σ ≤ 1.1 and q = 10⁻³ the step's long right tail makes it large), about 0.7 times
    the spacing that the upper error model of :func:`_width_interval` chooses for ``rel_width``, which on
    the benchmark grid is s/4·(0.66–1.8)·√(r/10⁻²); so the model's spacing mostly falls within
    [1, :data:`_PILOT_REUSE`] times the pilot's and :func:`dpsgd_epsilon_pld` composes the pilot's grid
    itself (built pessimistic, with the tail mass of :func:`_step_pld`), not a second one.
    """
    s = max(_step_loss_std(q, sigma), 1e-12)
    h = min(s / 4, 0.05)
    guess = h * min(1.0, 0.7 * math.sqrt(rel_width / 1e-2))
    if (_composed_loss_span(q, sigma, steps) / guess <= _SMALL_COMPOSED
            and _step_points(q, sigma, steps, guess, tail_mass) <= _SMALL_STEP):
        h = guess
    return h, _step_pld(q, sigma, steps, h, tail_mass, True)


def _finest_interval(q, sigma, steps):
    """The smallest grid spacing whose T-fold composition stays within :data:`MAX_POINTS` points."""
    return 1.01 * _composed_loss_span(q, sigma, steps) / MAX_POINTS


def _composed_epsilon(q, sigma, steps, delta, interval, tail_mass, pessimistic, lam, algorithm="squaring",
                      roundoff_share=None, step_pld=None):
    """ε(δ) of the T-fold composition on one grid (upper bound if pessimistic), and the tilt used.

    ``lam`` (one λ or one per direction) is the FFT tilt; None: the Chernoff tilt of δ on this grid.
    With ``roundoff_share`` (a relative allowance; only with ``algorithm="power"``) each direction is
    first composed untilted (one FFT pipeline on the narrowest window), and composed again with its
    tilt only if the certified round-off of that plain result moves its ε by more than
    ``roundoff_share``·ε (against :func:`_bare_epsilon`), and only if that direction can set the
    maximum (its ε, with or without round-off, above another direction's): where the plain bound
    is far below the accuracy asked for, the tilted pipeline, whose window must also hold the
    tilted law, is not paid for. ``step_pld``: :func:`_step_pld` of these arguments, if already built.
    """
    pl = step_pld if step_pld is not None else _step_pld(q, sigma, steps, interval, tail_mass, pessimistic)
    if lam is None:
        lam = pl.chernoff_tilt(steps, delta=delta)
    if roundoff_share is None or algorithm != "power":
        return float(pl.self_compose(steps, tail_mass, tilt=lam, algorithm=algorithm, timed=False).epsilon(delta)), lam
    tilts = np.broadcast_to(np.asarray(lam, dtype=float), (len(pl.grids),))
    plain = [g.with_tilt(0.0).power(steps, tail_mass, timed=False) for g in pl.grids]
    eps = [float(c.epsilon(delta)) for c in plain]
    final = list(eps)  # ε(δ) of the PLD is the largest over the directions; an untilted one's is already read
    for i, (g, t) in enumerate(zip(pl.grids, tilts)):
        if t > 0 and _tilt_pays(i, eps, plain, delta, roundoff_share, pessimistic):
            final[i] = float(g.with_tilt(t).power(steps, tail_mass, timed=False).epsilon(delta))
    return max(final), lam


def _tilt_pays(i, eps, plain, delta, share, pessimistic):
    """Whether direction i is composed again tilted: its round-off moves its ε by more than ``share``·ε, and it can
    set the maximum (its ε, with or without round-off, above every other direction's ε or bare ε, the smaller of the
    two; the bare ε is :func:`_bare_epsilon`, ε(δ) without the round-off bound).

    For an upper (pessimistic) grid the bare ε is ≤ ε, and it is below a point x exactly when the bare δ(x) (exactly
    affine in e^x between grid losses, so its crossing is the bare ε) is below δ: one δ read per question instead of a
    search for each bare ε (a third of the time at 2.7·10⁶ points); a lower grid searches them.
    """
    if not pessimistic:
        bare = [_bare_epsilon(c, delta) for c in plain]
        others = max((min(eps[j], bare[j]) for j in range(len(eps)) if j != i), default=-math.inf)
        return abs(eps[i] - bare[i]) > share * eps[i] and max(eps[i], bare[i]) > others
    if eps[i] == math.inf:  # the plain round-off bound is above δ: only the tilted pipeline can give a finite ε
        return True
    if not eps[i] > 0.0:  # ε = 0: no round-off moved it
        return False

    def bare_below(j, x):  # bare ε of direction j < x (x > 0)
        c = plain[j]
        return float(LossGrid(c.shift, c.interval, c.probs, c.inf_mass, True).delta(x)) < delta

    return bare_below(i, eps[i] * (1 - share)) and all(bare_below(j, eps[i]) for j in range(len(eps)) if j != i)


def _bare_epsilon(grid, delta):
    """ε(δ) of ``grid`` with its round-off bound left out (how far the bound moves ε is the difference)."""
    return float(LossGrid(grid.shift, grid.interval, grid.probs, grid.inf_mass, grid.pessimistic).epsilon(delta))


_ROUNDOFF_SHARE = 0.05  # of the accuracy asked, the most the certified round-off may move ε (else: tilt)


@named_shapes
def dpsgd_composed_plds(q, sigma, steps, *, interval, tail_mass=DEFAULT_TAIL_MASS, tilt="auto"):
    r"""The upper and lower PLDs of T DP-SGD steps on one grid (what the bracket reads ε from).

    Each is :func:`pld_subsampled_gaussian` (``tail_mass``/T cut from each tail of a
    step) composed T times by :meth:`PrivacyLossDistribution.self_compose`; every
    δ(ε) read from the first is an upper bound and from the second a lower bound:

    .. math:: \check\delta_T(\varepsilon) \le \delta_T(\varepsilon) \le \hat\delta_T(\varepsilon)

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    interval : float, the grid spacing h > 0
    tail_mass : float, mass cut from each tail over the T steps (kept in the bounds)
    tilt : "auto" or float ≥ 0, the FFT tilt ("auto": each PLD's Chernoff tilt of δ = 10⁻¹⁰)

    Returns
    -------
    (PrivacyLossDistribution, PrivacyLossDistribution)
        (upper, lower).

    Raises
    ------
    ValueError
        For parameters outside their ranges, or a grid beyond the size limit.

    References
    ----------
    Koskela et al. (2020); Doroshenko et al. (2022).

    Examples
    --------
    >>> up, lo = dpsgd_composed_plds(0.01, 1.0, 100, interval=1e-3)
    >>> bool(lo.delta(1.0) <= up.delta(1.0))
    True
    """
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    interval = float(check_interval(interval, "interval", 0.0, MAX_INTERVAL, closed_low=False))
    tail_mass = check_tail_mass(tail_mass)
    _check_dpsgd_cost(q, sigma, steps, interval, tail_mass, kinds=2, algorithm="squaring")
    tilt = _check_tilt(tilt)
    return tuple(_step_pld(q, sigma, steps, interval, tail_mass, pessimistic).self_compose(steps, tail_mass, tilt=tilt)
                 for pessimistic in (True, False))


def _check_tilt(tilt):
    """``tilt``: "auto", or λ ≥ 0 (one number, or one per direction)."""
    if isinstance(tilt, str):
        if tilt != "auto":
            raise ValueError(f"tilt must be 'auto' or a number ≥ 0 (got {tilt!r})")
        return tilt
    t = check_nonnegative(tilt, "tilt", allow_inf=False)
    if t.ndim > 1 or (t.ndim == 1 and t.size != 2):
        raise ValueError(f"tilt must be 'auto', one number ≥ 0 or one per direction (got shape {t.shape})")
    return t if t.ndim else float(t)


def _given_or_pilot_tilt(tilt, pilot):
    """The FFT tilt: ``tilt`` if a number, else (``tilt="auto"``) the pilot's Chernoff tilts (None: none yet)."""
    tilt = _check_tilt(tilt)
    return pilot if isinstance(tilt, str) else tilt


def _check_grid_arguments(q, sigma, steps, delta, interval, rel_width, tail_mass):
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    delta = float(check_delta(delta))
    rel_width = float(check_interval(rel_width, "rel_width", 1e-8, 1.0))
    tail_mass = check_tail_mass(tail_mass)
    if interval is not None:
        interval = float(check_interval(interval, "interval", 0.0, MAX_INTERVAL, closed_low=False))
    _check_span(q, sigma, steps)
    return q, sigma, steps, delta, interval, rel_width, tail_mass


#: the most steps of a PLD composition: its certified round-off (and the atom at +∞, bounded with a factor
#: 1 + 4·T·n·u) grows like T·u, and beyond 10⁹ steps the composed masses leave [0, 1] by more than the grid allows
MAX_PLD_STEPS = 10**9


def _check_pld_steps(steps):
    if not steps <= MAX_PLD_STEPS:
        raise ValueError(f"steps must be at most {MAX_PLD_STEPS:.0e} for a PLD route, whose FFT round-off grows with "
                         f"the number of steps (got {steps:g}); use route='rdp' or a CLT route (dpnotes.dpsgd)")


def _check_span(q, sigma, steps):
    """Refuse (q, σ, T) whose composed loss spans more than the grid holds at the coarsest spacing."""
    _check_pld_steps(steps)
    finest = _finest_interval(q, sigma, steps)
    if finest > MAX_INTERVAL:
        raise ValueError(f"steps = {steps} with q = {q:g} and sigma = {sigma:g}: the composed loss spans about "
                         f"{_composed_loss_span(q, sigma, steps):.3g}, which needs a grid spacing of at least "
                         f"{finest:.3g} (limit {MAX_INTERVAL:g}) within {MAX_POINTS} points; use fewer steps, a "
                         f"larger sigma or route='rdp'")


@named_shapes
def dpsgd_epsilon_bracket(q, sigma, steps, delta, *, interval=None, rel_width=None,
                          tail_mass=DEFAULT_TAIL_MASS, max_refinements=3, tilt="auto"):
    r"""Lower and upper bounds on the ε of DP-SGD (Poisson rate q, noise σ, T steps) at δ.

    Both bounds come from discretised PLDs of the subsampled Gaussian composed T
    times (upper: connect-the-dots, lower: merged bins; see the module), with the
    same FFT tilt. With ``interval=None`` and a ``rel_width`` given, each end has
    its own grid, chosen up front by an error model (``_end_intervals``: the
    width split between the ends so that the two grids hold the fewest points);
    if the bracket is still wider than ``rel_width``·upper, the lower end's grid is
    refined first (alone: its h³ term is where the model misses), then both,
    by the measured width, at most ``max_refinements`` times and not once refining
    stops shrinking the bracket. With ``interval`` given both ends share it. With ``rel_width=None`` (the default) the grid starts at
    :func:`dpsgd_grid_interval` (a bracket near 10⁻⁴ relative wide) and is refined
    until it is 10⁻³ wide: the book's stored numbers are computed so; it is
    slower than asking for the width you need. The FFTs are tilted by the
    Chernoff λ of the target δ, so round-off stays far below δ (module docstring).

    .. math:: \varepsilon(\delta) = \min\{\varepsilon \ge 0 : \max_{\rm dir}
              \delta_T(\varepsilon) \le \delta\}

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    delta : float, δ ∈ (0, 1)
    interval : float, optional, a fixed grid spacing (no refinement; ``rel_width`` unused)
    rel_width : float in [10⁻⁸, 1], optional, target relative width (upper − lower)/upper of the bracket
    tail_mass : float, mass cut from each tail per step (kept in the upper bound, whose δ is then at least
        a few times tail_mass: below that ε = ∞, with an AccuracyWarning)
    max_refinements : int in [0, 10]
    tilt : "auto" or float ≥ 0, the FFT tilt λ ("auto": the Chernoff tilt of δ)

    Returns
    -------
    EpsilonBracket
        (lower, upper), lower ≤ true ε ≤ upper; its ``width_met`` is False (and a
        ``RuntimeWarning`` is raised) when refinement stopped above ``rel_width``.

    Raises
    ------
    ValueError
        For parameters outside their ranges.

    References
    ----------
    Koskela et al. (2020); Doroshenko et al. (2022); source S4, S4-17 ("today's tight accounting").

    Examples
    --------
    >>> lo, up = dpsgd_epsilon_bracket(0.01, 1.0, 1000, 1e-5, rel_width=1e-4)
    >>> round(lo, 3), round(up, 3), bool(up - lo <= 1e-4 * up)
    (1.828, 1.828, True)
    """
    legacy = rel_width is None  # the book's default grid (see rel_width)
    q, sigma, steps, delta, interval, rel_width, tail_mass = _check_grid_arguments(
        q, sigma, steps, delta, interval, 1e-3 if legacy else rel_width, tail_mass)
    max_refinements = int(check_count(max_refinements, "max_refinements", minimum=0))
    if max_refinements > 10:
        raise ValueError(f"max_refinements must be ≤ 10 (got {max_refinements})")
    if steps * q <= delta:  # δ(0) = TV ≤ T·q: ε = 0 exactly (as in dpsgd_epsilon_pld)
        return EpsilonBracket(0.0, 0.0, True)
    auto = interval is None
    algorithm = "squaring" if legacy else "power"  # the book's numbers were composed by squaring
    if auto and legacy:  # the tilt is then the Chernoff tilt of each grid tried
        d, lam = dpsgd_grid_interval(q, sigma, steps), _given_or_pilot_tilt(tilt, None)
    elif auto:  # each end on its own grid: d_up (upper), d (lower)
        d_up, d, alpha, lam = _end_intervals(q, sigma, steps, delta, rel_width, tail_mass)
        lam = _given_or_pilot_tilt(tilt, lam)
        d = max(d, _finest_interval(q, sigma, steps))  # a miss is then reported
        d_up = max(d_up, _finest_interval(q, sigma, steps))
    else:
        d, lam = interval, _given_or_pilot_tilt(tilt, None)
    split = auto and not legacy  # the two ends on separate grids (possibly equal: alpha = 0)
    # with a rel_width asked for, the first grid is the finest within the time limit (a wider bracket is then
    # reported, width_met False); the default (the book's stored numbers) keeps its grid and the size limit
    while auto and not legacy and _dpsgd_seconds(q, sigma, steps, d, tail_mass, 2, algorithm)[0] > MAX_SECONDS:
        d *= 1.25
    if split:
        while _dpsgd_seconds(q, sigma, steps, min(d, d_up), tail_mass, 2, algorithm)[0] > MAX_SECONDS:
            d_up *= 1.25
    _check_dpsgd_cost(q, sigma, steps, d, tail_mass, kinds=2, algorithm=algorithm, timed=not legacy)
    # the plain pipeline where its round-off moves ε by ≤ 5 % of the width asked (not for the book's legacy grid)
    share = _ROUNDOFF_SHARE * rel_width if auto and not legacy and isinstance(tilt, str) else None
    kept, last = None, math.inf  # the last bracket computed and its width
    if not split:
        alpha = 0.0
    refine_up = refine_lo = True  # which ends to (re)compute
    spent = 0.0  # the estimated seconds of the grids composed so far (_dpsgd_seconds)
    for attempt in range(max_refinements + 1):
        try:
            if refine_up or not split:
                e_up, used = _composed_epsilon(q, sigma, steps, delta, d_up if split else d, tail_mass, True, lam,
                                               algorithm, share)
            if refine_lo or not split:
                e_lo, _ = _composed_epsilon(q, sigma, steps, delta, d, tail_mass, False, used, algorithm, share)
        except ValueError:
            if kept is None:
                raise
            e_up, e_lo = kept  # the refined grid outgrew the size limit: report the bracket reached
            break
        kept, width = (e_up, e_lo), e_up - e_lo
        if not auto or not math.isfinite(e_up) or width <= rel_width * max(e_up, 1e-300):
            break
        if width > 0.7 * last and refine_up:  # not shrinking: round-off, not the grid, sets the width
            break
        last = width if refine_up else math.inf  # (refining the lower end alone may leave the upper end's share)
        # width ∝ h² (or faster): aim below the target
        aim, most = (0.5, 0.7) if legacy else (0.8, 0.9)
        step = max(min(math.sqrt(aim * rel_width * e_up / width), most), 0.1)
        if split and alpha > 0 and attempt == 0:
            # first miss on split grids: the error model of the upper end is conservative (its measured error is below
            # it), the lower end's h³ term is the one that misses; so refine the lower end alone for the whole miss,
            # keeping the share the upper end was given (α·r·ε at most, its model; at most half the width)
            up_share = min(alpha * rel_width * e_up, 0.5 * width)
            step = max(min(_lower_step(q, sigma, d, max(aim * rel_width * e_up - up_share, 0.05 * width)
                                       / (width - up_share)), most), 0.1)
            refine_up, refine_lo = False, True
        else:
            refine_up = refine_lo = True
        try:
            _check_dpsgd_cost(q, sigma, steps, d * step, tail_mass, kinds=2, algorithm=algorithm, timed=False)
        except ValueError:
            break  # a finer grid would be too large: report the bracket reached
        # the time model over the whole call: the grids composed so far and the next one within the time limit
        spent += _dpsgd_seconds(q, sigma, steps, d, tail_mass, 2, algorithm)[0]
        if not legacy and spent + _dpsgd_seconds(q, sigma, steps, d * step, tail_mass, 2, algorithm)[0] > MAX_SECONDS:
            break  # report the bracket reached (width_met False, with its AccuracyWarning)
        d *= step
        if split and refine_up:
            d_up = min(d_up * step, d_up)
    if not math.isfinite(e_up):
        _warn_infinite_upper(delta, tail_mass)
    met = math.isfinite(e_up) and (not auto or e_up - e_lo <= rel_width * max(e_up, 1e-300))
    if not met and math.isfinite(e_up):
        warnings.warn(f"the ε bracket [{e_lo:.6g}, {e_up:.6g}] is {(e_up - e_lo) / e_up:.2g} wide, above rel_width = "
                      f"{rel_width:g}: round-off, the grid-size limit or the time limit stops refinement (both ends stay "
                      f"valid bounds)",
                      AccuracyWarning, stacklevel=2)
    return EpsilonBracket(min(e_lo, e_up), e_up, met)


@named_shapes
def dpsgd_epsilon_pld(q, sigma, steps, delta, *, interval=None, rel_width=1e-3,
                      tail_mass=DEFAULT_TAIL_MASS, tilt="auto"):
    r"""Certified upper bound on the ε of DP-SGD at δ, from the numerically composed PLD.

    .. math:: \varepsilon = \min\{\varepsilon \ge 0 : \max_{\rm dir}\delta_T(\varepsilon) \le \delta\}

    Only the upper (connect-the-dots) PLD is composed, on the grid that the error
    model of :func:`dpsgd_epsilon_bracket` chooses for ``rel_width``, or on the finer grid
    of the one-step pilot that chose it where that is at most 1.6 times finer (then one
    step grid is built, not two; ``_upper_pilot``). The result
    is always a certified upper bound; its *distance* to the true ε is predicted
    (by the model, about ``rel_width``·ε or less), not checked: for a checked
    accuracy call :func:`dpsgd_epsilon_bracket`, whose lower end certifies it.

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    delta : float, δ ∈ (0, 1)
    interval : float, optional, a fixed grid spacing (``rel_width`` unused)
    rel_width : float in [10⁻⁸, 1], the relative bracket width the grid is chosen for
    tail_mass : float, mass cut from each tail per step (kept in the bound, whose δ is then at least a few
        times tail_mass: below that ε = ∞, with an AccuracyWarning)
    tilt : "auto" or float ≥ 0, the FFT tilt λ ("auto": the Chernoff tilt of δ)

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For parameters outside their ranges.

    References
    ----------
    Koskela et al. (2020); Doroshenko et al. (2022).

    Examples
    --------
    >>> round(dpsgd_epsilon_pld(256 / 60000, 1.1, 1000, 1e-5), 2)
    0.6
    """
    q, sigma, steps, delta, interval, rel_width, tail_mass = _check_grid_arguments(
        q, sigma, steps, delta, interval, rel_width, tail_mass)
    if steps * q <= delta:  # δ(0) = TV ≤ T·q (TV adds over a composition, q·TV ≤ q per step): ε = 0 exactly
        return 0.0
    step = None  # the pilot's step grid, where it is reused
    if interval is None:
        h_pilot, pilot_pld = _upper_pilot(q, sigma, steps, rel_width, tail_mass)
        d, lam = _width_interval(q, sigma, steps, delta, rel_width, tail_mass, upper_only=True,
                                 pilot=_chernoff_pilot(q, sigma, steps, delta, tail_mass, pilot_pld))
    else:
        d, lam = interval, None
    lam = _given_or_pilot_tilt(tilt, lam)
    finest = _finest_interval(q, sigma, steps)
    while interval is None and _dpsgd_seconds(q, sigma, steps, finest, tail_mass, 1, "power")[0] > MAX_SECONDS:
        finest *= 1.25  # the finest grid computed within the time limit
    if interval is None and d < finest:
        warnings.warn(f"the grid for rel_width = {rel_width:g} (interval {d:.3g}) exceeds the grid-size or time limit; "
                      f"the upper bound is computed at interval {finest:.3g}, less accurate than asked "
                      f"(it stays a valid upper bound)", AccuracyWarning, stacklevel=2)
        d = finest
    if interval is None and finest <= h_pilot <= d <= _PILOT_REUSE * h_pilot:
        d, step = h_pilot, pilot_pld  # finer than the model asks: the pilot's grid serves
    _check_dpsgd_cost(q, sigma, steps, d, tail_mass, kinds=1, algorithm="power")
    share = _ROUNDOFF_SHARE * rel_width if interval is None and isinstance(tilt, str) else None
    eps = _composed_epsilon(q, sigma, steps, delta, d, tail_mass, True, lam, "power", share, step)[0]
    if not math.isfinite(eps):
        _warn_infinite_upper(delta, tail_mass)
    return eps


def _warn_infinite_upper(delta, tail_mass):
    """Say that the upper bound is ∞ although the true ε of a Gaussian mechanism at δ > 0 is finite."""
    warnings.warn(f"no finite upper bound on ε at delta = {delta:.3g}: the mass the bound keeps (tail_mass = "
                  f"{tail_mass:.3g} per tail, and the FFT round-off) is above delta; the true ε is finite: pass a smaller "
                  f"tail_mass (its grids are then wider) or a larger delta", AccuracyWarning, stacklevel=4)


@named_shapes
def dpsgd_delta_pld(q, sigma, steps, epsilon, *, interval=None, tail_mass=DEFAULT_TAIL_MASS, tilt="auto"):
    r"""Certified upper bound on the δ of DP-SGD at ε (the worse adjacency direction).

    .. math:: \delta(\varepsilon) = \max_{\rm dir}\ \mathbb E\big[\max(0, 1 - e^{\varepsilon - Z_T})\big]
              + P(Z_T = \infty)

    (Z_T the privacy loss of the T composed steps)

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    epsilon : float, ε ≥ 0
    interval : float, optional grid spacing (default: automatic)
    tail_mass : float, mass cut from each tail per step (kept in the bound)
    tilt : "auto" or float ≥ 0, the FFT tilt λ ("auto": the Chernoff tilt of ε)

    Returns
    -------
    float
        An upper bound on δ(ε); it includes the mass the tail cuts keep (a few times ``tail_mass``), so a true δ
        below that is reported as about that floor: pass a smaller ``tail_mass`` to resolve it.

    Raises
    ------
    ValueError
        For parameters outside their ranges.

    References
    ----------
    Source S2, S2-02; Koskela et al. (2020).

    Examples
    --------
    >>> d = dpsgd_delta_pld(0.01, 1.0, 1000, 1.828)
    >>> bool(9e-6 < d < 1.1e-5)
    True
    """
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    epsilon = float(check_nonnegative(epsilon, "epsilon"))
    tail_mass = check_tail_mass(tail_mass)
    if q == 0.0:
        return 0.0
    d = dpsgd_grid_interval(q, sigma, steps) if interval is None else float(check_interval(interval, "interval", 0.0, MAX_INTERVAL, closed_low=False))
    _check_dpsgd_cost(q, sigma, steps, d, tail_mass, kinds=1, algorithm="squaring")
    up = _step_pld(q, sigma, steps, d, tail_mass, True)
    lam = up.fft_tilt(steps, tilt, epsilon=epsilon)
    return float(up.self_compose(steps, tail_mass, tilt=lam).delta(epsilon))
