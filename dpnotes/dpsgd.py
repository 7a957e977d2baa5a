r"""The ε (or δ) of DP-SGD by each accounting route of source S4, side by side.

DP-SGD with Poisson sampling rate q, noise multiplier σ (clipping norm C = 1) and T
steps releases T noisy gradient sums; each step is the *sampled Gaussian
mechanism*. Its (ε, δ) can be bounded along several routes (source S4,
"Comparison among different methods", S4-17):

``"route1"``
    per-step (ε₀, δ₀) of the Gaussian mechanism → amplification by subsampling
    for (ε, δ) → advanced composition over T steps;
``"route2"``
    RDP of the Gaussian *without* subsampling, α/(2σ²) per step, composed to
    Tα/(2σ²) and converted with Mironov's formula (source S4, Example 3);
``"route3"``
    Claim 26's bound at orders α = c₂σ² and c₁ = qσ (so that the rate is q = c₁/σ),
    composed and converted as in Claim 28 (S4-13, S4-15) — only in the regime σ ≥ 1,
    qσ ≤ 1. Its constant is the largest moment on a 13-point grid of σ′ (σ among
    them), a value at most the certified K(c₁, c₂) and sometimes below it (see
    :func:`rdp_route3`);
``"rdp"``
    the exact RDP of the sampled Gaussian, composed ×T and converted with the
    improved formula at the best order, searched on the exact curve (or on a
    grid of orders the caller passes) — the tight RDP route;
``"rdp-mironov"``
    the same with Mironov's conversion (what the published numbers used);
``"pld"``
    a certified upper bound from the numerically composed privacy loss
    distribution (:mod:`dpnotes.pld`), the tightest of all.

**How an RDP accountant computes (S4-16).** For each order α of a fixed grid
(:data:`dpnotes.orders.DEFAULT_ORDERS`) it evaluates
:math:`\log A_\alpha` with
:math:`A_\alpha = \mathbb E_{z\sim\mathcal N(0,\sigma^2)}[(1-q+q e^{(2z-1)/(2\sigma^2)})^\alpha]`
— the binomial sum of Claim 27 for integer α, a quadrature (or a two-sided
series) for fractional α — so that one step is (α, log A_α/(α − 1))-RDP.
Composition multiplies the RDP curve ε(α) by T. To get ε from δ it evaluates
Tε(α) + log(1/δ)/(α − 1) (Mironov) or the improved
Tε(α) + log((α−1)/α) − (log δ + log α)/(α − 1) at every order and keeps the
smallest; to get δ from ε it evaluates e^{(α−1)(Tε(α)−ε)} (times the improved
factor) and keeps the smallest. When the best order is the first or last of
the grid a wider grid might do better, and :class:`OrderGridWarning` is raised.
Since every order gives a valid bound, the ``"rdp"`` route by default
evaluates the exact curve only around the best order, which it brackets on a
coarse ladder and then locates on the continuous (fractional-order) curve
(:func:`dpnotes.subsampling.epsilon_rdp_subsampled_gaussian`): a smaller ε
than any fixed grid, at a tenth of the cost.

**The other way round.** :func:`dpsgd_sigma` returns the smallest noise multiplier
for which a route certifies a target (ε, δ) at rate q and T steps (bisection on
log σ, on the certified side); :func:`dpsgd_epsilon_replace_one` turns the
add/remove ε into a replace-one one by group privacy.

Steps and epochs: one epoch is 1/q steps in expectation, so
``steps = ceil(epochs / q)`` (:func:`steps_from_epochs`, the rounding
TensorFlow Privacy's ``compute_dp_sgd_privacy`` uses).
"""

import math
import warnings
from functools import lru_cache

import numpy as np

from ._logspace import amplified_epsilon
from ._validation import (
    AccuracyWarning,
    check_choice,
    check_count,
    check_delta,
    check_noise_multiplier,
    check_nonnegative,
    check_order,
    check_positive,
    check_probability,
    check_steps,
    frozen_array,
    named_shapes,
    SIGMA_RANGE,
)
from .composition import epsilon_advanced_composition
from .conversion import OrderGridWarning, delta_from_rdp, epsilon_from_rdp
from .orders import DEFAULT_ORDERS
from .pld import dpsgd_delta_pld, dpsgd_epsilon_pld
from .privacy_loss import epsilon_gaussian
from .subsampling import (
    delta_rdp_subsampled_gaussian,
    epsilon_rdp_subsampled_gaussian,
    log_moment_subsampled_gaussian,
    rdp_subsampled_gaussian,
)

