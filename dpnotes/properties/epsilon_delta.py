r"""Statements about (ε, δ): group privacy, the moment-difference bound, approximate RDP.

:func:`group_privacy_epsilon_delta` is the (ε, δ) guarantee for groups of k;
:func:`moment_difference_bound` bounds E[X] − E[Y] for (ε, δ)-close X, Y
(source S2, S2-03). For δ-approximate RDP (source S2, S2-07),
:func:`approximate_rdp_delta_hat` is the δ̂ of its conversion to (ε̂, δ̂)-DP
(with the source's sign typo available as ``sign="seed"``) and
:func:`approximate_renyi_divergence` the δ-approximate Rényi divergence of two
small pmfs, by convex optimisation started from
:func:`~dpnotes.properties.decomposition.decompose_dp_pair`.
"""

import numpy as np
from scipy import optimize
from scipy.special import logsumexp

from .._validation import (
    check_choice,
    check_count,
    check_interval,
    check_nonnegative,
    check_order,
    check_pmf_pair,
    named_shapes,
    scalar_or_array,
)
from ..divergence import renyi_divergence
from .decomposition import decompose_dp_pair


@named_shapes
def group_privacy_epsilon_delta(epsilon, delta, k, form="simple"):
    r"""The (ε, δ) guarantee for data sets k neighbouring steps apart, from an (ε, δ)-DP mechanism.

    .. math:: (\varepsilon_k, \delta_k) = \Big(k\varepsilon,\;
              \delta\sum_{j=0}^{k-1} e^{j\varepsilon}\Big)
              \quad\text{or, simpler and larger,}\quad
              \big(k\varepsilon,\; k\,e^{(k-1)\varepsilon}\delta\big).

    Chaining the (ε, δ) inequality along S = S₀, S₁, …, S_k = S′ gives the slack
    δ(1 + e^ε + … + e^{(k−1)ε}) = δ (e^{kε} − 1)/(e^ε − 1) (``form="sum"``); each of its
    k terms is at most e^{(k−1)ε}, which gives k e^{(k−1)ε} δ (``form="simple"``, the
    default). With δ = 0 both say that an ε-DP mechanism is kε-DP for groups of k.

    Parameters
    ----------
    epsilon : float or array, ε ∈ [0, ∞)
    delta : float or array, δ ∈ [0, 1]
    k : int or array, the group size k ≥ 1
    form : {"simple", "sum"}
        Which slack to return: k e^{(k−1)ε} δ, or the chained sum δ Σ_{j<k} e^{jε}.

    Returns
    -------
    (float or ndarray, float or ndarray)
        kε and the slack capped at 1 (computed in log space; δ_k = 1 means the guarantee is void).

    Raises
    ------
    ValueError
        If ε < 0, δ ∉ [0, 1], k is not an integer ≥ 1 or form is not "simple" or "sum".

    References
    ----------
    Dwork & Roth (2014), "The algorithmic foundations of differential privacy",
    Chapter 2 (group privacy for pure DP); the (ε, δ) form by the same chaining.

    Examples
    --------
    >>> group_privacy_epsilon_delta(0.5, 0.0, 3)
    (1.5, 0.0)
    >>> eps_k, delta_k = group_privacy_epsilon_delta(1.0, 1e-6, 2)
    >>> eps_k, round(delta_k / 1e-6, 10)  # 2e
    (2.0, 5.4365636569)
    >>> round(group_privacy_epsilon_delta(1.0, 1e-6, 2, form="sum")[1] / 1e-6, 10)  # 1 + e
    3.7182818285
    """
    eps = check_nonnegative(epsilon, "epsilon")
    d = check_interval(delta, "delta", 0, 1)
    k = check_count(k, "k")
    check_choice(form, "form", ("simple", "sum"))
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        if form == "simple":
            log_factor = np.log(k) + (k - 1.0) * eps
        else:
            # log Σ_{j<k} e^{jε} = (k−1)ε + log((1 − e^{−kε}) / (1 − e^{−ε})), and log k at ε = 0
            e = np.asarray(eps, dtype=float)
            kk = np.asarray(k, dtype=float)
            safe = np.where(e > 0, e, 1.0)
            ratio = np.log(-np.expm1(-kk * safe)) - np.log(-np.expm1(-safe))
            log_factor = np.where(e > 0, (kk - 1.0) * e + ratio, np.log(kk))
        log_dk = log_factor + np.log(d)
    # a δ ≥ 1 says nothing: the bound is capped there (and δ = 0 stays 0 at any k, ε)
    delta_k = np.where(d == 0, 0.0, np.exp(np.minimum(log_dk, 0.0)))
    return scalar_or_array(k * eps), scalar_or_array(delta_k)


