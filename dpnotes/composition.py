r"""Composition theorems: basic, advanced, heterogeneous, zCDP and RDP.

How the privacy parameters of T mechanisms run on the same data combine:

* basic — ε's and δ's add;
* advanced (Dwork, Rothblum & Vadhan 2010) — ε√(2T log 1/δ') + Tε(e^ε − 1), or
  the zCDP form Tε²/2 + ε√(2T log 1/δ') (seeds 002, 003);
* zCDP — ρ's add (ε-DP is ½ε²-zCDP); RDP — at a fixed order α the ε(α)'s add.

It also answers the two design questions of source S3: the Laplace scale b for
T queries under a total (ε, δ) budget (S3-02), and the choice of δ' for
Gaussian mechanisms under advanced composition (S3-04).
"""

import math

import numpy as np

from ._validation import (
    check_array,
    check_choice,
    check_count,
    check_delta,
    check_interval,
    check_nonnegative,
    check_positive,
    named_shapes,
    scalar_or_array,
    vacuous_delta_as_one,
)
from .privacy_loss import log_delta_gaussian

__all__ = [
    "epsilon_delta_basic_composition",
    "epsilon_advanced_composition",
    "epsilon_delta_advanced_composition",
    "epsilon_heterogeneous_composition",
    "epsilon_per_query_advanced",
    "rdp_composition",
    "zcdp_composition",
    "zcdp_from_pure_dp",
    "laplace_scale_for_queries",
    "gaussian_sigma_exact",
    "gaussian_sigma_classical",
    "gaussian_classical_breakdown_epsilon",
    "gaussian_variance_advanced_composition",
    "delta_prime_minimising_variance",
]

_FORMS = ("drv", "zcdp")
_LOG_MAX_FLOAT = float(np.log(np.finfo(float).max))


@named_shapes
def epsilon_delta_basic_composition(epsilons, deltas=0.0):
    r"""Basic composition: (Σ ε_j, Σ δ_j).

    .. math:: (\varepsilon, \delta) = \Big(\sum_j \varepsilon_j,\ \sum_j \delta_j\Big)

    Parameters
    ----------
    epsilons : array, ε_j ≥ 0
    deltas : float or array, δ_j ∈ [0, 1] (broadcast against ``epsilons``)

    Returns
    -------
    (float, float)
        (ε, δ); a vacuous δ (Σ δ_j ≥ 1) is returned as 1.0, so δ is always in [0, 1].

    Raises
    ------
    ValueError
        If some ε_j < 0 or δ_j ∉ [0, 1].

    References
    ----------
    Dwork & Roth (2014), Theorem 3.16; source S3 (basic composition, S3-02).

    Examples
    --------
    >>> epsilon_delta_basic_composition([0.5, 0.25, 0.25], 1e-6)
    (1.0, 3e-06)
    """
    eps = np.atleast_1d(check_nonnegative(epsilons, "epsilons"))
    dl = check_interval(deltas, "deltas", 0, 1)
    eps, dl = np.broadcast_arrays(eps, dl)
    return float(eps.sum()), float(vacuous_delta_as_one(math.fsum(dl.ravel().tolist())))


