r"""Claim 26 and Conjecture 1 of source S4: the constant K(c₁, c₂), the source's sum, a counterexample.

:func:`claim26_constant_bracket` certifies a bracket of
K(c₁, c₂) = sup_σ A_{c₂σ²}(c₁/σ, σ) by bisecting σ-cells in order of a
monotonicity bound (:func:`_claim26_bracket`), with the moments computed by
one trapezoidal sum (:func:`_log_moment_trapezoid`) or by
:func:`dpnotes.subsampling.moments.log_a_sampled_gaussian` (:func:`_claim26_log_moments`,
assumed error :data:`_LOG_A_RTOL`, :data:`_LOG_A_ATOL`);
:func:`claim26_constant` is its upper end. :func:`claim26_seed_sum` is the sum
in the source's proof (which tends to exp(c₁²c₂/2), not 0), and
:func:`conjecture1_counterexample` shows that mixtures need not preserve the
order of Rényi divergences.
"""

import functools
from fractions import Fraction

import numpy as np
from scipy.special import gammaln, logsumexp, xlogy

from .._validation import AccuracyWarning, check_cost, check_count, check_interval, check_positive, named_shapes
from ..privacy_loss.mixture import mixture_privacy_loss
from .moments import log_a_sampled_gaussian


_MAX_SEED_SUM = 10**7  # the most terms of claim26_seed_sum


# ----------------------------------------------------------------------------
# Claim 26: the constant K(c1, c2)
# ----------------------------------------------------------------------------

def _log_moment_trapezoid(alpha, q, sigma, h=0.02):
    """log A_α(q, σ) for arrays (α/σ ≤ 2000, q < 1) by one trapezoidal sum over y = x/σ.

    A_α = E_Y[(1 + q(e^u − 1))^α], u = (2σY − 1)/(2σ²), Y ∼ N(0, 1), with
    log(1 + q(e^u − 1)) from :func:`~dpnotes.privacy_loss.mixture.mixture_privacy_loss`. The log
    integrand −y²/2 + α log(1 + q(e^u − 1)) is analytic, concave near its peak
    (which lies in [0, α/σ]) with curvature of order one, so the sum on
    [−12, α/σ + 12] with spacing h = 0.02 agrees with :func:`log_a_sampled_gaussian` to ~1e-12
    (the tests check it). Rows are summed in chunks of bounded memory.
    """
    out = np.empty_like(alpha)
    order = np.argsort(alpha / sigma)
    start = 0
    while start < order.size:
        n_nodes = int(np.ceil((float(alpha[order[start]] / sigma[order[start]]) + 24.0) / h)) + 1
        stop = start + 1
        while stop < order.size and stop - start < 64:
            need = int(np.ceil((float(alpha[order[stop]] / sigma[order[stop]]) + 24.0) / h)) + 1
            if need * (stop - start + 1) > 4_000_000:
                break
            n_nodes, stop = need, stop + 1
        rows = order[start:stop]
        y = -12.0 + h * np.arange(n_nodes)
        sg, qq, al = sigma[rows, None], q[rows, None], alpha[rows, None]
        u = (2.0 * sg * y[None, :] - 1.0) / (2.0 * sg**2)  # the Gaussian pair's loss at x = σy
        log_ratio = mixture_privacy_loss(u, qq)
        out[rows] = logsumexp(-0.5 * y[None, :] ** 2 + al * log_ratio, axis=1) + np.log(h) - 0.5 * np.log(2.0 * np.pi)
        start = stop
    return out


#: the work of one bracket, in trapezoid nodes (each a mixture log-ratio: 40–60 ns measured on this 2-core machine
#: under a load of 12): about 10 s; a deterministic count, so the result does not depend on the machine's speed
_SECONDS_PER_NODE = 5e-8
_MAX_NODES = 2e8


def _claim26_work(alpha, sigma):
    """Trapezoid nodes of :func:`_claim26_log_moments` at these points ((α/σ + 24)/h each; a point past the
    trapezoid's range goes to :func:`log_a_sampled_gaussian`, counted as 10⁵ nodes, its measured cost)."""
    ratio = np.asarray(alpha, float) / np.asarray(sigma, float)
    return float(np.sum(np.where(ratio <= 2000.0, (ratio + 24.0) / 0.02, 1e5)))