__all__ = [
    "AccuracyWarning",
    "ROUTES",
    "ROUTE3_ORDERS",
    "route_applicable",
    "steps_from_epochs",
    "epochs_from_steps",
    "rdp_route3",
    "dpsgd_epsilon",
    "dpsgd_delta",
    "dpsgd_epsilon_routes",
    "SIGMA_ROUTES",
    "dpsgd_sigma",
    "dpsgd_epsilon_replace_one",
]

#: The accounting routes, loosest first.
ROUTES = ("route1", "route2", "route3", "rdp-mironov", "rdp", "pld")

#: Orders α at which route 3 evaluates the constant K(c₁, c₂) of Claim 26 (c₂ = α/σ²).
ROUTE3_ORDERS = frozen_array([1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0,
                              48.0, 64.0, 96.0, 128.0, 256.0])  # read-only
# σ' grid of the sup defining K(c₁, c₂) (σ itself is always added).
_ROUTE3_SIGMAS = np.geomspace(1.0, 300.0, 12)


def _check_route(route):
    check_choice(route, "route", ROUTES)


def _check_common(q, sigma, steps):
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    return q, sigma, steps


@named_shapes
def steps_from_epochs(epochs, q):
    r"""Number of DP-SGD steps for a number of epochs at sampling rate q.

    .. math:: T = \lceil \text{epochs}/q \rceil

    Parameters
    ----------
    epochs : float, > 0
    q : float, q ∈ (0, 1]

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If epochs ≤ 0 or q ∉ (0, 1].

    References
    ----------
    Source S4 ("T := k/r": k epochs at rate r, i.e. T = epochs/q here); TensorFlow Privacy,
    ``compute_dp_sgd_privacy``.

    Examples
    --------
    >>> steps_from_epochs(60, 256 / 60000)
    14063
    >>> steps_from_epochs(100, 0.01)
    10000
    """
    epochs = float(check_positive(epochs, "epochs"))
    q = float(check_positive(check_probability(q, "q"), "q"))
    steps = epochs / q
    if not math.isfinite(steps):
        raise ValueError(f"epochs / q (the number of steps) must be below 1.8e308, the largest float "
                         f"(got epochs = {epochs:g}, q = {q:g})")
    # round first so that 100/0.01 = 10000.000000000002 does not become 10001
    return int(math.ceil(round(steps, 9)))


@named_shapes
def epochs_from_steps(steps, q):
    r"""Number of epochs (expected passes over the data) of T steps at rate q: T·q.

    .. math:: \text{epochs} = T q

    Parameters
    ----------
    steps : int, T ≥ 1
    q : float, q ∈ [0, 1]

    Returns
    -------
    float

    References
    ----------
    Source S4 ("T := k/r": k epochs at rate r, i.e. epochs = Tq here).

    Examples
    --------
    >>> epochs_from_steps(10000, 0.01)
    100.0
    """
    return float(check_count(steps, "steps") * float(check_probability(q, "q")))


@named_shapes
def route_applicable(q, sigma, route):
    r"""Whether ``route`` gives a number for (q, σ) (route 3 needs σ ≥ 1 and qσ ≤ 1).

    .. math:: \text{route 3: } \sigma \ge 1,\quad c_1 = q\sigma \le 1

    Routes 1, 2, "rdp", "rdp-mironov" and "pld" apply to every valid (q, σ).

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    route : str, one of :data:`ROUTES`

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        For an unknown route or q, σ out of range.

    References
    ----------
    Source S4, Claim 26 (S4-13) and Claim 28 (S4-15).

    Examples
    --------
    >>> route_applicable(0.01, 4.0, "route3"), route_applicable(0.5, 4.0, "route3")
    (True, False)
    """
    _check_route(route)
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    if route == "route3":
        return sigma >= 1.0 and q * sigma <= 1.0
    return True


def _require_route3(q, sigma):
    if not (sigma >= 1.0 and q * sigma <= 1.0):
        raise ValueError(
            "route 3 (Claim 26/28) needs sigma >= 1 and q*sigma <= 1 (rate q <= c1/sigma with "
            f"c1 = q*sigma <= 1); got q = {q:g}, sigma = {sigma:g}, q*sigma = {q * sigma:g}")


# ----------------------------------------------------------------------------
# Route 3: the constant of Claim 26
# ----------------------------------------------------------------------------

@lru_cache(maxsize=4096)
def _route3_log_c(q, sigma):
    """log K(c₁, c₂_j) for c₁ = qσ and c₂_j = ROUTE3_ORDERS/σ² (batched over c₂ per σ')."""
    c1 = q * sigma
    c2 = ROUTE3_ORDERS / sigma ** 2
    best = np.full(c2.size, -np.inf)
    for sp in np.unique(np.append(_ROUTE3_SIGMAS, sigma)):
        lam = c2 * sp * sp
        ok = lam >= 1.01  # σ' ≥ σ₀ = max(1, c₁, √(1.01/c₂))
        if not np.any(ok):
            continue
        r = c1 / sp
        if r >= 1.0:  # q' = c₁/σ' = 1: the plain Gaussian, G_α = exp(α(α − 1)/(2σ'²))
            log_g = lam[ok] * (lam[ok] - 1.0) / (2.0 * sp * sp)
        else:
            log_g = log_moment_subsampled_gaussian(lam[ok], r, sp)
        best[ok] = np.maximum(best[ok], log_g)
    best.setflags(write=False)
    return best