@named_shapes
def epsilon_advanced_composition(epsilon, k, delta_prime, form="drv"):
    r"""ε' of the T-fold adaptive composition of ε-DP mechanisms, with failure δ'.

    .. math::
        \text{drv: } \varepsilon' = \varepsilon\sqrt{2T\log(1/\delta')} + T\varepsilon(e^\varepsilon - 1),\qquad
        \text{zcdp: } \varepsilon' = \tfrac12 T\varepsilon^2 + \varepsilon\sqrt{2T\log(1/\delta')}.

    The zCDP form is never larger (Tε²/2 ≤ Tε(e^ε − 1)); it is ε-DP ⇒ ½ε²-zCDP,
    composition, then the Bun–Steinke conversion.

    Parameters
    ----------
    epsilon : float or array, ε ≥ 0
    k : int or array, the number of mechanisms T = k ≥ 1
    delta_prime : float or array, δ' ∈ (0, 1)
    form : {"drv", "zcdp"}

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If ε < 0, k (= T) is not a positive integer, δ' ∉ (0, 1) or the form is unknown.

    References
    ----------
    Source S2, S2-08 eq. (.6); source S3, S3-01; Dwork, Rothblum & Vadhan (2010),
    Theorem III.3; Bun & Steinke (2016).

    Examples
    --------
    >>> round(epsilon_advanced_composition(0.1, 100, 1e-5), 6)
    5.850235
    >>> round(epsilon_advanced_composition(0.1, 100, 1e-5, form="zcdp"), 6)
    5.298526
    """
    check_choice(form, "form", _FORMS)
    eps = check_nonnegative(epsilon, "epsilon")
    k = check_count(k, "k")
    L = -np.log(check_delta(delta_prime, "delta_prime"))
    if form == "drv":
        out = eps * np.sqrt(2.0 * k * L) + k * eps * np.expm1(eps)
    elif form == "zcdp":
        out = 0.5 * k * eps**2 + eps * np.sqrt(2.0 * k * L)
    else:
        raise ValueError(f"form must be one of {_FORMS} (got {form!r})")
    return scalar_or_array(out)


@named_shapes
def epsilon_delta_advanced_composition(epsilon, delta, k, delta_prime, form="zcdp"):
    r"""T-fold composition of (ε, δ)-DP mechanisms: (ε', Tδ + δ').

    .. math:: \Big(\tfrac12 T\varepsilon^2 + \varepsilon\sqrt{2T\log(1/\delta')},\; T\delta + \delta'\Big)

    (``form="drv"`` uses ε√(2T log 1/δ') + Tε(e^ε − 1) for ε').

    Parameters
    ----------
    epsilon : float or array, ε ≥ 0
    delta : float or array, δ ∈ [0, 1]
    k : int, the number of mechanisms T = k ≥ 1
    delta_prime : float, δ' ∈ (0, 1)
    form : {"zcdp", "drv"}

    Returns
    -------
    (ε', δ_total)
        δ_total = min(Tδ + δ', 1): a vacuous total (≥ 1) is returned as 1.0.

    References
    ----------
    Source S3, S3-03; Dwork, Rothblum & Vadhan (2010), Theorem III.3.

    Examples
    --------
    >>> e, d = epsilon_delta_advanced_composition(0.1, 1e-7, 100, 1e-5)
    >>> round(e, 6), round(d, 12)
    (5.298526, 2e-05)
    """
    check_choice(form, "form", _FORMS)
    dl = check_interval(delta, "delta", 0, 1)
    eps_total = epsilon_advanced_composition(epsilon, k, delta_prime, form=form)
    d_total = check_count(k, "k") * dl + check_delta(delta_prime, "delta_prime")
    return eps_total, scalar_or_array(vacuous_delta_as_one(d_total))


@named_shapes
def epsilon_heterogeneous_composition(epsilons, delta_prime):
    r"""ε of the adaptive composition of ε_j-DP mechanisms (any δ > Σδ_j + δ').

    .. math:: \varepsilon = \min\Big\{\sum_j \varepsilon_j,\;
              \tfrac12\sum_j\varepsilon_j^2 + \sqrt{2\log(1/\delta')\sum_j\varepsilon_j^2}\Big\}

    Parameters
    ----------
    epsilons : array, ε_j ≥ 0
    delta_prime : float, δ' ∈ (0, 1)

    Returns
    -------
    float

    References
    ----------
    Source S2, S2-08 eq. (.7) (the source leaves δ' implicit: the overall δ is
    Σδ_j + δ'); Bun & Steinke (2016).

    Examples
    --------
    >>> round(epsilon_heterogeneous_composition([0.1] * 100, 1e-5), 6)
    5.298526
    >>> epsilon_heterogeneous_composition([1.0, 1.0], 1e-5)  # basic wins
    2.0
    """
    eps = np.atleast_1d(check_nonnegative(epsilons, "epsilons"))
    L = -np.log(float(check_delta(delta_prime, "delta_prime")))
    s2 = float(np.sum(eps**2))
    return float(min(eps.sum(), 0.5 * s2 + np.sqrt(2.0 * L * s2)))


