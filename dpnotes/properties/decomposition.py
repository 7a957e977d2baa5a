r"""Decompositions of an (ε, δ)-indistinguishable pair of pmfs (source S2, S2-11), constructed.

:func:`decompose_dp_pair` writes the pair as a mixture of an ε-close pair
(weight 1 − δ') and a remainder (a :class:`Decomposition`);
:func:`randomized_response_decomposition` writes it as a post-processing of
(ε, δ) randomized response (an :class:`RRDecomposition`). The Bayesian version:
:func:`bayesian_event_probability` is the probability of the "good" event at
each outcome, and :func:`posterior_bound` the largest posterior an
ε-indistinguishable observation allows.
"""

from collections import namedtuple

import numpy as np

from .._validation import check_interval, check_nonnegative, check_pmf_pair, named_shapes, scalar_or_array

Decomposition = namedtuple("Decomposition", "delta_prime p_prime q_prime p_extra q_extra")
RRDecomposition = namedtuple("RRDecomposition", "a b p_extra q_extra")


@named_shapes
def decompose_dp_pair(p, q, epsilon):
    r"""The decomposition of an (ε, δ)-indistinguishable pair of pmfs (source S2, §8.1).

    Returns δ' and P', Q', P'', Q'' with

    .. math:: P = (1-\delta')P' + \delta' P'',\quad Q = (1-\delta')Q' + \delta' Q'',\quad
              e^{-\varepsilon}P' \le Q' \le e^{\varepsilon}P',

    P'' supported on {P > Q} and Q'' on {Q > P}; δ' = max(δ_{P‖Q}(ε), δ_{Q‖P}(ε)),
    the smaller of the two δ's for which the pair is (ε, δ)-DP.

    Construction: on {P > Q} keep Q' ∝ Q and take (1−δ')P' = min(P, e^εQ);
    on {Q > P} symmetrically; on {P = Q} both equal P. If the masses differ,
    the side with the larger mass is moved linearly towards the other
    distribution (P on {Q > P}, say), which keeps every constraint.

    Parameters
    ----------
    p, q : array, pmfs of equal length
    epsilon : float, ε ≥ 0

    Returns
    -------
    Decomposition(delta_prime, p_prime, q_prime, p_extra, q_extra)

    References
    ----------
    Source S2, S2-11 (basic decomposition); Kairouz, Oh & Viswanath (2015);
    Murtagh & Vadhan (2016), Lemma 3.2.

    Examples
    --------
    >>> dec = decompose_dp_pair([0.6, 0.3, 0.1], [0.2, 0.3, 0.5], np.log(2.0))
    >>> round(dec.delta_prime, 12)  # max(δ_P‖Q, δ_Q‖P) = max(0.2, 0.3)
    0.3
    """
    p, q = check_pmf_pair(p, q, require_same_support=False)
    e = float(check_nonnegative(epsilon, "epsilon"))
    E = np.exp(e)
    S, T = p > q, q > p
    a = np.where(S, np.minimum(p, E * q), p)  # (1−δ')P' before balancing
    b = np.where(T, np.minimum(q, E * p), q)  # (1−δ')Q'
    d1, d2 = 1.0 - a.sum(), 1.0 - b.sum()
    if d1 > d2:  # lower b on T from min(q, e^ε p) towards p
        lo = np.where(T, p, b)
        need = b.sum() - a.sum()
        room = (b - lo).sum()
        b = b - (b - lo) * (need / room if room > 0 else 0.0)
    elif d2 > d1:
        lo = np.where(S, q, a)
        need = a.sum() - b.sum()
        room = (a - lo).sum()
        a = a - (a - lo) * (need / room if room > 0 else 0.0)
    dprime = float(max(0.0, 1.0 - a.sum()))
    m = 1.0 - dprime
    if dprime > 0:
        pe, qe = np.maximum(p - a, 0.0) / dprime, np.maximum(q - b, 0.0) / dprime
    else:
        pe, qe = p.copy(), q.copy()
    return Decomposition(dprime, a / m, b / m, pe, qe)


