r"""The correlation–variance dichotomy (fingerprinting lemma), computed exactly.

Let P ~ U[0, 1] and, given P, let X₁, …, Xₙ be i.i.d. Bernoulli(P). For every
f : {0, 1}ⁿ → [0, 1] (randomised f allowed)

.. math:: \underbrace{\mathbb E\Big[(f(X) - P)\sum_i (X_i - P)\Big]}_{\text{correlation}}
          + \underbrace{\mathbb E_P\big[(\mathbb E_X[f(X)] - P)^2\big]}_{\text{squared bias}} \ \ge\ \frac1{12}.

Either f correlates with the data (so the data can be traced from its
output), or it is far from P. Source S2 prints the second term as
"E_P[E_X[f(X) − X̄]²]"; read as the square of the inner expectation it is the
squared bias above (E_X[X̄ | P] = P), the sharp form: equality holds for f ≡ 1/2.
Steinke's form with the mean squared error E[(f(X) − P)²] ≥ squared bias is
weaker and also true; the literal reading E_P E_X[(f(X) − X̄)²] is true too, and
strictly above 1/12 for every finite n (:func:`fingerprinting_minimum`).
The source also writes f : {0,1}^d for f : {0,1}^n.

Everything is computed exactly for small n: given s = Σ Xᵢ, P has the Beta(s+1,
n−s+1) law and s is uniform on {0, …, n}, so every term is a finite sum of
Beta integrals (evaluated with mpmath); a Monte Carlo route with confidence
intervals is the independent check.
"""

import numpy as np
import mpmath as mp

from ._validation import check_choice, check_cost, check_count, check_int, check_positive, check_work, named_shapes

__all__ = [
    "estimator_moments",
    "fingerprinting_terms",
    "fingerprinting_monte_carlo",
    "fingerprinting_minimum",
]

ESTIMATORS = ("mean", "median", "half", "dp-mean")
FORMS = ("bias", "mse", "literal")


def _check_estimator(estimator):
    check_choice(estimator, "estimator", ESTIMATORS)


@named_shapes
def estimator_moments(n, estimator="mean", epsilon=1.0):
    r"""First and second moments of f(X) given s = Σ Xᵢ, for s = 0, …, n.

    mean: f = s/n; median: the median of the bits (1/2 at a tie); half: f ≡ 1/2;
    dp-mean: f = clip(s/n + Lap(b), 0, 1) with b = 1/(nε) (ε-DP), whose moments are

    .. math:: \mathbb E f = m + \tfrac b2\big(e^{-m/b} - e^{-(1-m)/b}\big),\qquad
              \mathbb E f^2 = m^2 + 2b^2 - b^2e^{-m/b} - (b + b^2)e^{-(1-m)/b},\quad m = s/n.

    Parameters
    ----------
    n : int, ≥ 1
    estimator : {"mean", "median", "half", "dp-mean"}
    epsilon : float, ε > 0 (dp-mean only)

    Returns
    -------
    m1, m2 : ndarray, shape (n + 1,) (indexed by s)

    Raises
    ------
    ValueError
        If n is not a positive integer, ε ≤ 0 or the estimator is unknown.

    References
    ----------
    Source S2, §7.1 (S2-10); the clipped Laplace moments are integrals of the Laplace tail.

    Examples
    --------
    >>> m1, m2 = estimator_moments(3, "median")
    >>> m1.tolist(), bool(np.all(m1 == m2))
    ([0.0, 0.0, 1.0, 1.0], True)
    """
    n = int(check_count(n, "n", maximum=_MAX_N))
    _check_estimator(estimator)
    check_positive(epsilon, "epsilon")
    k = np.arange(n + 1, dtype=float)
    m = k / n
    if estimator == "mean":
        return m, m**2
    if estimator == "median":
        f = np.where(2 * k > n, 1.0, np.where(2 * k == n, 0.5, 0.0))
        return f, f**2
    if estimator == "half":
        return np.full(n + 1, 0.5), np.full(n + 1, 0.25)
    b = 1.0 / (n * float(check_positive(epsilon, "epsilon")))
    lo, hi = np.exp(-m / b), np.exp(-(1.0 - m) / b)
    m1 = m + 0.5 * b * (lo - hi)
    m2 = m * m + 2 * b * b - b * b * lo - (b + b * b) * hi
    return m1, m2


