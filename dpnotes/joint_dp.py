r"""Joint differential privacy, computed exactly on tiny discrete instances.

A mechanism ℳ gives each of n agents its own output, ℳ(S) = (y₁, …, y_n).
It is (ε, δ)-**jointly** DP if, for every agent i and every pair of data sets
S, S′ differing only in agent i's record, the outputs to the *other* agents,
ℳ(S)₋ᵢ, satisfy the (ε, δ) inequality. Agent i's own output may depend on its
record arbitrarily: that is what makes personalised outputs (an individual
recommendation, a route, a price) possible. Standard DP of the whole output
vector (y₁, …, y_n) is impossible for such mechanisms: y_i reveals x_i.

Source S2 writes the neighbouring sets as "z ∪ D₋z" and "z′ ∪ D₋z" with the
agent index i separate; the intended reading is that z and z′ are agent i's
two possible records (here x_i and x_i′) and the rest of the data, S₋ᵢ, is fixed.

Mechanisms here are functions from a tuple of records (each in a finite
domain) to a pmf over output tuples, as a dict {output tuple: probability}.
"""

import itertools
import math
from collections.abc import Mapping

import numpy as np

from ._validation import check_array, check_cost, check_count, check_int, check_nonnegative, check_probability, named_shapes

__all__ = [
    "own_record_mechanism",
    "noisy_count_mechanism",
    "view_pmf",
    "privacy_profile",
    "joint_dp_epsilon",
    "full_output_epsilon",
]


def _check_records(records, name="records"):
    """A 1-D sequence of integer records ≥ 0, as a tuple of ints."""
    arr = check_array(records, name)
    if np.any(arr < 0) or np.any(arr != np.round(arr)) or np.any(~np.isfinite(arr)):
        raise ValueError(f"{name} must be integers ≥ 0 (got {records!r:.60})")
    return tuple(int(r) for r in arr)


@named_shapes
def own_record_mechanism(records):
    r"""Each agent receives its own record: yᵢ = xᵢ (deterministic).

    .. math:: \Pr[\mathcal M(x) = y] = \mathbb 1\{y = x\}

    Parameters
    ----------
    records : tuple of int

    Returns
    -------
    dict {output tuple: probability}

    References
    ----------
    Source S2, §6 (S2-09): the simplest mechanism that is jointly DP (ε = 0) but not DP.

    Examples
    --------
    >>> own_record_mechanism((0, 1))
    {((0,), (1,)): 1.0}
    """
    records = _check_records(records)
    return {tuple((r,) for r in records): 1.0}


@named_shapes
def noisy_count_mechanism(p):
    r"""Each agent receives (its own bit, a randomized-response count of all bits).

    Every bit is flipped independently with probability 1 − p; the noisy count
    s = Σⱼ RRₚ(xⱼ) is shared by all agents: yᵢ = (xᵢ, s).

    .. math:: \Pr[s \mid x] = \Pr\Big[\sum_j B_j = s\Big],\quad B_j \sim \mathrm{Bernoulli}\big(p\,x_j + (1-p)(1-x_j)\big)

    Parameters
    ----------
    p : float, p ∈ [1/2, 1] (probability of reporting a bit truthfully)

    Returns
    -------
    callable: records (tuple of bits) → dict {output tuple: probability}

    Raises
    ------
    ValueError
        If p ∉ [1/2, 1].

    References
    ----------
    Source S2, §6 (S2-09). Jointly log(p/(1 − p))-DP (one bit's randomized response
    is the only channel from xᵢ to the others' view), never DP as a whole.

    Examples
    --------
    >>> pmf = noisy_count_mechanism(0.75)((1, 0))
    >>> round(sum(pmf.values()), 12), len(pmf)
    (1.0, 3)
    """
    p = float(check_probability(p, "p"))
    if p < 0.5:
        raise ValueError(f"p must be in [0.5, 1] (got {p})")

    def mech(records):
        bits = _check_records(records)
        dist = np.array([1.0])
        for b in bits:
            one = p if b else 1.0 - p
            dist = np.convolve(dist, [1.0 - one, one])
        return {tuple((b, s) for b in bits): float(w) for s, w in enumerate(dist) if w > 0}

    return mech