@named_shapes
def rdp_route3(q, sigma):
    r"""Route 3's per-step RDP at the orders :data:`ROUTE3_ORDERS`: log K(qσ, α/σ²)/(α − 1).

    .. math:: \varepsilon_3(\alpha) = \frac{\log K(c_1, c_2)}{\alpha - 1},\qquad c_1 = q\sigma,\
              c_2 = \alpha/\sigma^2,\qquad
              K(c_1, c_2) = \sup_{\sigma'\ge\sigma_0} G_{c_2\sigma'^2}\big((1-q')P_0
              + q'P_1 \,\big\|\, P_0\big),\quad q' = \frac{c_1}{\sigma'},\
              P_i = \mathcal N(i, \sigma'^2),

    where G_α(P‖Q) = exp((α − 1)D_α(P‖Q)).
    Claim 26 says: if q ≤ c₁/σ and α ≤ c₂σ², the sampled Gaussian is
    (α, log K/(α − 1))-RDP — the O(q²α/σ²) of the source, with the constant made
    explicit. We take the smallest admissible c₁ = qσ and, for each order α of
    :data:`ROUTE3_ORDERS`, c₂ = α/σ².

    **What is computed is a grid value, not the constant.** The supremum K is
    replaced by the largest moment over a 13-point grid: 12 log-spaced
    σ' ∈ [1, 300] plus σ itself. The function of σ' is the one whose supremum
    :func:`dpnotes.subsampling.claim26_constant_bracket` certifies (the tests
    recompute both), but a maximum over a finite grid is only a *lower* bound on
    the supremum: the value returned is at most log K/(α − 1) and can be well
    below it (q = 0.1, σ = 2, α = 12: the grid gives 1.3454 where
    K(0.2, 3) ≥ 1.3758). So route 3 is shown at its most favourable, not as Claim 26
    certifies it. It is still an upper bound on the run's RDP: since σ is in the
    grid, ε₃ ≥ the exact RDP of the sampled Gaussian at (q, σ). Certifying K at
    every order and every (q, σ) of a figure would cost seconds per order
    (:func:`~dpnotes.subsampling.claim26_constant_bracket`), and the orders with
    c₂ > 10 lie outside its range.
    The source derives Claim 26 from Conjecture 1, which is false in general
    (S4-12, :func:`dpnotes.subsampling.conjecture1_counterexample`); its Part 1
    (the worst pair is the one-dimensional mixture) does hold for the sampled
    Gaussian (Mironov, Talwar & Zhang 2019), which is what this computation uses.

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0

    Returns
    -------
    ndarray
        ε₃(α) at the orders α of :data:`ROUTE3_ORDERS`.

    Raises
    ------
    ValueError
        Unless σ ≥ 1 and qσ ≤ 1 (the regime q = O(1/σ) with c₁ ≤ 1).

    References
    ----------
    Source S4, Claims 26 and 28 (S4-13, S4-15); Abadi et al. (2016), Lemma 3.

    Examples
    --------
    >>> from dpnotes.subsampling import rdp_subsampled_gaussian
    >>> rho3 = rdp_route3(0.01, 4.0)
    >>> bool(np.all(rho3 >= rdp_subsampled_gaussian(ROUTE3_ORDERS, 0.01, 4.0)))
    True
    """
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    _require_route3(q, sigma)
    if q == 0.0:
        return np.zeros(ROUTE3_ORDERS.size)
    return np.maximum(np.array(_route3_log_c(q, sigma)), 0.0) / (ROUTE3_ORDERS - 1.0)


# ----------------------------------------------------------------------------
# Route 1: per-step (ε₀, δ₀), subsampling, advanced composition
# ----------------------------------------------------------------------------

def _route1_eps_of_fraction(log_f, q, sigma, steps, delta):
    """ε of route 1 when the composition slack is δ_s = f·δ and δ₀ = (1 − f)δ/(Tq)."""
    f = np.exp(log_f)
    d0 = (1.0 - f) * delta / (steps * q)
    d0 = np.minimum(d0, 0.5)
    eps0 = np.asarray(epsilon_gaussian(d0, 1.0 / sigma), float)
    eps1 = amplified_epsilon(q, eps0)
    return np.asarray(epsilon_advanced_composition(eps1, steps, f * delta, form="zcdp"), float)


