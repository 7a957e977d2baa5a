r"""Properties of Rényi divergence and of (ε, δ) pairs, as computable quantities.

Each function returns the two (or three) sides of an inequality from seed 002
— post-processing, quasi-convexity, the triangle-like (group privacy)
inequality, pure DP ⇒ concentrated DP, the moment-difference bound,
approximate RDP — or constructs the object a theorem asserts exists (the
decomposition of an (ε, δ)-indistinguishable pair, its randomized-response
form, the Bayesian event). The tests evaluate them on real pairs: Gaussians,
Laplaces, randomized response and small pmfs.

Two statements of seed 002 are printed with typos, corrected here:

* approximate-RDP properties 1–2 read "(∞, δ)-RDP" and "(α, ½ε²δ)-RDP" (the
  seed writes the order α as λ); they are (∞, ε) and (α, ½ε²α);
* the conversion (.5) reads δ̂ = δ + exp((α−1)(ε̂−ε))/α·(1−1/α)^{α−1}; the
  exponent has the wrong sign — it is exp(−(α−1)(ε̂−ε)) (as in RDP property 8).
  With the printed sign the bound grows with ε̂ and is false for ε̂ < ε
  (see :func:`approximate_rdp_delta_hat`);
* the triangle-like inequality's order "D_{α', (α'−1)/α}" is garbled; the
  Hölder argument gives D_{α(α'−1)/(α'−α)} (see :func:`triangle_bound`).

Used in: book/03-conversion, book/04-hypothesis-testing
"""

from collections import namedtuple

import numpy as np
from scipy import optimize
from scipy.special import logsumexp

from ._validation import (
    check_array,
    check_choice,
    check_count,
    check_delta,
    check_interval,
    check_nonnegative,
    check_order,
    check_pmf_pair,
    check_real,
    named_shapes,
    scalar_or_array,
)
from .divergence import renyi_divergence
from .privacy_loss import hockey_stick_divergence

__all__ = [
    "post_processing_sides",
    "quasi_convexity_sides",
    "triangle_bound",
    "group_privacy_bound",
    "group_privacy_epsilon_delta",
    "pure_dp_rdp_bound",
    "moment_difference_bound",
    "approximate_rdp_delta_hat",
    "approximate_renyi_divergence",
    "decompose_dp_pair",
    "randomized_response_decomposition",
    "bayesian_event_probability",
    "posterior_bound",
]

Decomposition = namedtuple("Decomposition", "delta_prime p_prime q_prime p_extra q_extra")
RRDecomposition = namedtuple("RRDecomposition", "a b p_extra q_extra")


def _pmf(x, name):
    x = check_real(x, name)
    if x.ndim != 1 or np.any(x < 0) or not np.isclose(x.sum(), 1.0, rtol=0, atol=1e-9):
        raise ValueError(f"{name} must be a 1-D pmf: entries in [0, 1] summing to 1")
    return x


@named_shapes
def post_processing_sides(p, q, kernel, alpha):
    r"""Both sides of the data-processing inequality for a Markov kernel F (a randomised post-processing).

    .. math:: 0 \le D_\alpha(FP \,\|\, FQ) \le D_\alpha(P\|Q)

    Parameters
    ----------
    p, q : array, the pmfs of P and Q on N outcomes
    kernel : array of shape (N, N'), rows are distributions (row i = law of F(i))
    alpha : float or array, α ∈ [1, ∞]

    Returns
    -------
    (D_α(FP‖FQ), D_α(P‖Q))

    Raises
    ------
    ValueError
        If the pmfs or the kernel are invalid.

    References
    ----------
    Seed 002, S2-06 (property 1); seed 000, S0-02.

    Examples
    --------
    >>> k = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    >>> after, before = post_processing_sides([0.6, 0.3, 0.1], [0.2, 0.3, 0.5], k, 2.0)
    >>> 0 <= after <= before
    True
    """
    p, q = _pmf(p, "p"), _pmf(q, "q")
    K = check_array(kernel, "kernel", ndim=2)
    if K.ndim != 2 or K.shape[0] != p.size or np.any(K < 0) or not np.allclose(K.sum(axis=1), 1.0):
        raise ValueError("kernel must be a row-stochastic matrix with one row per outcome of p")
    return renyi_divergence(p @ K, q @ K, alpha), renyi_divergence(p, q, alpha)