@named_shapes
def view_pmf(pmf, exclude=None):
    r"""The pmf of the outputs to all agents except ``exclude`` (the marginal of y₋ᵢ).

    .. math:: \Pr[\mathcal M(x)_{-i} = v] = \sum_{y:\ y_{-i} = v} \Pr[\mathcal M(x) = y]

    Parameters
    ----------
    pmf : dict {output tuple: probability}
    exclude : int or None (None: the whole output)

    Returns
    -------
    dict {view tuple: probability}

    Examples
    --------
    >>> view_pmf({((0,), (1,)): 0.5, ((1,), (1,)): 0.5}, exclude=0)
    {((1,),): 1.0}
    """
    _check_pmf_dict(pmf, "pmf")
    if exclude is not None:
        width = min(len(y) for y in pmf) if all(isinstance(y, tuple) for y in pmf) else 0
        exclude = check_int(exclude, "exclude", minimum=0, maximum=max(width - 1, 0))
        if width == 0:
            raise ValueError("exclude needs a pmf over output tuples (one entry per agent)")
    out = {}
    for y, w in pmf.items():
        v = y if exclude is None else y[:exclude] + y[exclude + 1:]
        out[v] = out.get(v, 0.0) + w
    return out


def _check_pmf_dict(pmf, name):
    """A pmf as a dict {outcome: probability}: probabilities real, in [0, 1], summing to 1 (to 10⁻⁹)."""
    if not isinstance(pmf, Mapping):
        raise TypeError(f"{name} must be a dict {{outcome: probability}} (got {type(pmf).__name__})")
    try:
        w = np.array(list(pmf.values()), dtype=float)
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} must map outcomes to real probabilities ({err})") from err
    if w.size == 0 or np.any(~np.isfinite(w)) or np.any(w < 0) or abs(w.sum() - 1.0) > 1e-9:
        raise ValueError(f"{name} must be a pmf: probabilities in [0, 1] summing to 1 (got {len(w)} values summing "
                         f"to {w.sum() if w.size else 0:.6g})")


#: the most mechanism evaluations and comparisons an enumeration may take
_MAX_NEIGHBOURS = 10**6


@named_shapes
def privacy_profile(p_view, q_view, epsilon):
    r"""The hockey-stick divergence δ(ε) = Σ_v max(0, P(v) − e^ε Q(v)), and D_∞(P‖Q).

    .. math:: \delta(\varepsilon) = \sup_E\ P(E) - e^\varepsilon Q(E) = \sum_v \big(P(v) - e^\varepsilon Q(v)\big)_+

    Parameters
    ----------
    p_view, q_view : dict {outcome: probability}
    epsilon : float, ε ≥ 0

    Returns
    -------
    delta : float
    max_divergence : float (inf when P puts mass where Q has none)

    Raises
    ------
    ValueError
        If ε < 0.

    Examples
    --------
    >>> privacy_profile({0: 0.75, 1: 0.25}, {0: 0.25, 1: 0.75}, 0.0)
    (0.5, 1.0986122886681098)
    """
    eps = float(check_nonnegative(epsilon, "epsilon"))
    _check_pmf_dict(p_view, "p_view")
    _check_pmf_dict(q_view, "q_view")
    keys = set(p_view) | set(q_view)
    delta, dmax = 0.0, -np.inf
    for v in keys:
        a, b = p_view.get(v, 0.0), q_view.get(v, 0.0)
        delta += max(0.0, a - np.exp(eps) * b)
        if a > 0:
            dmax = max(dmax, np.inf if b == 0 else float(np.log(a / b)))
    return float(delta), float(dmax)


def _neighbours(n_agents, domain):
    for x in itertools.product(range(domain), repeat=n_agents):
        for i in range(n_agents):
            for z in range(domain):
                if z != x[i]:
                    yield i, x, x[:i] + (z,) + x[i + 1:]


@named_shapes
def joint_dp_epsilon(mechanism, n_agents, domain=2, delta=0.0):
    r"""The smallest ε such that ``mechanism`` is (ε, δ)-jointly DP, by enumeration.

    .. math:: \varepsilon_{\text{joint}}(\delta) = \max_{i,\ x \sim_i x'}\ \inf\{\varepsilon :
              \Pr[\mathcal M(x)_{-i}\in E] \le e^\varepsilon \Pr[\mathcal M(x')_{-i}\in E] + \delta\ \forall E\}

    Parameters
    ----------
    mechanism : callable, the mechanism ℳ: records tuple → pmf dict
    n_agents : int, the number n ≥ 2 of agents (records)
    domain : int, ≥ 2 (records are 0, …, domain − 1)
    delta : float, δ ∈ [0, 1)

    Returns
    -------
    float (inf if no finite ε works)

    Raises
    ------
    ValueError
        On parameters outside their ranges.

    References
    ----------
    Source S2, §6, eq. (.8) (S2-09); Kearns, Pai, Roth and Ullman (2014).

    Examples
    --------
    >>> joint_dp_epsilon(own_record_mechanism, 3)
    0.0
    """
    return _epsilon(mechanism, n_agents, domain, delta, joint=True)