def _route1_epsilon(q, sigma, steps, delta):
    # grid over log f ∈ [log 1e-8, log(1 − 1e-8)], then a bounded Brent refinement
    from scipy import optimize  # imported here: loading this module stays light
    grid = np.log(np.concatenate([np.geomspace(1e-8, 0.5, 40), 1.0 - np.geomspace(0.5, 1e-8, 40)[1:]]))
    vals = _route1_eps_of_fraction(grid, q, sigma, steps, delta)
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    res = optimize.minimize_scalar(lambda x: float(_route1_eps_of_fraction(np.array([x]), q, sigma, steps, delta)[0]),
                                   bounds=(lo, hi), method="bounded", options={"xatol": 1e-6})
    return float(min(vals[i], res.fun))


def _route1_delta(q, sigma, steps, epsilon):
    """min over δ₀ of Tqδ₀ + δ_s, δ_s solving ε = ½Tε'² + ε'√(2T log 1/δ_s)."""
    from scipy import optimize  # imported here: loading this module stays light
    def total(log_d0):
        d0 = np.exp(log_d0)
        eps0 = np.asarray(epsilon_gaussian(np.minimum(d0, 0.5), 1.0 / sigma), float)
        e1 = amplified_epsilon(q, eps0)
        slack = epsilon - 0.5 * steps * e1 ** 2
        with np.errstate(divide="ignore", invalid="ignore"):
            log_ds = np.where((slack > 0) & (e1 > 0), -(slack / np.where(e1 > 0, e1, 1.0)) ** 2 / (2.0 * steps),
                              np.where(e1 == 0, -np.inf, 0.0))
        return np.minimum(steps * q * d0 + np.exp(log_ds), 1.0)

    grid = np.linspace(np.log(1e-300), np.log(0.5), 240)
    vals = total(grid)
    i = int(np.argmin(vals))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    res = optimize.minimize_scalar(lambda x: float(total(np.array([x]))[0]), bounds=(lo, hi),
                                   method="bounded", options={"xatol": 1e-8})
    return float(min(vals[i], res.fun))


# ----------------------------------------------------------------------------
# Public API
# ----------------------------------------------------------------------------

#: the conversion each RDP route uses (route 2 and 3 as the source does, the published numbers: Mironov's)
_CONVERSION = {"route2": "mironov", "route3": "mironov", "rdp-mironov": "mironov", "rdp": "improved"}


def _composed_rdp(q, sigma, steps, route, orders):
    """(orders, RDP curve ε(α) of T composed steps) for the RDP routes, before conversion."""
    if route == "route3":
        _require_route3(q, sigma)
        return ROUTE3_ORDERS, steps * rdp_route3(q, sigma)
    orders = _orders(orders)
    if route == "route2":
        return orders, steps * orders / (2.0 * sigma ** 2)
    return orders, steps * rdp_subsampled_gaussian(orders, q, sigma)


def _orders(orders):
    return DEFAULT_ORDERS if orders is None else check_order(orders, "orders")


