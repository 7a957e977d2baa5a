"""Rényi divergence computed numerically, for any two 1-D densities or pmfs.

This is the independent route against which every closed form is checked:
quadrature for densities, an exact log-sum-exp for probability mass functions.
"""

import numpy as np
import warnings

from scipy.special import logsumexp

from ._validation import check_array, check_order, check_real, named_shapes, scalar_or_array

__all__ = ["LogDensity", "renyi_divergence"]

_LOG_TINY = float(np.log(np.finfo(float).tiny))  # ≈ −708.4
_MAX_DENSITY_ORDER = 1e8  # the largest finite order integrated by quadrature


class LogDensity:
    """A density given by its logarithm, for accuracy far in the tails.

    Large orders put the integrand where densities are below 1e-300; there a
    ``log(pdf(x))`` (and some ``logpdf`` implementations, e.g. scipy's Laplace)
    loses all precision. Wrap an exact log-density instead:
    ``LogDensity(lambda x: -np.abs(x - 1) - np.log(2))``.
    """

    def __init__(self, logpdf):
        self.logpdf = logpdf



@named_shapes
def renyi_divergence(p, q, alpha, support=None, points=()):
    r"""Rényi divergence D_α(P‖Q) of two 1-D densities or two pmfs.

    .. math:: D_\alpha(P\|Q) = \frac{1}{\alpha-1}\log\int P(x)^\alpha Q(x)^{1-\alpha}\,dx,

    with D_1 = ∫ P log(P/Q) (KL) and D_∞ = ess sup log(P/Q).

    Parameters
    ----------
    p, q : callable, frozen scipy distribution, or array_like
        The laws P and Q: either two densities (vectorised callables, or objects with a ``logpdf``
        method such as ``scipy.stats.norm(0, 1)`` or :class:`LogDensity`, evaluated
        in log space; the log-density must be accurate where the integrand lives,
        which for large α is far in the tails) or two
        probability mass functions on the same finite support (arrays of equal
        length, each summing to 1).
    alpha : float or array, α ∈ [1, ∞] (for densities finite orders up to 10⁸, and ∞)
    support : (float, float), optional
        Integration interval for densities; default (−∞, ∞).
    points : sequence of float, optional
        Known kinks or jumps of the densities (e.g. the centres of Laplace
        densities); quadrature splits there, which keeps tiny divergences exact.

    Returns
    -------
    float or ndarray (inf where P is not absolutely continuous w.r.t. Q)

    Raises
    ------
    ValueError
        If α < 1, or pmfs have different shapes, negative entries or do not sum to 1.

    References
    ----------
    Source S0, Definition 1.2; source S4, definition of D_λ (the order is called λ there); Rényi (1961).

    Examples
    --------
    >>> from scipy.stats import norm
    >>> round(renyi_divergence(norm(1, 1), norm(0, 1), 3.0), 8)
    1.5
    >>> round(renyi_divergence([0.75, 0.25], [0.25, 0.75], 1.0), 10)
    0.5493061443
    """
    alpha = check_order(alpha, allow_one=True, allow_inf=True)
    is_density = [callable(d) or hasattr(d, "logpdf") for d in (p, q)]
    if all(is_density):
        lo, hi = (-np.inf, np.inf) if support is None else _check_support(support)
        if not (isinstance(points, (tuple, list)) and len(points) == 0):
            points = check_array(points, "points")
        fn = np.vectorize(lambda a: _density_divergence(p, q, float(a), lo, hi, points), otypes=[float])
        return scalar_or_array(fn(alpha))
    if any(is_density):
        raise ValueError("p and q must both be densities (callables) or both pmfs (arrays)")
    logp, logq = _check_pmfs(p, q)
    fn = np.vectorize(lambda a: _pmf_divergence(logp, logq, float(a)), otypes=[float])
    return scalar_or_array(fn(alpha))


def _check_support(support):
    s = check_array(support, "support", finite=False)
    if s.size != 2 or not s[0] < s[1]:
        raise ValueError(f"support must be an interval (lo, hi) with lo < hi (got {support!r:.60})")
    return float(s[0]), float(s[1])