@named_shapes
def epsilon_per_query_advanced(epsilon, k, delta_prime, form="zcdp"):
    r"""Largest per-mechanism ε₀ whose T-fold advanced composition is ≤ ε (with δ').

    For the zCDP form the quadratic Tε₀²/2 + ε₀√(2T log(1/δ')) = ε gives

    .. math:: \varepsilon_0 = \frac{\sqrt{2T\log(1/\delta') + 2T\varepsilon} - \sqrt{2T\log(1/\delta')}}{T};

    the DRV form is solved by Brent's method. ``form="linear"`` drops the
    second-order term, ε₀ = ε/√(2T log(1/δ')) (source S3's heuristic; it
    overshoots the budget by Tε₀²/2).

    Parameters
    ----------
    epsilon : float, ε > 0 (the total budget)
    k : int, the number of mechanisms T = k ≥ 1
    delta_prime : float, δ' ∈ (0, 1)
    form : {"zcdp", "drv", "linear"}

    Returns
    -------
    float

    References
    ----------
    Source S3, S3-01/S3-02/S3-04.

    Examples
    --------
    >>> e0 = epsilon_per_query_advanced(1.0, 100, 1e-5)
    >>> round(epsilon_advanced_composition(e0, 100, 1e-5, form="zcdp"), 12)
    1.0
    """
    from scipy import optimize  # imported here: loading this module stays light
    check_choice(form, "form", ("zcdp", "drv", "linear"))
    eps = float(check_positive(epsilon, "epsilon"))
    k = float(check_count(k, "k"))
    L = -np.log(float(check_delta(delta_prime, "delta_prime")))
    s = np.sqrt(2.0 * k * L)
    if form == "linear":
        return float(eps / s)
    if form == "zcdp":
        # rationalised to avoid cancellation: (√(s²+2kε) − s)/k = 2ε/(√(s²+2kε) + s) = ε/((hypot(s, √(2kε)) + s)/2),
        # the root by hypot and the factor 2 moved below: no overflow up to ε = 1.8e308
        return float(eps / (0.5 * (np.hypot(s, np.sqrt(2.0 * k) * np.sqrt(eps)) + s)))
    if form == "drv":
        f = lambda e0: e0 * s + k * e0 * np.expm1(e0) - eps  # noqa: E731
        # f(hi) ≥ 0 at hi = ε/s, and at hi = max(1, log(1 + ε/k)) (there k·hi·(e^hi − 1) ≥ ε): no overflow
        hi = min(eps / s, max(1.0, float(np.log1p(eps / k))))
        return float(optimize.brentq(f, 0.0, hi, xtol=1e-300, rtol=1e-15))
    raise ValueError(f"form must be 'zcdp', 'drv' or 'linear' (got {form!r})")


@named_shapes
def rdp_composition(rdp_curves, counts=1):
    r"""RDP of an adaptive composition: at each fixed order α the ε(α)'s add.

    .. math:: \varepsilon_{\text{total}}(\alpha) = \sum_j T_j\,\varepsilon_j(\alpha)

    Parameters
    ----------
    rdp_curves : array of shape (J, n_orders) (or (n_orders,) for one mechanism, or one number),
        the RDP curves ε_j(α) ≥ 0 on a common grid of orders
    counts : int or array of length J, how many times T_j each mechanism runs

    Returns
    -------
    ndarray of shape (n_orders,)

    References
    ----------
    Source S0, S0-08; source S3, S3-05; source S4, S4-06 (Claim 22); Mironov (2017), Prop. 1.

    Examples
    --------
    >>> rdp_composition([[1.0, 2.0], [0.5, 0.5]], counts=[2, 4])
    array([4., 6.])
    """
    r = check_array(rdp_curves, "rdp_curves", ndim=(0, 1, 2), finite=False)
    r = np.atleast_2d(check_nonnegative(r, "rdp_curves", allow_inf=True))
    n = check_count(counts, "counts", minimum=0)
    if n.ndim > 1 or n.ndim == 1 and n.size not in (1, r.shape[0]):
        raise ValueError(f"counts must be one count or one per row of rdp_curves ({r.shape[0]}; got shape {n.shape})")
    n = np.broadcast_to(np.atleast_1d(n), (r.shape[0],))
    return np.sum(n[:, None] * r, axis=0)