@named_shapes
def quasi_convexity_sides(p, q, p2, q2, s, alpha):
    r"""The three sides of the quasi-convexity inequality for mixtures.

    .. math::
        D_\alpha((1-s)P + sP' \,\|\, (1-s)Q + sQ')
        \le \frac{1}{\alpha-1}\log\big((1-s)e^{(\alpha-1)D_\alpha(P\|Q)} + s\,e^{(\alpha-1)D_\alpha(P'\|Q')}\big)
        \le \max\{D_\alpha(P\|Q), D_\alpha(P'\|Q')\},

    and at α = 1 (joint convexity of KL) the middle term is (1−s)D₁(P‖Q) + sD₁(P'‖Q').

    Parameters
    ----------
    p, q, p2, q2 : array, pmfs of equal length
    s : float, s ∈ [0, 1]
    alpha : float, α ∈ [1, ∞)

    Returns
    -------
    (lhs, middle, rhs)

    References
    ----------
    Seed 002, S2-06 (property 6).

    Examples
    --------
    >>> l, m, r = quasi_convexity_sides([0.7, 0.3], [0.3, 0.7], [0.5, 0.5], [0.4, 0.6], 0.3, 3.0)
    >>> l <= m <= r
    True
    """
    p, q, p2, q2 = (_pmf(x, n) for x, n in ((p, "p"), (q, "q"), (p2, "p2"), (q2, "q2")))
    s = float(check_interval(s, "s", 0, 1))
    a = float(check_order(alpha, allow_one=True))
    lhs = renyi_divergence((1 - s) * p + s * p2, (1 - s) * q + s * q2, a)
    d1, d2 = renyi_divergence(p, q, a), renyi_divergence(p2, q2, a)
    if a == 1.0:
        mid = (1 - s) * d1 + s * d2
    else:
        w = np.array([1 - s, s])
        keep = w > 0
        mid = float(np.log(np.sum(w[keep] * np.exp((a - 1) * (np.array([d1, d2])[keep] - max(d1, d2)))))
                    / (a - 1) + max(d1, d2))
    return float(lhs), float(mid), float(max(d1, d2))


@named_shapes
def triangle_bound(p, q, r, alpha, alpha_prime):
    r"""Right side of the triangle-like inequality D_α(P‖R) ≤ … through an intermediate Q.

    .. math:: D_\alpha(P\|R) \le \frac{\alpha'}{\alpha'-1}\,D_{\alpha(\alpha'-1)/(\alpha'-\alpha)}(P\|Q)
              + D_{\alpha'}(Q\|R),\qquad 1 < \alpha < \alpha' < \infty.

    Derivation (Hölder with exponents h₁ = (α'−1)/(α'−α), h₂ = (α'−1)/(α−1)):
    ∫P^αR^{1−α} = ∫(P^αQ^{−c})(Q^cR^{1−α}) with c = α − 1/h₁ (R a third law). The seed prints
    the first order as "α', (α'−1)/α" — garbled; the order is α(α'−1)/(α'−α).
    Minimising over α' for D_α(P‖Q) ≤ ρ₁α, D_α(Q‖R) ≤ ρ₂α gives
    (√ρ₁ + √ρ₂)²α (:func:`group_privacy_bound`).

    Parameters
    ----------
    p, q, r : pmfs (arrays) or densities (scipy frozen distributions), as
        accepted by :func:`dpnotes.divergence.renyi_divergence`
    alpha : float, α > 1
    alpha_prime : float, α' > α

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If α ≤ 1 or α' ≤ α.

    References
    ----------
    Seed 002, S2-06 (property 7); Mironov (2017), Prop. 11; Bun & Steinke (2016).

    Examples
    --------
    >>> from scipy.stats import norm
    >>> b = triangle_bound(norm(2, 1), norm(1, 1), norm(0, 1), 2.0, 4.0)
    >>> round(b, 6)  # (4/3)·(3·½) + 4·½, vs exact D_2 = 4
    4.0
    """
    a = float(check_order(alpha))
    ap = float(check_order(alpha_prime, "alpha_prime"))
    if ap > 1e8:
        raise ValueError(f"alpha_prime must be ≤ 1e8 (got {ap:g}): the divergences are integrated numerically")
    if not ap > a:
        raise ValueError(f"alpha_prime must be in (alpha, ∞) = ({a}, ∞) (got {ap})")
    inner = a * (ap - 1.0) / (ap - a)
    return float(ap / (ap - 1.0) * renyi_divergence(p, q, inner) + renyi_divergence(q, r, ap))