@named_shapes
def moment_difference_bound(epsilon, delta, mean_abs_y, bound):
    r"""(e^ε − 1)E|Y| + 2δΔ: bounds E[X] − E[Y] for (ε, δ)-close X, Y on [−Δ, Δ].

    .. math:: \mathbb E[X] - \mathbb E[Y] \le (e^\varepsilon - 1)\,\mathbb E|Y| + 2\delta\Delta

    Proof sketch: E[X] − E[Y] = ∫₀^Δ (P[X>t] − P[Y>t]) dt − ∫₀^Δ (P[X<−t] − P[Y<−t]) dt;
    bound the first by (e^ε−1)P[Y>t] + δ and the second using the reverse
    inequality, P[X<−t] ≥ e^{−ε}(P[Y<−t] − δ).

    Parameters
    ----------
    epsilon : float or array, ε ≥ 0
    delta : float or array, δ ∈ [0, 1]
    mean_abs_y : float or array, E|Y| ≥ 0
    bound : float or array, Δ ≥ 0

    Returns
    -------
    float or ndarray
        The bound; ``inf`` where (e^ε − 1)E|Y| exceeds the float range (ε ≳ 709 with E|Y| > 0), where it says
        nothing (E[X] − E[Y] ≤ 2Δ always).

    References
    ----------
    Source S2, S2-03, equation (.2).

    Examples
    --------
    >>> round(moment_difference_bound(np.log(2), 0.01, 0.5, 1.0), 12)
    0.52
    """
    e = check_nonnegative(epsilon, "epsilon")
    d = check_interval(delta, "delta", 0, 1)
    m = check_nonnegative(mean_abs_y, "mean_abs_y")
    b = check_nonnegative(bound, "bound")
    with np.errstate(over="ignore", invalid="ignore"):
        growth = np.where(m == 0, 0.0, np.expm1(e) * m)  # E|Y| = 0: the term is 0 at any ε (not ∞·0)
    return scalar_or_array(growth + 2.0 * d * b)


@named_shapes
def approximate_rdp_delta_hat(order, epsilon, epsilon_hat, delta=0.0, sign="corrected"):
    r"""δ̂ such that δ-approximate (α, ε)-RDP implies (ε̂, δ̂)-DP.

    .. math:: \hat\delta = \delta + \frac{e^{-(\alpha-1)(\hat\varepsilon-\varepsilon)}}{\alpha}
              \Big(1 - \frac1\alpha\Big)^{\alpha-1}

    ``sign="seed"`` evaluates the formula as printed in source S2 (.5), with
    exp(+(α−1)(ε̂−ε)); it grows with ε̂ and fails for ε̂ < ε (e.g. the Gaussian
    with μ = 1, α = 2, ε = 1, ε̂ = 0: printed δ̂ ≈ 0.092 < exact δ(0) ≈ 0.383).

    Parameters
    ----------
    order : float or array, the Rényi order α > 1
    epsilon : float or array, ε ≥ 0 (the RDP value)
    epsilon_hat : float or array, ε̂ ≥ 0
    delta : float or array, δ ∈ [0, 1]
    sign : {"corrected", "seed"}

    Returns
    -------
    float or ndarray (capped at 1)

    References
    ----------
    Source S2, S2-07 (property 3, eq. (.5)) and S2-06 (RDP property 8);
    Canonne, Kamath & Steinke (2020), Prop. 12.

    Examples
    --------
    >>> round(approximate_rdp_delta_hat(2.0, 1.0, 0.0), 6)  # e/4
    0.67957
    >>> round(approximate_rdp_delta_hat(2.0, 1.0, 0.0, sign="seed"), 6)
    0.09197
    """
    lam = check_order(order, "order")
    e = check_nonnegative(epsilon, "epsilon")
    eh = check_nonnegative(epsilon_hat, "epsilon_hat")
    d = check_interval(delta, "delta", 0, 1)
    check_choice(sign, "sign", ("corrected", "seed"))
    s = -1.0 if sign == "corrected" else 1.0
    with np.errstate(over="ignore"):
        log_term = s * (lam - 1.0) * (eh - e) - np.log(lam) + (lam - 1.0) * np.log1p(-1.0 / lam)
        out = d + np.exp(np.minimum(log_term, 1.0))
    return scalar_or_array(np.minimum(out, 1.0))