@named_shapes
def zcdp_composition(rhos):
    r"""ρ of the composition of ρ_j-zCDP mechanisms: ρ = Σ ρ_j.

    .. math:: \rho = \sum_j \rho_j

    References
    ----------
    Source S2, S2-04 (property 2); Bun & Steinke (2016), Lemma 2.3.

    Examples
    --------
    >>> zcdp_composition([0.5, 0.25])
    0.75
    """
    return float(np.sum(check_nonnegative(rhos, "rhos")))


@named_shapes
def zcdp_from_pure_dp(epsilon):
    r"""ρ = ½ε²: pure ε-DP implies ½ε²-zCDP.

    .. math:: \rho = \tfrac12\varepsilon^2

    References
    ----------
    Source S2, S2-04 (property 1); Bun & Steinke (2016), Prop. 1.4.

    Examples
    --------
    >>> zcdp_from_pure_dp(0.2)
    0.020000000000000004
    """
    return scalar_or_array(0.5 * check_nonnegative(epsilon, "epsilon") ** 2)


@named_shapes
def laplace_scale_for_queries(k, epsilon, delta, rule="basic"):
    r"""Laplace scale b for each of T sensitivity-1 queries under a total (ε, δ) budget.

    .. math::
        \text{basic: } b = T/\varepsilon,\qquad
        \text{advanced (source S3): } b = 2\sqrt{2T\log(1/\delta)}/\varepsilon,\qquad
        \text{advanced-tight: } b = 1/\varepsilon_0

    with ε₀ the largest per-query ε whose composition Tε₀²/2 + ε₀√(2T log 1/δ)
    equals ε (:func:`epsilon_per_query_advanced`).

    **On the source's constant.** With b = 2√(2T log(1/δ))/ε each query is
    ε₀ = ε/(2√(2T log(1/δ)))-DP and advanced composition gives
    ε/2 + ε²/(16 log(1/δ)), which is
    within the budget ε exactly when ε ≤ 8 log(1/δ) — true for every practical
    budget, so the source's rule is valid but not what advanced composition
    gives: the factor 2 spends only about half the budget; the tight scale is
    about √(2T log(1/δ))/ε (``"advanced-tight"``), i.e. almost half. Either way the
    variance 2b² is O(T/ log(1/δ)) times smaller than basic composition's
    2T²/ε² once T ≫ log(1/δ).

    Parameters
    ----------
    k : int, the number of queries T = k ≥ 1
    epsilon : float, ε > 0
    delta : float, δ ∈ (0, 1) (used by the advanced rules; δ' = δ, pure-DP queries)
    rule : {"basic", "advanced", "advanced-tight"}

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On invalid k (= T), ε, δ or rule.

    References
    ----------
    Source S3, S3-02.

    Examples
    --------
    >>> laplace_scale_for_queries(100, 1.0, 1e-5)
    100.0
    >>> round(laplace_scale_for_queries(100, 1.0, 1e-5, rule="advanced"), 4)
    95.9705
    """
    check_choice(rule, "rule", ("basic", "advanced", "advanced-tight"))
    k = float(check_count(k, "k"))
    eps = float(check_positive(epsilon, "epsilon"))
    L = -np.log(float(check_delta(delta)))
    if rule == "basic":
        return k / eps
    if rule == "advanced":
        return float(2.0 * np.sqrt(2.0 * k * L) / eps)
    if rule == "advanced-tight":
        return 1.0 / epsilon_per_query_advanced(eps, k, delta, form="zcdp")
    raise ValueError(f"rule must be 'basic', 'advanced' or 'advanced-tight' (got {rule!r})")


