r"""Discretisation: a loss law (:mod:`dpnotes.privacy_loss.laws`) onto a :class:`~dpnotes.pld.grid.LossGrid`.

:func:`discretise_loss_law` checks its arguments and puts one direction of a
mechanism on a grid: :func:`_discretise` for a law with a continuous part,
:func:`_atoms_grid` for a purely atomic one. :func:`_discretise` puts the law
on the grid h·j, as an upper bound on δ (``pessimistic``: connect-the-dots, or rounding up) or a lower
bound (merging the outputs of balanced bins around each grid point, or
rounding down); the methods are described in the package docstring
(:mod:`dpnotes.pld`). Inside a bin it averages by 8-point Gauss–Legendre
quadrature in the loss (:func:`_bin_average`, nodes :data:`_GL_NODES` and
weights :data:`_GL_WEIGHTS` on [0, 1]) while the log-density varies by less
than :data:`_MAX_LOG_SPREAD`, and falls back to the exact masses elsewhere.
The split of the upper bound (:func:`_dots_weight_upper`) is certified instead:
the exact-mass split plus a bound on its round-off, the quadrature only where it
is larger (a quadrature may err either way, and did next to a support edge).
:func:`_merged_residual` gives the loss of each merged bin relative to its
grid point (by quadrature, on the final edges only; the balancing passes use :func:`_mass_residual`, from the
bins' masses, a fifth of the cost), :func:`_balanced_edges` the bins' edges (in :data:`_BALANCING_PASSES` passes),
:func:`_edge_bin` the grid point on the support edge's bin and
:func:`_common_residual` the shift of the merged grid; :func:`_atoms_grid` discretises a purely atomic law (its atom at +∞
exactly).
"""

import math

import numpy as np

from .._validation import (check_bool, check_choice, check_discretisation_cost, check_grid_points, check_interval,
                           check_positive, named_shapes)
from ..privacy_loss.laws import AtomicLossLaw, LossLaw
from .grid import UNIT_ROUNDOFF, MAX_POINTS, LossGrid

_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(8)
_GL_NODES = 0.5 * (_GL_NODES + 1.0)  # on [0, 1]
_GL_WEIGHTS = 0.5 * _GL_WEIGHTS
# Quadrature inside a bin is trusted while the log-density changes by less than
# this across it; otherwise the bin falls back to plain rounding (always valid).
_MAX_LOG_SPREAD = 4.0


@named_shapes
def discretise_loss_law(law, *, interval, pessimistic, method, tail_mass):
    r"""A :class:`~dpnotes.pld.grid.LossGrid` for one direction of a mechanism with loss law ``law``.

    The grid ℓ_j = j·h carries an upper bound (``pessimistic``) or a lower bound
    on the privacy curve of the law,

    .. math:: \delta(\varepsilon) = \mathbb E\big[\max(0, 1 - e^{\varepsilon - Z})\big] + P(Z = \infty),

    by connect-the-dots or merging (``method="dots"``) or by rounding
    (``method="round"``); see :mod:`dpnotes.pld`. A purely atomic law
    (:class:`~dpnotes.privacy_loss.laws.AtomicLossLaw`) is put on the grid atom by
    atom, its atom at +∞ kept exactly and ``tail_mass`` unused.

    Parameters
    ----------
    law : LossLaw, e.g. ``privacy_loss_gaussian(1.0).law``
    interval : float, the grid spacing h > 0
    pessimistic : bool, True for an upper bound on δ(ε), False for a lower bound
    method : {"dots", "round"}
    tail_mass : float, in (0, 10⁻²], the mass cut from each tail (kept in an upper bound)

    Returns
    -------
    LossGrid

    Raises
    ------
    TypeError
        If ``law`` is not a LossLaw.
    ValueError
        If a parameter is outside its range, the grid would exceed 2²³ points, or the work its
        estimated time or memory limit (``check_discretisation_cost``).

    References
    ----------
    Koskela, Jälkö & Honkela (2020); Doroshenko, Ghazi, Kamath, Kumar &
    Manurangsi (2022), "Connect the dots"; source S2, S2-02.

    Examples
    --------
    >>> from dpnotes.privacy_loss import privacy_loss_laplace
    >>> law = privacy_loss_laplace(1.0).law
    >>> g = discretise_loss_law(law, interval=1e-3, pessimistic=True, method="dots", tail_mass=1e-16)
    >>> round(float(g.delta(0.5)), 4)  # 1 − e^{−1/4}
    0.2212
    """
    if not isinstance(law, LossLaw):
        raise TypeError(f"law must be a LossLaw (got {type(law).__name__})")
    interval = float(check_interval(interval, "interval", 0.0, 10.0, closed_low=False))  # as the constructors
    pessimistic = check_bool(pessimistic, "pessimistic")
    check_choice(method, "method", ("dots", "round"))
    tail_mass = float(check_interval(tail_mass, "tail_mass", 0.0, 1e-2, closed_low=False))
    check_discretisation_cost([_law_span(law, tail_mass)], interval, method, pessimistic,
                              f"discretise_loss_law({type(law).__name__})")
    if isinstance(law, AtomicLossLaw):
        return _atoms_grid(law.atoms, interval, pessimistic, method)
    return _discretise(law, interval, pessimistic, method, tail_mass)