@named_shapes
def dpsgd_epsilon(q, sigma, steps, delta, route="rdp", orders=None):
    r"""ε at δ of DP-SGD (Poisson rate q, noise multiplier σ, T steps) along one route.

    .. math::
        \text{route 1: } \varepsilon = \min_{\delta_0}\ \tfrac12 T\varepsilon'^2
            + \varepsilon'\sqrt{2T\log(1/\delta_s)},\quad
            \varepsilon' = \log\big(1 + q(e^{\varepsilon_0(\delta_0)} - 1)\big),\
            \delta = Tq\delta_0 + \delta_s;\\
        \text{route 2: } \varepsilon = \min_\alpha \frac{T\alpha}{2\sigma^2} + \frac{\log(1/\delta)}{\alpha - 1};\qquad
        \text{rdp: } \varepsilon = \min_\alpha T\varepsilon_q(\alpha) + \log\frac{\alpha-1}{\alpha}
            - \frac{\log\delta + \log\alpha}{\alpha-1}.

    * ``"route1"``: ε₀(δ₀) is the *exact* ε of one Gaussian step
      (:func:`dpnotes.privacy_loss.epsilon_gaussian`, μ = 1/σ); amplification by
      subsampling gives (ε', qδ₀); advanced composition of T (ε', qδ₀)-DP
      steps (the ½Tε'² form, :func:`dpnotes.composition.epsilon_advanced_composition`)
      gives (ε, Tqδ₀ + δ_s). The split of δ between Tqδ₀ and the slack δ_s is
      optimised numerically: a grid of 79 fractions δ_s/δ ∈ [10⁻⁸, 1 − 10⁻⁸]
      (log-spaced towards both ends), then a bounded Brent search between the
      neighbours of the best grid point.
    * ``"route2"``: every step is at most as private as the full Gaussian
      (subsampling never hurts), so T steps are (α, Tα/(2σ²))-RDP; Mironov's
      conversion over the orders. (The source's Route 2 composes one full-batch
      step per epoch instead — a different algorithm; see the chapter.)
    * ``"route3"``: :func:`rdp_route3` composed ×T, Mironov's conversion over
      :data:`ROUTE3_ORDERS` (this is Claim 28's Chernoff step at the best order
      α = c₂σ²). Raises unless σ ≥ 1 and qσ ≤ 1.
    * ``"rdp"`` / ``"rdp-mironov"``: T·:func:`dpnotes.subsampling.rdp_subsampled_gaussian`
      (the RDP curve ε_q(α) of one step) on ``orders``, improved / Mironov conversion.
      With ``orders=None``, ``"rdp"`` does not use a grid: it searches the best
      order on the exact (fractional-order) curve,
      :func:`dpnotes.subsampling.epsilon_rdp_subsampled_gaussian` — never above the
      value on :data:`dpnotes.orders.DEFAULT_ORDERS`, and about ten times faster;
      ``"rdp-mironov"`` and ``"route2"`` use DEFAULT_ORDERS.
    * ``"pld"``: :func:`dpnotes.pld.dpsgd_epsilon_pld` (``orders`` ignored).

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    delta : float, δ ∈ (0, 1)
    route : str, one of :data:`ROUTES`
    orders : array, optional
        Grid of orders for the RDP routes, used exactly as given. Default: for ``"rdp"``
        the continuous search of the best order (above), for ``"rdp-mironov"`` and
        ``"route2"`` :data:`dpnotes.orders.DEFAULT_ORDERS`.

    Returns
    -------
    float
        ε ≥ 0 (finite).

    Raises
    ------
    ValueError
        For parameters out of range, an unknown route, or route 3 outside its regime.

    Warns
    -----
    OrderGridWarning
        When the best order is at the edge of the grid (RDP routes), or, for ``"rdp"``
        with the default, at an end of :data:`dpnotes.subsampling.ORDER_LADDER`.

    References
    ----------
    Source S4, "Comparison among different methods" (S4-17), Example 3, Claims 26
    and 28 (S4-13, S4-15), the TensorFlow Privacy section (S4-16); source S3,
    moments accountant (S3-07); Abadi et al. (2016); Mironov, Talwar & Zhang (2019).

    Examples
    --------
    >>> round(dpsgd_epsilon(0.01, 4.0, 10000, 1e-5, route="rdp-mironov"), 4)
    1.2584
    >>> round(dpsgd_epsilon(0.01, 4.0, 10000, 1e-5, route="rdp"), 4)
    1.0354
    >>> round(dpsgd_epsilon(0.01, 4.0, 10000, 1e-5, route="rdp", orders=DEFAULT_ORDERS), 4)
    1.0355
    """
    _check_route(route)
    q, sigma, steps = _check_common(q, sigma, steps)
    delta = float(check_delta(delta))
    if route == "pld":
        return float(dpsgd_epsilon_pld(q, sigma, steps, delta))
    if q == 0.0:
        return 0.0
    if route == "route1":
        return _route1_epsilon(q, sigma, steps, delta)
    if route == "rdp" and orders is None:
        return epsilon_rdp_subsampled_gaussian(q, sigma, steps, delta)
    return float(epsilon_from_rdp(*_composed_rdp(q, sigma, steps, route, orders), delta,
                                  method=_CONVERSION[route]))


