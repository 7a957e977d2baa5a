r"""The divergence of a noise law from its own shift: D_α(P + Δ ‖ P) and D_∞.

:func:`shift_rdp` computes D_α by quadrature (the accurate route),
:func:`shift_rdp_grid` on many orders at once by a trapezoid rule on fixed nodes
(:func:`_grid`; fast, for figures) and :func:`max_divergence` the limit α → ∞.
All depend on the shift Δ and the variance v only through t = Δ/√v
(:func:`_relative_shift`, which refuses t outside the range where quadrature is
trusted, :data:`_T_SMALL` to :data:`_T_LARGE`); below :data:`_T_SMALL` they use
the small-shift expansions.
"""

import functools

import numpy as np
from scipy import optimize, special

from .._validation import check_cost, check_order, check_positive, named_shapes, scalar_or_array
from ..divergence import LogDensity, renyi_divergence
from ..rdp import rdp_laplace
from .laws import check_law, fisher_information, max_score, noise_logpdf


#: D_α depends on the shift only through t = Δ/√v; quadrature is trusted for t in this range
_T_SMALL, _T_LARGE = 1e-5, 1e4


def _relative_shift(law, variance, shift, *, quadrature=True):
    """t = Δ/√v, refused (naming both parameters) where it overflows, or, for a law computed by
    quadrature, above the range where quadrature is trusted."""
    v = float(check_positive(variance, "variance"))
    d = float(check_positive(shift, "shift"))
    with np.errstate(over="ignore"):
        t = d / np.sqrt(v)
    closed = law in ("gaussian", "laplace") or not quadrature and law in ("logistic", "sech")
    limit = np.finfo(float).max if closed else _T_LARGE
    if not t <= limit:
        raise ValueError(f"shift/√variance must be ≤ {limit:g} for the {law} law (got shift = {d:g}, variance = "
                         f"{v:g}){'' if closed else '; the Gaussian and Laplace laws have closed forms beyond'}")
    return float(t)


@named_shapes
def shift_rdp(law, alpha, variance=1.0, shift=1.0):
    r"""D_α(P + shift ‖ P) for a noise law of the given variance, by quadrature (the accurate route).

    .. math:: D_\alpha(P+\Delta\,\|\,P) = \frac1{\alpha-1}\log\int P(x-\Delta)^\alpha\,P(x)^{1-\alpha}\,dx

    (P(x) the density of the noise)

    computed with :func:`dpnotes.divergence.renyi_divergence` on the exact
    log-densities of :func:`noise_logpdf` (about 40 ms per order); the Gaussian
    uses its closed form αΔ²/(2v).

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS`
    alpha : float or array, α ∈ [1, ∞]
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If the law is unknown, α < 1, v ≤ 0 or Δ ≤ 0.

    References
    ----------
    Source S4, "Further questions" (S4-18).

    Examples
    --------
    >>> round(shift_rdp("laplace", 2.0, variance=2.0), 8)  # Lap(b = 1): log(⅔e + ⅓e⁻²)
    0.61912363
    """
    check_law(law)
    alpha = check_order(alpha, allow_one=True, allow_inf=True)
    t = _relative_shift(law, variance, shift)  # D_α(P + Δ ‖ P) depends on Δ and v only through t = Δ/√v
    if law == "gaussian":
        return scalar_or_array(np.asarray(alpha) * t * t / 2)
    if law == "laplace":
        return rdp_laplace(alpha, np.sqrt(0.5), t)
    d_inf = max_divergence(law, 1.0, t)
    fin = np.where(np.isfinite(alpha), alpha, 2.0)
    if t < _T_SMALL:
        # D_α = α I t²/2 + O(t³): the log-densities at x and x − t agree to ~16 digits, so quadrature
        # of their difference cannot resolve D_α; the expansion's relative error is O(t)
        out = fin * fisher_information(law) * t * t / 2
    else:
        p = LogDensity(lambda x: noise_logpdf(law, np.asarray(x) - t, 1.0))
        q = LogDensity(lambda x: noise_logpdf(law, x, 1.0))
        out = np.clip(np.asarray(renyi_divergence(p, q, fin, points=[0.0, t]), dtype=float), 0.0, d_inf)
    out = np.where(np.isfinite(alpha), np.maximum(out, 0.0), d_inf)
    return scalar_or_array(out)