def _law_span(law, tail):
    """The losses (lo, hi) a law's grid covers: its range cutting ``tail`` from each side; a purely atomic law's
    finite atoms (as :func:`_atoms_grid`)."""
    if isinstance(law, AtomicLossLaw):
        finite = [z for z, m in law.atoms if math.isfinite(z) and m > 0] or [0.0]
        return min(finite), max(finite)
    return law.range(tail)


def _bin_average(law, lo, hi, fn):
    """E[fn(Z, lo) | lo < Z ≤ hi] by Gauss–Legendre in the loss; and a reliability flag.

    The bins are taken :data:`_CHUNK_BINS` at a time, so the nodes' arrays stay a few tens of MB
    whatever the number of bins."""
    avg = np.empty(lo.size)
    ok = np.empty(lo.size, dtype=bool)
    for start in range(0, lo.size, _CHUNK_BINS):
        part = slice(start, start + _CHUNK_BINS)
        avg[part], ok[part] = _bin_average_chunk(law, lo[part], hi[part], fn)
    return avg, ok


#: bins per chunk of :func:`_bin_average` (8 nodes each: 2¹⁶ bins are 4 MB per node array)
_CHUNK_BINS = 2**16


def _bin_average_chunk(law, lo, hi, fn):
    """:func:`_bin_average` on one chunk of bins."""
    slo, shi = law.support
    a = np.maximum(lo, slo)
    b = np.minimum(hi, shi)
    width = np.maximum(b - a, 0.0)
    nodes = a[None, :] + width[None, :] * _GL_NODES[:, None]  # one row per node: the reductions run along rows
    logf = law.log_density(nodes)
    top = np.max(logf, axis=0)
    with np.errstate(invalid="ignore", over="ignore"):
        wts = _GL_WEIGHTS[:, None] * np.exp(logf - top)
        avg = np.sum(wts * fn(nodes, lo[None, :]), axis=0) / np.sum(wts, axis=0)
        spread = top - np.min(logf, axis=0)
    ok = np.isfinite(avg) & np.isfinite(top) & (spread < _MAX_LOG_SPREAD) & (width > 0)
    ok &= (lo >= slo) & (hi <= shi)  # a bin across an edge of the support: the density is not smooth
    return np.where(ok, avg, np.nan), ok