@named_shapes
def dpsgd_delta(q, sigma, steps, epsilon, route="rdp", orders=None):
    r"""δ at ε of DP-SGD along one route (δ is the source's preferred metric, S4-17).

    .. math::
        \text{route 1: } \delta = \min_{\delta_0}\ Tq\delta_0 + \exp\Big(-\frac{(\varepsilon - \tfrac12 T\varepsilon'^2)^2}
            {2T\varepsilon'^2}\Big);\qquad
        \text{RDP routes: } \delta = \min_\alpha e^{(\alpha-1)(T\varepsilon(\alpha) - \varepsilon)}\ (\times\text{improved factor})

    Same routes as :func:`dpsgd_epsilon`; route 1 inverts the ½Tε'² form of
    advanced composition for the slack δ_s (which must satisfy ε > ½Tε'²,
    otherwise the δ₀ is discarded) and minimises Tqδ₀ + δ_s over δ₀ (grid of
    240 log-spaced δ₀ ∈ [10⁻³⁰⁰, ½], then bounded Brent).

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    epsilon : float, ε ≥ 0
    route : str, one of :data:`ROUTES`
    orders : array, optional
        As :func:`dpnotes.dpsgd.dpsgd_epsilon` (``"rdp"`` with the default: the continuous
        search, :func:`dpnotes.subsampling.delta_rdp_subsampled_gaussian`).

    Returns
    -------
    float
        δ ∈ [0, 1].

    Raises
    ------
    ValueError
        As :func:`dpsgd_epsilon`.

    References
    ----------
    Source S4, S4-16 and S4-17; Mironov (2017), Prop. 3; Canonne, Kamath & Steinke (2020).

    Examples
    --------
    >>> d = dpsgd_delta(0.01, 4.0, 10000, 1.0355, route="rdp")
    >>> bool(9.9e-6 < d < 1.01e-5)
    True
    """
    _check_route(route)
    q, sigma, steps = _check_common(q, sigma, steps)
    epsilon = float(check_nonnegative(epsilon, "epsilon"))
    if route == "pld":
        return float(dpsgd_delta_pld(q, sigma, steps, epsilon))
    if q == 0.0:
        return 0.0
    if route == "route1":
        return _route1_delta(q, sigma, steps, epsilon)
    if route == "rdp" and orders is None:
        return delta_rdp_subsampled_gaussian(q, sigma, steps, epsilon)
    return float(delta_from_rdp(*_composed_rdp(q, sigma, steps, route, orders), epsilon,
                                method=_CONVERSION[route]))


@named_shapes
def dpsgd_epsilon_routes(q, sigma, steps, delta, orders=None, routes=None):
    r"""ε at δ of DP-SGD along every applicable route, as a dict ``{route: ε}``.

    .. math:: \{\,\text{route} \mapsto \varepsilon_{\text{route}}(q, \sigma, T, \delta) : \text{route applicable}\,\}

    Routes that do not apply (route 3 outside σ ≥ 1, qσ ≤ 1) are left out;
    :class:`OrderGridWarning` is passed on.

    Parameters
    ----------
    q, sigma, steps, delta : as :func:`dpsgd_epsilon`
    orders : array, optional
    routes : sequence of str, optional
        Default: all of :data:`ROUTES` except "pld" (which costs seconds).

    Returns
    -------
    dict

    References
    ----------
    Source S4, S4-17.

    Examples
    --------
    >>> r = dpsgd_epsilon_routes(0.01, 4.0, 10000, 1e-5)
    >>> sorted(r, key=r.get, reverse=True)[-1]
    'rdp'
    """
    if routes is None:
        routes = tuple(r for r in ROUTES if r != "pld")
    elif isinstance(routes, str) or not isinstance(routes, (list, tuple)) or not routes:
        raise TypeError(f"routes must be a non-empty list of route names from {ROUTES} (got {routes!r:.60})")
    routes = tuple(check_choice(r, "routes", ROUTES) for r in routes)
    out = {}
    for r in routes:
        if route_applicable(q, sigma, r):
            out[r] = dpsgd_epsilon(q, sigma, steps, delta, route=r, orders=orders)
    return out


#: the routes :func:`dpsgd_sigma` can calibrate: those that give ε for every σ (route 3 needs σ ≥ 1, qσ ≤ 1)
SIGMA_ROUTES = ("route1", "route2", "rdp-mironov", "rdp", "pld")
# the bracket search: the first guess of σ and the factor by which the bracket grows
_SIGMA_START, _SIGMA_GROWTH = 1.0, 4.0