@named_shapes
def full_output_epsilon(mechanism, n_agents, domain=2, delta=0.0):
    r"""The smallest ε such that the whole output vector is (ε, δ)-DP, by enumeration.

    .. math:: \varepsilon_{\text{full}}(\delta) = \max_{x \sim x'}\ \inf\{\varepsilon :
              \Pr[\mathcal M(x)\in E] \le e^\varepsilon \Pr[\mathcal M(x')\in E] + \delta\ \forall E\}

    Parameters
    ----------
    mechanism : callable, the mechanism ℳ: records tuple → pmf dict
    n_agents : int, the number n ≥ 1 of agents (records)
    domain : int, ≥ 2
    delta : float, δ ∈ [0, 1)

    Returns
    -------
    float (inf if no finite ε works)

    Raises
    ------
    ValueError
        On parameters outside their ranges.

    References
    ----------
    Source S2, §6 (S2-09): standard DP of the whole output.

    Examples
    --------
    >>> full_output_epsilon(own_record_mechanism, 3)
    inf
    """
    return _epsilon(mechanism, n_agents, domain, delta, joint=False)


def _epsilon(mechanism, n_agents, domain, delta, joint):
    n_agents = int(check_count(n_agents, "n_agents", minimum=2 if joint else 1))
    domain = int(check_count(domain, "domain", minimum=2))
    delta = float(check_nonnegative(delta, "delta"))
    if delta >= 1:
        raise ValueError(f"delta must be in [0, 1) (got {delta})")
    if not callable(mechanism):
        raise TypeError(f"mechanism must be a callable from a records tuple to a pmf dict (got {type(mechanism).__name__})")
    log_pairs = n_agents * math.log(domain) + math.log(n_agents) + math.log(domain - 1)
    if log_pairs > np.log(_MAX_NEIGHBOURS):
        raise ValueError(f"n_agents = {n_agents} with domain = {domain} gives about 10^{log_pairs / np.log(10):.1f} "
                         f"neighbouring pairs to enumerate (limit {_MAX_NEIGHBOURS:g}); use fewer agents or a "
                         f"smaller domain")
    cache = {}
    first = (0,) * n_agents  # one call of the mechanism, to learn the size of its output pmf
    cache[first] = mechanism(first)
    _check_pmf_dict(cache[first], f"mechanism{first}")
    pairs = n_agents * domain**n_agents * (domain - 1)
    # about 0.1 ms per neighbouring pair, agent and output (views, dictionaries) on a busy 2-core machine
    check_cost(f"{'joint_dp_epsilon' if joint else 'full_output_epsilon'}(n_agents = {n_agents}, domain = {domain}) "
               f"({pairs} neighbouring pairs, {len(cache[first])} outputs each)",
               "use fewer agents or a smaller domain",
               seconds=1e-4 * pairs * n_agents * max(1, len(cache[first])))
    worst = 0.0
    for i, x, x2 in _neighbours(n_agents, domain):
        for rec in (x, x2):
            if rec not in cache:
                cache[rec] = mechanism(rec)
                _check_pmf_dict(cache[rec], f"mechanism{rec}")
        ex = i if joint else None
        p, q = view_pmf(cache[x], ex), view_pmf(cache[x2], ex)
        d0, dmax = privacy_profile(p, q, 0.0)
        if d0 <= delta:
            continue
        if delta == 0.0:
            worst = max(worst, dmax)
            continue
        if not np.isfinite(dmax):
            # δ(ε) decreases to the mass P puts where Q has none
            gap = sum(w for v, w in p.items() if q.get(v, 0.0) == 0.0)
            if gap > delta:
                return float("inf")
            dmax = 50.0
        lo, hi = 0.0, dmax
        for _ in range(100):  # bisection: δ(ε) is non-increasing
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if privacy_profile(p, q, mid)[0] > delta else (lo, mid)
        worst = max(worst, hi)
    return float(worst)
