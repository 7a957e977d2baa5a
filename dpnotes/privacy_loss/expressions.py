r"""The four expressions of δ(ε) for a privacy-loss variable (source S2, §2.1), each by its own route.

:func:`delta_sup_over_sets` (sets in output space), :func:`delta_tail_difference`
(tails of Z), :func:`delta_expected_hinge` (an expectation over Z, exact or by
Monte Carlo) and :func:`delta_tail_integral` (an integral of the tail) compute the
same δ(ε) of a :class:`~dpnotes.privacy_loss.variables.PrivacyLoss` independently;
:func:`delta_tail_bound` is the upper bound P[Z > ε] ≥ δ(ε).
"""

import numpy as np

from .._validation import check_int, check_nonnegative, named_shapes
from .curves import hockey_stick_divergence
from .variables import PrivacyLoss, adaptive_integral
# for the doctests, which build their PrivacyLoss with these:
from .variables import privacy_loss_gaussian, privacy_loss_laplace, privacy_loss_randomized_response  # noqa: F401


def _check_loss(loss):
    if not isinstance(loss, PrivacyLoss):
        raise TypeError(f"loss must be a PrivacyLoss (from privacy_loss_gaussian, privacy_loss_laplace, …; got "
                        f"{type(loss).__name__})")


def _as_delta(value):
    """A computed δ as a float in [0, 1]: quadrature or cancellation can leave it a few ulps outside."""
    return float(min(max(float(value), 0.0), 1.0))


def _check_eps_scalar(epsilon):
    return float(check_nonnegative(epsilon, "epsilon"))


@named_shapes
def delta_sup_over_sets(loss, epsilon):
    r"""δ(ε) = sup_E P(E) − e^ε Q(E), computed in output space.

    .. math:: \delta(\varepsilon) = \int \max\{0,\; P(y) - e^\varepsilon Q(y)\}\,dy

    For pmfs this is a finite sum; for densities, adaptive quadrature of the
    positive part over y (split where P(y) = e^ε Q(y) and at the kinks), with the
    integrand scaled by its peak so that tiny δ keep their relative precision.

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0

    Returns
    -------
    float

    References
    ----------
    Source S2, S2-02, equation (.1).

    Examples
    --------
    >>> round(delta_sup_over_sets(privacy_loss_gaussian(1.0), 1.0), 10)
    0.1269367375
    """
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)
    if loss.pmfs is not None:
        return _as_delta(hockey_stick_divergence(*loss.pmfs, eps))

    def log_integrand(y):
        lr = loss.log_ratio(y)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(lr > eps, loss.log_p(y) + np.log(-np.expm1(np.minimum(eps - lr, 0.0))), -np.inf)

    # the event {ℓ(y) > ε} is a half-line (y*, ∞) because the loss ℓ increases in y
    lo_y, hi_y = _half_line_start(loss, eps)
    if lo_y is None:
        return 0.0
    grid = np.linspace(lo_y, hi_y, 4001)
    vals = log_integrand(grid)
    if not np.any(np.isfinite(vals)):
        return 0.0
    shift = float(np.max(vals))
    live = np.nonzero(vals > shift - 80.0)[0]
    a, b = lo_y, float(grid[min(live[-1] + 1, grid.size - 1)])
    pts = [x for x in loss.y_points if a < x < b] + list(np.linspace(a, b, 9)[1:-1])
    val = adaptive_integral(lambda y: np.exp(log_integrand(y) - shift), a, b, points=pts)
    return _as_delta(val * np.exp(shift))


def _half_line_start(loss, eps):
    """(y*, y_end): {ℓ(y) > ε} = (y*, ∞) since the loss ℓ increases in y; the positive part
    P(y) − e^ε Q(y) is negligible (below e^-100 of the largest density value) beyond y_end.
    Returns (None, None) when the set is empty."""
    from scipy import optimize  # imported here: loading this module stays light
    scale = loss.y_scale
    top, bottom = max(loss.y_points), min(loss.y_points)
    hi = top + scale
    while float(loss.log_ratio(hi)) <= eps:
        hi = top + 2.0 * (hi - top)
        if hi - top > 1e6 * scale:
            return None, None  # the loss is bounded by ε
    lo = bottom - scale
    while float(loss.log_ratio(lo)) > eps:
        lo = bottom - 2.0 * (bottom - lo)
    y_star = float(optimize.brentq(lambda y: float(loss.log_ratio(y)) - eps, lo, hi,
                                   xtol=1e-15, rtol=1e-15))
    peak = max(float(loss.log_p(y)) for y in [y_star, *[x for x in loss.y_points if x > y_star]])
    end = max(y_star, top) + scale
    while float(loss.log_p(end)) > peak - 100.0:
        end = y_star + 2.0 * (end - y_star)
    return y_star, float(end)