def _check_pmfs(p, q):
    p = check_real(p, "p")
    q = check_real(q, "q")
    if p.shape != q.shape or p.ndim != 1:
        raise ValueError(f"p and q must be 1-D pmfs of equal length (got shapes {p.shape}, {q.shape})")
    for name, v in (("p", p), ("q", q)):
        if np.any(v < 0) or not np.isclose(v.sum(), 1.0, rtol=0, atol=1e-9):
            raise ValueError(f"{name} must be a pmf: entries in [0, 1] summing to 1")
    with np.errstate(divide="ignore"):
        return np.log(p), np.log(q)


def _pmf_divergence(logp, logq, alpha):
    on = np.isfinite(logp)
    if np.any(np.isneginf(logq[on])):
        return np.inf
    lp, lq = logp[on], logq[on]
    if alpha == 1.0:
        return float(np.sum(np.exp(lp) * (lp - lq)))
    if np.isinf(alpha):
        return float(np.max(lp - lq))
    t, L = alpha - 1.0, lp - lq
    if t * float(np.max(np.abs(L))) < 50.0:
        # Σ P^α Q^{1−α} − 1 = Σ P·(e^{(α−1)L} − 1) with ΣP = 1: no cancellation as α → 1
        return float(np.log1p(np.sum(np.exp(lp) * np.expm1(t * L))) / t)
    return float(logsumexp(alpha * lp + (1.0 - alpha) * lq) / t)


