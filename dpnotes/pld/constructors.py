r"""Constructors of privacy loss distributions, with their argument checks, and the analytic Gaussian curve.

:func:`pld_gaussian`, :func:`pld_laplace`, :func:`pld_randomized_response`,
:func:`pld_from_probabilities`, :func:`pld_subsampled_gaussian` and
:func:`pld_from_privacy_loss` check their arguments (grid spacing up to
:data:`MAX_INTERVAL`, ``method``, ``tail_mass``, the grid-size limit), take the
loss law (:mod:`dpnotes.privacy_loss.laws`: the ``law`` of the mechanism's
:class:`~dpnotes.privacy_loss.PrivacyLoss` where there is one), discretise it
(:func:`~dpnotes.pld.discretise.discretise_loss_law`) and return a
:class:`~dpnotes.pld.distribution.PrivacyLossDistribution`.

:func:`gaussian_delta_exact` is the exact δ(ε) of a Gaussian pair at distance μ,
the curve the Gaussian PLD brackets; it is computed by
:func:`dpnotes.privacy_loss.delta_gaussian`.
"""

import math

import numpy as np

from .._validation import (
    check_bool,
    check_choice,
    check_discretisation_cost,
    check_grid_points,
    check_interval,
    check_noise_multiplier,
    check_nonnegative,
    check_positive,
    check_probability,
    check_tail_mass,
    named_shapes,
    scalar_or_array,
)
from ..privacy_loss import (
    PrivacyLoss,
    delta_gaussian,
    privacy_loss_gaussian,
    privacy_loss_laplace,
    privacy_loss_randomized_response,
)
from ..privacy_loss.laws import AtomicLossLaw, SubsampledGaussianLossLaw
from .discretise import discretise_loss_law
from .distribution import PrivacyLossDistribution
from .grid import DEFAULT_TAIL_MASS, LossGrid

MAX_INTERVAL = 10.0  # the widest grid spacing of the losses accepted


def _check_method(method):
    check_choice(method, "method", ("dots", "round"))


@named_shapes
def pld_gaussian(sigma, sensitivity=1.0, *, interval=1e-3, pessimistic=True,
                 method="dots", tail_mass=DEFAULT_TAIL_MASS):
    r"""Discretised PLD of the Gaussian mechanism N(Δ, σ²) vs N(0, σ²).

    The loss is itself Gaussian: with μ = Δ/σ,

    .. math:: Z \sim \mathcal N(\mu^2/2,\ \mu^2).

    Parameters
    ----------
    sigma : float, σ > 0
    sensitivity : float, Δ > 0
    interval : float, grid spacing h > 0 of the losses
    pessimistic : bool, True for an upper bound on δ(ε), False for a lower bound
    method : {"dots", "round"}, see the module docstring
    tail_mass : float, mass cut from each tail (kept in the bound)

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If σ ≤ 0, Δ ≤ 0, interval ≤ 0 or method is unknown.

    References
    ----------
    Balle & Wang (2018), Thm 8 (the analytic Gaussian δ); source S2, S2-02.

    Examples
    --------
    >>> up = pld_gaussian(1.0, interval=1e-2)
    >>> lo = pld_gaussian(1.0, interval=1e-2, pessimistic=False)
    >>> exact = gaussian_delta_exact(1.0, 1.0)
    >>> bool(lo.delta(1.0) <= exact <= up.delta(1.0)), round(exact, 4)
    (True, 0.1269)
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    sigma = float(check_positive(sigma, "sigma"))
    sens = float(check_positive(sensitivity, "sensitivity"))
    interval = float(check_interval(interval, "interval", 0.0, MAX_INTERVAL, closed_low=False))
    _check_method(method)
    tail_mass = check_tail_mass(tail_mass)
    mu = sens / sigma
    check_grid_points((mu * mu + 80.0 * mu + 1.0) / interval, f"sensitivity/sigma = {mu:.3g} at interval = {interval:g}",
                  "use a larger interval or sigma")
    law = privacy_loss_gaussian(sigma, sens).law
    return PrivacyLossDistribution([discretise_loss_law(law, interval=interval, pessimistic=pessimistic,
                                                        method=method, tail_mass=tail_mass)])


@named_shapes
def pld_laplace(scale, sensitivity=1.0, *, interval=1e-3, pessimistic=True,
                method="dots", tail_mass=DEFAULT_TAIL_MASS):
    r"""Discretised PLD of the Laplace mechanism Lap(Δ, b) vs Lap(0, b).

    The loss has atoms ½e^{−Δ/b} at −Δ/b and ½ at Δ/b and density
    ¼e^{(ℓ−Δ/b)/2} on (−Δ/b, Δ/b); for 0 ≤ ε < Δ/b

    .. math:: \delta(\varepsilon) = 1 - e^{(\varepsilon - \Delta/b)/2}.

    Parameters
    ----------
    scale : float, b > 0
    sensitivity : float, Δ > 0
    interval, pessimistic, method, tail_mass : see :func:`pld_gaussian`

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If b ≤ 0, Δ ≤ 0, interval ≤ 0 or method is unknown.

    References
    ----------
    Koskela, Jälkö, Honkela (2020), Sec. 6 (the Laplace PLD); source S2, S2-02.

    Examples
    --------
    >>> up = pld_laplace(1.0, interval=1e-3)
    >>> round(up.delta(0.5), 3)  # 1 − e^{−1/4}
    0.221
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    b = float(check_positive(scale, "scale"))
    sens = float(check_positive(sensitivity, "sensitivity"))
    interval = float(check_interval(interval, "interval", 0.0, MAX_INTERVAL, closed_low=False))
    _check_method(method)
    tail_mass = check_tail_mass(tail_mass)
    check_grid_points((2.0 * sens / b + 1.0) / interval, f"sensitivity/scale = {sens / b:.3g} at interval = {interval:g}",
                  "use a larger interval or scale")
    law = privacy_loss_laplace(b, sens).law
    return PrivacyLossDistribution([discretise_loss_law(law, interval=interval, pessimistic=pessimistic,
                                                        method=method, tail_mass=tail_mass)])


