r"""Symbolic derivations for amplification by repeated noise addition (sympy).

Each function returns a list of (description, sympy expression) steps that the
book displays; the last step is the result, and the tests check it against an
independent route.

The docstrings follow the book's notation: m is the number of noise summands
(the sympy symbol ``n``) and b the Laplace scale (the sympy symbol ``lambda``);
the symbol names are kept because the displayed steps print them.
"""

import sympy as sp

from .._validation import check_count

__all__ = [
    "derive_uniform_schedule_optimal",
    "derive_gaussian_convolution_bound",
    "derive_laplace_bound_asymptotic",
    "derive_laplace_shift_convexity",
]


def derive_uniform_schedule_optimal(n_check=5):
    r"""Lagrange multipliers: the uniform shift schedule minimises the Gaussian bound.

    The telescoped bound with Gaussian noise is (α/(2σ²))·Σ_i d_i², to be
    minimised over d_i ≥ 0 with Σ_i d_i = 1 (m increments, one per noise summand):

    .. math:: \mathcal J = \sum_{i=1}^m d_i^2 - \omega\Big(\sum_{i=1}^m d_i - 1\Big),\quad
              \partial_{d_i}\mathcal J = 2d_i - \omega = 0 \Rightarrow d_i = \tfrac1m,
              \quad \min \sum d_i^2 = \tfrac1m,

    with ω the Lagrange multiplier (the displayed steps write the Lagrangian as
    L, the multiplier as λ and m as n: those are the sympy names).
    The objective is strictly convex (Hessian 2I), so the stationary point is
    the global minimum; the system is also solved in full for m = ``n_check``.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Source S1, proof of Theorem 1 (claim S1-03).

    Examples
    --------
    >>> derive_uniform_schedule_optimal()[-1][1]
    1/m
    """
    n_check = int(check_count(n_check, "n_check", maximum=50))
    n = sp.Symbol("m", positive=True, integer=True)
    lam = sp.Symbol("nu", real=True)  # the Lagrange multiplier
    i, j = sp.symbols("i j", integer=True, positive=True)
    d = sp.IndexedBase("d")
    lagrangian = sp.Sum(d[j] ** 2, (j, 1, n)) - lam * (sp.Sum(d[j], (j, 1, n)) - 1)
    grad = sp.piecewise_fold(sp.diff(lagrangian, d[i]).doit())  # Piecewise: 2d_i − ω for 1 ≤ i ≤ m (lam holds ω)
    if isinstance(grad, sp.Piecewise):
        grad = grad.args[0][0]
    stationarity = sp.Eq(grad, 0)
    d_i = sp.solve(stationarity, d[i])[0]  # ω/2, the same for every i
    lam_value = sp.solve(sp.Eq(n * d_i, 1), lam)[0]
    d_opt = sp.simplify(d_i.subs(lam, lam_value))
    minimum = sp.simplify(n * d_opt**2)
    # full check for a concrete m: solve the m + 1 stationarity equations
    ds = sp.symbols(f"d1:{n_check + 1}", real=True)
    lag_k = sum(x**2 for x in ds) - lam * (sum(ds) - 1)
    sol = sp.solve([sp.diff(lag_k, x) for x in ds] + [sum(ds) - 1], [*ds, lam], dict=True)[0]
    hessian = sp.ImmutableMatrix(sp.hessian(sum(x**2 for x in ds), ds))
    return [
        ("Lagrangian of min Σ d_i² subject to Σ d_i = 1", lagrangian),
        ("stationarity: the Lagrangian's derivative in d_i is 0", stationarity),
        ("so every d_i equals", d_i),
        ("the constraint m·d_i = 1 fixes the multiplier ν", lam_value),
        ("optimal increment d_i", d_opt),
        (f"check for m = {n_check}: solution of the full system", sp.ImmutableMatrix([sol[x] for x in ds])),
        (f"Hessian for m = {n_check} (positive definite: global minimum)", hessian),
        ("minimum of Σ d_i² (so the bound is α/(2σ²)·(1/m))", minimum),
    ]


def derive_gaussian_convolution_bound():
    r"""Source S1's Gaussian application: m·D_α(N(1/m, σ²)‖N(0, σ²)) = α/(2mσ²), tight.

    .. math:: m\cdot\frac{\alpha (1/m)^2}{2\sigma^2} = \frac{\alpha}{2m\sigma^2}
              = D_\alpha(\mathcal N(1, m\sigma^2)\,\|\,\mathcal N(0, m\sigma^2)).

    The right-hand side is derived from the densities (the Rényi integral of two
    Gaussians, computed by sympy), not quoted. The number of summands is m and
    the shift of one summand is a.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Source S1, Gaussian application (claim S1-04).

    Examples
    --------
    >>> steps = derive_gaussian_convolution_bound()
    >>> sp.simplify(steps[-1][1])
    0
    """
    alpha, sigma, n, x, mu, s = sp.symbols("alpha sigma m x a s", positive=True)
    per_summand = alpha * mu**2 / (2 * sigma**2)
    bound = sp.simplify(n * per_summand.subs(mu, 1 / n))
    # exact: D_α(N(1, s²)‖N(0, s²)) by integrating P(x)^α Q(x)^{1−α}
    log_integrand = -alpha * (x - 1) ** 2 / (2 * s**2) - (1 - alpha) * x**2 / (2 * s**2)
    integral = sp.integrate(sp.exp(sp.expand(log_integrand)) / (sp.sqrt(2 * sp.pi) * s), (x, -sp.oo, sp.oo),
                            conds="none")
    exact_general = sp.simplify(sp.log(sp.simplify(integral)) / (alpha - 1))
    exact = sp.simplify(exact_general.subs(s, sp.sqrt(n) * sigma))
    return [
        ("one summand with shift a (Mironov 2017)", per_summand),
        ("the bound m·D_α(P + 1/m ‖ P)", bound),
        ("∫ P(x)^α Q(x)^{1−α} dx for P = N(1, s²), Q = N(0, s²)", sp.simplify(integral)),
        ("D_α(N(1, s²) ‖ N(0, s²))", exact_general),
        ("P^{∗m} = N(0, mσ²): exact divergence of the sum", exact),
        ("bound − exact (tight)", sp.simplify(bound - exact)),
    ]


