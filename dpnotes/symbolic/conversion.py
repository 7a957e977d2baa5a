r"""Symbolic derivations (sympy) for composition and conversion, as displayable steps.

Each function returns a list of ``(description, sympy expression)``; the last
entries are the result and, where a source document prints something else, a
numeric check of that version (the chapters explain it in an "About the source" note).

The docstrings follow the book's notation; the sympy symbols keep the names
that the displayed steps print, in the book's notation: ``alpha`` is the Rényi order α,
``T`` the number of composed mechanisms and ``L_delta`` stands for L_δ = log(1/δ).
"""

import sympy as sp

__all__ = [
    "derive_gaussian_optimal_order",
    "derive_composed_gaussian_sigma",
    "derive_legendre_scaling",
    "derive_zcdp_conversion",
    "derive_laplace_scales",
    "derive_gaussian_delta_prime",
]

eps, sigma, lam, k, L = sp.symbols("epsilon sigma alpha T L_delta", positive=True)
delta = sp.Symbol("delta", positive=True)
rho = sp.Symbol("rho", positive=True)


def derive_gaussian_optimal_order():
    r"""Source S4, Example 2 (S4-05): the optimal order α* = ½ + εσ² and δ ≤ exp(−(εσ − 1/(2σ))²/2).

    The exponent (α − 1)(α/(2σ²) − ε) of Claim 21 is minimised over the order α by
    sympy; the blog post prints
    α = (1 + 2ε/σ²)/2, which is wrong — the last steps
    evaluate both at ε = 1, σ = 2: α* = 9/2 gives the exponent −49/32, while the
    seed's α = 3/4 is not an admissible order (α > 1) and its exponent +29/128
    would bound δ by a number larger than 1.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Source S4, Example 2 and Claim 21.

    Examples
    --------
    >>> steps = derive_gaussian_optimal_order()
    >>> dict(steps)["optimal order α*"]
    epsilon*sigma**2 + 1/2
    """
    exponent = (lam - 1) * (lam / (2 * sigma**2) - eps)
    steps = [("log of the δ bound at order α, with ε(α) = α/(2σ²)", exponent)]
    d = sp.diff(exponent, lam)
    steps.append(("derivative in α", sp.simplify(d)))
    lam_star = sp.solve(sp.Eq(d, 0), lam)[0]
    steps.append(("optimal order α*", lam_star))
    val = sp.factor(sp.simplify(exponent.subs(lam, lam_star)))
    steps.append(("minimum exponent", val))
    target = -(eps * sigma - 1 / (2 * sigma)) ** 2 / 2
    steps.append(("equals −(εσ − 1/(2σ))²/2 (difference)", sp.simplify(val - target)))
    steps.append(("admissible (α* > 1) iff", sp.simplify(sp.solve(lam_star > 1, eps))))
    lam_seed = (1 + 2 * eps / sigma**2) / 2
    steps.append(("the misprinted order (1 + 2ε/σ²)/2", lam_seed))
    num = {eps: 1, sigma: 2}
    steps.append(("α* at ε = 1, σ = 2", lam_star.subs(num)))
    steps.append(("the misprinted order at ε = 1, σ = 2 (< 1: not an order)", lam_seed.subs(num)))
    steps.append(("exponent at α*, ε = 1, σ = 2", sp.nsimplify(exponent.subs(lam, lam_star).subs(num))))
    steps.append(("exponent at the misprinted order, ε = 1, σ = 2", sp.nsimplify(exponent.subs(lam, lam_seed).subs(num))))
    return steps


def derive_composed_gaussian_sigma():
    r"""Source S4, Example 3 (S4-08): the σ that makes T composed Gaussians (ε, δ)-DP.

    With s = σ/√T and ℒ = log(1/δ₀) (the sympy symbols ``k`` and ``L``),
    δ = exp(−(εs − 1/(2s))²/2) ≤ δ₀ iff εs − 1/(2s) ≥ √(2ℒ),
    i.e. s ≥ (√(2ℒ) + √(2ℒ + 2ε))/(2ε). The source's sufficient
    condition s > √(2ℒ)/ε + (2ε)^{−1/2} is valid (it is larger, by √(x+y) ≤ √x + √y),
    slightly loose.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Source S4, Example 3 and Claim 23.

    Examples
    --------
    >>> steps = derive_composed_gaussian_sigma()
    >>> steps[-1][1]
    True
    """
    s = sp.Symbol("s", positive=True)
    cond = eps * s - 1 / (2 * s) - sp.sqrt(2 * L)
    steps = [("δ ≤ e^{−L_δ} iff  εs − 1/(2s) − √(2L_δ) ≥ 0,  s = σ/√T", cond)]
    roots = [r for r in sp.solve(sp.Eq(cond, 0), s) if r.subs({eps: 1, L: 1}).is_positive]
    exact = sp.simplify(roots[0])
    steps.append(("exact threshold s*", exact))
    steps.append(("exact threshold for σ", sp.sqrt(k) * exact))
    seed = sp.sqrt(2 * L) / eps + 1 / sp.sqrt(2 * eps)
    steps.append(("a simpler sufficient s", seed))
    gap = sp.simplify(seed - exact)
    steps.append(("simpler − exact", gap))
    # √(2L + 2ε) ≤ √(2L) + √(2ε): stated − exact = (√(2L) + √(2ε) − √(2L+2ε))/(2ε) ≥ 0
    a_, b_ = sp.symbols("a b", nonnegative=True)
    steps.append(("(√a + √b)² − (a + b) = 2√(ab) ≥ 0", sp.expand((sp.sqrt(a_) + sp.sqrt(b_)) ** 2 - (a_ + b_))))
    check = sp.N(gap.subs({eps: sp.Rational(1, 2), L: sp.log(10**5)}))
    steps.append(("numeric: gap at ε = ½, δ = 1e-5", check))
    steps.append(("the simpler condition is sufficient (gap ≥ 0)", bool(check >= 0)))
    return steps


