r"""ε (or δ) of T composed sampled-Gaussian steps at the best Rényi order, searched on the exact curve.

An RDP accountant converts the composed curve Tε_q(α) at every order of a
fixed grid and keeps the smallest result. Every order α > 1 gives a valid
bound, so the grid can be replaced by a search for the minimiser of the
conversion over the *continuous* curve (fractional orders are exact, see
:func:`dpnotes.subsampling.rdp_subsampled_gaussian`):

1. *bracket*: the conversion at the orders of :data:`ORDER_LADDER`, integers
   2–64 first (the exact binomial sum), extended down (fractional orders
   towards 1) or up (integers to 2¹⁷) only while the smallest value sits at
   the end of what has been evaluated;
2. *refine*: rounds of seven equally spaced orders in log(α − 1) inside
   the bracket (each shrinks it fourfold), each with the vertex of the
   parabola through the best order and its two neighbours, until both
   neighbours are within 10⁻⁸ (relative) of the best value or the parabola
   predicted the value at its vertex to 10⁻⁸ and that vertex is the best
   (after a vertex becomes the best, the next round's orders go around it,
   within an eighth of the bracket). The rounds evaluate the RDP on one
   trapezoid grid shared by all their orders (the same rule as
   :func:`dpnotes.subsampling.rdp_subsampled_gaussian`, with the plain
   integrand kept down to log A_α = 10⁻⁶, values to ≈ 3·10⁻⁹ relative), and
   the value returned is recomputed at the order found on that grid with the
   full-precision integrand (it agrees with
   :func:`dpnotes.subsampling.rdp_subsampled_gaussian` to ≈ 10⁻¹¹; tests). The
   minimum can be a corner (where the top binomial term takes over and the
   curve turns up within a fraction of an order), which the rounds locate
   where the parabola does not.

The result is the exact value at the order the search found (or at a
bracketing ladder order, if that is smaller), so it is a valid bound whatever
the search found, and it is never above the ladder's values around the
minimum. The search assumes one minimum in the
bracket (a local search); on the tests' grid it is not above the value on
:data:`dpnotes.orders.DEFAULT_ORDERS` (to 10⁻⁸) and agrees with a bounded
Brent search to 10⁻⁸. About 30–75 orders are evaluated instead of a grid's
187, in 4–11 vectorised batches.
"""

import warnings

import numpy as np

from .._validation import (
    check_bool,
    check_delta,
    check_noise_multiplier,
    check_nonnegative,
    check_probability,
    check_steps,
    frozen_array,
    named_shapes,
)
from ..conversion import OrderGridWarning
from .moments import SMALL_LOG, log_a_sampled_gaussian, log_a_small_quadrature, log_a_shared_grid
from .sampled_gaussian import SIGMA_HIGH, SIGMA_LOW, rdp_subsampled_gaussian

__all__ = ["ORDER_LADDER", "epsilon_rdp_subsampled_gaussian", "delta_rdp_subsampled_gaussian"]

#: Orders of the bracketing ladder: towards 1 (ratio ≈ 2 in α − 1), the integers 2–64 of the first
#: evaluation, then integers ×1.5/×1.33 up to 2¹⁷.
ORDER_LADDER = frozen_array([1.001, 1.002, 1.005, 1.01, 1.02, 1.05, 1.1, 1.25, 1.5,
                             2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
                             96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192,
                             12288, 16384, 24576, 32768, 49152, 65536, 98304, 131072])  # read-only
_FIRST = (9, 19)  # ladder indices of 2 and 64: the first evaluation
_CHUNK = 6        # ladder orders added per extension
_MAX_ROUNDS, _POINTS = 16, 7
_FRACTIONS = np.arange(1, _POINTS + 1) / (_POINTS + 1)  # the orders of a round inside its interval
# stopping rule of the rounds: neighbours' values, the parabola's prediction, the width in log(α − 1)
_RTOL, _RTOL_MODEL, _UTOL = 1e-8, 1e-8, 1e-10
_SEARCH_SMALL_LOG = 1e-6  # the rounds' plain integrand down to log A_α = 1e-6: values to ≈ 3·10⁻⁹


