r"""Noise with a density: source S1's Theorem 1 bound and the exact divergence of Laplace sums.

:func:`rdp_convolution_bound` is the shift-reduction bound m·D_α(P + 1/m ‖ P)
for Gaussian and Laplace noise. For Laplace noise the exact divergence is
computed from the closed-form density of the sum (:func:`laplace_sum_logpdf`)
by composite Gauss–Legendre quadrature (:func:`rdp_laplace_convolution`,
cached per order, number of summands and shift in
:func:`_laplace_convolution_unit`), and :func:`laplace_convolution_table`
compares the two.

Also here, because the discrete stage (:mod:`dpnotes.convolution.discrete`)
uses them: the noise names (:func:`check_noise`) and the Rényi divergence
from sampled log-ratios (:func:`renyi_divergence_from_nodes`, in the excess form
:func:`_excess` when the log-ratios are small, else in log space).
"""

from functools import lru_cache

import numpy as np
from scipy.special import gammaln, logsumexp

from .._validation import (
    check_choice,
    check_cost,
    check_count,
    check_interval,
    check_order,
    check_positive,
    check_real,
    named_shapes,
    scalar_or_array,
)
from ..rdp import rdp_gaussian, rdp_laplace


_NOISES = ("gaussian", "laplace")


_MAX_SUMMANDS = 10**5  # the most Laplace summands n
_MAX_ORDER = 1e6  # the largest finite order of the Laplace-sum quadrature
_SCALE_RANGE = (1e-3, 1e3)  # the Laplace scales b (shift 1/b) the quadrature is checked for


def _check_quadrature_order(alpha, name):
    """Finite orders up to 10⁶ (the quadrature's window grows like α); α = ∞ has its closed form."""
    if np.any(np.isfinite(alpha) & (alpha > _MAX_ORDER)):
        raise ValueError(f"{name} must be ≤ {_MAX_ORDER:g} or ∞ (got {np.max(alpha[np.isfinite(alpha)]):g})")


def check_noise(noise):
    """``noise`` if it names a supported noise law ("gaussian" or "laplace"); ValueError naming it otherwise."""
    return check_choice(noise, "noise", _NOISES)


@named_shapes
def rdp_convolution_bound(alpha, n, noise="gaussian", scale=1.0):
    r"""Source S1's Theorem 1 bound on D_α(P^{∗m} + 1 ‖ P^{∗m}): m·D_α(P + 1/m ‖ P).

    .. math:: D_\alpha(P^{*m}+1\,\|\,P^{*m}) \le m\,D_\alpha(P + \tfrac1m \,\|\, P)
              = \begin{cases} \dfrac{\alpha}{2m\sigma^2} & P = \mathcal N(0,\sigma^2),\\[1ex]
              \dfrac{m}{\alpha-1}\log\Big(\dfrac{\alpha}{2\alpha-1}e^{\frac{\alpha-1}{mb}}
              + \dfrac{\alpha-1}{2\alpha-1}e^{-\frac{\alpha}{mb}}\Big) & P = \mathrm{Lap}(b).
              \end{cases}

    For the Gaussian the bound is tight (P^{∗m} = N(0, mσ²)); for the Laplace
    it behaves like α/(2mb²) as m → ∞ while the exact value behaves like
    α/(4mb²) (see :func:`rdp_laplace_convolution`), so it is loose by a factor
    tending to 2.

    Parameters
    ----------
    alpha : float or array, α ∈ [1, ∞]
    n : int or array, the number m = n ≥ 1 of noise summands
    noise : {"gaussian", "laplace"}
    scale : float or array, σ (Gaussian standard deviation) or b (Laplace scale), > 0

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If α < 1, n (= m) is not a positive integer, scale ≤ 0 or noise is unknown.

    References
    ----------
    Source S1, Theorem 1 and its two applications (claims S1-01, S1-04, S1-05);
    Feldman, Mironov, Talwar, Thakurta (2018), Lemma 20 (shift reduction).

    Examples
    --------
    >>> round(rdp_convolution_bound(2.0, 4, "gaussian", 1.0), 12)  # α/(2mσ²)
    0.25
    >>> round(rdp_convolution_bound(2.0, 1, "laplace", 1.0), 10)  # m = 1: log(⅔e + ⅓e^{−2})
    0.61912363
    """
    check_noise(noise)
    alpha = check_order(alpha, allow_one=True, allow_inf=True)
    n = check_count(n, "n")
    scale = check_positive(scale, "scale")
    if noise == "gaussian":
        out = n * rdp_gaussian(alpha, scale, 1.0 / n)
    else:
        out = n * rdp_laplace(alpha, scale, 1.0 / n)
    return scalar_or_array(out)


# ---------------------------------------------------------------- Laplace sums