@named_shapes
def group_privacy_bound(rho1, rho2, alpha):
    r"""(√ρ₁ + √ρ₂)² α: the divergence bound through one intermediate distribution.

    .. math:: D_\alpha(P\|R) \le (\sqrt{\rho_1} + \sqrt{\rho_2})^2\,\alpha

    when D_α(P‖Q) ≤ ρ₁α and D_α(Q‖R) ≤ ρ₂α for all α. Tight for collinear
    Gaussian means.

    References
    ----------
    Seed 002, S2-06 (property 7); Bun & Steinke (2016), Prop. 1.9 (group privacy).

    Examples
    --------
    >>> round(group_privacy_bound(0.5, 0.5, 3.0), 12)
    6.0
    """
    r1 = check_nonnegative(rho1, "rho1")
    r2 = check_nonnegative(rho2, "rho2")
    a = check_order(alpha, allow_one=True)
    return scalar_or_array((np.sqrt(r1) + np.sqrt(r2)) ** 2 * a)


@named_shapes
def group_privacy_epsilon_delta(epsilon, delta, k):
    r"""The (ε, δ) guarantee for data sets k neighbouring steps apart, from an (ε, δ)-DP mechanism.

    .. math:: (\varepsilon_k, \delta_k) = \big(k\varepsilon,\; k\,e^{(k-1)\varepsilon}\delta\big)

    Chaining the (ε, δ) inequality along S = S₀, S₁, …, S_k = S′ gives the slack
    δ(1 + e^ε + … + e^{(k−1)ε}), at most k e^{(k−1)ε} δ, the form returned here.
    With δ = 0: an ε-DP mechanism is kε-DP for groups of k.

    Parameters
    ----------
    epsilon : float or array, ε ∈ [0, ∞)
    delta : float or array, δ ∈ [0, 1]
    k : int or array, the group size k ≥ 1

    Returns
    -------
    (float or ndarray, float or ndarray)
        kε and min(1, k e^{(k−1)ε} δ) (computed in log space; δ_k = 1 means the guarantee is void).

    Raises
    ------
    ValueError
        If ε < 0, δ ∉ [0, 1] or k is not an integer ≥ 1.

    References
    ----------
    Dwork & Roth (2014), "The algorithmic foundations of differential privacy",
    Chapter 2 (group privacy for pure DP); the (ε, δ) form by the same chaining.

    Used in: book/00b-foundations

    Examples
    --------
    >>> group_privacy_epsilon_delta(0.5, 0.0, 3)
    (1.5, 0.0)
    >>> eps_k, delta_k = group_privacy_epsilon_delta(1.0, 1e-6, 2)
    >>> eps_k, round(delta_k / 1e-6, 10)  # 2e
    (2.0, 5.4365636569)
    """
    eps = check_nonnegative(epsilon, "epsilon")
    d = check_interval(delta, "delta", 0, 1)
    k = check_count(k, "k")
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        log_dk = np.log(k) + (k - 1.0) * eps + np.log(d)
    # a δ ≥ 1 says nothing: the bound is capped there (and δ = 0 stays 0 at any k, ε)
    delta_k = np.where(d == 0, 0.0, np.exp(np.minimum(log_dk, 0.0)))
    return scalar_or_array(k * eps), scalar_or_array(delta_k)