def derive_legendre_scaling():
    r"""Source S4, S4-07: (Tf)*(x) = T f*(x/T), shown for the Gaussian cumulant κ(t) = t(t+1)/(2σ²).

    Here t = α − 1 and κ(t) = t·ε(t + 1) with the Gaussian RDP curve ε(α) = α/(2σ²);
    T composed mechanisms (the sympy symbol ``k``) have the cumulant Tκ.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Source S4, Claim 23.

    Examples
    --------
    >>> derive_legendre_scaling()[-1][1]
    0
    """
    t, x = sp.symbols("lambda z", positive=True)  # the book's λ (argument of κ) and z (a privacy loss)
    kappa = t * (t + 1) / (2 * sigma**2)
    steps = [("Gaussian cumulant κ(λ) = λ·ε(λ+1)", kappa)]

    def legendre(f):
        tt = sp.solve(sp.Eq(sp.diff(x * t - f, t), 0), t)[0]
        return sp.simplify((x * t - f).subs(t, tt))

    ks = legendre(kappa)
    steps.append(("κ*(z) = sup_{λ ≥ 0} (zλ − κ(λ)), for z at least the mean of the loss", sp.factor(ks)))
    kks = legendre(k * kappa)
    steps.append(("(Tκ)*(z)", sp.factor(kks)))
    scaled = k * ks.subs(x, x / k)
    steps.append(("T κ*(z/T)", sp.factor(scaled)))
    steps.append(("exp(−(Tκ)*(ε)) = δ of T composed Gaussians", sp.simplify(sp.exp(-kks.subs(x, eps)))))
    steps.append(("(Tκ)∗(z) − Tκ∗(z/T)", sp.simplify(kks - scaled)))
    return steps


def derive_zcdp_conversion():
    r"""Source S2, S2-04: ρ-zCDP ⇒ (ρ + 2√(ρ log 1/δ), δ)-DP, and with ρ = Tε₀²/2 the advanced-composition form.

    T (the sympy symbol ``k``) counts the composed ε₀-DP mechanisms; ``L`` is log(1/δ).

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Source S2, S2-04; Bun & Steinke (2016), Prop. 1.3.

    Examples
    --------
    >>> derive_zcdp_conversion()[-1][1]
    0
    """
    a = sp.Symbol("alpha", positive=True)
    e_alpha = rho * a + L / (a - 1)
    steps = [("Mironov conversion of ρα at order α", e_alpha)]
    a_star = [r for r in sp.solve(sp.diff(e_alpha, a), a) if sp.simplify(r - 1).is_positive][0]
    steps.append(("optimal α", a_star))
    e_star = sp.simplify(e_alpha.subs(a, a_star))
    steps.append(("ε at the optimum", e_star))
    steps.append(("minus ρ + 2√(ρL_δ)", sp.simplify(e_star - (rho + 2 * sp.sqrt(rho * L)))))
    e0 = sp.Symbol("epsilon_0", positive=True)
    sub = sp.expand(e_star.subs(rho, k * e0**2 / 2))
    steps.append(("ρ = Tε₀²/2 (T-fold ε₀-DP)", sub))
    steps.append(("minus Tε₀²/2 + ε₀√(2TL_δ)", sp.simplify(sub - (k * e0**2 / 2 + e0 * sp.sqrt(2 * k * L)))))
    return steps