def _improved_epsilon(alpha, rdp, log_delta):
    """ε(α) = rdp + log((α−1)/α) − (log δ + log α)/(α − 1) (Balle et al. 2020), NaN → ∞."""
    with np.errstate(invalid="ignore", over="ignore"):
        val = rdp + np.log1p(-1.0 / alpha) - (log_delta + np.log(alpha)) / (alpha - 1.0)
    return np.where(np.isnan(val), np.inf, val)


def _improved_log_delta(alpha, rdp, epsilon):
    """log δ(α) = (α − 1)(rdp − ε) − log α + (α − 1) log(1 − 1/α) (Canonne, Kamath & Steinke 2020)."""
    with np.errstate(invalid="ignore", over="ignore"):
        val = (alpha - 1.0) * (rdp - epsilon + np.log1p(-1.0 / alpha)) - np.log(alpha)
    return np.where(np.isnan(val), np.inf, val)


def _ladder_bracket(objective):
    """(values at the evaluated ladder orders as a dict index → value, index of the smallest)."""
    lo, hi = _FIRST
    vals = dict(zip(range(lo, hi + 1), objective(ORDER_LADDER[lo:hi + 1])))
    last = ORDER_LADDER.size - 1
    while True:
        i = min(vals, key=vals.get)
        if i == lo and lo > 0:
            new = range(max(lo - _CHUNK, 0), lo)
            lo = new.start
        elif i == hi and hi < last:
            new = range(hi + 1, min(hi + _CHUNK, last) + 1)
            hi = new.stop - 1
        else:
            return vals, i
        vals.update(zip(new, objective(ORDER_LADDER[list(new)])))


def _vertex(u, best_u):
    """(vertex, predicted value) of the parabola through the best point and its neighbours, or None."""
    keys = sorted(u)
    j = keys.index(best_u)
    if not 0 < j < len(keys) - 1:
        return None
    (x0, x1, x2), (f0, f1, f2) = keys[j - 1:j + 2], [u[k] for k in keys[j - 1:j + 2]]
    d0, d2 = (f0 - f1) / (x0 - x1), (f2 - f1) / (x2 - x1)
    curv = (d2 - d0) / (x2 - x0)  # half the second derivative of the parabola
    if not (curv > 0 and np.isfinite(curv)):
        return None
    x = 0.5 * (x1 + x2) - d2 / (2.0 * curv)  # p(x) = f1 + (x − x1)(d2 + curv(x − x2)); p'(x) = 0
    if not x0 < x < x2:
        return None
    return x, f1 + (x - x1) * (d2 + curv * (x - x2))


def _refined_minimum(objective, what, shared_objective=None):
    """(smallest value, its order) of objective(α) over α > 1: ladder bracket, then rounds (module docstring).

    ``shared_objective(α_max)``, if given, returns None or a pair of cheaper objectives for the orders
    ≤ α_max, on one shared grid: one to search with, one for the value returned at the order found.
    """
    vals, i = _ladder_bracket(objective)
    last = ORDER_LADDER.size - 1
    if i in (0, last):
        warnings.warn(f"the order minimising {what} is at the edge of the search range "
                      f"[{ORDER_LADDER[0]:g}, {ORDER_LADDER[-1]:g}] (α = {ORDER_LADDER[i]:g}); pass a wider "
                      "grid as `orders`", OrderGridWarning, stacklevel=4)
    # points in u = log(α − 1) with their values, and the orders evaluated there
    u = {float(np.log(ORDER_LADDER[k] - 1.0)): v for k, v in vals.items() if abs(k - i) <= 1}
    order = {float(np.log(ORDER_LADDER[k] - 1.0)): float(ORDER_LADDER[k]) for k in vals}
    best_u = min(u, key=u.get)
    exact = dict(u)  # the values of objective itself
    rounds_objective = final_objective = objective
    shared = None if shared_objective is None else shared_objective(max(order[k] for k in u))
    if shared is not None:
        rounds_objective, final_objective = shared
    predicted = None  # (vertex, predicted value) evaluated in the last round
    for _ in range(_MAX_ROUNDS):
        keys = sorted(u)
        j = keys.index(best_u)
        a, b = keys[max(j - 1, 0)], keys[min(j + 1, len(keys) - 1)]
        f = u[best_u]
        tol = _RTOL * abs(f) + 1e-300
        # stop when both neighbours are within the tolerance (a minimum, smooth or a corner, located to it),
        # or when the best point is the last parabola vertex and the parabola predicted its value (smooth)
        if max(u[a], u[b]) - f <= tol or b - a <= _UTOL:
            break
        if predicted is not None and predicted[0] == best_u and abs(predicted[1] - f) <= _RTOL_MODEL * abs(f):
            break
        lo, hi = a, b
        if predicted is not None and predicted[0] == best_u:
            # the last vertex is the best point: the next seven orders go around it, four times closer
            lo, hi = max(a, best_u - (b - a) / 8.0), min(b, best_u + (b - a) / 8.0)
        new = lo + (hi - lo) * _FRACTIONS
        new = new[np.abs(new - best_u) > 1e-6 * (hi - lo)]  # the best point is known (a copy would shadow it)
        predicted = _vertex(u, best_u)
        if predicted is not None and predicted[0] not in u:
            new = np.append(new, predicted[0])
        alphas = 1.0 + np.exp(new)
        u.update(zip(new.tolist(), rounds_objective(alphas)))
        order.update(zip(new.tolist(), alphas.tolist()))
        u = {k: v for k, v in u.items() if a <= k <= b}
        best_u = min(u, key=u.get)
    if best_u not in exact:
        exact[best_u] = float(final_objective(np.array([order[best_u]]))[0])
    best_u = min(exact, key=exact.get)
    return exact[best_u], order[best_u]