def _density_divergence(p, q, alpha, lo, hi, points=()):
    """Quadrature in log space: find where the integrand lives (on a wide grid),
    scale its peak out, and integrate piecewise over that range."""
    from scipy import integrate, optimize  # imported here: loading this module stays light

    logp, logq = _log_density(p, "p"), _log_density(q, "q")
    points = tuple(float(x) for x in points) + _kinks(p) + _kinks(q)  # a Laplace law's centre: split there too

    grid = _grid(lo, hi)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        lp_grid, lq_grid = logp(grid), logq(grid)
    lp_max = float(np.max(lp_grid))
    # a log-density computed as log(pdf) (some scipy laws) loses its digits where the density is
    # subnormal and is −∞ beyond; its signature on the grid: a value near the underflow next to −∞.
    # Below the smallest normal double such a log-density is not used (masked, or refused below)
    lossy = (_loses_digits(lp_grid), _loses_digits(lq_grid))

    def logs(x):
        x = np.atleast_1d(np.asarray(x, dtype=float))
        lp, lq = logp(x), logq(x)
        if lossy[0] or lossy[1]:
            # masked by P = 0 there (no mass; a Q underflowed to 0 under a P as small is rounding, not a gap)
            lp = np.where(_lost_digits(lp, lq, lossy), -np.inf, lp)
        # Q(x) underflowing to 0 where P(x) is negligible (e^-300 of its peak) is rounding, not a gap
        underflow = np.isneginf(lq) & np.isfinite(lp)
        tiny = underflow & (lp < lp_max - 300.0)
        return np.where(tiny, -np.inf, lp), lq, underflow & ~tiny

    def log_integrand(x):
        lp, lq, gap = logs(x)
        with np.errstate(invalid="ignore"):
            val = lp if alpha == 1.0 else alpha * lp + (1.0 - alpha) * lq
        # P(x) = 0 carries no mass, whatever Q(x) is; P(x) > 0 = Q(x) is a support gap: D = ∞
        return np.where(gap, np.inf, np.where(np.isneginf(lp), -np.inf, val))

    if lossy[0] or lossy[1]:
        _check_trusted_region(grid, lp_grid, lq_grid, lossy, alpha)
    if np.isinf(alpha):
        lp, lq, gap = logs(grid)
        if np.any(gap):
            return np.inf
        # where a density is below the smallest normal double, a log(pdf) has lost its digits
        on = np.flatnonzero((lp > _LOG_TINY) & (lq > _LOG_TINY))
        ratio = lp[on] - lq[on]
        peak = float(np.max(ratio))
        # a supremum at an infinite end of the grid is not attained there: probe further out,
        # and if the log ratio keeps growing (a Gaussian shift: linearly), it is unbounded
        for end, far in ((on[0], lo), (on[-1], hi)):
            if np.isinf(far) and ratio[on.searchsorted(end)] >= peak:
                xs = grid[end] * np.array([1.0, 10.0, 100.0])
                lp_far, lq_far, gap_far = logs(xs)
                if np.any(gap_far):
                    return np.inf
                with np.errstate(invalid="ignore"):
                    r = lp_far - lq_far
                if np.all(np.isfinite(r)) and r[2] > r[1] > r[0] + 1e-9 * abs(r[0]):
                    return np.inf
        return peak
    if alpha > _MAX_DENSITY_ORDER:
        raise ValueError(f"alpha must be ≤ {_MAX_DENSITY_ORDER:g} or ∞ for densities (got {alpha:g}): "
                         f"α·log P − (α − 1)·log Q cancels beyond")
    with np.errstate(invalid="ignore", over="ignore"):
        vals = log_integrand(grid)
    if np.any(np.isposinf(vals)):
        return np.inf
    if not np.any(np.isfinite(vals)):
        raise ValueError("p has no mass on the support")
    vals = np.where(np.isnan(vals), -np.inf, vals)
    i = int(np.argmax(vals))
    # the integrand still rising at an infinite end of the grid: its bulk lies beyond (a Gaussian at large α)
    edge = np.isposinf(hi) and vals[-1] > vals[i] - 80.0 and vals[-1] >= vals[-2]
    edge = edge or np.isneginf(lo) and vals[0] > vals[i] - 80.0 and vals[0] >= vals[1]
    if edge:
        raise ValueError(f"alpha = {alpha:g} is too large for quadrature here: the integrand P^α Q^(1−α) lives "
                         f"beyond |x| = {abs(grid[-1]):.3g}, the end of the search grid; use a closed form")
    shift = float(vals[i])
    # refine the peak between the neighbouring grid points, so exp(· − shift) cannot overflow
    lo_i, hi_i = grid[max(i - 1, 0)], grid[min(i + 1, grid.size - 1)]
    if hi_i > lo_i:
        best = optimize.minimize_scalar(
            lambda x: -float(log_integrand(x)[0]), bounds=(lo_i, hi_i), method="bounded",
            options={"xatol": 1e-10 * max(1.0, abs(grid[i]))},
        )
        shift = max(shift, -float(best.fun))
    live = np.nonzero(vals > min(shift, float(vals[i])) - 80.0)[0]  # e^-80: negligible relative to the peak
    a = grid[max(live[0] - 1, 0)]
    b = grid[min(live[-1] + 1, grid.size - 1)]
    inner = [x for x in points if a < x < b]
    edges = np.unique(np.concatenate([np.linspace(a, b, 65), inner]))

    def f(x):
        w = np.exp(log_integrand(x) - shift)
        if alpha == 1.0:
            lp, lq, _ = logs(x)
            with np.errstate(invalid="ignore"):
                w = np.where(w > 0, w * (lp - lq), 0.0)
        return float(w[0])

    # the integrand's own rounding: α·log P − (α − 1)·log Q carries an absolute error of about
    # ε_mach·(α|log P| + (α − 1)|log Q|), a relative error of the integral as large; asking quadpack for
    # less than that makes it subdivide to its limit on noise (seconds of work at α ≈ 10⁴ for scipy laws)
    lp_live, lq_live, _ = logs(grid[live])
    with np.errstate(invalid="ignore", over="ignore"):
        spread = alpha * np.abs(lp_live) + abs(alpha - 1.0) * np.abs(lq_live)
    spread = spread[np.isfinite(spread)]
    noise = 8.0 * np.finfo(float).eps * float(np.max(spread)) if spread.size else 0.0
    opts = dict(limit=200, epsabs=0.0, epsrel=min(max(1e-13, noise), 1e-1))
    with warnings.catch_warnings():
        # quadpack warns when 1e-13 is out of reach; the achieved accuracy is checked in the tests
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        total = sum(integrate.quad(f, x0, x1, **opts)[0] for x0, x1 in zip(edges[:-1], edges[1:]))
    if alpha == 1.0:
        return float(total * np.exp(shift))
    return float((np.log(total) + shift) / (alpha - 1.0))