_MAX_N_EXACT = 2000  # the exact terms are an O(n²) double sum of Beta functions
_MAX_N = 10**6  # the most records n of the moment computations (arrays of length n + 1)


@named_shapes
def fingerprinting_terms(n, estimator="mean", epsilon=1.0, dps=30):
    r"""The terms of the correlation–variance dichotomy, exactly (Beta integrals, mpmath).

    .. math::
        \mathrm{corr} = \frac{1}{n+1}\sum_{s=0}^n \Big(\bar f_s\,(s - n u_s) - (s u_s - n v_s)\Big),\quad
        \mathrm{mse} = \frac{1}{n+1}\sum_s \big(\overline{f^2}_s - 2\bar f_s u_s + v_s\big),

    .. math::
        \mathrm{bias}^2 = \int_0^1 (g(p) - p)^2\,dp,\quad g(p) = \sum_s \bar f_s\binom ns p^s(1-p)^{n-s},

    with s = Σ Xᵢ, f̄_s and \overline{f²}_s the moments of f(X) given s (:func:`estimator_moments`),
    u_s = E[P | s] = (s+1)/(n+2), v_s = E[P² | s] = (s+1)(s+2)/((n+2)(n+3)),
    ∫g² = Σ_{s,s'} f̄_s f̄_{s'} binom(n,s) binom(n,s') B(s+s'+1, 2n−s−s'+1) and
    ∫g(p)p dp = Σ_s f̄_s binom(n,s) B(s+2, n−s+1), B the Beta function;
    "literal" is E[(f(X) − X̄)²] (the source's second term read literally).

    Parameters
    ----------
    n : int, ≥ 1
    estimator : {"mean", "median", "half", "dp-mean"}
    epsilon : float, ε > 0 (dp-mean)
    dps : int, mpmath decimal digits

    Returns
    -------
    dict with float entries "correlation", "bias2", "mse", "literal",
    "lhs" (= correlation + bias2, the sharp form), "lhs_mse" (= correlation + mse)
    and "lhs_literal" (= correlation + literal)

    Raises
    ------
    ValueError
        As :func:`estimator_moments`.

    References
    ----------
    Source S2, §7.1, eq. (.9) (S2-10); Steinke and Ullman (2017), "Tight lower bounds
    for differentially private selection", the fingerprinting lemma; Bun, Steinke
    and Ullman (2017).

    Examples
    --------
    >>> t = fingerprinting_terms(4, "half")
    >>> abs(t["correlation"]) < 1e-25, round(t["lhs"], 12), round(1 / 12, 12)  # f ≡ 1/2: equality
    (True, 0.083333333333, 0.083333333333)
    >>> round(fingerprinting_terms(4, "mean")["correlation"], 12)  # E[P(1 − P)] = 1/6
    0.166666666667
    """
    n = int(check_count(n, "n", maximum=_MAX_N_EXACT))
    m1, m2 = estimator_moments(n, estimator, epsilon)
    if n > _MAX_N_EXACT:
        raise ValueError(f"n must be ≤ {_MAX_N_EXACT} for the exact terms (an O(n²) sum of Beta integrals; got n = {n}); "
                         f"use fingerprinting_monte_carlo")
    dps = int(check_count(dps, "dps", minimum=15))
    if dps > 1000:
        raise ValueError(f"dps must be in [15, 1000] (got {dps})")
    # (n + 1)² Beta functions in mpmath: about 0.3 ms each at up to 50 digits on a busy 2-core machine
    check_cost(f"fingerprinting_terms(n = {n}, dps = {dps}) ({(n + 1) ** 2} Beta integrals in mpmath)",
               "use a smaller n (about 180 at most) or fingerprinting_monte_carlo",
               seconds=3e-4 * (n + 1) ** 2 * max(1.0, dps / 50.0))
    ctx = mp.MPContext()  # a private context: the process-wide mpmath precision is never touched
    ctx.dps = dps
    f1 = [ctx.mpf(float(v)) for v in m1]
    f2 = [ctx.mpf(float(v)) for v in m2]
    w = ctx.mpf(1) / (n + 1)
    corr = mse = lit = ctx.mpf(0)
    for k in range(n + 1):
        a = ctx.mpf(k + 1) / (n + 2)
        b = ctx.mpf((k + 1) * (k + 2)) / ((n + 2) * (n + 3))
        corr += w * (f1[k] * (k - n * a) - (k * a - n * b))
        mse += w * (f2[k] - 2 * f1[k] * a + b)
        xbar = ctx.mpf(k) / n
        lit += w * (f2[k] - 2 * f1[k] * xbar + xbar**2)
    c = [ctx.binomial(n, k) for k in range(n + 1)]
    gg = ctx.fsum(f1[k] * f1[l] * c[k] * c[l] * ctx.beta(k + l + 1, 2 * n - k - l + 1)
                  for k in range(n + 1) for l in range(n + 1))
    gp = ctx.fsum(f1[k] * c[k] * ctx.beta(k + 2, n - k + 1) for k in range(n + 1))
    bias2 = max(gg - 2 * gp + ctx.mpf(1) / 3, ctx.mpf(0))  # an integral of a square (rounding only)
    out = dict(correlation=corr, bias2=bias2, mse=mse, literal=lit,
               lhs=corr + bias2, lhs_mse=corr + mse, lhs_literal=corr + lit)
    return {key: float(v) + 0.0 for key, v in out.items()}