@named_shapes
def gaussian_sigma_exact(epsilon, delta, sensitivity=1.0):
    r"""Smallest σ for which the Gaussian mechanism is (ε, δ)-DP (exact curve).

    Solves δ_N(ε; μ = Δ/σ) = δ for μ by Brent's method in log δ (δ increases with μ).

    .. math:: \sigma = \Delta/\mu^*,\quad \Phi(-\varepsilon/\mu^* + \mu^*/2) - e^\varepsilon\Phi(-\varepsilon/\mu^* - \mu^*/2) = \delta

    Parameters
    ----------
    epsilon : float, ε ≥ 0
    delta : float, δ ∈ (0, 1)
    sensitivity : float, Δ > 0

    Returns
    -------
    float

    References
    ----------
    Balle & Wang (2018), Theorem 8.

    Examples
    --------
    >>> from dpnotes.privacy_loss import delta_gaussian
    >>> s = gaussian_sigma_exact(1.0, 1e-5)
    >>> float(f"{delta_gaussian(1.0, 1.0 / s):.9e}")
    1e-05
    """
    from scipy import optimize  # imported here: loading this module stays light
    eps = float(check_nonnegative(epsilon, "epsilon"))
    target = np.log(float(check_delta(delta)))
    d = float(check_positive(sensitivity, "sensitivity"))
    f = lambda lm: float(log_delta_gaussian(eps, np.exp(lm))) - target  # noqa: E731
    lo, hi = -1.0, 1.0
    while f(lo) > 0:
        lo -= 2.0
    while f(hi) < 0:
        hi += 2.0
    lm = optimize.brentq(f, lo, hi, xtol=1e-15, rtol=1e-15)
    return d / float(np.exp(lm))


@named_shapes
def gaussian_sigma_classical(epsilon, delta, sensitivity=1.0):
    r"""The classical noise scale of the Gaussian mechanism, valid for ε < 1.

    .. math:: \sigma = \frac{\Delta_2\sqrt{2\log(1.25/\delta)}}{\varepsilon},\qquad 0 < \varepsilon < 1.

    With this σ (or more) the Gaussian mechanism is (ε, δ)-DP. The guarantee is a
    theorem only for ε < 1, so larger ε raise. The exact smallest σ
    (:func:`dpnotes.composition.gaussian_sigma_exact`) is always smaller.

    Parameters
    ----------
    epsilon : float or array, ε ∈ (0, 1)
    delta : float or array, δ ∈ (0, 1)
    sensitivity : float or array, Δ₂ ∈ (0, ∞), default 1

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If ε ∉ (0, 1), δ ∉ (0, 1) or Δ₂ ≤ 0.

    References
    ----------
    Dwork & Roth (2014), "The algorithmic foundations of differential privacy",
    Theorem A.1; Dwork, Kenthapadi, McSherry, Mironov & Naor (2006).

    Examples
    --------
    >>> round(gaussian_sigma_classical(0.5, 1e-5), 6)
    9.689611
    >>> gaussian_sigma_classical(0.5, 1e-5, sensitivity=2.0) == 2 * gaussian_sigma_classical(0.5, 1e-5)
    True
    """
    eps = check_interval(epsilon, "epsilon", 0, 1, closed_low=False, closed_high=False)
    d = check_delta(delta)
    s = check_positive(sensitivity, "sensitivity")
    return scalar_or_array(s * np.sqrt(2.0 * (np.log(1.25) - np.log(d))) / eps)