def _discretise(law, interval, pessimistic, method, tail):
    """A LossGrid for one direction of a mechanism with loss law ``law``."""
    d = interval
    lo_l, hi_l = law.range(tail)
    check_grid_points((hi_l - lo_l) / d, f"interval = {d:g}", f"use a larger interval (≥ {(hi_l - lo_l) / MAX_POINTS:.3g})")
    if max(abs(lo_l), abs(hi_l)) / d > 2.0**52:
        raise ValueError(f"interval = {d:g} is too small for losses up to {max(abs(lo_l), abs(hi_l)):.3g}: the grid "
                         f"indices would exceed 2⁵² (use interval ≥ {max(abs(lo_l), abs(hi_l)) / 2.0**52:.3g})")
    # the merged lower bound of a law with one finite support edge puts a grid point on the edge bin's merged loss
    edge = _edge_bin(law, d) if not pessimistic and method == "dots" and not law.atoms else None
    offset = 0.0 if edge is None else edge[0] - d * math.floor(edge[0] / d)  # the grid is offset + j·h
    j0 = math.floor((lo_l - offset) / d) - 1
    j1 = math.ceil((hi_l - offset) / d) + 1
    n = j1 - j0 + 1
    grid = offset + d * np.arange(j0, j1 + 1)
    probs = np.zeros(n)
    inf_mass = 0.0
    use_dots = method == "dots"

    if pessimistic or not use_dots:
        # bins (ℓ_j, ℓ_{j+1}], j = 0..n−2, plus the two tails
        pm, qm = law.bin_masses(grid) if pessimistic and use_dots else (law.mass(grid[:-1], grid[1:]), None)
        below = float(law.mass(-np.inf, grid[0]))
        above = float(law.mass(grid[-1], np.inf))
        if pessimistic:
            if use_dots:
                w = _dots_weight_upper(law, grid, pm, qm, d)
            else:
                w = np.ones(n - 1)
            probs[1:] += pm * w
            probs[:-1] += pm * (1.0 - w)
            probs[0] += below
            inf_mass += above
        else:
            probs[:-1] += pm
            probs[-1] += above
        shift = j0 * d
        for z, m in law.atoms:
            k = math.floor(z / d)
            k = k - 1 if k * d > z else (k + 1 if (k + 1) * d <= z else k)  # k·d ≤ z < (k+1)·d
            if pessimistic:
                if z == k * d:
                    probs[k - j0] += m
                elif use_dots:
                    w1 = -math.expm1(k * d - z) / -math.expm1(-d)
                    probs[k - j0] += m * (1 - w1)
                    probs[k + 1 - j0] += m * w1
                else:
                    probs[k + 1 - j0] += m
            else:
                probs[k - j0] += m
        return LossGrid(shift, d, probs, inf_mass, pessimistic).truncated(tail)

    # ---- lower bound by merging: bins around each grid point, edges balanced ----
    edges0 = np.concatenate([grid - d / 2, [grid[-1] + d / 2]])
    pm0, qm0 = law.bin_masses(edges0)
    r0, ok0 = _mass_residual(edges0, grid, pm0, qm0)
    t = np.where(ok0, -2.0 * r0, 0.0)
    # edge shifts g_j (``gamma``) with g_j + g_{j+1} = t_j (first order: residual_j ≈ r0_j + (g_j + g_{j+1})/2)
    sign = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)  # (−1)^j
    sgn_e = np.concatenate([sign, [-sign[-1]]])
    wgt = pm0 / max(pm0.sum(), 1e-300)
    best = None
    for _ in range(_BALANCING_PASSES):
        edges = _balanced_edges(law, edges0, grid, t, sign, sgn_e, wgt, edge, d)
        pm, qm = law.bin_masses(edges)
        r, ok = _mass_residual(edges, grid, pm, qm)
        given_away = _given_away_at(r, ok, edges, grid, pm, d)[0]
        if best is None or given_away < best[0]:
            best = (given_away, edges, pm, (r, ok))
        t = t - np.where(ok, 2.0 * r, 0.0)  # the next pass corrects the residuals this one left (same first order)
    _, edges, pm, by_mass = best
    r, ok = _merged_residual(law, edges, grid, by_mass)  # the residuals to round-off, which the bound rests on
    _, r, r_star = _given_away_at(r, ok, edges, grid, pm, d)
    r_min = r_star - 16 * UNIT_ROUNDOFF * (abs(grid).max() + d)  # margin for round-off
    # bin j goes to ℓ_{j−m} + r_min with m ≥ 0 the fewest steps down that keep it ≤ its merged loss ℓ_j + r_j
    steps_down = np.maximum(np.ceil((r_min - r) / d), 0.0)
    target = np.arange(n) - steps_down.astype(np.int64)
    keep = target >= 0  # below the grid: dropped (less P-mass only lowers δ)
    np.add.at(probs, target[keep], pm[keep])
    probs[-1] += float(law.mass(edges[-1], np.inf))  # mass above the top edge: ≥ ℓ_top + d/2
    for z, m in law.atoms:  # (offset = 0 with atoms)
        k = round(z / d)
        if z - k * d < r_min:
            k -= 1
        probs[k - j0] += m
    return LossGrid(offset + j0 * d + r_min, d, probs, 0.0, False).truncated(tail)


