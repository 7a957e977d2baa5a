r"""Trade-off functions: differential privacy read as a limit on hypothesis tests.

An adversary sees an output and tests H₀ "the data set was S" (output law P)
against H₁ "it was S′" (output law Q). A test φ (the probability of rejecting H₀)
has type I error α_I = E_P[φ] and type II error β_II = 1 − E_Q[φ]; the
trade-off function is the smallest type II error at each type I error,

.. math:: T_{P,Q}(\alpha_{\mathrm I}) = \inf\{\beta_{\mathrm{II}}(\varphi) : \alpha_{\mathrm I}(\varphi) \le \alpha_{\mathrm I}\},

attained by likelihood-ratio tests (Neyman & Pearson 1933). (ε, δ)-DP holds
exactly when T_{P,Q} ≥ f_{ε,δ} for every pair of neighbours (Wasserman & Zhou
2010; Kairouz, Oh & Viswanath 2015; Dong, Roth & Su 2022). This module holds
the trade-off functions of the book's mechanisms and the boundary f_{ε,δ} of the
(ε, δ) region. The privacy profile of μ-GDP is :func:`dpnotes.privacy_loss.delta_gaussian`
(the same formula); the classical calibration of the Gaussian mechanism is
:func:`dpnotes.composition.gaussian_sigma_classical`, beside the exact one, and the
(ε, δ) form of group privacy is :func:`dpnotes.properties.group_privacy_epsilon_delta`.
"""

import numpy as np
from scipy.special import ndtr, ndtri

from ._validation import (
    check_interval,
    check_nonnegative,
    check_pmf_pair,
    named_shapes,
    scalar_or_array,
)

__all__ = [
    "tradeoff_gaussian",
    "tradeoff_laplace",
    "tradeoff_discrete",
    "tradeoff_epsilon_delta",
]


def _check_alpha_type1(alpha_type1):
    return check_interval(alpha_type1, "alpha_type1", 0, 1)


@named_shapes
def tradeoff_gaussian(alpha_type1, mu):
    r"""The Gaussian trade-off function G_μ: the smallest type II error at type I error α_I.

    .. math:: G_\mu(\alpha_{\mathrm I}) = T_{\mathcal N(0,1),\,\mathcal N(\mu,1)}(\alpha_{\mathrm I})
              = \Phi\big(\Phi^{-1}(1-\alpha_{\mathrm I}) - \mu\big)

    It is the trade-off function of the Gaussian mechanism with μ = Δ₂/σ. Evaluated
    as Φ(−Φ⁻¹(α_I) − μ), so that tiny α_I keep their precision (1 − α_I would round
    to 1).

    Parameters
    ----------
    alpha_type1 : float or array, α_I ∈ [0, 1]
    mu : float or array, μ ∈ [0, ∞)

    Returns
    -------
    float or ndarray, G_μ(α_I) ∈ [0, 1]

    Raises
    ------
    ValueError
        If α_I ∉ [0, 1] or μ < 0 (or either is NaN).

    References
    ----------
    Dong, Roth & Su (2022), "Gaussian differential privacy", Section 2 (the
    definition of G_μ and μ-GDP); Neyman & Pearson (1933) for the optimality of
    the threshold test.

    Examples
    --------
    >>> round(tradeoff_gaussian(0.05, 1.0), 10)  # Φ(1.6449 − 1)
    0.7404889772
    >>> tradeoff_gaussian(np.array([0.0, 1.0]), 2.0)
    array([1., 0.])
    >>> round(tradeoff_gaussian(0.3, 0.0), 12)  # μ = 0: no test beats guessing
    0.7
    """
    a = _check_alpha_type1(alpha_type1)
    mu = check_nonnegative(mu, "mu")
    return scalar_or_array(ndtr(-ndtri(a) - mu))


@named_shapes
def tradeoff_laplace(alpha_type1, mu):
    r"""The trade-off function of the Laplace mechanism, Lap(0, b) against Lap(Δ₁, b), μ = Δ₁/b.

    .. math:: T(\alpha_{\mathrm I}) = \begin{cases}
              1 - e^{\mu}\alpha_{\mathrm I}, & \alpha_{\mathrm I} < \tfrac12 e^{-\mu},\\
              e^{-\mu}/(4\alpha_{\mathrm I}), & \tfrac12 e^{-\mu} \le \alpha_{\mathrm I} \le \tfrac12,\\
              e^{-\mu}(1 - \alpha_{\mathrm I}), & \alpha_{\mathrm I} > \tfrac12.
              \end{cases}

    Derivation: the likelihood ratio Q/P increases in the output y, so the best
    tests reject H₀ when y > t; with b = 1, α_I = P(Y > t) and β_II = Q(Y ≤ t), and
    eliminating t on t ≥ μ, 0 ≤ t ≤ μ and t ≤ 0 gives the three pieces. The outer
    pieces lie on the boundary of the μ-DP region :func:`tradeoff_epsilon_delta`
    with ε = μ, δ = 0.

    Parameters
    ----------
    alpha_type1 : float or array, α_I ∈ [0, 1]
    mu : float or array, μ = Δ₁/b ∈ [0, ∞)

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If α_I ∉ [0, 1] or μ < 0.

    References
    ----------
    Derived here from the likelihood-ratio tests of Neyman & Pearson (1933);
    trade-off functions as in Dong, Roth & Su (2022). Checked against a brute-force
    sweep of thresholds and a quadrature in the tests.

    Examples
    --------
    >>> round(tradeoff_laplace(0.25, 1.0), 12)  # e^{-1}/(4 · 0.25)
    0.367879441171
    >>> tradeoff_laplace(0.0, 1.0), tradeoff_laplace(1.0, 1.0)
    (1.0, 0.0)
    """
    a = _check_alpha_type1(alpha_type1)
    mu = check_nonnegative(mu, "mu")
    a, mu = np.broadcast_arrays(a, mu)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        # in log space: e^μ·α and e^{−μ}/(4α) without ∞·0 or 0/0 where e^{−μ} underflows (log α = −∞ at α = 0)
        la = np.log(a)
        first = 1.0 - np.exp(mu + la)
        middle = np.exp(-mu - np.log(4.0) - la)
        last = np.exp(-mu) * (1.0 - a)
    out = np.where(la < np.log(0.5) - mu, first, np.where(a <= 0.5, middle, last))
    return scalar_or_array(np.clip(out, 0.0, 1.0))