@named_shapes
def gaussian_classical_breakdown_epsilon(delta):
    r"""The ε from which the classical Gaussian calibration stops giving (ε, δ)-DP.

    The classical noise multiplier :math:`\sigma = c/\varepsilon`, :math:`c = \sqrt{2\log(1.25/\delta)}`
    (:func:`gaussian_sigma_classical`), is a theorem for ε < 1 only. Used beyond, the
    mechanism it calibrates has μ = 1/σ = ε/c, and its exact privacy profile at ε,

    .. math:: \delta_{\mathrm{exact}}(\varepsilon) = \Phi\Big(-c + \frac{\varepsilon}{2c}\Big)
              - e^{\varepsilon}\,\Phi\Big(-c - \frac{\varepsilon}{2c}\Big),

    stays below δ up to the value ε* returned here and exceeds it beyond (the formula's δ
    is then not met). ε* is the root of :math:`\log\delta_{\mathrm{exact}}(\varepsilon) = \log\delta`
    above 1, found by Brent's method in log space.

    Parameters
    ----------
    delta : float, δ ∈ (0, 1/2]

    Returns
    -------
    float
        ε* > 1.

    Raises
    ------
    ValueError
        If δ ∉ (0, 1/2] (above 1/2 the classical proof does not apply).

    References
    ----------
    Dwork & Roth (2014), Theorem A.1 (the calibration, for ε < 1); Balle & Wang (2018),
    "Improving the Gaussian mechanism for differential privacy", Theorem 8 (the exact
    profile) and their discussion of why the classical analysis cannot reach large ε.

    Examples
    --------
    >>> round(gaussian_classical_breakdown_epsilon(1e-5), 4)
    8.4198
    """
    from scipy import optimize  # deferred: import dpnotes loads no scipy

    d = float(check_interval(delta, "delta", 0, 0.5, closed_low=False))
    c = float(np.sqrt(2.0 * (np.log(1.25) - np.log(d))))
    target = np.log(d)
    f = lambda e: float(log_delta_gaussian(e, e / c)) - target  # noqa: E731
    lo, hi = 1.0, 2.0
    while f(hi) < 0:  # δ_exact(ε) → 1 as ε → ∞ (its first term tends to 1, its second to 0): this ends
        lo, hi = hi, 2.0 * hi
    return float(optimize.brentq(f, lo, hi, xtol=1e-13, rtol=1e-13))


@named_shapes
def gaussian_variance_advanced_composition(k, epsilon, delta, delta_prime, *,
                                           calibration="classical", form="zcdp"):
    r"""Per-query noise variance of T Gaussian mechanisms composed by advanced composition.

    The total budget (ε, δ) is split as δ = Tδ₀ + δ'; each query gets δ₀ = (δ − δ')/T
    and the largest ε₀ whose T-fold composition stays within ε
    (:func:`epsilon_per_query_advanced`; by default the root of
    Tε₀²/2 + ε₀√(2T log(1/δ')) = ε), and is calibrated by

    .. math:: \sigma^2 = \frac{2\log(1.25/\delta_0)}{\varepsilon_0^2}\ (\text{classical}),

    or by the exact Gaussian curve (``calibration="exact"``). The classical calibration is
    a valid (ε₀, δ₀) guarantee only for ε₀ < 1 (Dwork & Roth 2014, Theorem A.1), so with
    it a share ε₀ ≥ 1 raises ValueError. With the classical calibration and the share
    within budget, the choice δ' = δ₀ = δ/(T+1) gives a larger variance than δ' = δ/2
    for every T ≥ 2 (equal at T = 1), as the tests check; the condition ε₀ < 1 is
    needed: past it the formula's comparison flips (T = 2, δ = 10⁻⁵, ε > 14.56,
    where ε₀ ≈ 1.68). With the exact calibration the comparison can go the other way
    even for small ε (T = 2, ε = 1, δ = 10⁻⁵: 622.83 for δ/2 against 616.59 for δ/3).

    ``form="linear"`` uses the first-order share ε₀ = ε/√(2T log 1/δ'), which drops
    the Tε₀²/2 term and so composes to ε + ε²/(4 log(1/δ')) > ε: it is **not** within
    the budget. With it and classical calibration the variances have closed forms,

    * δ' = δ/2 (δ₀ = δ/2T): σ² = (4T/ε²)·log(2/δ)·log(2.5T/δ);
    * δ' = δ₀ = δ/(T+1): σ² = (4T/ε²)·log((T+1)/δ)·log(1.25(T+1)/δ).

    The lecture notes on advanced composition (claim S3-04) print the second as
    "(4T/ε²) log((T+1)/δ)", dropping the calibration factor log(1.25(T+1)/δ).

    Parameters
    ----------
    k : int, the number of queries T = k ≥ 1
    epsilon : float, ε > 0
    delta : float, δ ∈ (0, 1)
    delta_prime : float, δ' ∈ (0, δ)
    calibration : {"classical", "exact"}
    form : {"zcdp", "drv", "linear"}

    Returns
    -------
    float, the variance σ² of each query's noise (sensitivity 1)

    Raises
    ------
    ValueError
        If δ' ∉ (0, δ), if the classical calibration is asked for a share ε₀ ≥ 1 (outside its
        range; use ``calibration="exact"``), or other arguments are invalid.

    References
    ----------
    Dwork, Rothblum & Vadhan (2010), "Boosting and differential privacy";
    Bun & Steinke (2016), "Concentrated differential privacy" (the Tε₀²/2 term);
    Dwork & Roth (2014), Theorem A.1 (classical calibration, stated for ε₀ < 1).

    Examples
    --------
    >>> k, e, d = 10, 1.0, 1e-5
    >>> v = gaussian_variance_advanced_composition(k, e, d, d / 2, form="linear")
    >>> round(float(v / (4 * k / e**2 * np.log(2 / d) * np.log(2.5 * k / d))), 12)
    1.0
    """
    check_choice(calibration, "calibration", ("classical", "exact"))
    k = float(check_count(k, "k"))
    eps = float(check_positive(epsilon, "epsilon"))
    d = float(check_delta(delta))
    dp = float(check_interval(delta_prime, "delta_prime", 0, d, closed_low=False, closed_high=False))
    e0 = epsilon_per_query_advanced(eps, k, dp, form=form)
    d0 = (d - dp) / k
    if calibration == "classical":
        if not e0 < 1.0:
            raise ValueError(
                f"the classical calibration sigma^2 = 2 log(1.25/delta_0)/epsilon_0^2 holds only for a per-query "
                f"epsilon_0 < 1; epsilon = {eps:g} over k = {k:g} queries with delta_prime = {dp:g} gives "
                f"epsilon_0 = {e0:.6g}: use a smaller epsilon or calibration='exact'")
        log_var = np.log(2.0 * (np.log(1.25) - np.log(d0))) - 2.0 * np.log(e0)
        if log_var > _LOG_MAX_FLOAT:
            raise ValueError(f"the variance exceeds the floating-point range at k = {k:g}, epsilon = {eps:g}, "
                             f"delta = {d:g}, delta_prime = {dp:g}: use a larger epsilon or delta, or a smaller k")
        return float(np.exp(log_var))
    if calibration == "exact":
        return gaussian_sigma_exact(e0, d0) ** 2
    raise ValueError(f"calibration must be 'classical' or 'exact' (got {calibration!r})")