@named_shapes
def pld_randomized_response(p, *, interval=1e-3, pessimistic=True, method="dots"):
    r"""Discretised PLD of binary randomized response (truth reported with probability p).

    The loss takes ℓ = log(p/(1−p)) with probability p and −ℓ with 1 − p, so

    .. math:: \delta(\varepsilon) = \max\big(0,\ p - e^{\varepsilon}(1-p)\big)
              \quad (p \ge \tfrac12).

    Parameters
    ----------
    p : float, p ∈ (0, 1)
    interval, pessimistic, method : see :func:`pld_gaussian`

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If p ∉ (0, 1), interval ≤ 0 or method is unknown.

    References
    ----------
    Warner (1965); source S2, S2-11 (randomized response as the canonical (ε, δ) pair).

    Examples
    --------
    >>> round(pld_randomized_response(0.75).delta(0.5), 4)  # 0.75 − e^{0.5}·0.25
    0.3378
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    p = float(check_interval(p, "p", 0, 1, closed_low=False, closed_high=False))
    interval = float(check_interval(interval, "interval", 0.0, MAX_INTERVAL, closed_low=False))
    _check_method(method)
    law = privacy_loss_randomized_response(p).law
    return PrivacyLossDistribution([discretise_loss_law(law, interval=interval, pessimistic=pessimistic,
                                                        method=method, tail_mass=DEFAULT_TAIL_MASS)])


@named_shapes
def pld_from_probabilities(p_probs, q_probs, *, interval=1e-3, pessimistic=True, method="dots"):
    r"""Discretised PLD of two pmfs on the same finite outcome set (one direction, P ‖ Q).

    Outcomes with Q(y) = 0 < P(y) carry loss +∞; outcomes with P(y) = 0 carry no P-mass.

    .. math:: \delta(\varepsilon) = \sum_{y} \max(0,\ P(y) - e^{\varepsilon} Q(y))
              = \sum_{y: Q(y)>0} P(y) \max(0, 1 - e^{\varepsilon - \ell_y}) + \sum_{y: Q(y) = 0} P(y),
              \qquad \ell_y = \log\frac{P(y)}{Q(y)}

    Parameters
    ----------
    p_probs, q_probs : array_like, the masses P(y) and Q(y), non-negative, same length
    interval, pessimistic, method : see :func:`pld_gaussian`

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If the arrays differ in shape or hold negative entries.

    References
    ----------
    Source S2, S2-01 (privacy loss; the source calls it undefined when supports
    differ — the +∞ atom repairs that) and S2-02.

    Examples
    --------
    >>> pl = pld_from_probabilities([0.5, 0.5, 0.0], [0.25, 0.25, 0.5], interval=1e-2)
    >>> round(pl.delta(0.0), 6)  # Σ max(0, P(y) − Q(y)) = 0.5
    0.5
    >>> round(pld_from_probabilities([0.5, 0.5], [1.0, 0.0]).delta(5.0), 6)  # P-mass where Q(y) = 0
    0.5
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    p = check_nonnegative(p_probs, "p_probs")
    q = check_nonnegative(q_probs, "q_probs")
    if p.shape != q.shape or p.ndim != 1:
        raise ValueError("p_probs and q_probs must be 1-D arrays of the same length")
    for name, v in (("p_probs", p), ("q_probs", q)):
        total = float(np.sum(v))
        if not 0.0 < total <= 1.0 + 1e-9:
            raise ValueError(f"{name} must be masses of a (sub-)probability: entries ≥ 0 with a sum in (0, 1] "
                             f"(got sum {total!r})")
    interval = float(check_interval(interval, "interval", 0.0, MAX_INTERVAL, closed_low=False))
    _check_method(method)
    atoms = []
    for py, qy in zip(p, q):
        if py > 0:
            atoms.append((math.inf if qy == 0 else math.log(py) - math.log(qy), float(py)))
    return PrivacyLossDistribution([discretise_loss_law(AtomicLossLaw(atoms), interval=interval,
                                                        pessimistic=pessimistic, method=method,
                                                        tail_mass=DEFAULT_TAIL_MASS)])