# the widest edge bin aligned to (in grid spacings): where the loss density is sparse near the support edge (σ ≳ 1
# for the subsampled Gaussian) the aligned bin spans several spacings, merging away the top (or bottom) of the
# loss range that a large Chernoff tilt weighs most; measured over q ∈ {10⁻³, 10⁻², 0.05}, σ ∈ {0.8, 1.1, 2, 4}
# the aligned grid's lower bound on ε was better at widths ≤ 1.7h and worse at ≥ 1.9h (σ = 1.1); at σ = 0.8 and
# T = 10⁴ it was 4–10× better at h ≥ 0.04q (widths ≤ 1.4h) but 1.5× worse at h = 0.022q (width 1.55h)
_MAX_EDGE_BIN = 1.45
_SECTIONS = 256


def _edge_bin(law, interval):
    r"""The grid point the merged lower bound puts on the bin at a law's finite support edge, or None.

    For a loss law whose support has one finite edge (the Poisson-subsampled Gaussian's log(1 − q), below in the
    remove direction, above in the add direction) this is the merged loss ℓ_e of the bin from that edge whose
    merged loss lies h/2 from its inner boundary: with the lower edge L the bin is (L, b] and

    .. math:: \ell_e = \log\frac{P(Z \le b)}{Q(Z \le b)} = b - h/2

    (with the upper edge U: (b, U] and ℓ_e = b + h/2), solved by sectioning the bin's width (ℓ_e taken on the
    side where the bin's merged loss is ≥ ℓ_e). A grid through ℓ_e (offset ℓ_e mod h) gives the edge bin a residual
    of about 0; on the grid through 0 it is anywhere in (−h/2, h/2), and the bin is heavy (the subsampled
    Gaussian's loss piles up near log(1 − q): a few bins hold most of the mass), so its residual would set the
    common shift of every bin, a bias of up to h/2 per step, erratic in h. The bins still partition the outputs
    by their loss, so the merged lower bound stays a post-processing (:mod:`dpnotes.pld`).

    Parameters
    ----------
    law : LossLaw
    interval : float, the grid spacing h > 0

    Returns
    -------
    (float, bool) or None
        (ℓ_e, whether the edge is the lower one); None if the support has no single finite edge, the law has
        atoms, or the bin would be wider than :data:`_MAX_EDGE_BIN`·h (where the density is sparse near the
        edge, at fine h or σ ≳ 1, the aligned bin would merge away the end of the loss range a large tilt
        weighs most).

    References
    ----------
    Koskela, Jälkö & Honkela (2020); Doroshenko, Ghazi, Kamath, Kumar & Manurangsi (2022), "Connect the dots"
    (merging outputs as a post-processing).

    """
    d = interval
    if law.atoms:
        return None
    slo, shi = law.support
    if math.isfinite(slo) == math.isfinite(shi):
        return None
    lower = math.isfinite(slo)

    def residual(w):  # (merged loss − grid point, merged loss) of the edge bin of width w (elementwise)
        b = slo + w if lower else shi - w
        p, qm = (law.mass(-np.inf, b), law.q_mass(-np.inf, b)) if lower else (law.mass(b, np.inf), law.q_mass(b, np.inf))
        with np.errstate(divide="ignore", invalid="ignore"):
            v = np.log(p) - np.log(qm)
        return (v - (b - d / 2) if lower else v - (b + d / 2)), v

    lo, hi = 0.0, 64.0 * d
    r_hi = float(residual(hi)[0])
    if not math.isfinite(r_hi) or (r_hi >= 0) == lower:  # no sign change within 64h: no bin to align
        return None
    # the bin's width where the residual changes sign, to 64h·2⁻⁴⁸: six rounds of a 256-section (the bisection's
    # 48 halvings, in six vectorised evaluations), each keeping the first cell whose upper end has the sign of hi
    for _ in range(6):
        ws = lo + (hi - lo) * np.arange(1, _SECTIONS) / _SECTIONS
        rs = residual(ws)[0]
        at_hi = np.isfinite(rs) & ((rs >= 0) != lower)
        j = int(np.argmax(at_hi)) if at_hi.any() else _SECTIONS - 1
        lo, hi = (float(ws[j - 1]) if j > 0 else lo), (float(ws[j]) if j < _SECTIONS - 1 else hi)
    w = hi if not lower else lo  # the side whose residual is ≥ 0
    r, v = (float(x) for x in residual(w))
    if not (math.isfinite(r) and math.isfinite(v)) or w > _MAX_EDGE_BIN * d:
        return None
    return v - r, lower