@named_shapes
def dpsgd_sigma(epsilon, delta, q, steps=None, *, epochs=None, route="rdp", rtol=1e-3, orders=None):
    r"""The smallest noise multiplier σ for which DP-SGD is (ε, δ)-DP along a route (certified side).

    .. math:: \sigma^\star = \min\{\sigma > 0 : \varepsilon_{\text{route}}(q, \sigma, T, \delta) \le \varepsilon\},
              \qquad \text{returned: } \hat\sigma \in [\sigma^\star, (1 + \text{rtol})\,\sigma^\star]
              \text{ with } \varepsilon_{\text{route}}(q, \hat\sigma, T, \delta) \le \varepsilon .

    ε(σ) decreases with σ along every route (more noise, a smaller divergence at every order,
    a larger ε₀ nowhere), so σ* is found by bisection on log σ: a bracket [σ_lo, σ_hi] with
    ε(σ_lo) > ε ≥ ε(σ_hi) is grown from σ = 1 by factors of 4 inside
    :data:`dpnotes._validation.SIGMA_RANGE` (10⁻², 10⁶), then halved (geometrically) until
    σ_hi/σ_lo ≤ 1 + rtol. The upper end σ_hi is returned: the run it describes is (ε, δ)-DP by
    the route's own accounting (the *certified side*), and it exceeds the smallest such σ by a
    factor of at most 1 + rtol. At most about 50 evaluations of ε (each a few ms for
    ``"rdp"``, about a second for ``"pld"``).

    Parameters
    ----------
    epsilon : float, ε > 0
        The target ε.
    delta : float, δ ∈ (0, 1)
    q : float, q ∈ (0, 1]
        Poisson sampling rate (expected batch size over the number of records).
    steps : int, T ≥ 1, optional
        The number of steps. Give either ``steps`` or ``epochs``.
    epochs : float > 0, optional
        The number of epochs; then T = ⌈epochs/q⌉ (:func:`steps_from_epochs`).
    route : str, one of :data:`SIGMA_ROUTES`
        As :func:`dpsgd_epsilon` (default ``"rdp"``: exact RDP of the sampled Gaussian, improved
        conversion at the best order). Route 3 is left out: it gives no ε for σ < 1 or qσ > 1.
    rtol : float, rtol ∈ [10⁻⁹, 1]
        Relative width of the final bracket.
    orders : array, optional
        Grid of Rényi orders for the RDP routes, as in :func:`dpsgd_epsilon` (default: the
        continuous search of the best order for ``"rdp"``, :data:`dpnotes.orders.DEFAULT_ORDERS`
        for ``"rdp-mironov"`` and ``"route2"``). Pass a library's grid to calibrate as it does.

    Returns
    -------
    float
        σ̂ with ε_route(q, σ̂, T, δ) ≤ ε and σ̂ ≤ (1 + rtol) σ*.

    Warns
    -----
    OrderGridWarning
        When, at the returned σ, the best order is at the edge of the grid (RDP routes).

    Raises
    ------
    ValueError
        If ε ≤ 0, δ ∉ (0, 1), q ∉ (0, 1], T < 1, both or neither of ``steps`` and ``epochs`` are
        given, ``rtol`` is out of range, the route is not in :data:`SIGMA_ROUTES`; or if no σ in
        (10⁻², 10⁶] meets the target (ε too small), or every σ ≥ 10⁻² does (ε too large to be
        met by any σ the routes are computed for: the smallest σ is then not located).

    References
    ----------
    Abadi et al. (2016), Section 3 (DP-SGD and the moments accountant); Mironov, Talwar & Zhang
    (2019) (the RDP of the sampled Gaussian); Balle et al. (2020) (the improved conversion).
    Opacus' ``get_noise_multiplier`` and TensorFlow Privacy's ``compute_noise`` solve the same
    problem by search on their own accountants.

    Examples
    --------
    >>> s = dpsgd_sigma(4.56, 1e-5, 0.1, 300)
    >>> dpsgd_epsilon(0.1, s, 300, 1e-5) <= 4.56 < dpsgd_epsilon(0.1, s / 1.001, 300, 1e-5)
    True
    >>> round(dpsgd_sigma(1.0, 1e-5, 0.01, epochs=100), 2)  # Abadi et al.'s run at ε = 1
    4.13
    """
    epsilon = float(check_positive(epsilon, "epsilon"))
    delta = float(check_delta(delta))
    q = float(check_probability(q, "q"))
    if q <= 0.0:
        raise ValueError(f"q must be in (0, 1] (got {q!r}): with q = 0 nothing is released and every σ will do")
    if (steps is None) == (epochs is None):
        raise ValueError(f"give exactly one of steps and epochs (got steps = {steps!r}, epochs = {epochs!r})")
    steps = check_steps(steps) if epochs is None else check_steps(steps_from_epochs(epochs, q))
    check_choice(route, "route", SIGMA_ROUTES)
    rtol = float(check_positive(rtol, "rtol"))
    if not 1e-9 <= rtol <= 1.0:
        raise ValueError(f"rtol must be in [1e-09, 1] (got {rtol!r})")
    orders = None if orders is None else check_order(orders, "orders")
    lo_limit, hi_limit = SIGMA_RANGE

    def eps_at(sigma):  # σ's on the way may put the best order at the grid's edge: only the answer's matters
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OrderGridWarning)
            return dpsgd_epsilon(q, sigma, steps, delta, route=route, orders=orders)

    # grow a bracket: ε(lo) > target ≥ ε(hi)
    lo = hi = _SIGMA_START
    if eps_at(hi) <= epsilon:
        while True:
            lo = max(hi / _SIGMA_GROWTH, lo_limit)
            if eps_at(lo) > epsilon:
                break
            if lo == lo_limit:
                raise ValueError(
                    f"epsilon = {epsilon:g} is met by every noise multiplier down to sigma = {lo_limit:g} "
                    f"(q = {q:g}, steps = {steps}, delta = {delta:g}, route {route!r}); ask for a smaller epsilon")
            hi = lo
    else:
        while True:
            lo = hi
            hi = min(hi * _SIGMA_GROWTH, hi_limit)
            if eps_at(hi) <= epsilon:
                break
            if hi == hi_limit:
                raise ValueError(
                    f"epsilon = {epsilon:g} is not met even at sigma = {hi_limit:g} (q = {q:g}, steps = {steps}, "
                    f"delta = {delta:g}, route {route!r}); ask for a larger epsilon or fewer steps")
    # bisection on log σ; the invariant ε(lo) > target ≥ ε(hi) is kept
    while hi > lo * (1.0 + rtol):
        mid = math.sqrt(lo * hi)
        if eps_at(mid) <= epsilon:
            hi = mid
        else:
            lo = mid
    if route != "pld":  # warn (OrderGridWarning) if the answer's best order is at the edge of the grid
        dpsgd_epsilon(q, hi, steps, delta, route=route, orders=orders)
    return hi