#: nodes of :func:`_grid` (2·ln(10²⁰)/0.02 on the tails and 641 on [0, Δ], whatever the scale and shift)
GRID_NODES = 2 * int(np.ceil(np.log(1e20) / 0.02)) + 641
#: CPU seconds per (order, node) entry of :func:`shift_rdp_grid`'s log-sum-exp (measured 1.3e-8 to 2.8e-8 on a
#: 2-core machine at load average 9; about twice that here)
GRID_SECONDS_PER_ENTRY = 6e-8
#: orders per block of :func:`shift_rdp_grid` (a block's table of 2²¹ entries is 16 MB)
_BLOCK_ENTRIES = 2**21


def shift_rdp_grid_seconds(law, n_orders, variance=1.0, shift=1.0):
    """The estimated CPU time of :func:`shift_rdp_grid` on ``n_orders`` orders (0.1 µs an order for the closed
    forms, :data:`GRID_SECONDS_PER_ENTRY` an order and node for the others)."""
    check_law(law)
    d = _relative_shift(law, variance, shift)
    if law in ("gaussian", "laplace") or d < _T_SMALL:
        return 1e-7 * n_orders
    return GRID_SECONDS_PER_ENTRY * GRID_NODES * float(n_orders)


@functools.lru_cache(maxsize=64)
def _grid(scale, shift):
    """Nodes and log-weights: x = −e^t on (−∞, 0], x = Δ + e^t on [Δ, ∞) and a
    tanh-sinh map on [0, Δ]; the kinks of the densities sit at the ends of the
    pieces, so the trapezoid rule in t converges fast."""
    t = np.arange(np.log(1e-13 * scale), np.log(1e7 * scale), 0.02)
    tail = np.exp(t)
    u = np.linspace(-3.2, 3.2, 641)
    g = 0.5 * np.pi * np.sinh(u)
    mid = 0.5 * shift * (1.0 + np.tanh(g))
    dmid = 0.5 * shift * 0.5 * np.pi * np.cosh(u) / np.cosh(g) ** 2 * (u[1] - u[0])
    x = np.concatenate([-tail, mid, shift + tail])
    w = np.concatenate([tail * 0.02, dmid, tail * 0.02])
    keep = w > 0
    x, logw = x[keep], np.log(w[keep])
    x.flags.writeable = logw.flags.writeable = False  # cached: shared by every caller
    return x, logw


