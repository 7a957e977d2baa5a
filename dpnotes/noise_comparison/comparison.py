r"""Which law is best: source S4's further questions answered from the divergences of :mod:`~dpnotes.noise_comparison.shift`.

:func:`crossover_order` is the order from which a law beats the Gaussian of
equal variance, :func:`best_noise_law` the best candidate at each order and
:func:`epsilon_after_composition` the ε at δ of T releases (RDP composed and
converted on the orders :data:`_COMPOSITION_ORDERS`). :func:`claim26_table`
measures how useful Claim 26's constant K(c₁, c₂) is.
"""

import numpy as np
from scipy import optimize

from .._validation import check_array, check_choice, check_cost, check_order, check_positive, named_shapes
from .laws import NOISE_LAWS, check_law
from .shift import shift_rdp_grid, shift_rdp_grid_seconds


@named_shapes
def crossover_order(law, variance=1.0, shift=1.0):
    r"""The smallest order α at which ``law`` has a smaller D_α(P + Δ ‖ P) than the Gaussian of equal variance.

    .. math:: \alpha^\times = \min\{\alpha \ge 1:\ D_\alpha(P+\Delta\|P) < \alpha\Delta^2/(2v)\}

    Found on a log grid of orders (:func:`shift_rdp_grid`) and refined by Brent's
    method. Returns 1.0 if the law is already better at the KL end.

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS` except "gaussian"
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    float (inf if the Gaussian stays smaller up to α = 10⁶)

    Raises
    ------
    ValueError
        If the law is unknown or the Gaussian itself.

    References
    ----------
    Source S4, "Further questions": "can you find anything better than Gaussian?" (S4-18).

    Examples
    --------
    >>> 1.0 < crossover_order("laplace") < 10.0
    True
    """
    check_law(law)
    if law == "gaussian":
        raise ValueError("law must not be the Gaussian (it is the reference)")
    v = float(check_positive(variance, "variance"))
    d = float(check_positive(shift, "shift"))
    orders = np.geomspace(1.0, 1e6, 241)

    def gap(a):
        return float(shift_rdp_grid(law, [a], v, d)[0] - a * d * d / (2 * v))

    g = shift_rdp_grid(law, orders, v, d) - orders * d * d / (2 * v)
    if g[0] < 0:
        return 1.0
    neg = np.nonzero(g < 0)[0]
    if neg.size == 0:
        return float("inf")
    j = int(neg[0])
    return float(optimize.brentq(gap, orders[j - 1], orders[j], xtol=1e-12, rtol=1e-12))


@named_shapes
def claim26_table(pairs=((0.5, 0.5), (1.0, 0.5), (0.5, 1.0), (1.0, 1.0), (2.0, 1.0), (1.0, 2.0))):
    r"""Claim 26's constant K(c₁, c₂) and the constant it puts in front of q²α/σ².

    .. math:: \varepsilon(\alpha) \le \frac{\log K}{\alpha - 1} \approx \frac{\log K}{c_2\sigma^2}
              = \frac{\log K}{c_1^2 c_2^2}\cdot\frac{q^2\alpha}{\sigma^2}
              \qquad \text{at } \alpha = c_2\sigma^2,\ q = c_1/\sigma,

    with K the certified supremum of :func:`dpnotes.subsampling.claim26_constant`
    (its upper end), each pair's bracket within an equal share of one work limit
    (``max_work`` 2·10⁸/pairs quadrature nodes, about 10 s for the table; a bracket
    stopped by its share stays valid, wider than asked, with an ``AccuracyWarning``). The claim is useful when log K/(c₁²c₂²) is small; the exact
    RDP of the sampled Gaussian at small q is about q²α/(2σ²), a constant of ½.

    Parameters
    ----------
    pairs : sequence of (c₁, c₂), each in (0, 10]

    Returns
    -------
    list of tuples (c₁, c₂, K, log K/(c₁²c₂²))

    Raises
    ------
    ValueError
        If some c is outside (0, 10].

    References
    ----------
    Abadi et al. (2016), "Deep learning with differential privacy"; Mironov,
    Talwar & Zhang (2019); the blog post "Great but Manageable Expectations",
    Claim 26 and "Find out how useful Claim 26 is" (S4-13, S4-18).

    Examples
    --------
    >>> c1, c2, K, ratio = claim26_table([(0.5, 0.5)])[0]
    >>> K >= 1.0, round(ratio, 12) == round(float(np.log(K)) / 0.0625, 12)
    (True, True)
    """
    from ..subsampling import claim26_constant

    pairs = check_array(pairs, "pairs", ndim=2)
    if pairs.shape[1] != 2:
        raise ValueError(f"pairs must be a list of (c1, c2) pairs (got shape {pairs.shape})")
    bad = ~((pairs[:, 0] > 0) & (pairs[:, 0] <= 10) & (pairs[:, 1] >= 1e-3) & (pairs[:, 1] <= 10))
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"pairs must hold (c1, c2) with c1 ∈ (0, 10] and c2 ∈ [1e-3, 10] (got pairs[{i}] = "
                         f"{tuple(float(v) for v in pairs[i])})")
    rows = []
    # one work limit for the whole table (2·10⁸ quadrature nodes, about 10 s), shared equally by its distinct pairs
    distinct = len({(float(a), float(b)) for a, b in pairs})
    share = max(2e8 / distinct, 1e6)
    check_cost(f"claim26_table of {distinct} distinct pairs", "tabulate at most 200 distinct pairs per call",
               # the brackets share one work limit (about 10 s in all) up to 200 distinct pairs, beyond which each
               # share would fall below a bracket's 10⁶-node floor; every row adds a cached look-up
               seconds=(0.05 * distinct if distinct > 200 else 0.0) + 5e-5 * len(pairs))
    for c1, c2 in pairs:
        c1, c2 = float(c1), float(c2)
        K = float(claim26_constant(c1, c2, max_work=share))
        rows.append((c1, c2, K, float(np.log(K)) / (c1 * c1 * c2 * c2)))
    return rows