@named_shapes
def delta_tail_difference(loss, epsilon):
    r"""δ(ε) = P[Z > ε] − e^ε P[−Z' > ε], Z = PrivLoss(P‖Q), Z' = PrivLoss(Q‖P).

    .. math:: \delta(\varepsilon) = \Pr_{Z}[Z > \varepsilon] - e^\varepsilon \Pr_{Z'}[-Z' > \varepsilon]

    Computed from the closed-form survival functions of the privacy-loss laws.

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0

    Returns
    -------
    float

    References
    ----------
    Source S2, S2-02, first equality.

    Examples
    --------
    >>> round(delta_tail_difference(privacy_loss_laplace(1.0), 0.0), 12)
    0.393469340287
    """
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)
    with np.errstate(divide="ignore", over="ignore"):
        # e^ε·P[−Z' > ε] in log space: e^ε alone overflows beyond ε ≈ 709 while the product is tiny
        return _as_delta(loss.sf(eps) - np.exp(eps + np.log(loss.sf_q(eps))))


@named_shapes
def delta_expected_hinge(loss, epsilon, n_samples=None, seed=0):
    r"""δ(ε) = E[max{0, 1 − e^{ε − Z}}], Z = PrivLoss(P‖Q).

    .. math:: \delta(\varepsilon) = \mathbb E_{Z}\big[\max\{0,\; 1 - e^{\varepsilon - Z}\}\big]

    Exact from the law of Z (atoms plus quadrature of its density) by default;
    with ``n_samples`` a Monte Carlo estimate from ``default_rng(seed)``, returned
    together with its standard error.

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0
    n_samples : int in [2, 1e8], optional
    seed : int, default 0

    Returns
    -------
    float, or (estimate, standard error) when ``n_samples`` is given

    References
    ----------
    Source S2, S2-02, second equality.

    Examples
    --------
    >>> round(delta_expected_hinge(privacy_loss_randomized_response(0.75), 0.0), 12)
    0.5
    >>> est, se = delta_expected_hinge(privacy_loss_gaussian(1.0), 1.0, n_samples=10**5)
    >>> abs(est - 0.126936737507) < 5 * se
    True
    """
    seed = check_int(seed, "seed", maximum=2**63 - 1)
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)

    def hinge(z):
        with np.errstate(over="ignore"):
            return np.maximum(0.0, -np.expm1(np.minimum(eps - np.asarray(z, float), 700.0)))

    if n_samples is None:
        if loss.density is not None:
            lo, hi = loss.density_range
            total = float(np.sum(loss.masses * hinge(loss.atoms))) if loss.atoms.size else 0.0
            lo = max(lo, eps)
            if hi > lo:
                total += adaptive_integral(lambda z: hinge(z) * loss.density(z), lo, hi)
            return _as_delta(total)
        return _as_delta(loss.expect(hinge))
    n_samples = check_int(n_samples, "n_samples", minimum=2, maximum=10**8)
    z = loss.sample(n_samples, seed)
    h = hinge(z)
    return float(h.mean()), float(h.std(ddof=1) / np.sqrt(h.size))


@named_shapes
def delta_tail_integral(loss, epsilon):
    r"""δ(ε) = ∫_ε^∞ e^{ε − z} P[Z > z] dz, by quadrature over z.

    .. math:: \delta(\varepsilon) = \int_\varepsilon^\infty e^{\varepsilon - z}\,\Pr[Z > z]\,dz

    (integration by parts of the expected hinge).

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0

    Returns
    -------
    float

    References
    ----------
    Source S2, S2-02, third equality.

    Examples
    --------
    >>> round(delta_tail_integral(privacy_loss_laplace(1.0), 0.5), 10)
    0.2211992169
    """
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)
    pts = [float(a) for a in loss.atoms if a > eps]
    hi = max(pts) if loss.density is None and pts else np.inf
    if loss.density is not None and np.isfinite(loss.density_range[1]):
        hi = max(loss.density_range[1], *pts) if pts else loss.density_range[1]
    if hi <= eps:
        return 0.0
    return _as_delta(adaptive_integral(lambda z: np.exp(eps - z) * loss.sf(z), eps, hi, points=pts))


@named_shapes
def delta_tail_bound(loss, epsilon):
    r"""The upper bound P[Z > ε] ≥ δ(ε).

    .. math:: \delta(\varepsilon) \le \Pr_{Z \sim \mathrm{PrivLoss}(P\|Q)}[Z > \varepsilon]

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0

    Returns
    -------
    float

    References
    ----------
    Source S2, S2-02, final inequality.

    Examples
    --------
    >>> round(delta_tail_bound(privacy_loss_gaussian(1.0), 0.5), 12)
    0.5
    """
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)
    return float(loss.sf(eps))