@named_shapes
def tradeoff_discrete(p, q, alpha_type1):
    r"""The trade-off function T_{P,Q} of two pmfs on the same finite set, randomized tests allowed.

    Sort the outcomes by decreasing likelihood ratio Q(x)/P(x) (outcomes with
    P(x) = 0 first). The Neyman–Pearson tests reject H₀ on a prefix of that
    order, randomizing on the next outcome; they trace the piecewise linear curve
    through the vertices

    .. math:: \Big(\sum_{j \le i} P(x_j),\; 1 - \sum_{j \le i} Q(x_j)\Big),\qquad i = 0, 1, \dots, n,

    which is T_{P,Q}, evaluated here by linear interpolation.

    Parameters
    ----------
    p, q : array_like, pmfs of equal length (entries ≥ 0 summing to 1)
    alpha_type1 : float or array, α_I ∈ [0, 1]

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If p, q are not pmfs of equal length, or α_I ∉ [0, 1].

    References
    ----------
    Neyman & Pearson (1933); Dong, Roth & Su (2022), Section 2.1. Randomized
    response P = (p, 1 − p), Q = (1 − p, p) gives the boundary of the ε-DP region,
    ε = log(p/(1 − p)) (Kairouz, Oh & Viswanath 2015).

    Examples
    --------
    >>> round(tradeoff_discrete([0.75, 0.25], [0.25, 0.75], 0.1), 12)  # 1 − 3 · 0.1
    0.7
    >>> round(tradeoff_discrete([0.75, 0.25], [0.25, 0.75], 0.5), 12)  # (1 − 0.5)/3
    0.166666666667
    """
    p, q = check_pmf_pair(p, q, require_same_support=False)
    a = _check_alpha_type1(alpha_type1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(p > 0, q / np.where(p > 0, p, 1.0), np.where(q > 0, np.inf, 0.0))
    order = np.argsort(-ratio, kind="stable")
    xs = np.concatenate([[0.0], np.cumsum(p[order])])
    ys = np.concatenate([[1.0], 1.0 - np.cumsum(q[order])])
    xs = np.clip(xs / xs[-1], 0.0, 1.0)
    ys = np.clip(ys, 0.0, 1.0)
    # a run of equal type I errors (outcomes that P never produces): keep its smallest type II error
    keep = np.concatenate([xs[1:] != xs[:-1], [True]])
    return scalar_or_array(np.interp(a, xs[keep], ys[keep]))


@named_shapes
def tradeoff_epsilon_delta(alpha_type1, epsilon, delta=0.0):
    r"""The boundary f_{ε,δ} of the (ε, δ)-DP region of trade-off curves.

    .. math:: f_{\varepsilon,\delta}(\alpha_{\mathrm I}) = \max\big\{0,\;
              1 - \delta - e^{\varepsilon}\alpha_{\mathrm I},\;
              e^{-\varepsilon}(1 - \delta - \alpha_{\mathrm I})\big\}

    A pair (P, Q) satisfies the (ε, δ) inequality in both directions exactly when
    T_{P,Q} ≥ f_{ε,δ}. The function is piecewise linear with kinks at
    α_I = (1 − δ)/(1 + e^ε) and α_I = 1 − δ.

    Parameters
    ----------
    alpha_type1 : float or array, α_I ∈ [0, 1]
    epsilon : float or array, ε ∈ [0, ∞]
    delta : float or array, δ ∈ [0, 1], default 0 (pure ε-DP)

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If α_I ∉ [0, 1], ε < 0 or δ ∉ [0, 1].

    References
    ----------
    Wasserman & Zhou (2010); Kairouz, Oh & Viswanath (2015); in this form
    Dong, Roth & Su (2022), Section 2.

    Examples
    --------
    >>> round(tradeoff_epsilon_delta(0.1, np.log(3.0)), 12)  # 1 − 3 · 0.1
    0.7
    >>> round(tradeoff_epsilon_delta(0.0, 1.0, 1e-5), 12)  # the intercept is 1 − δ
    0.99999
    >>> tradeoff_epsilon_delta(0.5, 0.0)  # ε = δ = 0: the diagonal, perfect privacy
    0.5
    """
    a = _check_alpha_type1(alpha_type1)
    eps = check_nonnegative(epsilon, "epsilon", allow_inf=True)
    d = check_interval(delta, "delta", 0, 1)
    a, eps, d = np.broadcast_arrays(a, eps, d)
    with np.errstate(over="ignore", invalid="ignore"):
        steep = np.where(a > 0, 1.0 - d - np.exp(eps) * a, 1.0 - d)
        flat = np.exp(-eps) * (1.0 - d - a)
    return scalar_or_array(np.maximum(0.0, np.maximum(steep, flat)))