@lru_cache(maxsize=256)
def _laplace_sum_log_weights(n):
    """log c_m, m = 0..n−1, for f_n(x) = e^{−|x|} Σ_m c_m |x|^m / m! (n summands, unit scale)."""
    m = np.arange(n, dtype=float)
    # c_m = binom(2n−2−m, n−1) · 2^{−(2n−1−m)}
    log_binom = gammaln(2 * n - 1 - m) - gammaln(n) - gammaln(n - m)
    out = log_binom - (2 * n - 1 - m) * np.log(2.0) - gammaln(m + 1.0)
    out.flags.writeable = False  # cached: shared by every caller
    return out


def _laplace_sum_logpdf_unit(x, n):
    """log density of the sum of n i.i.d. Laplace(1) variables (x: ndarray, n: int)."""
    x = np.abs(np.asarray(x, dtype=float))
    logc = _laplace_sum_log_weights(int(n))
    m = np.arange(int(n), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        logx = np.log(x)[..., None]
        powers = np.where(m == 0, 0.0, m * logx)  # 0·log 0 = 0 at x = 0
    return logsumexp(logc + powers, axis=-1) - x


@named_shapes
def laplace_sum_logpdf(x, n, scale=1.0):
    r"""Log density of the sum of m i.i.d. Laplace(b) variables.

    The sum equals b(G₁ − G₂) with G₁, G₂ i.i.d. Gamma(m, 1); integrating the
    gamma densities and expanding (|x| + y)^{m−1} by the binomial theorem gives a
    finite mixture of two-sided gamma densities with positive weights:

    .. math:: f_m(x) = \frac{e^{-|x|/b}}{b}\sum_{j=0}^{m-1} c_j\,\frac{(|x|/b)^j}{j!},
              \qquad c_j = \binom{2m-2-j}{m-1}\,2^{-(2m-1-j)}.

    (Equivalently the variance-gamma / Bessel form
    |u|^{m−½}K_{m−½}(|u|)/(√π Γ(m) 2^{m−½} b) with u = x/b and K_{m−½} the
    modified Bessel function of the second kind; the tests use it as
    the independent route.) All terms are positive, so the log-sum-exp is
    accurate to a few ulps in the far tails too.

    Parameters
    ----------
    x : float or array
    n : int, the number m = n ≥ 1 of summands
    scale : float, b > 0

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If n (= m) is not a positive integer or b ≤ 0.

    References
    ----------
    Source S1 (Laplace noise, claim S1-05); Kotz, Kozubowski, Podgórski (2001),
    *The Laplace Distribution and Generalizations*, §4.1 (sums of Laplace variables).

    Examples
    --------
    >>> round(float(np.exp(laplace_sum_logpdf(0.0, 2))), 12)  # m = 2: (1 + |x|)e^{−|x|}/4 at 0
    0.25
    >>> round(float(np.exp(laplace_sum_logpdf(1.0, 1, scale=2.0))), 12)  # e^{−1/2}/4
    0.151632664928
    """
    n = int(check_count(n, "n", maximum=_MAX_SUMMANDS))
    b = float(check_interval(scale, "scale", *_SCALE_RANGE))
    x = check_real(x, "x")
    with np.errstate(invalid="ignore"):
        out = _laplace_sum_logpdf_unit(x / b, n) - np.log(b)
    return scalar_or_array(np.where(np.isinf(x), -np.inf, out))  # the density vanishes at ±∞


# Regime switch: (α − 1)·max|L| (L: the log-ratios log(P/Q) at the nodes) below
# this uses the excess form (no cancellation as α → 1 or for tiny shifts); above
# it, the log-space sum.
_EXCESS_LIMIT = 1.0


def _excess(L, alpha):
    r"""G(L) = (e^{αL} − 1 − α(e^L − 1))/(α − 1) ≥ 0, its α → 1 limit L e^L − e^L + 1.

    With L = log(P/Q) the log-ratio of two densities, Σ Q·G(L) =
    (∫ Q (P/Q)^α − 1)/(α − 1) since ∫ Q (P/Q − 1) = 0; every term is ≥ 0.
    """
    L = np.asarray(L, dtype=float)
    aL = alpha * np.abs(L)
    out = np.empty_like(L)
    small = aL < 0.1
    # series: Σ_{k≥2} α (α^{k−1} − 1)/(α − 1) · L^k / k!
    Ls = L[small]
    acc = np.zeros_like(Ls)
    la = np.log(alpha)
    for k in range(13, 1, -1):
        coef = alpha * (np.expm1((k - 1) * la) / (alpha - 1.0) if alpha > 1.0 else (k - 1.0))
        acc = (acc + coef / np.exp(gammaln(k + 1.0))) * Ls
    out[small] = acc * Ls
    Lb = L[~small]
    if alpha > 1.0:
        out[~small] = (np.expm1(alpha * Lb) - alpha * np.expm1(Lb)) / (alpha - 1.0)
    else:
        out[~small] = Lb * np.exp(Lb) - np.expm1(Lb)
    return np.maximum(out, 0.0)


def renyi_divergence_from_nodes(logq, L, alpha):
    r"""D_α(P‖Q) from quadrature or summation nodes x.

    .. math:: D_\alpha(P\|Q) = \frac{1}{\alpha - 1}\log\sum_x w_x Q(x)\, e^{\alpha L(x)},\qquad
              L = \log\frac{P}{Q},

    with ``logq`` = log(w_x Q(x)) and ``L`` = L(x) at the nodes. When (α − 1)·max|L| is small
    it is log1p((α − 1) S)/(α − 1) with S = Σ w Q G(L) ≥ 0 (:func:`_excess`, no cancellation
    near α = 1); otherwise the log-space sum. α = 1 gives the KL divergence, α = ∞ the largest
    L where Q > 0.
    """
    if np.isinf(alpha):
        return float(np.max(L[np.isfinite(logq)]))
    big = float(np.max(np.abs(L)))
    if (alpha - 1.0) * big <= _EXCESS_LIMIT and alpha * big < 700.0 and (alpha > 1.0 or big <= _EXCESS_LIMIT):
        s = float(np.sum(np.exp(logq) * _excess(L, alpha)))
        return s if alpha == 1.0 else float(np.log1p((alpha - 1.0) * s) / (alpha - 1.0))
    if alpha == 1.0:  # KL = Σ P·L with P = Q·e^L; no cancellation once the log-ratios are large
        return float(np.sum(np.exp(logq + L) * L))
    return float(logsumexp(logq + alpha * L) / (alpha - 1.0))


_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(40)


def _composite_nodes(edges):
    a, b = edges[:-1, None], edges[1:, None]
    half = 0.5 * (b - a)
    x = (a + b) / 2 + half * _GL_NODES
    w = half * _GL_WEIGHTS
    return x.ravel(), w.ravel()


@lru_cache(maxsize=4096)
def _laplace_convolution_unit(alpha, n, s):
    """D_α(Lap(1)^{∗n} + s ‖ Lap(1)^{∗n}) for the sum of n unit-scale Laplace noises (cached)."""
    if np.isinf(alpha):
        return s  # |log-ratio| ≤ s (convolution keeps the Laplace log-Lipschitz bound), attained as x → ∞
    excess = (alpha - 1.0) * s <= _EXCESS_LIMIT

    def log_integrand(x):
        lq = _laplace_sum_logpdf_unit(x, n)
        L = _laplace_sum_logpdf_unit(x - s, n) - lq
        if excess:
            with np.errstate(divide="ignore"):
                return lq + np.log(_excess(L, alpha))
        return lq + alpha * L

    # find where the integrand lives: widen the window until its edges are negligible
    R = 40.0 + 4.0 * np.sqrt(n) + alpha * s
    for _ in range(20):
        grid = np.linspace(-R, R + s, 4001)
        v = log_integrand(grid)
        top = float(np.max(v))
        live = np.nonzero(v > top - 75.0)[0]
        if live[0] > 0 and live[-1] < grid.size - 1:
            break
        R *= 2.0
    lo, hi = grid[max(live[0] - 1, 0)], grid[min(live[-1] + 1, grid.size - 1)]
    # split at the kinks 0 and s and at the peak, with pieces shrinking
    # geometrically towards them: for large α the integrand is e^{α·(…)} and
    # varies on a scale 1/α next to a kink
    centres = [p for p in (0.0, s, float(grid[int(np.argmax(v))])) if lo < p < hi]
    steps = (hi - lo) * 2.0 ** -np.arange(1, 40)
    near = np.concatenate([c + sign * steps for c in centres for sign in (-1.0, 1.0)])
    near = near[(near > lo) & (near < hi)]
    edges = np.unique(np.concatenate([np.linspace(lo, hi, 97), centres, near]))
    x, w = _composite_nodes(edges)
    lq = _laplace_sum_logpdf_unit(x, n)
    L = _laplace_sum_logpdf_unit(x - s, n) - lq
    return renyi_divergence_from_nodes(lq + np.log(w), L, alpha)


@named_shapes
def rdp_laplace_convolution(alpha, n, scale=1.0):
    r"""Exact Rényi divergence of the sum of m Laplace(b) noises shifted by 1.

    .. math:: D_\alpha(\mathrm{Lap}(b)^{*m} + 1 \,\|\, \mathrm{Lap}(b)^{*m})
              = \frac{1}{\alpha-1}\log\int f_m(x-1)^\alpha f_m(x)^{1-\alpha}\,dx,

    with f_m from :func:`laplace_sum_logpdf`, integrated by composite 40-point
    Gauss–Legendre quadrature on the range where the integrand lives (split at
    the kinks 0 and 1). For small (α − 1)/b the integral is evaluated in the
    excess form ∫ Q ((P/Q)^α − 1 − α(P/Q − 1)) ≥ 0 (P, Q the densities of the
    shifted and unshifted sum), which has no cancellation as
    α → 1; otherwise in log space. Relative accuracy is about 1e-12 for m ≤ 100,
    α ∈ (1, 64] (checked in the tests against mpmath and an independent
    convolution). Results are cached. At m = 1 this is Mironov's formula
    (:func:`dpnotes.rdp.rdp_laplace`); α = 1 gives the KL divergence; α = ∞
    gives 1/b (no amplification of pure DP).

    As m → ∞ the sum is close to N(0, 2mb²), so the value behaves like
    α/(4mb²): half of the source's bound α/(2mb²). The bound is not tight.

    Parameters
    ----------
    alpha : float or array, α ∈ [1, ∞]
    n : int or array, the number m = n ≥ 1 of summands
    scale : float or array, b > 0

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If α < 1, n (= m) is not a positive integer or b ≤ 0.

    References
    ----------
    Source S1, open question after the Laplace application (claim S1-05).

    Examples
    --------
    >>> round(rdp_laplace_convolution(2.0, 1), 10)  # = rdp_laplace(2, 1) = log(⅔e + ⅓e^{−2})
    0.61912363
    >>> round(rdp_laplace_convolution(2.0, 50) / rdp_convolution_bound(2.0, 50, "laplace"), 3)
    0.504
    """
    alpha = check_order(alpha, allow_one=True, allow_inf=True)
    _check_quadrature_order(alpha, "alpha")
    n = check_count(n, "n", maximum=_MAX_SUMMANDS)
    b = check_interval(scale, "scale", *_SCALE_RANGE)
    # each (α, n) evaluates the n-fold Laplace log-density on up to about 2·10⁴ points (window search and
    # quadrature nodes) with n terms each: a few arrays of 2·10⁴ × n doubles, about 20 ns an entry
    top, count = float(np.max(n)), float(np.broadcast(alpha, n, b).size)
    check_cost(f"rdp_laplace_convolution with n up to {top:g} ({count:g} evaluations)", "use fewer summands n",
               seconds=2e-8 * 2e4 * top * count, nbytes=8.0 * 4 * 2e4 * top)
    fn = np.vectorize(
        lambda a, k, bb: _laplace_convolution_unit(float(a), int(k), float(1.0 / bb)), otypes=[float]
    )
    return scalar_or_array(fn(alpha, n, b))


@named_shapes
def laplace_convolution_table(ns=(1, 2, 5, 10, 20, 50, 100), alphas=(2.0, 8.0, 32.0), scale=1.0):
    r"""Table answering source S1's question: exact Laplace-sum RDP against the bound.

    For each (m, α): the exact D_α(Lap(b)^{∗m} + 1 ‖ Lap(b)^{∗m}), the
    Theorem 1 bound m·D_α(Lap(b) + 1/m ‖ Lap(b)), their ratio bound/exact, and
    the Gaussian of the same variance 2mb², whose divergence is
    α/(2·2mb²) = α/(4mb²).

    Parameters
    ----------
    ns : sequence of int ≥ 1, the numbers m of summands
    alphas : sequence of float, α ∈ (1, ∞)
    scale : float, b > 0

    Returns
    -------
    dict of 1-D ndarrays
        Columns ``n`` (the number m of summands), ``alpha``, ``exact``, ``bound``,
        ``ratio`` (bound/exact) and ``gaussian_same_variance``; one row per
        (m, α), m varying slowest.
        ``pandas.DataFrame(table)`` turns it into a frame.

    References
    ----------
    Source S1 (claim S1-05).

    Examples
    --------
    >>> t = laplace_convolution_table(ns=(1, 100), alphas=(2.0,))
    >>> [round(float(r), 3) for r in t["ratio"]]  # tight at m = 1, loose by ≈ 2 at m = 100
    [1.0, 1.993]
    """
    ns = check_count(ns, "ns", maximum=_MAX_SUMMANDS)
    alphas = check_order(alphas, "alphas")
    _check_quadrature_order(alphas, "alphas")
    b = float(check_positive(scale, "scale"))
    nn, aa = (g.ravel() for g in np.meshgrid(ns, alphas, indexing="ij"))
    exact = np.atleast_1d(rdp_laplace_convolution(aa, nn, b))
    bound = np.atleast_1d(rdp_convolution_bound(aa, nn, "laplace", b))
    return {
        "n": nn.astype(int),
        "alpha": aa,
        "exact": exact,
        "bound": bound,
        "ratio": bound / exact,
        "gaussian_same_variance": aa / (4.0 * nn * b**2),
    }