@named_shapes
def shift_rdp_grid(law, alphas, variance=1.0, shift=1.0):
    r"""D_α(P + shift ‖ P) on many orders at once by a log-space trapezoid rule (fast; for figures).

    .. math:: D_\alpha \approx \frac1{\alpha-1}\log\sum_j w_j\,
              e^{\alpha\log P(x_j-\Delta) + (1-\alpha)\log P(x_j)}

    on fixed nodes: x = −e^u and x = Δ + e^u on the two tails (u uniform,
    from 10⁻¹³·√v to 10⁷·√v) and a tanh-sinh map on [0, Δ], so that the kinks
    of the densities sit at the ends of the pieces; agrees with :func:`shift_rdp`
    to about 10⁻⁹ relative (checked in the tests). α = 1 gives the KL divergence.

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS`
    alphas : array, α ∈ [1, ∞)
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    ndarray, shape of alphas

    Raises
    ------
    ValueError
        If the law is unknown, α < 1 or infinite, v ≤ 0 or Δ ≤ 0.

    References
    ----------
    Source S4, "Further questions" (S4-18).

    Examples
    --------
    >>> float(np.round(shift_rdp_grid("laplace", [2.0], variance=2.0)[0], 6))
    0.619124
    """
    check_law(law)
    a = np.atleast_1d(check_order(alphas, "alphas", allow_one=True))
    d = _relative_shift(law, variance, shift)  # D_α depends on the shift only through t = Δ/√v
    check_cost(f"shift_rdp_grid({law!r}) on {a.size} orders", "pass fewer orders",
               seconds=shift_rdp_grid_seconds(law, a.size, variance, shift), nbytes=24.0 * a.size)
    if law == "gaussian":
        return a * d * d / 2
    if law == "laplace":
        return np.asarray(rdp_laplace(a, np.sqrt(0.5), d), dtype=float)
    if d < _T_SMALL:  # the small-shift expansion of shift_rdp
        return a * fisher_information(law) * d * d / 2
    v = 1.0
    x, logw = _grid(np.sqrt(v), d)
    lp, lq = noise_logpdf(law, x - d, v), noise_logpdf(law, x, v)
    out = np.empty(a.shape)
    one = a == 1.0
    if np.any(one):
        out[one] = np.sum(np.exp(lp + logw) * (lp - lq))
    rest = np.flatnonzero(~one)
    block = max(_BLOCK_ENTRIES // x.size, 1)  # orders per block: the table of one block is 2²¹ entries
    for start in range(0, rest.size, block):
        idx = rest[start:start + block]
        ar = a[idx][:, None]
        out[idx] = special.logsumexp(ar * lp + (1.0 - ar) * lq + logw, axis=1) / (ar[:, 0] - 1.0)
    return np.maximum(out, 0.0)  # a divergence: rounding below 0 is rounding


@named_shapes
def max_divergence(law, variance=1.0, shift=1.0):
    r"""D_∞(P + shift ‖ P) = sup_x log P(x − Δ)/P(x) (P(x) the density).

    Closed forms: Gaussian ∞; Laplace Δ/b = Δ√(2/v); logistic Δ/s = πΔ/√(3v);
    sech πΔ/(2√v) (each the supremum of the log-density's slope times Δ, reached
    in the tail). Student t and the mixture: the supremum over a wide grid,
    refined with a bounded scalar search.

    .. math:: D_\infty(P+\Delta\,\|\,P) = \sup_x\ \log P(x-\Delta) - \log P(x)

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS`
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the law is unknown, v ≤ 0 or Δ ≤ 0.

    References
    ----------
    Source S4 (S4-01, S4-18): D_α tends to the max divergence as α → ∞.

    Examples
    --------
    >>> bool(round(max_divergence("laplace"), 10) == round(float(np.sqrt(2)), 10))
    True
    """
    check_law(law)
    d = _relative_shift(law, variance, shift, quadrature=False)  # in units of the standard deviation
    v = 1.0
    if law == "gaussian":
        return float("inf")
    if law == "laplace":
        return d * np.sqrt(2.0 / v)
    if law == "logistic":
        return d * np.pi / np.sqrt(3.0 * v)
    if law == "sech":
        return d * np.pi / (2.0 * np.sqrt(v))
    if d < _T_SMALL:  # S·t + O(t²): a difference of log-densities cannot resolve it
        return max_score(law) * d
    s = np.sqrt(v)
    x = np.concatenate([np.linspace(-50 * s, 50 * s, 20001), s * np.geomspace(50, 1e8, 2000)])
    r = noise_logpdf(law, x - d, v) - noise_logpdf(law, x, v)
    i = int(np.argmax(r))
    best = float(r[i])
    if 0 < i < x.size - 1:
        res = optimize.minimize_scalar(lambda t: -(noise_logpdf(law, t - d, v) - noise_logpdf(law, t, v)),
                                       bounds=(x[i - 1], x[i + 1]), method="bounded",
                                       options=dict(xatol=1e-12 * s))
        best = max(best, -float(res.fun))
    return max(best, 0.0)