def _claim26_log_moments(alpha, q, sigma):
    """log A_α(q, σ) of the sampled Gaussian for arrays; the plain Gaussian's α(α − 1)/(2σ²) once q ≥ 1."""
    alpha, q, sigma = (np.asarray(v, dtype=float) for v in (alpha, q, sigma))
    out = np.empty_like(alpha)
    plain = q >= 1.0
    out[plain] = alpha[plain] * (alpha[plain] - 1.0) / (2.0 * sigma[plain] ** 2)
    fast = ~plain & (alpha / sigma <= 2000.0)
    if np.any(fast):
        out[fast] = _log_moment_trapezoid(alpha[fast], q[fast], sigma[fast])
    for i in np.flatnonzero(~plain & ~fast):
        out[i] = log_a_sampled_gaussian(alpha[i:i + 1], float(q[i]), float(sigma[i]))[0]
    return out


# assumed error of the computed log A_α (relative, plus an absolute floor for log A near 0):
# the trapezoidal sum and log_a_sampled_gaussian agree with 30-digit mpmath to ~1e-12 (see the tests)
_LOG_A_RTOL, _LOG_A_ATOL = 1e-10, 1e-12


@named_shapes
def claim26_constant_bracket(c1, c2, *, rtol=1e-4, sigma_max=1e3, max_cells=20000, max_work=2e8):
    r"""A certified bracket [lower, upper] of K(c₁, c₂) = sup_σ G(σ), and the maximiser.

    .. math:: G(\sigma) = A_{c_2\sigma^2}\big(c_1/\sigma,\ \sigma\big),\qquad
              K(c_1, c_2) = \sup_{\sigma_0 \le \sigma \le \sigma_{\max}} G(\sigma),\quad
              \sigma_0 = \max\big(1, c_1, \sqrt{1.01/c_2}\big),

    where A_α(q, σ) = E_{P₀}[(P/P₀)^α] is the moment of the sampled Gaussian
    (P = qN(1, σ²) + (1 − q)N(0, σ²), P₀ = N(0, σ²)), i.e. exp((α − 1)ε(α)).

    **Certificate.** A_α(q, σ) is non-decreasing in α ≥ 1 (log A_α is convex in
    α and vanishes at α = 0 and 1), non-decreasing in q ∈ [0, 1] (A is convex
    in q with zero slope at q = 0) and non-increasing in σ (adding independent
    noise to both laws is post-processing). Hence on a cell σ ∈ [a, b]

    .. math:: G(\sigma) \le A_{c_2 b^2}\big(\min(1, c_1/a),\ a\big),

    and every evaluated G(σ) is a lower bound. Cells are bisected (geometrically)
    in order of their upper bound until upper ≤ (1 + rtol)·lower. The upper end
    is padded by the assumed error of log A (1e-10 relative). If ``max_cells``
    or the work limit ``max_work`` (2·10⁸ quadrature nodes, about 10 s; a count, so the result
    does not depend on the machine) is reached first, the bracket returned is
    still valid, only wider, and an ``AccuracyWarning`` (a ``RuntimeWarning``)
    says so. A ``sigma_max`` whose first 129 evaluations alone exceed the
    limit is refused before any work, with its estimate.

    **Beyond σ_max.** As σ → ∞, log G(σ) = c₁²c₂²/2 + c₁³c₂³/(2σ) + O(σ⁻²)
    (expand log(1 + q(e^u − 1)) with u = Y/σ − 1/(2σ²), Y ∼ N(0, 1)): G tends to
    e^{c₁²c₂²/2} from above and decreases, so for σ > σ_max it stays below
    G(σ_max) ≤ K. This tail argument is asymptotic, not certified; the tests
    check it at 10σ_max and 100σ_max against mpmath. G is not monotone on
    [σ₀, σ_max]: for (c₁, c₂) = (1, 2) it peaks at 34.18 near σ = 3.08, far above
    its limit e² = 7.39.

    Parameters
    ----------
    c1, c2 : float, c₁ ∈ (0, 10], c₂ ∈ (0, 10]
    rtol : float, in [1e-10, 0.1], the relative width asked for
    sigma_max : float, in [10σ₀, 1e6]
    max_cells : int, in [16, 10⁵], a bound on the work (cells evaluated)
    max_work : float, in [10⁶, 2·10⁸], the most quadrature nodes evaluated (2·10⁸: about 10 s)

    Returns
    -------
    (lower, upper, sigma) : floats
        lower ≤ K(c₁, c₂) ≤ upper, and the σ where the lower bound is attained.

    Raises
    ------
    ValueError
        If a parameter is outside its range.

    References
    ----------
    Abadi et al. (2016), "Deep learning with differential privacy" (Lemma 3);
    Mironov, Talwar & Zhang (2019), "Rényi differential privacy of the sampled
    Gaussian mechanism"; van Erven & Harremoës (2014) (monotonicity and data
    processing); the blog post "Great but Manageable Expectations", Claim 26
    and its "further questions" (S4-13).

    Examples
    --------
    >>> lo, hi, s = claim26_constant_bracket(1.0, 2.0)
    >>> round(lo, 2), round(s, 1), hi / lo - 1 <= 1e-4
    (34.18, 3.1, True)
    """
    import warnings

    c1 = float(check_interval(c1, "c1", 0.0, 10.0, closed_low=False))
    c2 = float(check_interval(c2, "c2", 1e-3, 10.0))  # below 10⁻³ the cells start beyond σ = 30
    rtol = float(check_interval(rtol, "rtol", 1e-10, 0.1))
    s0 = max(1.0, c1, float(np.sqrt(1.01 / c2)))
    sigma_max = float(check_interval(sigma_max, "sigma_max", 10.0 * s0, 1e6))
    max_cells = int(check_interval(max_cells, "max_cells", 16, 1e5))
    max_work = float(check_interval(max_work, "max_work", 1e6, _MAX_NODES))
    lower, upper, at, width = _claim26_bracket(c1, c2, rtol, sigma_max, max_cells, max_work)
    if width > rtol:
        warnings.warn(f"claim26_constant_bracket: max_cells = {max_cells} or max_work = {max_work:.0e} quadrature "
                      f"nodes (about {max_work * _SECONDS_PER_NODE:.0f} s) reached; the bracket is "
                      f"{width:.2e} wide (asked {rtol:.1e})", AccuracyWarning, stacklevel=2)
    return lower, upper, at