def _composed_rdp(q, sigma, steps):
    """α ↦ T ε_q(α) for a 1-D array of orders: what :func:`rdp_subsampled_gaussian` computes for a
    valid scalar (q, σ) with 0 < q < 1 and α ≤ 2¹⁷, without re-checking the arguments at every call.

    log A_α is convex in α and vanishes at α = 0 and 1, so it increases for α > 1: once an order gave
    A_α − 1 below the threshold of the small-value integrand, every smaller fractional order is computed
    by that integrand directly (:func:`_log_a_quad` would find the same after a first pass)."""
    if q == 1.0 or not (SIGMA_LOW <= sigma <= SIGMA_HIGH):
        return lambda alpha: steps * np.atleast_1d(rdp_subsampled_gaussian(alpha, q, sigma))
    small_below = [1.0]  # the largest order seen with log A_α < SMALL_LOG

    def rdp(alpha):
        if np.max(alpha) <= small_below[0] and not np.any(alpha == np.round(alpha)):
            log_a = log_a_small_quadrature(alpha, q, sigma)
        else:
            log_a = log_a_sampled_gaussian(alpha, q, sigma)
            small = log_a < SMALL_LOG
            if np.any(small):
                small_below[0] = max(small_below[0], float(np.max(alpha[small])))
        return steps * (log_a / (alpha - 1.0))
    return rdp


def _shared_rdp(q, sigma, steps):
    """α_max ↦ None or (search, final): α ↦ T ε_q(α) for fractional α ≤ α_max on one shared trapezoid
    grid (:func:`dpnotes.subsampling.moments.log_a_shared_grid`), the search keeping the plain integrand
    down to log A_α = 10⁻⁶, the final value with the full-precision integrand below log A_α = 10⁻³."""
    if q == 1.0 or not (SIGMA_LOW <= sigma <= SIGMA_HIGH):
        return lambda alpha_max: None

    def make(alpha_max):
        log_a = log_a_shared_grid(q, sigma, alpha_max)
        if log_a is None:
            return None
        return (lambda alpha: steps * (log_a(alpha, _SEARCH_SMALL_LOG) / (alpha - 1.0)),
                lambda alpha: steps * (log_a(alpha) / (alpha - 1.0)))
    return make


def _check(q, sigma, steps):
    return float(check_probability(q, "q")), check_noise_multiplier(sigma), check_steps(steps)