@named_shapes
def delta_prime_minimising_variance(k, epsilon, delta, **kwargs):
    r"""The δ' ∈ (0, δ) minimising :func:`gaussian_variance_advanced_composition`, and that variance.

    .. math:: \delta'^* = \arg\min_{0<\delta'<\delta} \sigma^2(\delta')

    Bounded Brent search over log(δ'/(δ − δ')).

    Parameters
    ----------
    k, epsilon, delta : as in :func:`gaussian_variance_advanced_composition`
    **kwargs : ``calibration`` and ``form``

    Returns
    -------
    (δ'*, σ²)

    References
    ----------
    Source S3, S3-04 ("δ' is a design parameter").

    Examples
    --------
    >>> dp, v = delta_prime_minimising_variance(10, 1.0, 1e-5)
    >>> v <= gaussian_variance_advanced_composition(10, 1.0, 1e-5, 0.5e-5)
    True
    """
    from scipy import optimize  # imported here: loading this module stays light
    d = float(check_delta(delta))

    def var(x):
        frac = 1.0 / (1.0 + np.exp(-x))
        return gaussian_variance_advanced_composition(k, epsilon, d, d * frac, **kwargs)

    xs = np.linspace(-30.0, 30.0, 121)
    vals = np.array([var(x) for x in xs])
    i = int(np.argmin(vals))
    res = optimize.minimize_scalar(var, bounds=(xs[max(i - 1, 0)], xs[min(i + 1, xs.size - 1)]),
                                   method="bounded", options={"xatol": 1e-10})
    x = float(res.x) if res.fun <= vals[i] else float(xs[i])
    return float(d / (1.0 + np.exp(-x))), float(min(res.fun, vals[i]))