@named_shapes
def fingerprinting_monte_carlo(n, estimator="mean", epsilon=1.0, samples=200_000, seed=0):
    r"""Monte Carlo estimates of the dichotomy's terms with 95% confidence half-widths.

    Draws P ~ U[0,1], s = Σ Xᵢ ~ Bin(n, P) and f (with its Laplace noise for dp-mean), and
    averages (f − P)(s − nP) and (f − P)²; the squared bias averages
    (g(P) − P)² over P with g(P) = E[f | P] summed exactly over s.

    .. math:: \widehat{\mathrm{corr}} = \frac1N\sum_{j=1}^N (f_j - P_j)(s_j - nP_j) \pm 1.96\,\widehat{\mathrm{sd}}/\sqrt N

    Parameters
    ----------
    n : int, ≥ 1
    estimator : {"mean", "median", "half", "dp-mean"}
    epsilon : float, ε > 0 (dp-mean)
    samples : int, the number N ≥ 2 of draws
    seed : int

    Returns
    -------
    dict: "correlation", "bias2", "mse", "lhs" → (estimate, half-width)

    Raises
    ------
    ValueError
        As :func:`estimator_moments`, or samples < 2.

    References
    ----------
    Source S2, §7.1 (S2-10).

    Examples
    --------
    >>> est, hw = fingerprinting_monte_carlo(5, "half", samples=20000)["lhs"]
    >>> abs(est - 1 / 12) < 3 * hw
    True
    """
    from scipy.stats import binom

    n = int(check_count(n, "n", maximum=_MAX_N))
    s = int(check_count(samples, "samples", minimum=2))
    check_work(float(n + 1) * s, 1e9, f"n = {n} with samples = {s}", "use fewer samples or a smaller n")
    # the binomial pmf table E[f(K) | p] (samples × (n + 1) entries, in row blocks of 2²¹ entries): about 200 ns an
    # entry (measured under load); a few arrays of the samples and the pmf block's temporaries
    check_cost(f"fingerprinting_monte_carlo(n = {n}, samples = {s})", "use fewer samples or a smaller n",
               seconds=2e-7 * (n + 1) * s, nbytes=8.0 * 8 * s + 8.0 * 8 * 2**21)
    _check_estimator(estimator)
    rng = np.random.default_rng(check_int(seed, "seed", maximum=2**63 - 1))
    p = rng.random(s)
    k = rng.binomial(n, p)
    m1, _ = estimator_moments(n, estimator, epsilon)
    if estimator == "dp-mean":
        b = 1.0 / (n * float(epsilon))
        f = np.clip(k / n + rng.laplace(0.0, b, s), 0.0, 1.0)
    else:
        f = m1[k]
    corr = (f - p) * (k - n * p)
    sq = (f - p) ** 2
    g = np.empty(s)
    rows = max(1, 2**21 // (n + 1))  # E[f(K) | p] row block by row block: the pmf table stays below ~2·10⁶ entries
    for i in range(0, s, rows):
        g[i:i + rows] = binom.pmf(np.arange(n + 1)[None, :], n, p[i:i + rows, None]) @ m1
    bias = (g - p) ** 2

    def est(v):
        return float(v.mean()), float(1.96 * v.std(ddof=1) / np.sqrt(s))

    return dict(correlation=est(corr), bias2=est(bias), mse=est(sq), lhs=est(corr + bias))


@named_shapes
def fingerprinting_minimum(n, form="bias"):
    r"""The smallest left-hand side over all deterministic f : {0,1}ⁿ → [0, 1].

    .. math:: \min_f\ \mathrm{corr}(f) + \mathrm{term}(f),\qquad \mathrm{term} \in \{\mathrm{bias}^2,\ \mathrm{mse},\ \mathrm{literal}\}.

    The objective is convex and permutation invariant, so a minimiser depends on
    s = Σ Xᵢ only; f(s) is found by bounded quasi-Newton (``bias``) or in closed
    form pointwise (``mse``, ``literal``: a clipped quadratic minimiser for each s).
    The result is 1/12 for ``bias`` and ``mse`` (attained at f ≡ 1/2) and
    strictly larger for ``literal``.

    Parameters
    ----------
    n : int, ≥ 1
    form : {"bias", "mse", "literal"}

    Returns
    -------
    value : float
    f : ndarray, shape (n + 1,) (a minimiser, as a function of s = 0, …, n)

    Raises
    ------
    ValueError
        If the form is unknown.

    References
    ----------
    Source S2, eq. (.9) (S2-10), and the three readings of its second term.

    Examples
    --------
    >>> round(fingerprinting_minimum(6, "mse")[0], 10), round(1 / 12, 10)
    (0.0833333333, 0.0833333333)
    """
    from scipy import optimize
    from scipy.special import betaln, gammaln

    n = int(check_count(n, "n", maximum=_MAX_N))
    check_choice(form, "form", FORMS)
    k = np.arange(n + 1, dtype=float)
    w = 1.0 / (n + 1)
    a = (k + 1) / (n + 2)
    b = (k + 1) * (k + 2) / ((n + 2) * (n + 3))
    const = -w * np.sum(k * a - n * b)
    lin = w * (k - n * a)  # corr = lin·f + const
    if form == "mse":
        f = np.clip(a - lin / (2 * w), 0.0, 1.0)
        val = const + np.sum(lin * f) + w * np.sum(f * f - 2 * f * a + b)
        return float(val), f
    if form == "literal":
        xbar = k / n
        f = np.clip(xbar - lin / (2 * w), 0.0, 1.0)
        val = const + np.sum(lin * f) + w * np.sum((f - xbar) ** 2)
        return float(val), f
    logc = gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)
    kk, ll = np.meshgrid(k, k, indexing="ij")
    gram = np.exp(logc[:, None] + logc[None, :] + betaln(kk + ll + 1, 2 * n - kk - ll + 1))
    gp = np.exp(logc + betaln(k + 2, n - k + 1))

    def obj(f):
        return (const + lin @ f + f @ gram @ f - 2 * gp @ f + 1.0 / 3.0,
                lin + 2 * gram @ f - 2 * gp)

    res = optimize.minimize(obj, k / n, jac=True, method="L-BFGS-B", bounds=[(0.0, 1.0)] * (n + 1),
                            options=dict(ftol=1e-15, gtol=1e-12, maxiter=10000))
    return float(res.fun), res.x