def _logcosh(z):
    a = np.abs(z)
    return a + np.log1p(np.exp(-2.0 * a)) - np.log(2.0)


#: exact log-densities of the standard forms of scipy laws whose own ``logpdf`` is log(pdf), which loses its
#: digits where the density is subnormal (below ≈ 2.2e-308) and is −∞ beyond: at large α the Rényi integrand
#: weighs those digits by α (Laplace(1) against Laplace(0) at α ≥ 6·10⁴ gave ±∞)
_STABLE_STANDARD_LOGPDF = {
    "laplace": lambda z: -np.abs(z) - np.log(2.0),
    "hypsecant": lambda z: -np.log(np.pi) - _logcosh(z),
    "gumbel_r": lambda z: -z - np.exp(-z),
    "gumbel_l": lambda z: z - np.exp(z),
}


def _loses_digits(log_d):
    """True if a log-density on the search grid looks computed as log(pdf): a finite value within 60 of the
    underflow (below ≈ −648) next to −∞ (a stable log-density is −∞ only outside the support)."""
    fin = np.isfinite(log_d)
    near = fin & (log_d < _LOG_TINY + 60.0)
    cliff = np.zeros_like(fin)
    cliff[:-1] |= near[:-1] & np.isneginf(log_d[1:])
    cliff[1:] |= near[1:] & np.isneginf(log_d[:-1])
    return bool(np.any(cliff))


def _lost_digits(lp, lq, lossy):
    """Where a log(pdf)-computed log-density cannot be trusted: finite below the log of the smallest normal
    double, or Q = 0 under a P near the underflow."""
    bad = np.zeros(np.shape(lp), dtype=bool)
    with np.errstate(invalid="ignore"):
        if lossy[0]:
            bad |= np.isfinite(lp) & (lp < _LOG_TINY)
        if lossy[1]:
            bad |= np.isfinite(lq) & (lq < _LOG_TINY)
            bad |= np.isneginf(lq) & np.isfinite(lp) & (lp < _LOG_TINY + 60.0)
    return bad


def _check_trusted_region(grid, lp, lq, lossy, alpha):
    """Refuse when the Rényi integrand still matters where a log(pdf)-computed density has lost its digits:
    next to the grid points where it cannot be trusted (:func:`_lost_digits`, and the −∞ just past a value
    near the underflow), the integrand must be e^{−80} below its peak (for α = ∞: below the supremum found)."""
    bad = _lost_digits(lp, lq, lossy)
    for log_d, flag in zip((lp, lq), lossy):
        if flag:
            neg = np.isneginf(log_d)
            near = np.isfinite(log_d) & (log_d < _LOG_TINY + 60.0)
            bad[1:] |= neg[1:] & near[:-1]
            bad[:-1] |= neg[:-1] & near[1:]
    if not np.any(bad):
        return
    with np.errstate(invalid="ignore", over="ignore"):
        if np.isinf(alpha):
            vals = lp - lq
        else:
            vals = lp if alpha == 1.0 else alpha * lp + (1.0 - alpha) * lq
    vals = np.where(bad | np.isnan(vals) | np.isneginf(lp), -np.inf, vals)
    if not np.any(np.isfinite(vals)):
        return
    peak = float(np.max(vals))
    margin = 0.0 if np.isinf(alpha) else 80.0
    edge = np.zeros_like(bad)
    edge[1:] |= bad[:-1]
    edge[:-1] |= bad[1:]
    edge &= ~bad & (vals >= peak - margin)
    if np.any(edge):
        which = " and ".join(n for n, f in zip(("p", "q"), lossy) if f)
        raise ValueError(f"alpha = {alpha:g} is out of reach for these densities: the integrand P^α Q^(1−α) "
                         f"still matters at x ≈ {grid[np.flatnonzero(edge)[0]]:.4g}, next to where the log-density "
                         f"of {which} (computed as log(pdf)) has lost its digits (density below 2.2e-308); pass "
                         f"LogDensity objects with exact log-densities, or a smaller alpha")


