r"""Symbolic derivations (sympy) for composition and conversion, as displayable steps.

Each function returns a list of ``(description, sympy expression)``, written in the
book's notation (α the Rényi order, T the number of composed mechanisms, and
log(1/δ) kept as one positive symbol, :data:`L`). Where a source document states
something else, the last entries are a numeric check of that version.

Used in: book/02-composition, book/03-conversion
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

eps, sigma, alpha, T = sp.symbols("epsilon sigma alpha T", positive=True)
L = sp.Symbol(r"\log(1/\delta)", positive=True)  # log(1/δ), one symbol, shown as such
delta = sp.Symbol("delta", positive=True)
rho = sp.Symbol("rho", positive=True)


def derive_gaussian_optimal_order():
    r"""The optimal order α* = ½ + εσ² of the one-order bound for the Gaussian, and δ ≤ exp(−(εσ − 1/(2σ))²/2).

    The exponent (α − 1)(α/(2σ²) − ε) of the one-order bound (S4-04) is minimised
    over α by sympy. The blog post "Great but Manageable Expectations" (Example 2,
    S4-05) prints the optimum as (1 + 2ε/σ²)/2, which is wrong; the last steps
    evaluate both at ε = 1, σ = 2: α* = 9/2 gives the exponent −49/32, while the
    misprinted order 3/4 is not an admissible order (α > 1) and its exponent
    +29/128 would bound δ by a number larger than 1.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Mironov (2017); the blog post's Example 2 and Claim 21 (S4-05, S4-04).

    Examples
    --------
    >>> steps = derive_gaussian_optimal_order()
    >>> dict(steps)["optimal order α*"]
    epsilon*sigma**2 + 1/2
    """
    exponent = (alpha - 1) * (alpha / (2 * sigma**2) - eps)
    steps = [("log of the δ bound at order α: (α − 1)(ε(α) − ε) with ε(α) = α/(2σ²)", exponent)]
    d = sp.diff(exponent, alpha)
    steps.append(("derivative in α", sp.simplify(d)))
    alpha_star = sp.solve(sp.Eq(d, 0), alpha)[0]
    steps.append(("optimal order α*", alpha_star))
    val = sp.factor(sp.simplify(exponent.subs(alpha, alpha_star)))
    steps.append(("minimum exponent", val))
    target = -(eps * sigma - 1 / (2 * sigma)) ** 2 / 2
    steps.append(("equals −(εσ − 1/(2σ))²/2 (difference)", sp.simplify(val - target)))
    steps.append(("admissible (α* > 1) iff", sp.simplify(sp.solve(alpha_star > 1, eps))))
    misprint = (1 + 2 * eps / sigma**2) / 2
    steps.append(("the misprinted order (1 + 2ε/σ²)/2", misprint))
    num = {eps: 1, sigma: 2}
    steps.append(("α* at ε = 1, σ = 2", alpha_star.subs(num)))
    steps.append(("the misprinted order at ε = 1, σ = 2 (< 1: not an order)", misprint.subs(num)))
    steps.append(("exponent at α*, ε = 1, σ = 2", sp.nsimplify(exponent.subs(alpha, alpha_star).subs(num))))
    steps.append(("exponent at the misprinted order, ε = 1, σ = 2",
                  sp.nsimplify(exponent.subs(alpha, misprint).subs(num))))
    return steps


def derive_composed_gaussian_sigma():
    r"""The σ that makes T composed Gaussian mechanisms (ε, δ)-DP by the one-order bound.

    With s = σ/√T, δ = exp(−(εs − 1/(2s))²/2) is at most δ iff εs − 1/(2s) ≥ √(2L),
    L = log(1/δ), i.e. s ≥ (√(2L) + √(2L + 2ε))/(2ε). The sufficient condition
    s > √(2L)/ε + (2ε)^{−1/2} stated in the blog post "Great but Manageable
    Expectations" (Example 3, S4-08) is valid (it is larger, by √(a+b) ≤ √a + √b),
    slightly loose.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Mironov (2017); the blog post's Example 3 and Claim 23 (S4-08, S4-07).

    Examples
    --------
    >>> steps = derive_composed_gaussian_sigma()
    >>> steps[-1][1]
    True
    """
    s = sp.Symbol("s", positive=True)
    cond = eps * s - 1 / (2 * s) - sp.sqrt(2 * L)
    steps = [("exp(−(εs − 1/(2s))²/2) ≤ δ  iff  εs − 1/(2s) − √(2 log(1/δ)) ≥ 0,  with s = σ/√T", cond)]
    roots = [r for r in sp.solve(sp.Eq(cond, 0), s) if r.subs({eps: 1, L: 1}).is_positive]
    exact = sp.simplify(roots[0])
    steps.append(("exact threshold s*", exact))
    steps.append(("exact threshold for σ", sp.sqrt(T) * exact))
    stated = sp.sqrt(2 * L) / eps + 1 / sp.sqrt(2 * eps)
    steps.append(("sufficient s of the stated condition", stated))
    gap = sp.simplify(stated - exact)
    steps.append(("stated − exact", gap))
    # √(2L + 2ε) ≤ √(2L) + √(2ε): stated − exact = (√(2L) + √(2ε) − √(2L+2ε))/(2ε) ≥ 0
    a_, b_ = sp.symbols("a b", nonnegative=True)
    steps.append(("(√a + √b)² − (a + b) = 2√(ab) ≥ 0", sp.expand((sp.sqrt(a_) + sp.sqrt(b_)) ** 2 - (a_ + b_))))
    check = sp.N(gap.subs({eps: sp.Rational(1, 2), L: sp.log(10**5)}))
    steps.append(("numeric: gap at ε = ½, δ = 1e-5", check))
    steps.append(("the stated condition is sufficient (gap ≥ 0)", bool(check >= 0)))
    return steps


def derive_legendre_scaling():
    r"""(Tf)∗(x) = T f∗(x/T), shown for the Gaussian cumulant κ(t) = t(t+1)/(2σ²).

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    The blog post "Great but Manageable Expectations", Claim 23 (S4-07).

    Examples
    --------
    >>> derive_legendre_scaling()[-1][1]
    0
    """
    t, x = sp.symbols("t x", positive=True)
    kappa = t * (t + 1) / (2 * sigma**2)
    steps = [("Gaussian cumulant κ(t) = t ε(t + 1) with ε(α) = α/(2σ²)", kappa)]

    def legendre(f):
        tt = sp.solve(sp.Eq(sp.diff(x * t - f, t), 0), t)[0]
        return sp.simplify((x * t - f).subs(t, tt))

    ks = legendre(kappa)
    steps.append(("κ∗(x) = sup_t (xt − κ(t))", sp.factor(ks)))
    kks = legendre(T * kappa)
    steps.append(("(Tκ)∗(x)", sp.factor(kks)))
    scaled = T * ks.subs(x, x / T)
    steps.append(("T κ∗(x/T)", sp.factor(scaled)))
    steps.append(("exp(−(Tκ)∗(ε)): the δ of T composed Gaussian mechanisms", sp.simplify(sp.exp(-kks.subs(x, eps)))))
    steps.append(("(Tκ)∗(x) − Tκ∗(x/T)", sp.simplify(kks - scaled)))
    return steps


def derive_zcdp_conversion():
    r"""ρ-zCDP ⇒ (ρ + 2√(ρ log 1/δ), δ)-DP, and with ρ = Tε₀²/2 the advanced-composition form.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Bun & Steinke (2016), Prop. 1.3; the notes "Privacy" (S2-04).

    Examples
    --------
    >>> derive_zcdp_conversion()[-1][1]
    0
    """
    e_alpha = rho * alpha + L / (alpha - 1)
    steps = [("Mironov's conversion of the RDP curve ρα at order α", e_alpha)]
    a_star = [r for r in sp.solve(sp.diff(e_alpha, alpha), alpha) if sp.simplify(r - 1).is_positive][0]
    steps.append(("optimal α", a_star))
    e_star = sp.simplify(e_alpha.subs(alpha, a_star))
    steps.append(("ε at the optimum", e_star))
    steps.append(("minus ρ + 2√(ρ log(1/δ))", sp.simplify(e_star - (rho + 2 * sp.sqrt(rho * L)))))
    e0 = sp.Symbol("epsilon_0", positive=True)
    sub = sp.expand(e_star.subs(rho, T * e0**2 / 2))
    steps.append(("ρ = Tε₀²/2 (T-fold ε₀-DP)", sub))
    steps.append(("minus Tε₀²/2 + ε₀√(2T log(1/δ))", sp.simplify(sub - (T * e0**2 / 2 + e0 * sp.sqrt(2 * T * L)))))
    return steps


def derive_laplace_scales():
    r"""Laplace scales for T queries of sensitivity 1: basic vs advanced composition.

    With b = 2√(2TL)/ε (L = log(1/δ)) each query is ε₀ = ε/(2√(2TL))-DP and the
    composition is ε/2 + ε²/(16L) ≤ ε iff ε ≤ 8L; the tight ε₀ solves
    Tε₀²/2 + ε₀√(2TL) = ε.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    The lecture notes on advanced composition, RDP and learning (S3-02).

    Examples
    --------
    >>> dict(derive_laplace_scales())["composition with this ε₀"]
    epsilon/2 + epsilon**2/(16*\log(1/\delta))
    """
    e0 = sp.Symbol("epsilon_0", positive=True)
    steps = [("basic: per-query ε/T, scale", T / eps)]
    rule_e0 = eps / (2 * sp.sqrt(2 * T * L))
    steps.append(("per-query ε₀ of the scale b = 2√(2T log(1/δ))/ε", rule_e0))
    total = sp.expand(T * rule_e0**2 / 2 + rule_e0 * sp.sqrt(2 * T * L))
    steps.append(("composition with this ε₀", total))
    steps.append(("within budget iff", sp.solve(total <= eps, eps)))
    tight = [r for r in sp.solve(sp.Eq(T * e0**2 / 2 + e0 * sp.sqrt(2 * T * L), eps), e0)
             if r.subs({T: 1, L: 1, eps: 1}).is_positive][0]
    steps.append(("tight ε₀ (root of Tε₀²/2 + ε₀√(2T log(1/δ)) = ε)", sp.simplify(tight)))
    steps.append(("variance ratio basic / advanced (scale b = 2√(2T log(1/δ))/ε)",
                  sp.simplify((T / eps) ** 2 / (1 / rule_e0) ** 2)))
    return steps


def derive_gaussian_delta_prime():
    r"""Per-query Gaussian variance for two choices of δ' under advanced composition.

    Linear rule ε₀ = ε/√(2T log(1/δ')), δ₀ = (δ − δ')/T, classical calibration
    σ² = 2 log(1.25/δ₀)/ε₀². The lecture notes on advanced composition, RDP and
    learning (S3-04) give the variance for δ' = δ₀ = δ/(T+1) as
    "(4T/ε²) log((T+1)/δ)", which misses the calibration factor log(1.25(T+1)/δ).

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Dwork & Roth (2014), Theorem A.1 (the calibration); the lecture notes (S3-04).

    Examples
    --------
    >>> dict(derive_gaussian_delta_prime())["δ' = δ/2"]
    4*T*log(2/delta)*log(5*T/(2*delta))/epsilon**2
    """
    dp = sp.Symbol("delta'", positive=True)
    e0 = eps / sp.sqrt(2 * T * sp.log(1 / dp))
    d0 = (delta - dp) / T
    steps = [("per-query ε₀", e0), ("per-query δ₀", d0)]
    var = 4 * T / eps**2 * sp.log(1 / dp) * sp.log(5 * T / (4 * (delta - dp)))
    assert sp.simplify(var - 2 * sp.log(sp.Rational(5, 4) / d0) / e0**2) == 0
    steps.append(("σ²(δ') = 2 log(1.25/δ₀)/ε₀²", var))
    v_half = var.subs(dp, delta / 2)
    steps.append(("δ' = δ/2", v_half))
    v_alt = 4 * T / eps**2 * sp.log((T + 1) / delta) * sp.log(5 * (T + 1) / (4 * delta))
    assert sp.simplify(var.subs(dp, delta / (T + 1)) - v_alt) == 0
    steps.append(("δ' = δ₀ = δ/(T+1)", v_alt))
    short = 4 * T / eps**2 * sp.log((T + 1) / delta)
    steps.append(("without the calibration factor: (4T/ε²) log((T+1)/δ)", short))
    steps.append(("ratio: the calibration factor", sp.simplify(v_alt / short)))
    num = {T: 10, eps: 1, delta: sp.Rational(1, 10**5)}
    steps.append(("numeric T = 10, ε = 1, δ = 1e-5: δ' = δ/2", sp.N(v_half.subs(num))))
    steps.append(("numeric: δ' = δ/(T+1)", sp.N(v_alt.subs(num))))
    steps.append(("numeric: without the calibration factor", sp.N(short.subs(num))))
    return steps