def _common_residual(r, pm, d):
    r"""The common residual r* ≤ 0 of the merged bins: every bin j is placed at ℓ_j + r* (the grid shifted by r*) if
    r_j ≥ r*, else one spacing lower, and r* minimises the mean loss given away,

    .. math:: \sum_j p_j\,(r_j - r^*) + h\sum_{j:\,r_j < r^*} p_j,

    over r* ∈ {0} ∪ {r_j}. Taking the smallest r_j (every bin kept in place) shifts every bin down by |min r_j|,
    which a single bin sets: near a support edge it can be near h/2, a bias of order h per step; sending that
    bin one spacing down costs only its mass times h. Any r* ≤ 0 gives a valid lower bound (each bin's mass sits at
    or below its merged loss), so the choice only sets the accuracy."""
    live = pm > 0
    if not np.any(live):
        return 0.0
    rs, ps = r[live], pm[live]
    order = np.argsort(rs)
    rs, ps = rs[order], ps[order]
    below = np.concatenate([[0.0], np.cumsum(ps)[:-1]])  # mass of the bins with r_j < rs[i] (ties kept in place)
    neg = rs <= 0.0
    if not np.any(neg):
        return 0.0
    cost = -rs[neg] * ps.sum() + d * below[neg]
    i = int(np.argmin(cost))
    cost0 = d * float(ps[rs < 0.0].sum())  # r* = 0: every bin with r_j < 0 goes down
    return 0.0 if cost0 <= cost[i] else float(rs[neg][i])


#: passes of the merged lower bound's edge balancing (:func:`_balanced_edges`): each corrects, to first order, the
#: residuals the previous one left (where the density is steep, near a support edge, and where an edge shift is
#: clipped), and the pass giving away the least loss (:func:`_given_away`) is kept; at q = 10⁻³, σ = 2,
#: h = 6.6·10⁻⁵ the loss given away per step fell from 5.7h² (one pass) to 1.1h², 0.47h² and 0.33h² (two to four
#: passes), and the 10⁶-fold lower ε's error from 1.2 % to 0.29 %, 0.17 % and 0.14 %
_BALANCING_PASSES = 3


def _balanced_edges(law, edges0, grid, t, sign, sgn_e, wgt, edge, d):
    r"""The merged bins' edges e_j = ℓ_j − h/2 + g_j, the shifts g_j solving g_j + g_{j+1} = t_j.

    The solution is g_j = (−1)^j (g_0 + H_j), H_j = −Σ_{i<j} (−1)^i t_i; g_0 is the mass-weighted least-squares
    choice (or keeps the aligned edge bin's inner edge in place, :func:`_edge_bin`); each g_j is clipped to
    ±h/4 (so the edges stay increasing: the bins still partition the outputs by their loss), the outermost
    edges stay put."""
    big_h = np.concatenate([[0.0], np.cumsum(-sign * t)])  # H_j, j = 0..n
    if edge is None:
        g0 = -np.sum(wgt * (big_h[:-1] - sgn_e[:-1] * t / 2))
    else:  # the edge bin's inner edge stays put (g = 0 there; the alternating part of g leaves g_j + g_{j+1} as is)
        k = int(round((edge[0] - grid[0]) / d))  # the edge bin's grid point
        inner = k + 1 if edge[1] else k  # its inner edge: the upper one at the lower support edge, else the lower
        g0 = -big_h[inner]
    gamma = np.clip(sgn_e * (g0 + big_h), -d / 4, d / 4)
    gamma[0] = gamma[-1] = 0.0
    edges = edges0 + gamma
    if edge is not None:  # the edge bin reaches the support edge; the bins beyond it are empty
        slo, shi = law.support
        edges[inner] = grid[k] + (d / 2 if edge[1] else -d / 2)
        if edge[1]:
            edges[:inner] = np.minimum(edges[:inner], slo)
        else:
            edges[inner + 1:] = np.maximum(edges[inner + 1:], shi)
    return edges