@functools.lru_cache(maxsize=256)
def _claim26_bracket(c1, c2, rtol, sigma_max, max_cells, max_work=_MAX_NODES):
    """The bisection of :func:`claim26_constant_bracket` (cached: it returns floats only)."""
    import heapq

    s0 = max(1.0, c1, float(np.sqrt(1.01 / c2)))
    def log_g(sig):
        return _claim26_log_moments(c2 * sig * sig, c1 / sig, sig)

    def log_upper(lo, hi):
        v = _claim26_log_moments(c2 * hi * hi, np.minimum(1.0, c1 / lo), lo)
        return v + _LOG_A_RTOL * np.abs(v) + _LOG_A_ATOL

    edges = np.geomspace(s0, sigma_max, 65)
    work = _claim26_work(c2 * edges**2, edges) + _claim26_work(c2 * edges[1:] ** 2, edges[:-1])
    check_cost(f"claim26_constant_bracket(c1 = {c1:g}, c2 = {c2:g}, sigma_max = {sigma_max:g})",
               "use a smaller sigma_max or c2", seconds=work * _SECONDS_PER_NODE)
    if work > max_work:
        raise ValueError(f"claim26_constant_bracket(c1 = {c1:g}, c2 = {c2:g}, sigma_max = {sigma_max:g}) needs about "
                         f"{work:.3g} quadrature nodes before any refinement (max_work = {max_work:.3g}); use a larger "
                         f"max_work or a smaller sigma_max")
    values = log_g(edges)
    best, best_s = float(values.max()), float(edges[int(values.argmax())])
    uppers = log_upper(edges[:-1], edges[1:])
    heap = [(-float(u), float(a), float(b)) for u, a, b in zip(uppers, edges[:-1], edges[1:])]
    heapq.heapify(heap)
    cells = len(edges)
    target = float(np.log1p(rtol))
    while -heap[0][0] > best + target and cells < max_cells:
        batch = []  # split up to 32 of the cells whose upper bound is above the target, at once
        while heap and -heap[0][0] > best + target and len(batch) < 32:
            batch.append(heapq.heappop(heap))
        lo = np.array([c[1] for c in batch])
        hi = np.array([c[2] for c in batch])
        mid = np.sqrt(lo * hi)
        more = _claim26_work(c2 * mid**2, mid) + _claim26_work(c2 * np.concatenate([mid, hi]) ** 2,
                                                                np.concatenate([lo, mid]))
        if work + more > max_work:  # the work limit: stop here, the bracket stays valid (a warning says so)
            for c in batch:
                heapq.heappush(heap, c)
            break
        work += more
        values = log_g(mid)
        if values.max() > best:
            best, best_s = float(values.max()), float(mid[int(values.argmax())])
        ups = log_upper(np.concatenate([lo, mid]), np.concatenate([mid, hi]))
        for u, a, b in zip(ups, np.concatenate([lo, mid]), np.concatenate([mid, hi])):
            heapq.heappush(heap, (-float(u), float(a), float(b)))
        cells += len(batch)
        if not heap:
            break
    upper = max(-heap[0][0] if heap else best, best)
    return float(np.exp(best)), float(np.exp(upper)), best_s, float(np.expm1(upper - best))