def _frozen_loc_scale(d):
    """(loc, scale) of a frozen scipy law without shape parameters, or None."""
    try:
        args, kwds = tuple(d.args), dict(d.kwds)
        if len(args) > 2 or set(kwds) - {"loc", "scale"}:
            return None
        loc = float(args[0] if len(args) > 0 else kwds.get("loc", 0.0))
        scale = float(args[1] if len(args) > 1 else kwds.get("scale", 1.0))
    except (TypeError, ValueError, AttributeError):
        return None
    return (loc, scale) if np.isfinite(loc) and np.isfinite(scale) and scale > 0 else None


def _kinks(d):
    """The kink of a frozen scipy Laplace law (its centre), as a tuple; () for any other density."""
    if getattr(getattr(d, "dist", None), "name", None) != "laplace":
        return ()
    ls = _frozen_loc_scale(d)
    return () if ls is None else (ls[0],)


def _stable_logpdf(d):
    """The exact log-density of a frozen scipy law of a family in :data:`_STABLE_STANDARD_LOGPDF`, else None."""
    dist = getattr(d, "dist", None)
    fn = _STABLE_STANDARD_LOGPDF.get(getattr(dist, "name", None))
    ls = None if fn is None else _frozen_loc_scale(d)  # these families have no shape parameter
    if ls is None:
        return None
    loc, scale = ls
    log_scale = np.log(scale)

    def logpdf(x):
        with np.errstate(over="ignore"):
            return fn((np.asarray(x, dtype=float) - loc) / scale) - log_scale
    return logpdf


def _log_density(d, name):
    """log of a density: ``d.logpdf`` when it has one (scipy frozen laws), else log d(x).

    For the scipy laws whose ``logpdf`` is log(pdf) (Laplace, hyperbolic secant, Gumbel) the exact
    log-density of :data:`_STABLE_STANDARD_LOGPDF` is used instead. A callable that takes only scalars
    (``lambda x: math.exp(-x * x / 2)``) is vectorised; one that returns negative or non-numeric values
    is refused, naming ``name``.
    """
    stable = _stable_logpdf(d)
    if stable is not None:
        return stable
    if hasattr(d, "logpdf"):
        return lambda x: np.asarray(d.logpdf(x), dtype=float)
    probe = np.array([-1.0, 0.0, 0.5])
    try:
        values = np.asarray(d(probe), dtype=float)
        if values.shape != probe.shape:
            raise ValueError("not elementwise")
        fn = d
    except (TypeError, ValueError, ArithmeticError):
        fn = np.vectorize(d, otypes=[float])
        try:
            values = fn(probe)
        except (TypeError, ValueError, ArithmeticError) as err:
            raise TypeError(f"{name} must be a density: a callable taking a real x (or an array) and returning "
                            f"a real ≥ 0 ({type(err).__name__}: {err})") from err
    if np.any(np.isnan(values)) or np.any(values < 0):
        raise ValueError(f"{name} must be a density: its values must be real and ≥ 0 (got {values} at x = {probe})")

    def log_d(x):
        with np.errstate(divide="ignore"):
            return np.log(np.asarray(fn(x), dtype=float))

    return log_d


def _grid(lo, hi, n=20001):
    """A search grid: dense near 0, reaching far out on infinite ends (sinh map)."""
    if np.isfinite(lo) and np.isfinite(hi):
        return np.linspace(lo, hi, n)
    s = np.sinh(np.linspace(-12.0, 12.0, n))  # spans about ±8e4 with fine steps near 0
    if np.isfinite(lo):
        s = s[s >= lo]
    if np.isfinite(hi):
        s = s[s <= hi]
    return s