def _given_away(r, pm, r_star, d):
    r"""The mean loss a merged grid with common residual r* gives away: Σ_j p_j (r_j − r*) + h Σ_{j: r_j < r*} p_j
    (the objective of :func:`_common_residual`)."""
    return float(np.sum(pm * (r - r_star)) + d * np.sum(pm[r < r_star]))


def _dots_weight_upper(law, grid, pm, qm, d):
    r"""Upper bounds ŵ_j ≥ w_j on the share of bin (ℓ_j, ℓ_{j+1}] that connect-the-dots moves up to ℓ_{j+1}.

    The split that keeps both the P- and the Q-mass of the bin is

    .. math:: w_j = \frac{\mathbb E_P[1 - e^{\ell_j - Z};\ \ell_j < Z \le \ell_{j+1}]}{P_j\,(1 - e^{-h})}
              = \frac{P_j - e^{\ell_j} Q_j}{P_j\,(1 - e^{-h})} \in [0, 1],

    P_j, Q_j the P- and Q-mass of the bin (``pm``, ``qm``). Any ŵ_j ≥ w_j also gives an upper bound on
    δ(ε): it moves P-mass from ℓ_j to ℓ_{j+1}, i.e. raises the loss stochastically, and
    max(0, 1 − e^{ε−ℓ}) is non-decreasing in ℓ; the P-masses still sum to the same
    total (ŵ = 1 is rounding up). So ŵ_j is the exact-mass value plus a bound on its
    error, never the bare quadrature: an 8-point Gauss–Legendre average need not be
    above w_j, and next to an edge of the support, where the loss density has a
    log-singular peak, it fell 8e-5 below it (q = 10⁻³, σ = 0.8, h = 2·10⁻⁴, add
    direction: δ(0) 8e-6 relative below the truth).

    Error bound. P_j and Q_j are differences of normal distribution functions
    taken in the smaller tail (:func:`~dpnotes.privacy_loss.laws.normal_mass`):
    each errs by about u·T·|log T| absolutely (u = 2⁻⁵², T the smaller of the two
    tail masses around the bin, the value whose logarithm is exponentiated), which
    relative to a narrow bin is large. We allow

    .. math:: e_P = 8u\,T^P_j\,(2 + |\log T^P_j|),\qquad
              T^P_j = \min\big(P(Z \le \ell_{j+1}),\ P(Z > \ell_j)\big),

    the same for Q, and with r_j = e^{ℓ_j}Q_j/P_j ≤ 1 and the rounding of
    P_j − e^{ℓ_j}Q_j,

    .. math:: |\hat w_j^{\rm mass} - w_j| \le
              \frac{r_j\,(e_P/P_j + e_Q/Q_j + 4u) + 4u}{1 - e^{-h}},

    which is added (an error of the bin's output edges moves a sliver of true P-
    and Q-mass together and changes w_j only by the sliver's share, not by 1/h).
    The allowance is ≥ 12× the largest error measured against mpmath (bins around
    the bulk and the support edge, q = 10⁻⁴…0.5, σ = 0.5…2, h = 10⁻³…10⁻⁶). Where the quadrature average (:func:`_bin_average`, an
    independent route) is reliable and larger, it is taken instead (more
    pessimistic, still ≥ w_j). The bound grows like u/(P_j h), so at very fine
    grids it costs tightness, never validity; where it reaches 1 the bin is
    rounded up.
    """
    u = UNIT_ROUNDOFF
    lo, hi = grid[:-1], grid[1:]
    w = np.ones(lo.size)  # rounding up: always an upper bound

    def tail_error(m, below, above):  # 8u·T(2 + |log T|), T the smaller tail mass around each bin
        t = np.minimum(below + np.cumsum(m), above + np.cumsum(m[::-1])[::-1])
        with np.errstate(divide="ignore"):
            return 8 * u * t * (2.0 + np.abs(np.log(np.maximum(t, 1e-300))))

    e_p = tail_error(pm, float(law.mass(-np.inf, grid[0])), float(law.mass(grid[-1], np.inf)))
    e_q = tail_error(qm, float(law.q_mass(-np.inf, grid[0])), float(law.q_mass(grid[-1], np.inf)))
    live = np.nonzero(pm > 0)[0]
    if live.size == 0:
        return w
    p, qv = pm[live], qm[live]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        r = np.exp(lo[live]) * qv / p
        w_mass = (1.0 - r) / -math.expm1(-d)
        err = (np.abs(r) * (e_p[live] / p + e_q[live] / qv + 4 * u) + 4 * u) / -math.expm1(-d)
        w_hat = w_mass + err
        w_q, ok = _bin_average(law, lo[live], hi[live], lambda x, l: -np.expm1(l - x) / -math.expm1(-d))
        w_hat = np.where(ok & (w_q > w_hat), w_q, w_hat)
    w[live] = np.where(np.isfinite(w_hat), np.clip(w_hat, 0.0, 1.0), 1.0)
    return w