@named_shapes
def pld_subsampled_gaussian(q, sigma, *, interval=1e-4, pessimistic=True, method="dots",
                            tail_mass=DEFAULT_TAIL_MASS):
    r"""Discretised PLD of the Poisson-subsampled Gaussian (sensitivity 1), both directions.

    remove: P = (1−q)N(0,σ²) + qN(1,σ²) vs Q = N(0,σ²); add: the reverse. With
    ℓ(x) = log(1 − q + q e^{(x − 1/2)/σ²}) the loss of the remove direction at output x,

    .. math:: Z_{\rm remove} = \ell(Y),\quad Y \sim P;\qquad
              Z_{\rm add} = -\ell(Y),\quad Y \sim \mathcal N(0,\sigma^2).

    δ(ε) and ε(δ) of the result are the worse of the two directions.

    Parameters
    ----------
    q : float, sampling rate q ∈ [0, 1]
    sigma : float, noise multiplier σ > 0
    interval, pessimistic, method, tail_mass : see :func:`pld_gaussian`

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If q ∉ [0, 1], σ ≤ 0, interval ≤ 0 or method is unknown.

    References
    ----------
    Koskela, Jälkö, Honkela (2020); Zhu, Dong, Wang (2022), "Optimal accounting of
    differential privacy via characteristic function" (both directions); source S4, S4-17.

    Examples
    --------
    >>> pl = pld_subsampled_gaussian(0.01, 1.0).self_compose(100)
    >>> round(float(pl.epsilon(1e-5)), 2)
    0.72
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    interval = float(check_interval(interval, "interval", 0.0, MAX_INTERVAL, closed_low=False))
    _check_method(method)
    tail_mass = check_tail_mass(tail_mass)
    if q == 0.0:
        return PrivacyLossDistribution([LossGrid(0.0, interval, np.ones(1), 0.0, pessimistic)])
    if q == 1.0:
        return pld_gaussian(sigma, interval=interval, pessimistic=pessimistic, method=method,
                            tail_mass=tail_mass)
    laws = [SubsampledGaussianLossLaw(q, sigma, remove) for remove in (True, False)]
    check_discretisation_cost([law.range(tail_mass) for law in laws], interval, method, pessimistic,
                              f"pld_subsampled_gaussian(q = {q:g}, sigma = {sigma:g})")
    grids = [discretise_loss_law(law, interval=interval, pessimistic=pessimistic, method=method, tail_mass=tail_mass)
             for law in laws]
    return PrivacyLossDistribution(grids)


@named_shapes
def pld_from_privacy_loss(loss, *, interval=1e-3, pessimistic=True, method="dots", tail_mass=DEFAULT_TAIL_MASS):
    r"""Discretised PLD of the pair behind a :class:`~dpnotes.privacy_loss.PrivacyLoss` (one direction, P ‖ Q).

    Discretises ``loss.law``, the law of Z = log(P(Y)/Q(Y)), Y ~ P, onto the grid
    h·j, with

    .. math:: \delta(\varepsilon) = \mathbb E\big[\max(0, 1 - e^{\varepsilon - Z})\big];

    ``pld_from_privacy_loss(privacy_loss_gaussian(σ, Δ))`` is ``pld_gaussian(σ, Δ)``, and
    likewise for the Laplace mechanism and randomized response.

    Parameters
    ----------
    loss : PrivacyLoss
    interval, pessimistic, method, tail_mass : see :func:`pld_gaussian`

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    TypeError
        If ``loss`` is not a PrivacyLoss.
    ValueError
        If interval ∉ (0, 10], method is unknown, tail_mass ∉ (0, 10⁻²] or the grid
        would exceed 2²³ points.

    References
    ----------
    Koskela, Jälkö & Honkela (2020); source S2, S2-01 and S2-02.

    Examples
    --------
    >>> from dpnotes.privacy_loss import privacy_loss_laplace
    >>> pl = pld_from_privacy_loss(privacy_loss_laplace(1.0))
    >>> round(pl.delta(0.5), 3)  # 1 − e^{−1/4}
    0.221
    """
    if not isinstance(loss, PrivacyLoss):
        raise TypeError(f"loss must be a PrivacyLoss (got {type(loss).__name__})")
    pessimistic = check_bool(pessimistic, "pessimistic")
    interval = float(check_interval(interval, "interval", 0.0, MAX_INTERVAL, closed_low=False))
    _check_method(method)
    tail_mass = check_tail_mass(tail_mass)
    return PrivacyLossDistribution([discretise_loss_law(loss.law, interval=interval, pessimistic=pessimistic,
                                                        method=method, tail_mass=tail_mass)])


# --------------------------------------------------------------------------
# the analytic Gaussian curve (what pld_gaussian brackets)
# --------------------------------------------------------------------------
@named_shapes
def gaussian_delta_exact(epsilon, mu):
    r"""δ(ε) of a Gaussian pair at distance μ (μ-GDP), in log space.

    .. math:: \delta(\varepsilon) = \Phi\Big(-\frac{\varepsilon}{\mu} + \frac{\mu}{2}\Big)
              - e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu} - \frac{\mu}{2}\Big)

    T-fold composition of the Gaussian mechanism with σ is μ = √T/σ.

    The formula is evaluated by :func:`dpnotes.privacy_loss.delta_gaussian` (ε ≥ 0).
    For ε < 0 the Gaussian pair's symmetry (its curve is the same in both
    directions) and δ_{P‖Q}(ε) = 1 − e^ε + e^ε δ_{Q‖P}(−ε) give

    .. math:: \delta(\varepsilon) = 1 - e^{\varepsilon} + e^{\varepsilon}\,\delta(-\varepsilon),

    a sum of two non-negative terms.

    Parameters
    ----------
    epsilon : float or array, ε ∈ [−∞, ∞] (δ = 0 at ε = ∞)
    mu : float or array, μ > 0

    Returns
    -------
    float or ndarray

    References
    ----------
    Balle & Wang (2018), Thm 8; Dong, Roth, Su (2022), Cor. 2.13.

    Examples
    --------
    >>> round(gaussian_delta_exact(1.0, 1.0), 6)
    0.126937
    """
    eps = check_interval(epsilon, "epsilon", -np.inf, np.inf)
    mu = check_positive(mu, "mu")
    eps, mu = np.broadcast_arrays(eps, mu)
    low = np.minimum(eps, 0.0)  # ε where ε < 0; 0 (and so δ(|ε|) itself) where ε ≥ 0
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):  # ε/μ overflows to ∞ for ε ≫ μ: δ = 0
        positive = np.asarray(delta_gaussian(np.abs(eps), mu), dtype=float)
    # ε = −∞: δ = 1 − 0 + 0·δ(∞) = 1
    out = -np.expm1(low) + np.exp(low) * positive
    return scalar_or_array(np.clip(out, 0.0, 1.0))