@named_shapes
def claim26_constant(c1, c2, *, rtol=1e-4, sigma_max=1e3, max_work=2e8):
    r"""The constant K(c₁, c₂) of Claim 26, as a certified upper bound of the supremum.

    .. math:: K(c_1, c_2) = \sup_{\sigma \ge \sigma_0} A_{c_2\sigma^2}\big(c_1/\sigma,\ \sigma\big),
              \quad \sigma_0 = \max\big(1, c_1, \sqrt{1.01/c_2}\big),

    with A_α(q, σ) = exp((α − 1)ε(α)) the moment of the sampled Gaussian. What
    the claim gives: the sampled Gaussian with rate q ≤ c₁/σ is
    (α, log K/(α − 1))-RDP at every order 1 < α ≤ c₂σ² (A_α grows with α and q).
    At the boundary q = c₁/σ, α = c₂σ² that is about
    (log K/(c₁²c₂²))·q²α/σ², the claimed O(q²α/σ²); at interior points K alone
    does not give that order (c₁ = c₂ = 1, σ = 10, q = 0.1, α = 2: log K = 0.587
    against q²α/σ² = 2·10⁻⁴).

    Returns the upper end of :func:`claim26_constant_bracket`: a value ≥ the
    supremum over [σ₀, σ_max], within a relative ``rtol`` of it (see there for the
    certificate and for σ > σ_max). K is not the limit e^{c₁²c₂²/2} of the moment
    as σ → ∞; it can be much larger (K(1, 2) = 34.18 against e² = 7.39).

    Parameters
    ----------
    c1, c2 : float, in (0, 10]
    rtol : float, in [1e-10, 0.1]
    sigma_max : float, in [10σ₀, 1e6]
    max_work : float, in [10⁶, 2·10⁸], as in :func:`claim26_constant_bracket`

    Returns
    -------
    float
        K(c₁, c₂) (≥ 1).

    Raises
    ------
    ValueError
        If a parameter is outside its range.

    References
    ----------
    Abadi et al. (2016), "Deep learning with differential privacy";
    Mironov, Talwar & Zhang (2019), "Rényi differential privacy of the sampled
    Gaussian mechanism"; the blog post "Great but Manageable Expectations",
    Claim 26 (S4-13).

    Examples
    --------
    >>> K = claim26_constant(0.5, 0.5)
    >>> float(np.exp(0.5**4 / 2)) < K < 1.04  # above its σ → ∞ limit exp(c₁²c₂²/2)
    True
    """
    return claim26_constant_bracket(c1, c2, rtol=rtol, sigma_max=sigma_max, max_work=max_work)[1]