@named_shapes
def best_noise_law(orders, variance=1.0, shift=1.0, laws=NOISE_LAWS):
    r"""Which law of equal variance has the smallest D_α(P + Δ ‖ P), at each order.

    .. math:: \arg\min_{P \in \text{laws}} D_\alpha(P + \Delta\,\|\,P)

    Parameters
    ----------
    orders : array, α ∈ [1, ∞)
    variance : float, v > 0
    shift : float, Δ > 0
    laws : sequence of names from :data:`NOISE_LAWS`

    Returns
    -------
    list of str (one law per order)

    Raises
    ------
    ValueError
        On an unknown law or bad parameters.

    References
    ----------
    Source S4, "Further questions" (S4-18).

    Examples
    --------
    >>> best_noise_law([1.0, 2.0, 1000.0])
    ['gaussian', 'logistic', 'laplace']
    """
    orders = check_order(orders, "orders", allow_one=True)
    if isinstance(laws, str) or not isinstance(laws, (list, tuple)) or not laws:
        raise TypeError(f"laws must be a non-empty list of law names from {NOISE_LAWS} (got {laws!r:.60})")
    laws = [check_choice(law, "laws", NOISE_LAWS) for law in laws]
    check_cost(f"best_noise_law on {np.size(orders)} orders and {len(laws)} laws", "pass fewer orders or laws",
               seconds=sum(shift_rdp_grid_seconds(law, np.size(orders), variance, shift) for law in laws),
               nbytes=8.0 * np.size(orders) * (len(laws) + 2))
    table = np.array([shift_rdp_grid(law, orders, variance, shift) for law in laws])
    return [laws[i] for i in np.argmin(table, axis=0)]


_COMPOSITION_ORDERS = np.concatenate([[1.001, 1.01], np.geomspace(1.02, 2000.0, 120)])


@named_shapes
def epsilon_after_composition(law, steps, delta, variance=1.0, shift=1.0):
    r"""ε at δ of T releases with the given noise (sensitivity Δ): RDP composed and converted.

    .. math:: \varepsilon = \min_\alpha\ T D_\alpha(P+\Delta\|P) + \log\frac{\alpha-1}{\alpha}
              - \frac{\log\delta + \log\alpha}{\alpha - 1}

    on a log grid of orders from 1.001 to 2000 (the improved conversion of
    :func:`dpnotes.conversion.epsilon_from_rdp`). With one release and a small δ
    the high orders decide (bounded-tail laws win); after many releases the
    low orders decide and the Gaussian wins.

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS`
    steps : int, T ≥ 1
    delta : float, δ ∈ (0, 1)
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On bad parameters.

    References
    ----------
    Source S4 (S4-18); Mironov (2017) and Balle et al. (2020) for the conversion.

    Examples
    --------
    >>> e_gauss = epsilon_after_composition("gaussian", 1000, 1e-6, variance=1e4)
    >>> e_lap = epsilon_after_composition("laplace", 1000, 1e-6, variance=1e4)
    >>> bool(e_gauss < e_lap)
    True
    """
    import warnings

    from .._validation import check_count, check_delta
    from ..conversion import epsilon_from_rdp

    t = float(check_count(steps, "steps"))
    delta = float(check_delta(delta))
    rdp = t * shift_rdp_grid(law, _COMPOSITION_ORDERS, variance, shift)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an edge order only means the grid could be wider
        return float(epsilon_from_rdp(_COMPOSITION_ORDERS, rdp, delta))
