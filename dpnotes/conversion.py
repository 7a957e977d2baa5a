r"""From Rényi or zero-concentrated DP to (ε, δ)-DP.

Three conversions of an RDP guarantee (α, ε(α)) on a grid of orders α:

* ``"mironov"`` — ε = ε(α) + log(1/δ)/(α − 1), δ = e^{(α−1)(ε(α)−ε)} (Mironov 2017, Prop. 3);
* ``"improved"`` — ε = ε(α) + log((α−1)/α) − (log δ + log α)/(α − 1)
  (Balle et al. 2020; Canonne, Kamath & Steinke 2020), never worse than Mironov;
* ``"chernoff"`` — the Legendre-transform route of source S4 (Claims 20, 21, 23):
  δ = exp(−κ*(ε)) with κ(t) = t·ε(t + 1) (t = α − 1). On a grid of orders the Legendre
  transform is a maximum over the grid, and inverting it gives exactly the
  Mironov values; it is computed here independently (transform, then root
  finding) so that the tests can show the coincidence.

Also continuous optimisation over the order for an RDP *function*, and the
zCDP conversions.
"""

import warnings

import math

import numpy as np

from ._validation import (
    check_array,
    check_bool,
    check_choice,
    check_delta,
    check_nonnegative,
    check_order,
    check_real,
    named_shapes,
    scalar_or_array,
)

__all__ = [
    "OrderGridWarning",
    "epsilon_from_rdp",
    "delta_from_rdp",
    "epsilon_from_rdp_curve",
    "delta_from_rdp_curve",
    "epsilon_from_zcdp",
    "legendre_transform",
]

_METHODS = ("improved", "mironov", "chernoff")


class OrderGridWarning(UserWarning):
    """The best order sits at the edge of the grid (or of the search interval):
    a wider range of orders may give a smaller ε or δ."""


def _check_method(method):
    check_choice(method, "method", _METHODS)


def _check_grid(orders, rdp):
    orders = np.atleast_1d(check_order(orders, "orders", allow_inf=True))
    rdp = np.atleast_1d(check_nonnegative(rdp, "rdp", allow_inf=True))
    if orders.ndim != 1 or orders.shape != rdp.shape:
        raise ValueError(f"orders and rdp must be 1-D arrays of equal length (got shapes {orders.shape}, {rdp.shape})")
    return orders, rdp