def derive_laplace_scales():
    r"""Source S3, S3-02: Laplace scales b for T queries, basic vs advanced composition.

    With ℒ = log(1/δ) (the sympy symbols ``k`` and ``L`` stand for T and ℒ) and
    b = 2√(2Tℒ)/ε each query is ε₀ = ε/(2√(2Tℒ))-DP and the composition is
    ε/2 + ε²/(16ℒ) ≤ ε iff ε ≤ 8ℒ; the tight ε₀ solves Tε₀²/2 + ε₀√(2Tℒ) = ε.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Source S3, S3-02.

    Examples
    --------
    >>> dict(derive_laplace_scales())["composition with that ε₀"]
    epsilon/2 + epsilon**2/(16*L_delta)
    """
    e0 = sp.Symbol("epsilon_0", positive=True)
    steps = [("basic: per-query ε/T, scale", k / eps)]
    seed_e0 = eps / (2 * sp.sqrt(2 * k * L))
    steps.append(("per-query ε₀ of the scale 2√(2TL_δ)/ε", seed_e0))
    total = sp.expand(k * seed_e0**2 / 2 + seed_e0 * sp.sqrt(2 * k * L))
    steps.append(("composition with that ε₀", total))
    steps.append(("within budget iff", sp.solve(total <= eps, eps)))
    tight = [r for r in sp.solve(sp.Eq(k * e0**2 / 2 + e0 * sp.sqrt(2 * k * L), eps), e0)
             if r.subs({k: 1, L: 1, eps: 1}).is_positive][0]
    steps.append(("tight ε₀ (root of Tε₀²/2 + ε₀√(2TL_δ) = ε)", sp.simplify(tight)))
    steps.append(("variance ratio basic/advanced (that scale)", sp.simplify((k / eps) ** 2 / (1 / seed_e0) ** 2)))
    return steps


def derive_gaussian_delta_prime():
    r"""Per-query Gaussian variance under advanced composition, for two choices of δ'.

    T Gaussian queries (the sympy symbol ``T``), budget (ε, δ) split as
    δ = Tδ₀ + δ', classical calibration σ² = 2 log(1.25/δ₀)/ε₀². The share ε₀
    within budget is the root of Tε₀²/2 + ε₀√(2T log(1/δ')) = ε; the first-order
    share ε/√(2T log(1/δ')) drops the Tε₀²/2 term and composes to
    ε + ε²/(4 log(1/δ')), over budget. With the first-order share the variance for
    δ' = δ₀ = δ/(T+1) is (4T/ε²) log((T+1)/δ) log(1.25(T+1)/δ); the lecture notes
    print it without the second logarithm.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Dwork, Rothblum & Vadhan (2010); Bun & Steinke (2016); the lecture notes on
    advanced composition, RDP and learning (claim S3-04).

    Examples
    --------
    >>> dict(derive_gaussian_delta_prime())["first-order share, δ' = δ/2"]
    4*T*log(2/delta)*log(5*T/(2*delta))/epsilon**2
    """
    dp = sp.Symbol("delta'", positive=True)
    s = sp.sqrt(2 * k * sp.log(1 / dp))
    d0 = (delta - dp) / k
    e0 = 2 * eps / (sp.sqrt(s**2 + 2 * k * eps) + s)
    assert sp.simplify(k * e0**2 / 2 + e0 * s - eps) == 0
    steps = [("per-query δ₀", d0), ("per-query ε₀ within budget (root of Tε₀²/2 + ε₀√(2T log(1/δ')) = ε)", e0)]
    steps.append(("σ²(δ') = 2 log(1.25/δ₀)/ε₀²", sp.simplify(2 * sp.log(sp.Rational(5, 4) / d0) / e0**2)))
    e_lin = eps / s
    over = sp.simplify(k * e_lin**2 / 2 + e_lin * s - eps)
    assert sp.simplify(over - eps**2 / (4 * sp.log(1 / dp))) == 0
    steps.append(("first-order share ε/√(2T log(1/δ')): its composition exceeds ε by", over))
    var = 4 * k / eps**2 * sp.log(1 / dp) * sp.log(5 * k / (4 * (delta - dp)))
    assert sp.simplify(var - 2 * sp.log(sp.Rational(5, 4) / d0) / e_lin**2) == 0
    steps.append(("first-order share: σ²(δ')", var))
    v_half = var.subs(dp, delta / 2)
    steps.append(("first-order share, δ' = δ/2", v_half))
    v_alt = 4 * k / eps**2 * sp.log((k + 1) / delta) * sp.log(5 * (k + 1) / (4 * delta))
    assert sp.simplify(var.subs(dp, delta / (k + 1)) - v_alt) == 0
    steps.append(("first-order share, δ' = δ₀ = δ/(T+1)", v_alt))
    printed = 4 * k / eps**2 * sp.log((k + 1) / delta)
    steps.append(("the variance without its calibration factor", printed))
    steps.append(("ratio actual / without the calibration factor", sp.simplify(v_alt / printed)))
    num = {k: 10, eps: 1, delta: sp.Rational(1, 10**5)}
    steps.append(("numeric T = 10, ε = 1, δ = 1e-5, first-order share: δ' = δ/(T+1)", sp.N(v_alt.subs(num))))
    steps.append(("numeric: without the calibration factor", sp.N(printed.subs(num))))
    return steps