@named_shapes
def approximate_renyi_divergence(p, q, alpha, delta):
    r"""δ-approximate Rényi divergence of two small pmfs, by convex optimisation.

    .. math:: D^\delta_\alpha(P\|Q) = \inf\{D_\alpha(P'\|Q') : P = (1-\delta)P' + \delta P'',\
              Q = (1-\delta)Q' + \delta Q''\}

    With P̃ = (1−δ)P' ≤ P and Q̃ = (1−δ)Q' ≤ Q (each summing to 1 − δ), the
    objective Σ P̃^α Q̃^{1−α} is jointly convex; SLSQP from the feasible start
    P̃ = (1−δ)P, Q̃ = (1−δ)Q. Meant for pmfs with a handful of atoms.

    Parameters
    ----------
    p, q : array, pmfs of equal length, full support
    alpha : float, α > 1
    delta : float, δ ∈ [0, 1)

    Returns
    -------
    float (an upper bound within the optimiser's tolerance, ≈1e-9)

    References
    ----------
    Source S2, S2-07 (definition); Bun & Steinke (2016), Def. 1.2 (approximate zCDP).

    Examples
    --------
    >>> p, q = [0.75, 0.25], [0.25, 0.75]
    >>> approximate_renyi_divergence(p, q, 2.0, 0.0) == renyi_divergence(p, q, 2.0)
    True
    >>> approximate_renyi_divergence(p, q, 2.0, 0.5) < 1e-6  # δ = TV distance
    True
    """
    p, q = check_pmf_pair(p, q)
    a_ = float(check_order(alpha))
    d = float(check_interval(delta, "delta", 0, 1, closed_high=False))
    if d == 0.0:
        return renyi_divergence(p, q, a_)
    n = p.size
    m = 1.0 - d

    def f(x):  # log Σ P̃^α Q̃^{1−α} (x = (P̃, Q̃)), evaluated in log space for good scaling at large α
        with np.errstate(divide="ignore"):
            la, lb = np.log(np.maximum(x[:n], 0.0)), np.log(np.maximum(x[n:], 1e-300))
        return float(logsumexp(a_ * la + (1.0 - a_) * lb))

    cons = [{"type": "eq", "fun": lambda x: np.sum(x[:n]) - m},
            {"type": "eq", "fun": lambda x: np.sum(x[n:]) - m}]
    lower = np.concatenate([np.zeros(n), np.minimum(1e-12, q)])
    upper = np.concatenate([p, q])
    starts = [np.concatenate([m * p, m * q])]
    # feasible starts from the (ε, δ) decomposition at every ε whose δ'(ε) ≤ δ
    for eps in np.linspace(0.0, float(np.max(np.abs(np.log(p) - np.log(q)))), 25):
        dec = decompose_dp_pair(p, q, eps)
        if dec.delta_prime <= d:
            starts.append(np.concatenate([m * dec.p_prime, m * dec.q_prime]))
    best = np.inf
    for x0 in starts:
        x0 = np.clip(x0, lower, upper)
        best = min(best, f(x0) if abs(x0[:n].sum() - m) < 1e-12 and abs(x0[n:].sum() - m) < 1e-12 else np.inf)
        res = optimize.minimize(f, x0, method="SLSQP", bounds=list(zip(lower, upper)), constraints=cons,
                                options={"ftol": 1e-14, "maxiter": 1000})
        x = res.x
        if abs(np.sum(x[:n]) - m) < 1e-9 and abs(np.sum(x[n:]) - m) < 1e-9 and np.all(x >= lower - 1e-12):
            best = min(best, f(x))
    if not np.isfinite(best):
        raise RuntimeError("the optimiser did not find a feasible decomposition")
    return float(max(best - np.log(m), 0.0) / (a_ - 1.0))
