"""The Gaussian Rényi divergence derived from its integral, step by step.
"""

import sympy as sp

__all__ = ["derive_rdp_gaussian"]


def derive_rdp_gaussian():
    r"""Steps deriving D_α(N(Δ, σ²) ‖ N(0, σ²)) = αΔ²/(2σ²) with sympy.

    Returns a list of ``(description, sympy expression)``; the last expression is
    the result. The integral is evaluated by sympy itself (not typed in).

    References
    ----------
    Source S4, Example 1; source S2, RDP property 4; Mironov (2017), Prop. 7.

    Examples
    --------
    >>> steps = derive_rdp_gaussian()
    >>> steps[-1][1]
    a**2*alpha/(2*sigma**2)
    """
    x = sp.Symbol("y", real=True)  # an output (the book's y)
    alpha = sp.Symbol("alpha", positive=True)
    sigma = sp.Symbol("sigma", positive=True)
    delta = sp.Symbol("a", positive=True)  # the shift of the mean

    def density(mean):
        return sp.exp(-((x - mean) ** 2) / (2 * sigma**2)) / sp.sqrt(2 * sp.pi * sigma**2)

    p, q = density(delta), density(0)
    steps = [("densities P = N(a, σ²), Q = N(0, σ²)", sp.Eq(sp.Symbol("P(y)"), p))]
    # p^α q^{1−α} = exp(α log p + (1−α) log q): combine exponents explicitly
    exponent = sp.expand(alpha * sp.log(p * sp.sqrt(2 * sp.pi * sigma**2)).expand(force=True)
                         + (1 - alpha) * sp.log(q * sp.sqrt(2 * sp.pi * sigma**2)).expand(force=True))
    steps.append(("exponent of P(y)^α Q(y)^{1−α} (times √(2πσ²))", sp.simplify(exponent)))
    completed = sp.simplify(-(x - alpha * delta) ** 2 / (2 * sigma**2) + alpha * (alpha - 1) * delta**2 / (2 * sigma**2))
    assert sp.simplify(completed - exponent) == 0
    steps.append(("complete the square: a Gaussian centred at αa", completed))
    integral = sp.simplify(sp.integrate(sp.exp(exponent) / sp.sqrt(2 * sp.pi * sigma**2), (x, -sp.oo, sp.oo)))
    steps.append(("integrate over y: ∫ P(y)^α Q(y)^{1−α} dy", integral))
    result = sp.simplify(sp.expand_log(sp.log(integral), force=True) / (alpha - 1))
    steps.append(("D_α = log(∫ P(y)^α Q(y)^{1−α} dy) / (α − 1)", result))
    return steps