def _eps_per_order(orders, rdp, log_delta, method):
    """ε at each order (columns) for each log δ (rows); may be negative (improved)."""
    a = orders[None, :]
    r = rdp[None, :]
    ld = np.asarray(log_delta, float).reshape(-1, 1)
    finite = np.isfinite(a)
    am1 = np.where(finite, a - 1.0, 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "improved":
            val = r + np.log1p(-1.0 / np.where(finite, a, 2.0)) - (ld + np.log(np.where(finite, a, 2.0))) / am1
        else:
            val = r - ld / am1
    # α = ∞: pure DP, ε = ε(∞) for every δ (both formulas tend to ε(α))
    return np.where(finite, val, r + 0.0 * ld)


def _warn_edge(orders, best, what):
    finite = orders[np.isfinite(orders)]
    if orders.size >= 3 and finite.size:
        b = np.atleast_1d(best)
        at_edge = np.isfinite(b) & ((b == finite.min()) | ((b == finite.max()) & (finite.max() == orders.max())))
        if np.any(at_edge):
            warnings.warn(
                f"the order minimising {what} is at the edge of the grid (α = {b[at_edge][0]:g}); "
                "extend the grid of orders", OrderGridWarning, stacklevel=3)


@named_shapes
def legendre_transform(t, kappa, x):
    r"""Legendre transform of a function given on a grid: κ*(x) = max_i (x t_i − κ(t_i)).

    .. math:: \kappa^*(x) = \max_{i} \big(x t_i - \kappa(t_i)\big)

    The supremum runs over the grid only: for the Chernoff bound δ ≤ exp(−κ*(ε)) the grid must hold
    non-negative exponents only (t ≥ 0), as the orders' t = α − 1 > 0 do; over all real t the
    transform would exceed the bound's exponent for ε below the mean of the privacy loss.

    Parameters
    ----------
    t : array, grid points t_i (t = α − 1 > 0 for a cumulant)
    kappa : array, κ(t_i)
    x : float or array

    Returns
    -------
    float or ndarray

    References
    ----------
    Source S4, Claim 20 (definition of f*) and S4-07 ((Tf)*(x) = T f*(x/T)).

    Examples
    --------
    >>> t = np.linspace(0, 10, 100001)
    >>> round(legendre_transform(t, t**2 / 2, 3.0), 6)  # (t²/2)* = x²/2
    4.5
    """
    t = check_array(t, "t")
    kappa = check_array(kappa, "kappa", finite=False)
    if kappa.shape != t.shape:
        raise ValueError(f"t and kappa must have the same length (got {t.size} and {kappa.size})")
    x = check_real(x, "x")
    with np.errstate(invalid="ignore"):
        vals = x[..., None] * t - kappa
    vals = np.where(np.isnan(vals), -np.inf, vals)
    return scalar_or_array(np.max(vals, axis=-1))


@named_shapes
def epsilon_from_rdp(orders, rdp, delta, method="improved", return_order=False):
    r"""Smallest ε over a grid of orders such that (α, ε(α))-RDP gives (ε, δ)-DP.

    .. math::
        \text{mironov: } \varepsilon = \min_\alpha\ \varepsilon(\alpha) + \frac{\log(1/\delta)}{\alpha-1},\qquad
        \text{improved: } \varepsilon = \max\Big\{0, \min_\alpha\ \varepsilon(\alpha)
            + \log\frac{\alpha-1}{\alpha} - \frac{\log\delta + \log\alpha}{\alpha-1}\Big\}

    and ``chernoff`` solves exp(−κ*(ε)) = δ with κ(t) = t·ε(t + 1), the Legendre
    transform taken over the grid — on a grid this equals the Mironov value
    (each order contributes the line t(ε − ε(α)), t = α − 1, and
    κ*(ε) ≥ log(1/δ) iff some line does), which the tests confirm. An order
    α = ∞ (pure DP) contributes ε = ε(∞). Warns (:class:`OrderGridWarning`) if the best order is the
    smallest or largest finite order of a grid of at least three.

    Parameters
    ----------
    orders : array, α > 1 (∞ allowed)
    rdp : array, the RDP curve ε(α) ≥ 0 (∞ allowed), same length as ``orders``
    delta : float or array, δ ∈ (0, 1)
    method : {"improved", "mironov", "chernoff"}
    return_order : bool
        Also return the minimising order.

    Returns
    -------
    float or ndarray, or (ε, order)

    Raises
    ------
    ValueError
        If an order is ≤ 1, an RDP value negative, δ ∉ (0, 1), lengths differ or
        the method is unknown.

    References
    ----------
    Source S0, S0-07; source S3, S3-06; source S4, S4-03/S4-04 (Claims 20, 21);
    source S2, RDP property 8; Mironov (2017), Prop. 3; Balle et al. (2020),
    Theorem 21; Canonne, Kamath & Steinke (2020), Prop. 12.

    Examples
    --------
    >>> orders = np.array([2.0, 4.0, 8.0, 16.0, 32.0])
    >>> rho = orders / 2.0  # Gaussian, σ = 1: ε(α) = α/2
    >>> round(epsilon_from_rdp(orders, rho, 1e-5, method="mironov"), 6)  # α = 8: 4 + log(1e5)/7
    5.644704
    >>> eps, order = epsilon_from_rdp(orders, rho, 1e-5, return_order=True)
    >>> round(eps, 6), order
    (5.087862, 4.0)
    """
    return_order = check_bool(return_order, "return_order")
    _check_method(method)
    orders, rdp = _check_grid(orders, rdp)
    delta = check_delta(delta)
    log_delta = np.log(delta)
    if method == "chernoff":
        eps, best = _epsilon_chernoff(orders, rdp, np.ravel(log_delta))
    else:
        vals = _eps_per_order(orders, rdp, log_delta, method)
        vals = np.where(np.isnan(vals), np.inf, vals)
        idx = np.argmin(vals, axis=1)
        eps = np.maximum(vals[np.arange(vals.shape[0]), idx], 0.0)
        best = orders[idx]
    _warn_edge(orders, best, "ε")
    eps = eps.reshape(np.shape(delta))
    best = best.reshape(np.shape(delta))
    if return_order:
        return scalar_or_array(eps), scalar_or_array(best)
    return scalar_or_array(eps)


def _epsilon_chernoff(orders, rdp, log_deltas):
    """Invert δ = exp(−κ*(ε)), κ*(ε) = max over finite orders of (α−1)(ε − ε(α))."""
    from scipy import optimize  # imported here: loading this module stays light
    finite = np.isfinite(orders) & np.isfinite(rdp)
    t = orders[finite] - 1.0
    kappa = t * rdp[finite]  # κ(t) = t ε(t + 1)
    inf_eps = rdp[np.isinf(orders)].min() if np.any(np.isinf(orders)) else np.inf
    eps_out, best_out = [], []
    for ld in log_deltas:
        target = -ld  # κ*(ε) = log(1/δ)
        eps, best = np.inf, np.nan
        if t.size:
            f = lambda e: float(legendre_transform(t, kappa, e)) - target  # noqa: E731
            hi = float(np.min(rdp[finite] + target / t))  # one line reaches the target here
            hi = hi * (1 + 1e-12) + 1e-300
            eps = 0.0 if f(0.0) >= 0.0 else optimize.brentq(f, 0.0, hi, xtol=1e-300, rtol=1e-15)
            slopes = t * (eps - rdp[finite])
            best = orders[finite][int(np.argmax(slopes))]
        if inf_eps < eps:
            eps, best = float(inf_eps), np.inf
        eps_out.append(eps)
        best_out.append(best)
    return np.array(eps_out), np.array(best_out)


@named_shapes
def delta_from_rdp(orders, rdp, epsilon, method="improved", return_order=False):
    r"""Smallest δ over a grid of orders such that (α, ε(α))-RDP gives (ε, δ)-DP.

    .. math::
        \text{mironov, chernoff: } \delta = \min_\alpha e^{(\alpha-1)(\varepsilon(\alpha)-\varepsilon)},\qquad
        \text{improved: } \delta = \min_\alpha \frac{e^{(\alpha-1)(\varepsilon(\alpha)-\varepsilon)}}{\alpha}
            \Big(1 - \frac1\alpha\Big)^{\alpha-1},

    computed in log space and clipped to ≤ 1. ``chernoff`` evaluates
    exp(−κ*(ε)) by the Legendre transform over the grid (the same number as
    ``mironov``). At α = ∞ the value is 0 if ε ≥ ε(∞) and 1 otherwise.

    Parameters
    ----------
    orders : array, α > 1 (∞ allowed)
    rdp : array, the RDP curve ε(α) ≥ 0, same length
    epsilon : float or array, ε ≥ 0
    method : {"improved", "mironov", "chernoff"}
    return_order : bool

    Returns
    -------
    float or ndarray, or (δ, order)

    Raises
    ------
    ValueError
        On invalid orders, RDP values, ε < 0 or an unknown method.

    References
    ----------
    Source S4, S4-04 (Claim 21) and S4-03 (Claim 20); source S2, RDP property 8;
    Canonne, Kamath & Steinke (2020), Prop. 12.

    Examples
    --------
    >>> orders = np.array([2.0, 4.0, 8.0, 16.0])
    >>> round(delta_from_rdp(orders, orders / 8.0, 2.0, method="mironov"), 8)  # σ = 2, α = 8: e^{−7}
    0.00091188
    >>> delta_from_rdp(orders, orders / 8.0, 2.0) < delta_from_rdp(orders, orders / 8.0, 2.0, method="mironov")
    True
    """
    return_order = check_bool(return_order, "return_order")
    _check_method(method)
    orders, rdp = _check_grid(orders, rdp)
    eps = check_nonnegative(epsilon, "epsilon")
    e = np.ravel(eps)[:, None]
    a = orders[None, :]
    finite = np.isfinite(a)
    am1 = np.where(finite, a - 1.0, 1.0)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if method == "improved":
            af = np.where(finite, a, 2.0)
            log_d = am1 * (rdp - e) - np.log(af) + am1 * np.log1p(-1.0 / af)
        else:
            log_d = am1 * (rdp - e)
        log_inf = np.where(e >= rdp[None, :], -np.inf, 0.0)
        log_d = np.where(finite, log_d, log_inf)
    log_d = np.where(np.isnan(log_d), np.inf, log_d)
    idx = np.argmin(log_d, axis=1)
    best_log = log_d[np.arange(log_d.shape[0]), idx]
    if method == "chernoff":
        # δ = exp(−κ*(ε)), the Legendre transform of κ(t) = tε(t+1) over the finite orders
        ok = np.isfinite(orders) & np.isfinite(rdp)
        t = orders[ok] - 1.0
        kstar = (np.atleast_1d(legendre_transform(t, t * rdp[ok], np.ravel(eps))) if t.size
                 else np.full(e.shape[0], -np.inf))
        pure = np.isinf(orders[idx]) & np.isneginf(best_log)
        best_log = np.where(pure, -np.inf, np.minimum(-kstar, np.where(np.isinf(orders[idx]), best_log, np.inf)))
    out = np.minimum(np.exp(np.minimum(best_log, 0.0)), 1.0).reshape(np.shape(eps))
    best = orders[idx].reshape(np.shape(eps))
    _warn_edge(orders, orders[idx], "δ")
    if return_order:
        return scalar_or_array(out), scalar_or_array(best)
    return scalar_or_array(out)


def _log_u_grid(bounds, n=400):
    lo, hi = bounds
    return np.linspace(np.log(lo - 1.0), np.log(hi - 1.0), n)


def _check_bounds(bounds):
    b = check_array(bounds, "bounds")
    if b.size != 2:
        raise ValueError(f"bounds must be a pair (α_lo, α_hi) (got {b.size} values)")
    lo, hi = float(b[0]), float(b[1])
    check_order(lo, "bounds[0]")
    check_order(hi, "bounds[1]")
    if not hi > lo:
        raise ValueError(f"bounds must satisfy 1 < bounds[0] < bounds[1] < ∞ (got {bounds})")
    return lo, hi


def _minimise_over_order(objective, bounds, what):
    """Minimise objective(α) over α ∈ bounds: log-spaced grid, then bounded Brent refinement."""
    from scipy import optimize  # imported here: loading this module stays light
    lo, hi = bounds
    u = _log_u_grid(bounds)
    alphas = 1.0 + np.exp(u)
    vals = np.array([objective(a) for a in alphas])
    vals = np.where(np.isnan(vals), np.inf, vals)
    i = int(np.argmin(vals))
    if not np.isfinite(vals[i]):
        return np.inf, np.nan
    a_lo, a_hi = u[max(i - 1, 0)], u[min(i + 1, u.size - 1)]
    res = optimize.minimize_scalar(lambda x: objective(1.0 + np.exp(x)), bounds=(a_lo, a_hi),
                                   method="bounded", options={"xatol": 1e-12})
    best_val, best_a = (float(res.fun), 1.0 + float(np.exp(res.x))) if res.fun <= vals[i] else (vals[i], alphas[i])
    if i == 0 or i == u.size - 1:
        warnings.warn(f"the order minimising {what} is at the edge of the search interval "
                      f"(α = {best_a:g}); widen `bounds`", OrderGridWarning, stacklevel=3)
    return best_val, best_a


def _rdp_value(rdp_fn, alpha):
    """ε(α) from the learner's curve, refused (naming ``rdp_fn``) unless a real number ≥ 0 or +∞."""
    if not callable(rdp_fn):
        raise TypeError(f"rdp_fn must be a callable α ↦ ε(α) (got {type(rdp_fn).__name__})")
    value = rdp_fn(alpha)
    try:
        r = float(np.asarray(value, dtype=float).reshape(-1)[0]) if np.size(value) == 1 else None
    except (TypeError, ValueError):
        r = None
    if r is None or math.isnan(r) or r < 0:
        raise ValueError(f"rdp_fn must return one real number ≥ 0 (an RDP ε) for each order; at α = {alpha:.10g} "
                         f"it returned {value!r:.60}")
    return r


@named_shapes
def epsilon_from_rdp_curve(rdp_fn, delta, method="improved", bounds=(1.0 + 1e-6, 1e4), return_order=False):
    r"""ε from an RDP *function* α ↦ ε(α), optimising the order continuously.

    .. math:: \varepsilon = \inf_{\alpha \in [\alpha_{lo}, \alpha_{hi}]} \varepsilon_{\text{method}}(\alpha, \varepsilon(\alpha), \delta)

    A log-spaced grid of 400 orders locates the minimum, then bounded Brent
    search refines it. Warns (:class:`OrderGridWarning`) if the minimum is at an
    end of ``bounds``.

    Parameters
    ----------
    rdp_fn : callable, ε(α) for a float α > 1
    delta : float, δ ∈ (0, 1)
    method : {"improved", "mironov", "chernoff"} ("chernoff" equals "mironov" here)
    bounds : (float, float), 1 < α_lo < α_hi < ∞
    return_order : bool

    Returns
    -------
    float, or (ε, α*)

    Raises
    ------
    ValueError
        If δ ∉ (0, 1), the bounds are invalid or the method unknown.

    References
    ----------
    Source S4, S4-05 (optimal order of Example 2); Canonne, Kamath & Steinke (2020).

    Examples
    --------
    >>> eps, a = epsilon_from_rdp_curve(lambda a: a / 2.0, 1e-5, method="mironov", return_order=True)
    >>> round(eps, 6), round(a, 4)  # 1/2 + 2√(½ log 1e5), α* = 1 + √(2 log 1e5)
    (5.298526, 5.7985)
    """
    return_order = check_bool(return_order, "return_order")
    _check_method(method)
    d = float(check_delta(delta))
    bounds = _check_bounds(bounds)
    m = "mironov" if method == "chernoff" else method
    ld = np.log(d)

    def objective(a):
        r = _rdp_value(rdp_fn, a)
        return float(_eps_per_order(np.array([a]), np.array([r]), ld, m)[0, 0])

    val, a = _minimise_over_order(objective, bounds, "ε")
    val = max(val, 0.0)
    return (val, a) if return_order else val


@named_shapes
def delta_from_rdp_curve(rdp_fn, epsilon, method="improved", bounds=(1.0 + 1e-6, 1e4), return_order=False):
    r"""δ from an RDP *function*, optimising the order continuously (log space).

    .. math:: \delta = \inf_{\alpha} \delta_{\text{method}}(\alpha, \varepsilon(\alpha), \varepsilon)

    Parameters
    ----------
    rdp_fn : callable, the RDP curve α ↦ ε(α)
    epsilon : float, ε ≥ 0
    method : {"improved", "mironov", "chernoff"}
    bounds : (float, float)
    return_order : bool

    Returns
    -------
    float, or (δ, α*)

    References
    ----------
    Source S4, S4-05 (Example 2); Canonne, Kamath & Steinke (2020), Prop. 12.

    Examples
    --------
    >>> d = delta_from_rdp_curve(lambda a: a / 2.0, 3.0, method="mironov")
    >>> round(d, 10)  # exp(−(ε·σ − 1/(2σ))²/2), σ = 1
    0.0439369336
    """
    return_order = check_bool(return_order, "return_order")
    _check_method(method)
    e = float(check_nonnegative(epsilon, "epsilon"))
    bounds = _check_bounds(bounds)

    def objective(a):
        r = _rdp_value(rdp_fn, a)
        log_d = (a - 1.0) * (r - e)
        if method == "improved":
            log_d += -np.log(a) + (a - 1.0) * np.log1p(-1.0 / a)
        return log_d

    val, a = _minimise_over_order(objective, bounds, "δ")
    out = float(min(np.exp(min(val, 0.0)), 1.0))
    return (out, a) if return_order else out


@named_shapes
def epsilon_from_zcdp(rho, delta, method="bun-steinke"):
    r"""ε such that ρ-zCDP implies (ε, δ)-DP.

    .. math::
        \text{bun-steinke: } \varepsilon = \rho + 2\sqrt{\rho\log(1/\delta)};\qquad
        \text{improved: } \varepsilon = \max\Big\{0, \min_{\alpha>1}\ \rho\alpha + \log\frac{\alpha-1}{\alpha}
              - \frac{\log\delta + \log\alpha}{\alpha-1}\Big\}.

    For ``improved`` the derivative in α is ρ + (log δ + log α)/(α−1)², so the
    optimum solves ρ(α−1)² + log α = log(1/δ) (a single root in
    (1, 1 + √(log(1/δ)/ρ)]); it is found by vectorised bisection in log(α − 1).
    The improved value is never larger than the Bun–Steinke one.

    Parameters
    ----------
    rho : float or array, ρ ≥ 0
    delta : float or array, δ ∈ (0, 1)
    method : {"bun-steinke", "improved"}

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If ρ < 0, δ ∉ (0, 1) or the method is unknown.

    References
    ----------
    Source S2, S2-04 (property 3, with ρ = ½Tε²); Bun & Steinke (2016), Prop. 1.3;
    Canonne, Kamath & Steinke (2020), Prop. 12.

    Examples
    --------
    >>> round(epsilon_from_zcdp(0.5, 1e-5), 6)  # ½ + 2√(½ log 1e5)
    5.298526
    >>> epsilon_from_zcdp(0.5, 1e-5, method="improved") < 5.298526
    True
    """
    rho = check_nonnegative(rho, "rho")
    delta = check_delta(delta)
    check_choice(method, "method", ("bun-steinke", "improved"))
    rho, delta = np.broadcast_arrays(rho, delta)
    L = -np.log(delta)
    if method == "bun-steinke":
        return scalar_or_array(rho + 2.0 * np.sqrt(rho * L))
    pos = rho > 0
    r = np.where(pos, rho, 1.0)
    # g(u) = ρ e^{2u} + log(1 + e^u) − log(1/δ) is increasing in u = log(α − 1)
    lo = np.full(r.shape, -60.0)
    hi = np.log(np.sqrt(L / r)) + 1e-12
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        g = r * np.exp(2 * mid) + np.log1p(np.exp(mid)) - L
        lo = np.where(g < 0, mid, lo)
        hi = np.where(g < 0, hi, mid)
    am1 = np.exp(0.5 * (lo + hi))
    a = 1.0 + am1
    eps = r * a + np.log(am1) - np.log(a) - (np.log(delta) + np.log(a)) / am1
    eps = np.where(pos, np.maximum(eps, 0.0), 0.0)
    return scalar_or_array(eps)
