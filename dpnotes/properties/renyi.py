r"""Properties of Rényi divergence (source S2, S2-06) as the sides of their inequalities.

Data processing (:func:`post_processing_sides`), quasi-convexity for mixtures
(:func:`quasi_convexity_sides`), the triangle-like inequality through an
intermediate law (:func:`triangle_bound`) and the group-privacy bound it gives
(:func:`group_privacy_bound`), and pure DP ⇒ concentrated DP
(:func:`pure_dp_rdp_bound`). The divergences are those of
:func:`dpnotes.divergence.renyi_divergence`; the private :func:`_pmf` checks a pmf.
"""

import numpy as np
from scipy.special import logsumexp

from .._validation import (
    check_array,
    check_interval,
    check_nonnegative,
    check_order,
    check_real,
    named_shapes,
    scalar_or_array,
)
from ..divergence import renyi_divergence


def _pmf(x, name):
    x = check_real(x, name)
    if x.ndim != 1 or np.any(x < 0) or not np.isclose(x.sum(), 1.0, rtol=0, atol=1e-9):
        raise ValueError(f"{name} must be a 1-D pmf: entries in [0, 1] summing to 1 (got shape {x.shape}, "
                         f"entries {np.ravel(x)[:4]}, sum {float(np.sum(x))!r})")
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
    Source S2, S2-06 (property 1); source S0, S0-02.

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
    Source S2, S2-06 (property 6).

    Examples
    --------
    >>> l, m, r = quasi_convexity_sides([0.7, 0.3], [0.3, 0.7], [0.5, 0.5], [0.4, 0.6], 0.3, 3.0)
    >>> l <= m <= r
    True
    """
    p, q, p2, q2 = (_pmf(x, n) for x, n in ((p, "p"), (q, "q"), (p2, "p2"), (q2, "q2")))
    if not p.shape == q.shape == p2.shape == q2.shape:
        raise ValueError(f"p, q, p2 and q2 must be pmfs of equal length (got lengths {p.size}, {q.size}, {p2.size}, "
                         f"{q2.size})")
    s = float(check_interval(s, "s", 0, 1))
    a = float(check_order(alpha, allow_one=True))
    lhs = renyi_divergence((1 - s) * p + s * p2, (1 - s) * q + s * q2, a)
    d1, d2 = renyi_divergence(p, q, a), renyi_divergence(p2, q2, a)
    w = np.array([1 - s, s])
    d = np.array([d1, d2], dtype=float)
    keep = w > 0  # a pair of weight 0 does not enter the middle term, even at D = ∞ (no 0·∞)
    if a == 1.0:
        mid = float(np.sum(w[keep] * d[keep]))
    else:  # log Σ w_j e^{(α−1) D_j} / (α − 1), by log-sum-exp (D_j = ∞ gives ∞)
        mid = float(logsumexp((a - 1) * d[keep], b=w[keep]) / (a - 1))
    return float(lhs), mid, float(max(d1, d2))


@named_shapes
def triangle_bound(p, q, r, alpha, alpha_prime):
    r"""Right side of the triangle-like inequality D_α(P‖R) ≤ … through an intermediate Q.

    .. math:: D_\alpha(P\|R) \le \frac{\alpha'}{\alpha'-1}\,D_{\alpha(\alpha'-1)/(\alpha'-\alpha)}(P\|Q)
              + D_{\alpha'}(Q\|R),\qquad 1 < \alpha < \alpha' < \infty.

    Derivation (Hölder with exponents h₁ = (α'−1)/(α'−α), h₂ = (α'−1)/(α−1)):
    ∫P^αR^{1−α} = ∫(P^αQ^{−c})(Q^cR^{1−α}) with c = α − 1/h₁ (R a third law). The source prints
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
    Source S2, S2-06 (property 7); Mironov (2017), Prop. 11; Bun & Steinke (2016).

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
    Source S2, S2-06 (property 7); Bun & Steinke (2016), Prop. 1.9 (group privacy).

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
    Source S2, S2-06 (property 5) and S2-04 (property 1); Bun & Steinke (2016), Prop. 3.3.

    Examples
    --------
    >>> round(pure_dp_rdp_bound([0.75, 0.25], [0.25, 0.75], 2.0), 12)  # ½·(log 3)²·2
    1.206948960813
    """
    a = check_order(alpha, allow_one=True)
    d = renyi_divergence(p, q, np.inf) + renyi_divergence(q, p, np.inf)
    return scalar_or_array(a / 8.0 * d**2)