#: log of the smallest add/remove δ₀ :func:`dpsgd_epsilon_replace_one` searches (10⁻³⁰⁰, above the float range's end)
_LOG_SMALLEST_DELTA0 = math.log(1e-300)


@named_shapes
def dpsgd_epsilon_replace_one(q, sigma, steps, delta, route="rdp"):
    r"""An ε at δ of DP-SGD under replace-one adjacency, from the add/remove ε by group privacy (k = 2).

    .. math:: \varepsilon_{\text{replace}}(\delta) = 2\,\varepsilon(\delta_0),\qquad
              2\,e^{\varepsilon(\delta_0)}\,\delta_0 = \delta,

    where ε(δ₀) is the add/remove ε of :func:`dpsgd_epsilon` along ``route``. Replacing a record is
    removing it and adding another: chaining the add/remove (ε, δ₀) guarantee twice gives
    (2ε, (1 + e^ε)δ₀), at most (2ε, 2e^ε δ₀)
    (:func:`dpnotes.properties.group_privacy_epsilon_delta` with k = 2). δ₀ is found by
    bisection on log δ₀ (the left side increases with δ₀) to 10⁻⁹ in log δ₀, on the side where
    2e^{ε(δ₀)}δ₀ ≤ δ. A valid upper bound, but loose: δ₀ must be about δe^{−ε}/2, so ε(δ₀) exceeds
    ε(δ). The tight replace-one ε of the Poisson-subsampled Gaussian is close to twice the add/remove
    one (the tests compare with dp-accounting's PLD accountant under replace-one: 8.33 against
    2 × 4.18 for the book's run, where this function gives 11.05 along ``"pld"``).

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    delta : float, δ ∈ (0, 1)
    route : str, one of :data:`ROUTES`

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :func:`dpsgd_epsilon`; or if no δ₀ ≥ 10⁻³⁰⁰ has 2e^{ε(δ₀)}δ₀ ≤ δ (σ so small that the
        add/remove ε stays above log(δ/(2δ₀))).

    References
    ----------
    Dwork & Roth (2014), group privacy; Balle, Barthe & Gaboardi (2018) on the two adjacencies
    under subsampling; Lebeda et al. (2024) (arXiv:2405.20769) on accounting for each.

    Examples
    --------
    >>> e = dpsgd_epsilon(0.1, 2.0, 300, 1e-5)
    >>> round(e, 2), round(dpsgd_epsilon_replace_one(0.1, 2.0, 300, 1e-5), 2)  # the book's run
    (4.56, 11.92)
    """
    _check_route(route)
    q, sigma, steps = _check_common(q, sigma, steps)
    delta = float(check_delta(delta))
    log_delta = math.log(delta)

    def excess(log_d0):  # log(2 e^{ε(δ₀)} δ₀) − log δ, increasing in δ₀
        return math.log(2.0) + dpsgd_epsilon(q, sigma, steps, math.exp(log_d0), route=route) + log_d0 - log_delta

    lo, hi = log_delta - math.log(2.0), log_delta - math.log(2.0)
    step = 2.0
    while excess(lo) > 0:  # ε(δ₀) > 0 pushes δ₀ below δ/2: steps doubling down to δ₀ = 10⁻³⁰⁰
        if lo <= _LOG_SMALLEST_DELTA0:
            eps = dpsgd_epsilon(q, sigma, steps, math.exp(lo), route=route)
            raise ValueError(f"delta = {delta:g} needs an add/remove δ₀ below 1e-300 in dpsgd_epsilon_replace_one "
                             f"(ε(1e-300) = {eps:.4g} along route {route!r}: 2e^ε·δ₀ stays above delta); use a larger "
                             f"sigma or delta, or fewer steps")
        hi, lo = lo, max(lo - step, _LOG_SMALLEST_DELTA0)
        step *= 2.0
    while hi - lo > 1e-9:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if excess(mid) <= 0 else (lo, mid)
    return 2.0 * dpsgd_epsilon(q, sigma, steps, math.exp(lo), route=route)