@named_shapes
def pure_dp_rdp_bound(p, q, alpha):
    r"""(α/8)(D∞(P‖Q) + D∞(Q‖P))², an upper bound on D_α(P‖Q).

    .. math:: D_\alpha(P\|Q) \le \frac{\alpha}{8}\big(D_\infty(P\|Q) + D_\infty(Q\|P)\big)^2

    With ε-DP (both max divergences ≤ ε) this is ½ε²α: pure DP ⇒ ½ε²-zCDP.

    Parameters
    ----------
    p, q : pmfs or densities (see :func:`dpnotes.divergence.renyi_divergence`)
    alpha : float or array, α ≥ 1

    References
    ----------
    Seed 002, S2-06 (property 5) and S2-04 (property 1); Bun & Steinke (2016), Prop. 3.3.

    Examples
    --------
    >>> round(pure_dp_rdp_bound([0.75, 0.25], [0.25, 0.75], 2.0), 12)  # ½·(log 3)²·2
    1.206948960813
    """
    a = check_order(alpha, allow_one=True)
    d = renyi_divergence(p, q, np.inf) + renyi_divergence(q, p, np.inf)
    return scalar_or_array(a / 8.0 * d**2)


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

    References
    ----------
    Seed 002, S2-03, equation (.2).

    Examples
    --------
    >>> round(moment_difference_bound(np.log(2), 0.01, 0.5, 1.0), 12)
    0.52
    """
    e = check_nonnegative(epsilon, "epsilon")
    d = check_interval(delta, "delta", 0, 1)
    m = check_nonnegative(mean_abs_y, "mean_abs_y")
    b = check_nonnegative(bound, "bound")
    return scalar_or_array(np.expm1(e) * m + 2.0 * d * b)


@named_shapes
def approximate_rdp_delta_hat(order, epsilon, epsilon_hat, delta=0.0, sign="corrected"):
    r"""δ̂ such that δ-approximate (α, ε)-RDP implies (ε̂, δ̂)-DP.

    .. math:: \hat\delta = \delta + \frac{e^{-(\alpha-1)(\hat\varepsilon-\varepsilon)}}{\alpha}
              \Big(1 - \frac1\alpha\Big)^{\alpha-1}

    ``sign="seed"`` evaluates the formula as printed in seed 002 (.5), with
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
    Seed 002, S2-07 (property 3, eq. (.5)) and S2-06 (RDP property 8);
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
    Seed 002, S2-07 (definition); Bun & Steinke (2016), Def. 1.2 (approximate zCDP).

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


@named_shapes
def decompose_dp_pair(p, q, epsilon):
    r"""The decomposition of an (ε, δ)-indistinguishable pair of pmfs (seed 002, §8.1).

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
    Seed 002, S2-11 (basic decomposition); Kairouz, Oh & Viswanath (2015);
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
    Seed 002, S2-11 (corollary and its interpretation); Kairouz, Oh & Viswanath (2015).

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
    Seed 002, S2-11 (Bayesian version).

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
    Seed 002, S2-11 (Bayesian version, property 1).

    Examples
    --------
    >>> round(posterior_bound(0.5, np.log(3.0)), 12)
    0.75
    """
    p0 = check_interval(prior, "prior", 0, 1)
    e = check_nonnegative(epsilon, "epsilon")
    return scalar_or_array(p0 / (p0 + (1.0 - p0) * np.exp(-e)))