def derive_laplace_bound_asymptotic(order=3):
    r"""Source S1's Laplace application: m·D_α(Lap(b) + 1/m‖Lap(b)) ~ α/(2mb²).

    With h = 1/m, expand (1/h)·D_α(Lap(b) + h‖Lap(b)) in h:

    .. math:: \frac{1}{h(\alpha-1)}\log\Big(\frac{\alpha}{2\alpha-1}e^{(\alpha-1)h/b}
              + \frac{\alpha-1}{2\alpha-1}e^{-\alpha h/b}\Big)
              = \frac{\alpha h}{2b^2} + O(h^2).

    Since Var(Lap(b)^{∗m}) = 2mb², the leading term is α/Var, twice the
    Gaussian α/(2·Var). The exact Laplace-sum divergence tends to the Gaussian
    value (central limit theorem; see dpnotes.convolution.rdp_laplace_convolution),
    so the bound is loose by a factor tending to 2. The factor is the ratio of
    Fisher informations: Laplace has 1/b² = 2/Var(Lap), the Gaussian 1/Var.

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Source S1, Laplace application (claim S1-05); Mironov (2017), Table II.

    Examples
    --------
    >>> steps = derive_laplace_bound_asymptotic()
    >>> steps[2][1]  # α/(2mb²)
    alpha/(2*b**2*m)
    """
    order = int(check_count(order, "order", minimum=2, maximum=8))
    alpha, lam, h, n = sp.symbols("alpha b h m", positive=True)
    mixture = (alpha / (2 * alpha - 1) * sp.exp((alpha - 1) * h / lam)
               + (alpha - 1) / (2 * alpha - 1) * sp.exp(-alpha * h / lam))
    bound_h = sp.log(mixture) / ((alpha - 1) * h)
    series = sp.series(bound_h, h, 0, order).removeO()
    series = sp.expand(sp.simplify(series))
    leading = sp.simplify(sp.limit(bound_h / h, h, 0) * h).subs(h, 1 / n)
    variance = 2 * n * lam**2
    return [
        ("m·D_α(Lap(b) + 1/m ‖ Lap(b)) with h = 1/m", bound_h),
        (f"series in h to order {order}", series),
        ("leading term as m → ∞", leading),
        ("Var(Lap(b)^{∗m})", variance),
        ("leading term × Var (= α: the bound is α/Var)", sp.simplify(leading * variance)),
        ("Gaussian of the same variance: α/(2·Var)", alpha / (2 * variance)),
    ]


def derive_laplace_shift_convexity():
    r"""a ↦ D_α(Lap(1) + a‖Lap(1)) is convex, so the uniform schedule is optimal for Laplace too.

    With A = α/(2α − 1), B = (α − 1)/(2α − 1), g(a) = log(A e^{(α−1)a} + B e^{−αa})
    for a shift a ≥ 0 (the sympy symbol ``t``):

    .. math:: g''(a) = \frac{A B (2\alpha - 1)^2 e^{-a}}{(A e^{(\alpha-1)a} + B e^{-\alpha a})^2} \ge 0,

    and D_α = g/(α − 1), so Jensen gives Σ_{i=1}^m D_α(Lap + d_i) ≥ m·D_α(Lap + 1/m).

    Returns
    -------
    list of (str, sympy expression)

    References
    ----------
    Source S1, proof of Theorem 1 (claim S1-03).

    Examples
    --------
    >>> steps = derive_laplace_shift_convexity()
    >>> sp.simplify(steps[-1][1])
    0
    """
    alpha, t = sp.symbols("alpha t", positive=True)
    A = alpha / (2 * alpha - 1)
    B = (alpha - 1) / (2 * alpha - 1)
    mix = A * sp.exp((alpha - 1) * t) + B * sp.exp(-alpha * t)
    g = sp.log(mix)
    second = sp.simplify(sp.diff(g, t, 2))
    claimed = A * B * (2 * alpha - 1) ** 2 * sp.exp(-t) / mix**2
    return [
        ("(α − 1)·D_α(Lap(1) + t ‖ Lap(1))", g),
        ("second derivative in t", second),
        ("closed form, positive for α > 1", sp.simplify(claimed)),
        ("difference (zero)", sp.simplify(second - claimed)),
    ]