def _given_away_at(r, ok, edges, grid, pm, d):
    """(mean loss given away, valid residuals, common residual r*) of merged bins with residuals ``r`` (trusted where
    ``ok``; elsewhere, and where smaller, the lower edge's residual, which the merged loss always reaches)."""
    lower_edge_res = edges[:-1] - grid
    valid = np.where(ok, np.maximum(r, lower_edge_res), lower_edge_res)
    r_star = _common_residual(valid, pm, d)
    return _given_away(valid, pm, r_star, d), valid, r_star


def _mass_residual(edges, grid, pm, qm):
    r"""The residuals log(P(bin_j)/Q(bin_j)) − ℓ_j from the bins' P-masses ``pm`` and Q-masses ``qm``, each by the
    distribution functions (:func:`dpnotes.privacy_loss.laws.normal_mass`, full relative precision): a difference
    of two logarithms, off by a few times their relative error (≲ 10⁻¹¹ for bins of a thousandth of σ far in the
    tails), which is plenty to balance the edges (a first-order correction of residuals of order h) but not to
    place the bound's mass, which :func:`_merged_residual` does; and where a mass vanishes, not ``ok``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        r = np.log(pm) - np.log(qm) - grid
    ok = np.isfinite(r)
    return np.where(ok, r, edges[:-1] - grid), ok


def _merged_residual(law, edges, grid, by_mass):
    """The residuals log(P(bin_j)/Q(bin_j)) − ℓ_j (dQ = e^{−Z}dP), bin_j = (edges_j, edges_{j+1}], by quadrature;
    where that is unreliable, ``by_mass``: the (residuals, ok) of :func:`_mass_residual` on the same edges."""
    avg, ok = _bin_average(law, edges[:-1], edges[1:],
                           lambda x, l: np.exp(-(x - l)))
    with np.errstate(divide="ignore", invalid="ignore"):
        r = edges[:-1] - grid - np.log(avg)
    ok = ok & np.isfinite(r)
    r_mass, ok_mass = by_mass
    return np.where(ok, r, r_mass), ok | ok_mass


def _atoms_grid(atoms, interval, pessimistic, method):
    """LossGrid of a purely atomic loss law (randomized response, finite pmfs)."""
    finite = [(z, m) for z, m in atoms if np.isfinite(z) and m > 0]
    inf_mass = sum(m for z, m in atoms if z == np.inf)
    g = _discretise(AtomicLossLaw(finite), interval, pessimistic, method, 0.0)
    g.inf_mass += inf_mass  # exact in both bounds
    return g