@named_shapes
def claim26_seed_sum(c1, c2, n):
    r"""The sum in the source's proof of Claim 26 (Part 2), for integer n = ⌈σ²⌉.

    .. math:: S_n(c_1, c_2) = \sum_{j=0}^{n}\binom{n}{j}\Big(\frac{c_1}{\sqrt n}\Big)^j
              \Big(1-\frac{c_1}{\sqrt n}\Big)^{n-j} e^{c_2 j(j-1)/(2n)}

    Computed in log space.  S_n ≥ 1 for every n (it is E[e^{c₂J(J−1)/(2n)}] for a
    binomial J), so the source's conclusion lim S_n = 0 is false; in fact
    S_n → exp(c₁²c₂/2) (J/√n → c₁).  Here n is the source's number of binomial
    trials, not a number of records.

    Parameters
    ----------
    c1, c2 : float, c₁ > 0, c₂ > 0
    n : int, n > c₁² (so that c₁/√n < 1)

    Raises
    ------
    ValueError
        If c₁ ≤ 0, c₂ ≤ 0 or n ≤ c₁².

    References
    ----------
    Source S4, proof of Claim 26 (S4-13).

    Examples
    --------
    >>> s = claim26_seed_sum(1.0, 1.0, 10_000)
    >>> 1.0 < s < float(np.exp(0.5)) * 1.02
    True
    """
    c1 = float(check_positive(c1, "c1"))
    c2 = float(check_positive(c2, "c2"))
    n = int(check_count(n, "n", maximum=_MAX_SEED_SUM))
    if not n > c1 * c1:
        raise ValueError(f"n must be > c1² = {c1 * c1:g} (so that q = c1/√n < 1; got n = {n}, c1 = {c1:g})")
    r = c1 / np.sqrt(n)
    j = np.arange(n + 1, dtype=float)
    terms = (gammaln(n + 1.0) - gammaln(j + 1.0) - gammaln(n - j + 1.0)
             + xlogy(j, r) + (n - j) * np.log1p(-r) + c2 * j * (j - 1.0) / (2.0 * n))  # 0·log 0 = 0 (r may underflow)
    return float(np.exp(logsumexp(terms)))


# ----------------------------------------------------------------------------
# Conjecture 1: a counterexample
# ----------------------------------------------------------------------------

@named_shapes
def conjecture1_counterexample():
    r"""A counterexample to the source's Conjecture 1 (mixtures preserve divergence order).

    The conjecture: if D_α(P_i‖Q_i) ≤ D_α(P'_i‖Q'_i) for every i, then the
    same holds for the mixtures Σ w_i P_i, Σ w_i Q_i against Σ w_i P'_i, Σ w_i Q'_i.
    On two points, with the randomized-response laws Ber(p) = (p, 1 − p):

    .. math:: P_1=P_2=\mathrm{Ber}(\tfrac23),\ Q_1=Q_2=\mathrm{Ber}(\tfrac13);\qquad
              P'_1=\mathrm{Ber}(\tfrac34),\ Q'_1=\mathrm{Ber}(\tfrac14);\quad
              P'_2=\mathrm{Ber}(\tfrac14),\ Q'_2=\mathrm{Ber}(\tfrac34).

    For every α > 1, D_α(P_i‖Q_i) = D_α(Ber(⅔)‖Ber(⅓)) < D_α(Ber(¾)‖Ber(¼)) = D_α(P'_i‖Q'_i)
    (randomized response is symmetric and its divergence grows with the bias),
    yet the averages (w_i = ½) give D_α(Ber(⅔)‖Ber(⅓)) > 0 = D_α(½(P'_1+P'_2) ‖ ½(Q'_1+Q'_2)):
    swapping the roles in the second pair makes the two primed mixtures identical.
    At α = 2: log(3/2) > 0 while log(7/3) ≥ log(3/2) pairwise.

    What does hold for the sampled Gaussian is proved directly, not via
    Conjecture 1: for Poisson sampling the output laws on neighbouring
    datasets are N(m, σ²I) and (1 − q)N(m, σ²I) + qN(m + v, σ²I), ‖v‖ ≤ 1, and
    by translation/rotation invariance their divergence is that of the 1-D
    pair with mean shift ‖v‖ — increasing in ‖v‖ (equivalently decreasing in
    σ, which the tests check), so the worst case is ‖v‖ = 1: Part 1 of Claim
    26 (Mironov, Talwar & Zhang 2019, §3).

    Returns
    -------
    dict
        ``pairs``: [(P₁, Q₁, P'₁, Q'₁), (P₂, Q₂, P'₂, Q'₂)], each law a tuple of
        :class:`fractions.Fraction`; ``lam``: 2, the order α (the example works
        for every α > 1).

    References
    ----------
    Source S4, Conjecture 1 (S4-12); Mironov, Talwar & Zhang (2019).

    Examples
    --------
    >>> ex = conjecture1_counterexample()
    >>> (p1, q1, m1, n1), (p2, q2, m2, n2) = ex["pairs"]
    >>> [(a + b) / 2 for a, b in zip(m1, m2)] == [(a + b) / 2 for a, b in zip(n1, n2)]
    True
    """
    F = Fraction
    P, Q = (F(2, 3), F(1, 3)), (F(1, 3), F(2, 3))
    M, N = (F(3, 4), F(1, 4)), (F(1, 4), F(3, 4))
    return {"pairs": [(P, Q, M, N), (P, Q, N, M)], "lam": 2}