@named_shapes
def randomized_response_decomposition(p, q, epsilon, delta):
    r"""(A, B, P'', Q'') writing (P, Q) as a post-processing of (ε, δ) randomized response.

    .. math::
        P = (1-\delta)\tfrac{e^\varepsilon}{1+e^\varepsilon}A + (1-\delta)\tfrac{1}{1+e^\varepsilon}B + \delta P'',\qquad
        Q = (1-\delta)\tfrac{e^\varepsilon}{1+e^\varepsilon}B + (1-\delta)\tfrac{1}{1+e^\varepsilon}A + \delta Q''

    From :func:`decompose_dp_pair` (weight δ' ≤ δ, moved up to δ by mixing
    P' into P''), then A = (e^εP' − Q')/(e^ε − 1), B = (e^εQ' − P')/(e^ε − 1)
    (for ε = 0, A = B = P').

    For 0 < ε ≪ 1 the map is ill-conditioned: A − B = (P' − Q')(e^ε + 1)/(e^ε − 1)
    amplifies the rounding error of P' − Q' by about 2/ε (≈1e-12 absolute at
    ε = 1e-4, ≈1e-4 at ε = 1e-12).

    Parameters
    ----------
    p, q : array, pmfs of equal length, (ε, δ)-indistinguishable both ways
    epsilon : float, ε ≥ 0
    delta : float, δ ∈ [0, 1)

    Returns
    -------
    RRDecomposition(a, b, p_extra, q_extra)

    Raises
    ------
    ValueError
        If the pair is not (ε, δ)-indistinguishable.

    References
    ----------
    Source S2, S2-11 (corollary and its interpretation); Kairouz, Oh & Viswanath (2015).

    Examples
    --------
    >>> r = randomized_response_decomposition([0.6, 0.3, 0.1], [0.2, 0.3, 0.5], np.log(2.0), 0.3)
    >>> [round(float(x), 6) for x in r.a]
    [0.571429, 0.428571, 0.0]
    """
    p, q = check_pmf_pair(p, q, require_same_support=False)
    e = float(check_nonnegative(epsilon, "epsilon"))
    d = float(check_interval(delta, "delta", 0, 1, closed_high=False))
    dec = decompose_dp_pair(p, q, e)
    if dec.delta_prime > d + 1e-12:
        raise ValueError(f"the pair is not (epsilon, delta) = ({e}, {d})-indistinguishable: needs delta ≥ "
                         f"{dec.delta_prime}")
    pp, qp = dec.p_prime, dec.q_prime
    if d > 0:
        pe = ((d - dec.delta_prime) * pp + dec.delta_prime * dec.p_extra) / d
        qe = ((d - dec.delta_prime) * qp + dec.delta_prime * dec.q_extra) / d
    else:
        pe, qe = pp.copy(), qp.copy()
    if e == 0.0:
        a = b = pp
    else:
        # A = P' + (P' − Q')/(e^ε − 1): project the difference onto sum zero first,
        # so that tiny ε (where e^ε − 1 amplifies rounding) keeps Σ A = 1
        diff = pp - qp
        diff = diff - diff.sum() * pp
        em1 = np.expm1(e)
        a = np.maximum(pp + diff / em1, 0.0)
        b = np.maximum(qp - diff / em1, 0.0)
        a, b = a / a.sum(), b / b.sum()
    return RRDecomposition(a, b, pe, qe)


@named_shapes
def bayesian_event_probability(p, q, epsilon):
    r"""e(y) = min{1, e^ε Q(y)/P(y)}: the probability that the "good" event E = 1 fires at y.

    .. math:: e(y) = \min\Big\{1,\ e^\varepsilon\frac{Q(y)}{P(y)}\Big\}

    It satisfies both properties of the Bayesian decomposition: for any prior
    p₀ on X (Y ~ P if X = 1, else Y ~ Q),
    P[X = 1 ∧ E = 1 | Y = y] ≤ p₀/(p₀ + (1 − p₀)e^{−ε}) (:func:`posterior_bound`),
    and E_P[e] = 1 − δ_{P‖Q}(ε), E_Q[e] ≥ 1 − e^{−ε}δ_{P‖Q}(ε), both ≥ 1 − δ.

    Parameters
    ----------
    p, q : array, pmfs of equal length
    epsilon : float, ε ≥ 0

    Returns
    -------
    ndarray

    References
    ----------
    Source S2, S2-11 (Bayesian version).

    Examples
    --------
    >>> bayesian_event_probability([0.6, 0.4], [0.2, 0.8], np.log(2.0))
    array([0.66666667, 1.        ])
    """
    p, q = check_pmf_pair(p, q, require_same_support=False)
    e = float(check_nonnegative(epsilon, "epsilon"))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(p > 0, np.exp(e) * q / np.where(p > 0, p, 1.0), 1.0)
    return np.minimum(1.0, ratio)


@named_shapes
def posterior_bound(prior, epsilon):
    r"""p₀/(p₀ + (1 − p₀)e^{−ε}): the largest posterior an ε-indistinguishable observation allows.

    .. math:: \frac{p_0}{p_0 + (1-p_0)e^{-\varepsilon}}

    Parameters
    ----------
    prior : float or array, p₀ ∈ [0, 1]
    epsilon : float or array, ε ≥ 0

    References
    ----------
    Source S2, S2-11 (Bayesian version, property 1).

    Examples
    --------
    >>> round(posterior_bound(0.5, np.log(3.0)), 12)
    0.75
    """
    p0 = check_interval(prior, "prior", 0, 1)
    e = check_nonnegative(epsilon, "epsilon")
    # p₀ = 0 gives 0 at every ε (0/0 where e^{−ε} underflows, ε ≳ 745, was NaN); ε = ∞ gives 1 for p₀ > 0
    with np.errstate(under="ignore", divide="ignore", invalid="ignore"):
        out = np.where(p0 > 0, p0 / (p0 + (1.0 - p0) * np.exp(-e)), 0.0)
    return scalar_or_array(out)