def _best_over_orders(q, sigma, steps, objective, what):
    """(min, α*) of ``objective(α, T·ε_q(α))`` over the orders, searched on the exact composed RDP curve."""
    rdp, shared = _composed_rdp(q, sigma, steps), _shared_rdp(q, sigma, steps)

    def shared_objective(alpha_max):
        pair = shared(alpha_max)
        return None if pair is None else tuple((lambda a, f=f: objective(a, f(a))) for f in pair)
    return _refined_minimum(lambda a: objective(a, rdp(a)), what, shared_objective)


@named_shapes
def epsilon_rdp_subsampled_gaussian(q, sigma, steps, delta, return_order=False):
    r"""ε at δ of T Poisson-subsampled Gaussian steps by RDP, at the best order found on the exact curve.

    .. math:: \varepsilon = \max\Big\{0,\ \min_{\alpha>1}\ T\varepsilon_q(\alpha) + \log\frac{\alpha-1}{\alpha}
              - \frac{\log\delta + \log\alpha}{\alpha-1}\Big\}

    with ε_q(α) the exact RDP of one step
    (:func:`dpnotes.subsampling.rdp_subsampled_gaussian`); the minimum is
    searched as the module docstring describes, and the value returned is the
    conversion at an order where ε_q was evaluated, so it is a valid bound
    whatever the search found. Warns (:class:`dpnotes.conversion.OrderGridWarning`)
    when the best order is an end of :data:`ORDER_LADDER`.

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, noise multiplier σ (see :data:`dpnotes._validation.SIGMA_RANGE`)
    steps : int, T ≥ 1
    delta : float, δ ∈ (0, 1)
    return_order : bool
        Also return the order α* of the value.

    Returns
    -------
    float, or (ε, α*)

    Raises
    ------
    ValueError
        For parameters out of range.

    References
    ----------
    Mironov, Talwar & Zhang (2019), §3; Balle et al. (2020), Theorem 21;
    Canonne, Kamath & Steinke (2020), Prop. 12; source S4, S4-16.

    Examples
    --------
    >>> eps, order = epsilon_rdp_subsampled_gaussian(0.01, 4.0, 10000, 1e-5, return_order=True)
    >>> round(eps, 4), round(order, 2)
    (1.0354, 17.22)
    """
    return_order = check_bool(return_order, "return_order")
    q, sigma, steps = _check(q, sigma, steps)
    log_delta = float(np.log(check_delta(delta)))
    if q == 0.0:
        return (0.0, np.inf) if return_order else 0.0
    eps, order = _best_over_orders(q, sigma, steps, lambda a, rho: _improved_epsilon(a, rho, log_delta), "ε")
    eps = max(float(eps), 0.0)
    return (eps, order) if return_order else eps


@named_shapes
def delta_rdp_subsampled_gaussian(q, sigma, steps, epsilon, return_order=False):
    r"""δ at ε of T Poisson-subsampled Gaussian steps by RDP, at the best order found on the exact curve.

    .. math:: \delta = \min\Big\{1,\ \min_{\alpha>1}\ \frac{e^{(\alpha-1)(T\varepsilon_q(\alpha)-\varepsilon)}}{\alpha}
              \Big(1-\frac1\alpha\Big)^{\alpha-1}\Big\}

    minimised over α in log space as :func:`epsilon_rdp_subsampled_gaussian` does.

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ
    steps : int, T ≥ 1
    epsilon : float, ε ≥ 0
    return_order : bool

    Returns
    -------
    float, or (δ, α*)

    Raises
    ------
    ValueError
        For parameters out of range.

    References
    ----------
    Canonne, Kamath & Steinke (2020), Prop. 12; Mironov, Talwar & Zhang (2019).

    Examples
    --------
    >>> d = delta_rdp_subsampled_gaussian(0.01, 4.0, 10000, 1.0354)
    >>> bool(9.9e-6 < d < 1.01e-5)
    True
    """
    return_order = check_bool(return_order, "return_order")
    q, sigma, steps = _check(q, sigma, steps)
    e = float(check_nonnegative(epsilon, "epsilon"))
    if q == 0.0:
        return (0.0, np.inf) if return_order else 0.0
    log_d, order = _best_over_orders(q, sigma, steps, lambda a, rho: _improved_log_delta(a, rho, e), "δ")
    d = float(min(np.exp(min(log_d, 0.0)), 1.0))
    return (d, order) if return_order else d
