r"""Seed 004's further questions, answered numerically: is any noise better than the Gaussian?

Among noise laws P of **equal variance** v, which has the smallest RDP curve
α ↦ D_α(P + 1 ‖ P) for a unit shift (sensitivity one)? Candidates, each scaled
to variance v: the Gaussian, Laplace, logistic and hyperbolic-secant laws,
Student's t with ν = 3 and ν = 5 degrees of freedom (heavier tails, still a
variance), and the half–half mixture of the Gaussian and the Laplace law.

What the numbers say (see the tests and book/10-lower-bounds-and-open-questions):

* at small orders the Gaussian is best *among these laws*: its KL divergence
  1/(2v) is the smallest of the candidates. Over all laws of variance v that is
  true only in the limit of small shifts, KL(P + Δ‖P) = Δ²I(P)/2 + o(Δ²) ≥
  Δ²/(2v) (Cramér–Rao: Fisher information I(P) ≥ 1/v, equality only for the
  Gaussian); for a unit shift a lattice law smoothed by a little Gaussian noise
  beats it (:func:`kl_smoothed_lattice_shift`);
* its curve α/(2v) grows without bound, whereas every law whose log-density
  has a bounded slope (Laplace, logistic, sech, Student t, the mixture) has a
  finite max divergence D_∞ — so each of them beats the Gaussian from some
  order on (:func:`crossover_order`);
* among the candidates the Laplace law has the smallest D_∞ = √(2/v); at
  very large orders it is the best of all.

Used in: book/10-lower-bounds-and-open-questions
"""

import functools

import numpy as np
from scipy import optimize, special

from ._validation import (
    check_array,
    check_choice,
    check_order,
    check_positive,
    check_real,
    named_shapes,
    scalar_or_array,
)
from .divergence import LogDensity, renyi_divergence
from .rdp import rdp_laplace

__all__ = [
    "NOISE_LAWS",
    "noise_logpdf",
    "shift_rdp",
    "shift_rdp_grid",
    "max_divergence",
    "crossover_order",
    "best_noise_law",
    "epsilon_after_composition",
    "claim26_table",
    "smoothed_lattice_variance",
    "kl_smoothed_lattice_shift",
]

NOISE_LAWS = ("gaussian", "laplace", "logistic", "sech", "student-t3", "student-t5", "mixture")
_LOG2 = float(np.log(2.0))

#: D_α depends on the shift only through t = Δ/√v; quadrature is trusted for t in this range
_T_SMALL, _T_LARGE = 1e-5, 1e4


def _relative_shift(law, variance, shift, *, quadrature=True):
    """t = Δ/√v, refused (naming both parameters) where it overflows, or, for a law computed by
    quadrature, above the range where quadrature is trusted."""
    v = float(check_positive(variance, "variance"))
    d = float(check_positive(shift, "shift"))
    with np.errstate(over="ignore"):
        t = d / np.sqrt(v)
    closed = law in ("gaussian", "laplace") or not quadrature and law in ("logistic", "sech")
    limit = np.finfo(float).max if closed else _T_LARGE
    if not t <= limit:
        raise ValueError(f"shift/√variance must be ≤ {limit:g} for the {law} law (got shift = {d:g}, variance = "
                         f"{v:g}){'' if closed else '; the Gaussian and Laplace laws have closed forms beyond'}")
    return float(t)


@functools.lru_cache(maxsize=None)
def _max_score(law):
    r"""S = sup_x |∂ₓ log P(x)| of the unit-variance law, so that D_∞(P + t ‖ P) = S t + O(t²).

    Student t_ν (scale s): (ν + 1)/(2s√ν) at x = s√ν; the mixture by a bounded search.
    """
    if law.startswith("student-t"):
        nu = float(law[len("student-t"):])
        return (nu + 1) / (2 * np.sqrt(nu - 2))
    b = np.sqrt(0.5)

    def minus_score(x):
        n = np.exp(-x * x / 2) / np.sqrt(2 * np.pi)
        lap = np.exp(-x / b) / (2 * b)
        return -(x * n + lap / b) / (n + lap)

    xs = np.linspace(0.0, 20.0, 20001)
    i = int(np.argmin(minus_score(xs)))
    res = optimize.minimize_scalar(minus_score, bounds=(xs[max(i - 1, 0)], xs[i + 1]), method="bounded",
                                   options=dict(xatol=1e-12))
    return float(-min(res.fun, minus_score(xs[i])))


@functools.lru_cache(maxsize=None)
def _fisher_information(law):
    r"""Fisher information I(P) of the unit-variance law: closed forms, the mixture by quadrature.

    .. math:: I = \int (\partial_x \log P)^2 P\,dx:\quad \text{logistic } \pi^2/9,\ \text{sech } \pi^2/8,\
              t_\nu\ \frac{\nu+1}{\nu+3}\cdot\frac{\nu}{\nu-2}.
    """
    if law == "logistic":
        return np.pi**2 / 9
    if law == "sech":
        return np.pi**2 / 8
    if law.startswith("student-t"):
        nu = float(law[len("student-t"):])
        return (nu + 1) / (nu + 3) * nu / (nu - 2)
    from scipy import integrate

    b = np.sqrt(0.5)

    def integrand(x):  # x ≥ 0; beyond x = 60 the integrand is below e^{-80}
        n = np.exp(-x * x / 2) / np.sqrt(2 * np.pi)
        lap = np.exp(-x / b) / (2 * b)
        score = (x * n + lap / b) / (n + lap)
        return score * score * 0.5 * (n + lap)

    return 2.0 * integrate.quad(integrand, 0.0, 60.0, epsabs=0, epsrel=1e-12, limit=200)[0]


def _check_law(law):
    check_choice(law, "law", NOISE_LAWS)


def _logcosh(y):
    a = np.abs(y)
    return a + np.log1p(np.exp(-2.0 * a)) - _LOG2


def _student(nu, x, v):
    s = np.sqrt(v * (nu - 2.0) / nu)
    z = x / s
    return (special.gammaln((nu + 1) / 2) - special.gammaln(nu / 2) - 0.5 * np.log(nu * np.pi) - np.log(s)
            - (nu + 1) / 2 * np.log1p(z * z / nu))


@named_shapes
def noise_logpdf(law, x, variance=1.0):
    r"""Exact log-density of a zero-mean noise law with the given variance.

    .. math::
        \text{Laplace: } -\frac{|x|}{b} - \log 2b,\ b = \sqrt{v/2};\quad
        \text{logistic: } -\frac{|x|}{s} - 2\log(1 + e^{-|x|/s}) - \log s,\ s = \frac{\sqrt{3v}}{\pi};

    .. math::
        \text{sech: } -\log 2s - \log\cosh\frac{\pi x}{2s},\ s = \sqrt v;\quad
        t_\nu:\ \text{scale } \sqrt{v(\nu-2)/\nu};\quad
        \text{mixture: } \log\big(\tfrac12 \mathcal N(x; 0, v) + \tfrac12 \mathrm{Lap}(x; \sqrt{v/2})\big).

    Written in log space so that it stays exact far in the tails.

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS`
    x : float or array
    variance : float, v > 0

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If the law is unknown or v ≤ 0.

    References
    ----------
    Seed 004, "Further questions" (S4-18); Gil, Alajaji and Linder (2013), tables of Rényi divergences.

    Examples
    --------
    >>> round(noise_logpdf("laplace", 1000.0), 4)  # finite where scipy's laplace.pdf underflows
    -1414.5601
    """
    _check_law(law)
    v = float(check_positive(variance, "variance"))
    x = check_real(x, "x")
    if law == "gaussian":
        out = -x * x / (2 * v) - 0.5 * np.log(2 * np.pi * v)
    elif law == "laplace":
        b = np.sqrt(v / 2)
        out = -np.abs(x) / b - np.log(2 * b)
    elif law == "logistic":
        s = np.sqrt(3 * v) / np.pi
        a = np.abs(x) / s
        out = -a - 2 * np.log1p(np.exp(-a)) - np.log(s)
    elif law == "sech":
        s = np.sqrt(v)
        out = -np.log(2 * s) - _logcosh(np.pi * x / (2 * s))
    elif law.startswith("student-t"):
        out = _student(float(law[len("student-t"):]), x, v)
    else:
        b = np.sqrt(v / 2)
        out = np.logaddexp(-x * x / (2 * v) - 0.5 * np.log(2 * np.pi * v), -np.abs(x) / b - np.log(2 * b)) - _LOG2
    return scalar_or_array(np.where(np.isinf(x), -np.inf, out))  # every density vanishes at ±∞


@named_shapes
def shift_rdp(law, alpha, variance=1.0, shift=1.0):
    r"""D_α(P + shift ‖ P) for a noise law of the given variance, by quadrature (the accurate route).

    .. math:: D_\alpha(P+\Delta\,\|\,P) = \frac1{\alpha-1}\log\int P(x-\Delta)^\alpha\,P(x)^{1-\alpha}\,dx

    (P(x) the density of the noise)

    computed with :func:`dpnotes.divergence.renyi_divergence` on the exact
    log-densities of :func:`noise_logpdf` (about 40 ms per order); the Gaussian
    uses its closed form αΔ²/(2v).

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS`
    alpha : float or array, α ∈ [1, ∞]
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If the law is unknown, α < 1, v ≤ 0 or Δ ≤ 0.

    References
    ----------
    Seed 004, "Further questions" (S4-18).

    Examples
    --------
    >>> round(shift_rdp("laplace", 2.0, variance=2.0), 8)  # Lap(b = 1): log(⅔e + ⅓e⁻²)
    0.61912363
    """
    _check_law(law)
    alpha = check_order(alpha, allow_one=True, allow_inf=True)
    t = _relative_shift(law, variance, shift)  # D_α(P + Δ ‖ P) depends on Δ and v only through t = Δ/√v
    if law == "gaussian":
        return scalar_or_array(np.asarray(alpha) * t * t / 2)
    if law == "laplace":
        return rdp_laplace(alpha, np.sqrt(0.5), t)
    d_inf = max_divergence(law, 1.0, t)
    fin = np.where(np.isfinite(alpha), alpha, 2.0)
    if t < _T_SMALL:
        # D_α = α I t²/2 + O(t³): the log-densities at x and x − t agree to ~16 digits, so quadrature
        # of their difference cannot resolve D_α; the expansion's relative error is O(t)
        out = fin * _fisher_information(law) * t * t / 2
    else:
        p = LogDensity(lambda x: noise_logpdf(law, np.asarray(x) - t, 1.0))
        q = LogDensity(lambda x: noise_logpdf(law, x, 1.0))
        out = np.clip(np.asarray(renyi_divergence(p, q, fin, points=[0.0, t]), dtype=float), 0.0, d_inf)
    out = np.where(np.isfinite(alpha), np.maximum(out, 0.0), d_inf)
    return scalar_or_array(out)


@functools.lru_cache(maxsize=64)
def _grid(scale, shift):
    """Nodes and log-weights: x = −e^t on (−∞, 0], x = Δ + e^t on [Δ, ∞) and a
    tanh-sinh map on [0, Δ]; the kinks of the densities sit at the ends of the
    pieces, so the trapezoid rule in t converges fast."""
    t = np.arange(np.log(1e-13 * scale), np.log(1e7 * scale), 0.02)
    tail = np.exp(t)
    u = np.linspace(-3.2, 3.2, 641)
    g = 0.5 * np.pi * np.sinh(u)
    mid = 0.5 * shift * (1.0 + np.tanh(g))
    dmid = 0.5 * shift * 0.5 * np.pi * np.cosh(u) / np.cosh(g) ** 2 * (u[1] - u[0])
    x = np.concatenate([-tail, mid, shift + tail])
    w = np.concatenate([tail * 0.02, dmid, tail * 0.02])
    keep = w > 0
    x, logw = x[keep], np.log(w[keep])
    x.flags.writeable = logw.flags.writeable = False  # cached: shared by every caller
    return x, logw


@named_shapes
def shift_rdp_grid(law, alphas, variance=1.0, shift=1.0):
    r"""D_α(P + shift ‖ P) on many orders at once by a log-space trapezoid rule (fast; for figures).

    .. math:: D_\alpha \approx \frac1{\alpha-1}\log\sum_j w_j\,
              e^{\alpha\log P(x_j-\Delta) + (1-\alpha)\log P(x_j)}

    on fixed nodes: x = −e^u and x = Δ + e^u on the two tails (u uniform,
    from 10⁻¹³·√v to 10⁷·√v) and a tanh-sinh map on [0, Δ], so that the kinks
    of the densities sit at the ends of the pieces; agrees with :func:`shift_rdp`
    to about 10⁻⁹ relative (checked in the tests). α = 1 gives the KL divergence.

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS`
    alphas : array, α ∈ [1, ∞)
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    ndarray, shape of alphas

    Raises
    ------
    ValueError
        If the law is unknown, α < 1 or infinite, v ≤ 0 or Δ ≤ 0.

    References
    ----------
    Seed 004, "Further questions" (S4-18).

    Examples
    --------
    >>> float(np.round(shift_rdp_grid("laplace", [2.0], variance=2.0)[0], 6))
    0.619124
    """
    _check_law(law)
    a = np.atleast_1d(check_order(alphas, "alphas", allow_one=True))
    d = _relative_shift(law, variance, shift)  # D_α depends on the shift only through t = Δ/√v
    if law == "gaussian":
        return a * d * d / 2
    if law == "laplace":
        return np.asarray(rdp_laplace(a, np.sqrt(0.5), d), dtype=float)
    if d < _T_SMALL:  # the small-shift expansion of shift_rdp
        return a * _fisher_information(law) * d * d / 2
    v = 1.0
    x, logw = _grid(np.sqrt(v), d)
    lp, lq = noise_logpdf(law, x - d, v), noise_logpdf(law, x, v)
    out = np.empty(a.shape)
    one = a == 1.0
    if np.any(one):
        out[one] = np.sum(np.exp(lp + logw) * (lp - lq))
    ar = a[~one][:, None]
    logs = special.logsumexp(ar * lp + (1.0 - ar) * lq + logw, axis=1)
    out[~one] = logs / (ar[:, 0] - 1.0)
    return np.maximum(out, 0.0)  # a divergence: rounding below 0 is rounding


@named_shapes
def max_divergence(law, variance=1.0, shift=1.0):
    r"""D_∞(P + shift ‖ P) = sup_x log P(x − Δ)/P(x) (P(x) the density).

    Closed forms: Gaussian ∞; Laplace Δ/b = Δ√(2/v); logistic Δ/s = πΔ/√(3v);
    sech πΔ/(2√v) (each the supremum of the log-density's slope times Δ, reached
    in the tail). Student t and the mixture: the supremum over a wide grid,
    refined with a bounded scalar search.

    .. math:: D_\infty(P+\Delta\,\|\,P) = \sup_x\ \log P(x-\Delta) - \log P(x)

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS`
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If the law is unknown, v ≤ 0 or Δ ≤ 0.

    References
    ----------
    Seed 004 (S4-01, S4-18): D_α tends to the max divergence as α → ∞.

    Examples
    --------
    >>> bool(round(max_divergence("laplace"), 10) == round(float(np.sqrt(2)), 10))
    True
    """
    _check_law(law)
    d = _relative_shift(law, variance, shift, quadrature=False)  # in units of the standard deviation
    v = 1.0
    if law == "gaussian":
        return float("inf")
    if law == "laplace":
        return d * np.sqrt(2.0 / v)
    if law == "logistic":
        return d * np.pi / np.sqrt(3.0 * v)
    if law == "sech":
        return d * np.pi / (2.0 * np.sqrt(v))
    if d < _T_SMALL:  # S·t + O(t²): a difference of log-densities cannot resolve it
        return _max_score(law) * d
    s = np.sqrt(v)
    x = np.concatenate([np.linspace(-50 * s, 50 * s, 20001), s * np.geomspace(50, 1e8, 2000)])
    r = noise_logpdf(law, x - d, v) - noise_logpdf(law, x, v)
    i = int(np.argmax(r))
    best = float(r[i])
    if 0 < i < x.size - 1:
        res = optimize.minimize_scalar(lambda t: -(noise_logpdf(law, t - d, v) - noise_logpdf(law, t, v)),
                                       bounds=(x[i - 1], x[i + 1]), method="bounded",
                                       options=dict(xatol=1e-12 * s))
        best = max(best, -float(res.fun))
    return max(best, 0.0)


@named_shapes
def crossover_order(law, variance=1.0, shift=1.0):
    r"""The smallest order α at which ``law`` has a smaller D_α(P + Δ ‖ P) than the Gaussian of equal variance.

    .. math:: \alpha^\times = \min\{\alpha \ge 1:\ D_\alpha(P+\Delta\|P) < \alpha\Delta^2/(2v)\}

    Found on a log grid of orders (:func:`shift_rdp_grid`) and refined by Brent's
    method. Returns 1.0 if the law is already better at the KL end.

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS` except "gaussian"
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    float (inf if the Gaussian stays smaller up to α = 10⁶)

    Raises
    ------
    ValueError
        If the law is unknown or the Gaussian itself.

    References
    ----------
    Seed 004, "Further questions": "can you find anything better than Gaussian?" (S4-18).

    Examples
    --------
    >>> 1.0 < crossover_order("laplace") < 10.0
    True
    """
    _check_law(law)
    if law == "gaussian":
        raise ValueError("law must not be the Gaussian (it is the reference)")
    v = float(check_positive(variance, "variance"))
    d = float(check_positive(shift, "shift"))
    orders = np.geomspace(1.0, 1e6, 241)

    def gap(a):
        return float(shift_rdp_grid(law, [a], v, d)[0] - a * d * d / (2 * v))

    g = shift_rdp_grid(law, orders, v, d) - orders * d * d / (2 * v)
    if g[0] < 0:
        return 1.0
    neg = np.nonzero(g < 0)[0]
    if neg.size == 0:
        return float("inf")
    j = int(neg[0])
    return float(optimize.brentq(gap, orders[j - 1], orders[j], xtol=1e-12, rtol=1e-12))


@named_shapes
def claim26_table(pairs=((0.5, 0.5), (1.0, 0.5), (0.5, 1.0), (1.0, 1.0), (2.0, 1.0), (1.0, 2.0))):
    r"""Claim 26's constant K(c₁, c₂) and the constant it puts in front of q²α/σ².

    .. math:: \varepsilon(\alpha) \le \frac{\log K}{\alpha - 1} \approx \frac{\log K}{c_2\sigma^2}
              = \frac{\log K}{c_1^2 c_2^2}\cdot\frac{q^2\alpha}{\sigma^2}
              \qquad \text{at } \alpha = c_2\sigma^2,\ q = c_1/\sigma,

    with K the certified supremum of :func:`dpnotes.subsampling.claim26_constant`
    (its upper end). The claim is useful when log K/(c₁²c₂²) is small; the exact
    RDP of the sampled Gaussian at small q is about q²α/(2σ²), a constant of ½.

    Parameters
    ----------
    pairs : sequence of (c₁, c₂), each in (0, 10]

    Returns
    -------
    list of tuples (c₁, c₂, K, log K/(c₁²c₂²))

    Raises
    ------
    ValueError
        If some c is outside (0, 10].

    References
    ----------
    Abadi et al. (2016), "Deep learning with differential privacy"; Mironov,
    Talwar & Zhang (2019); the blog post "Great but Manageable Expectations",
    Claim 26 and "Find out how useful Claim 26 is" (S4-13, S4-18).

    Examples
    --------
    >>> c1, c2, K, ratio = claim26_table([(0.5, 0.5)])[0]
    >>> K >= 1.0, round(ratio, 12) == round(float(np.log(K)) / 0.0625, 12)
    (True, True)
    """
    from .subsampling import claim26_constant

    pairs = check_array(pairs, "pairs", ndim=2)
    if pairs.shape[1] != 2:
        raise ValueError(f"pairs must be a list of (c1, c2) pairs (got shape {pairs.shape})")
    rows = []
    for c1, c2 in pairs:
        c1 = float(check_positive(c1, "c1"))
        c2 = float(check_positive(c2, "c2"))
        K = float(claim26_constant(c1, c2))
        rows.append((c1, c2, K, float(np.log(K)) / (c1 * c1 * c2 * c2)))
    return rows


@named_shapes
def best_noise_law(orders, variance=1.0, shift=1.0, laws=NOISE_LAWS):
    r"""Which law of equal variance has the smallest D_α(P + Δ ‖ P), at each order.

    .. math:: \arg\min_{P \in \text{laws}} D_\alpha(P + \Delta\,\|\,P)

    Parameters
    ----------
    orders : array, α ∈ [1, ∞)
    variance : float, v > 0
    shift : float, Δ > 0
    laws : sequence of names from :data:`NOISE_LAWS`

    Returns
    -------
    list of str (one law per order)

    Raises
    ------
    ValueError
        On an unknown law or bad parameters.

    References
    ----------
    Seed 004, "Further questions" (S4-18).

    Examples
    --------
    >>> best_noise_law([1.0, 2.0, 1000.0])
    ['gaussian', 'logistic', 'laplace']
    """
    orders = check_order(orders, "orders", allow_one=True)
    if isinstance(laws, str) or not isinstance(laws, (list, tuple)) or not laws:
        raise TypeError(f"laws must be a non-empty list of law names from {NOISE_LAWS} (got {laws!r:.60})")
    laws = [check_choice(law, "laws", NOISE_LAWS) for law in laws]
    table = np.array([shift_rdp_grid(law, orders, variance, shift) for law in laws])
    return [laws[i] for i in np.argmin(table, axis=0)]


_COMPOSITION_ORDERS = np.concatenate([[1.001, 1.01], np.geomspace(1.02, 2000.0, 120)])


@named_shapes
def epsilon_after_composition(law, steps, delta, variance=1.0, shift=1.0):
    r"""ε at δ of T releases with the given noise (sensitivity Δ): RDP composed and converted.

    .. math:: \varepsilon = \min_\alpha\ T D_\alpha(P+\Delta\|P) + \log\frac{\alpha-1}{\alpha}
              - \frac{\log\delta + \log\alpha}{\alpha - 1}

    on a log grid of orders from 1.001 to 2000 (the improved conversion of
    :func:`dpnotes.conversion.epsilon_from_rdp`). With one release and a small δ
    the high orders decide (bounded-tail laws win); after many releases the
    low orders decide and the Gaussian wins.

    Parameters
    ----------
    law : one of :data:`NOISE_LAWS`
    steps : int, T ≥ 1
    delta : float, δ ∈ (0, 1)
    variance : float, v > 0
    shift : float, Δ > 0

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On bad parameters.

    References
    ----------
    Seed 004 (S4-18); Mironov (2017) and Balle et al. (2020) for the conversion.

    Examples
    --------
    >>> e_gauss = epsilon_after_composition("gaussian", 1000, 1e-6, variance=1e4)
    >>> e_lap = epsilon_after_composition("laplace", 1000, 1e-6, variance=1e4)
    >>> bool(e_gauss < e_lap)
    True
    """
    import warnings

    from ._validation import check_count, check_delta
    from .conversion import epsilon_from_rdp

    t = float(check_count(steps, "steps"))
    delta = float(check_delta(delta))
    rdp = t * shift_rdp_grid(law, _COMPOSITION_ORDERS, variance, shift)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an edge order only means the grid could be wider
        return float(epsilon_from_rdp(_COMPOSITION_ORDERS, rdp, delta))


# ---------------------------------------------- a law that beats the Gaussian's KL


def _check_smoothed_lattice(tau, smoothing):
    tau = float(check_positive(tau, "tau"))
    smoothing = float(check_positive(smoothing, "smoothing"))
    if not 0.05 <= tau <= 20.0:
        raise ValueError(f"tau must be in [0.05, 20] (got {tau})")
    if not 0.01 <= smoothing <= 20.0:
        raise ValueError(f"smoothing must be in [0.01, 20] (got {smoothing})")
    # lattice points carrying mass above e^{−200} of the peak
    k = np.arange(-int(np.ceil(20.0 * tau + 1.0)), int(np.ceil(20.0 * tau + 1.0)) + 1, dtype=float)
    logw = -k * k / (2.0 * tau * tau)
    return tau, smoothing, k, logw - special.logsumexp(logw)


@named_shapes
def smoothed_lattice_variance(tau, smoothing):
    r"""Variance of the discrete Gaussian on ℤ (parameter τ) plus independent N(0, s²) noise.

    .. math:: v = \sum_{k\in\mathbb Z} k^2 w_k + s^2, \qquad w_k \propto e^{-k^2/(2\tau^2)}.

    Parameters
    ----------
    tau : float, τ ∈ [0.05, 20]
    smoothing : float, s ∈ [0.01, 20]

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If τ or s is outside its range.

    References
    ----------
    Canonne, Kamath & Steinke (2020), "The discrete Gaussian for differential privacy".

    Examples
    --------
    >>> round(smoothed_lattice_variance(0.5, 0.1), 5)
    0.22501
    """
    _, smoothing, k, logw = _check_smoothed_lattice(tau, smoothing)
    return float(np.sum(np.exp(logw) * k * k) + smoothing * smoothing)


@named_shapes
def kl_smoothed_lattice_shift(tau, smoothing, shift=1.0):
    r"""KL(P + Δ ‖ P) for P = discrete Gaussian on ℤ (τ) convolved with N(0, s²).

    .. math:: \mathrm{KL}(P+\Delta\,\|\,P) = \int f(x-\Delta)\log\frac{f(x-\Delta)}{f(x)}\,dx,
              \qquad f(x) = \sum_{k\in\mathbb Z} w_k\,\varphi_s(x - k).

    For a unit shift the lattice part moves onto itself, so P + 1 and P differ
    only through the tilt of the weights: KL is close to 1/(2τ²), whatever s,
    while the variance v is below τ² + s². With τ = 0.5 and s = 0.1, v ≈ 0.22501
    and KL ≈ 1.99999 < 1/(2v) ≈ 2.2221, the Gaussian's value at the same
    variance: the Gaussian does **not** minimise the KL divergence of a unit
    shift among all laws of a given variance. It does as Δ → 0, where
    KL = Δ²I(P)/2 + o(Δ²) and the Fisher information satisfies I(P) ≥ 1/v
    (Cramér–Rao), with equality only for the Gaussian.

    The density is a mixture of narrow Gaussians, evaluated in log space; the
    integral is a trapezoidal sum with spacing s/24 on a window holding all but
    e^{−200} of the mass (the integrand is analytic, so the sum converges
    geometrically in the spacing).

    Parameters
    ----------
    tau : float, τ ∈ [0.05, 20]
    smoothing : float, s ∈ [0.01, 20]
    shift : float, Δ ∈ (0, 10]

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If τ, s or Δ is outside its range.

    References
    ----------
    Cover & Thomas (2006), *Elements of Information Theory*, §11.10 (Fisher
    information and the Cramér–Rao inequality); Canonne, Kamath & Steinke
    (2020), "The discrete Gaussian for differential privacy".

    Examples
    --------
    >>> kl = kl_smoothed_lattice_shift(0.5, 0.1)
    >>> kl < 1 / (2 * smoothed_lattice_variance(0.5, 0.1))  # below the Gaussian's KL
    True
    """
    tau, s, k, logw = _check_smoothed_lattice(tau, smoothing)
    shift = float(check_positive(shift, "shift"))
    if shift > 10.0:
        raise ValueError(f"shift must be in (0, 10] (got {shift})")
    h = s / 24.0
    lo, hi = k[0] - 21.0 * s, k[-1] + 21.0 * s + shift
    x = np.linspace(lo, hi, int(np.ceil((hi - lo) / h)) + 1)
    step = x[1] - x[0]

    def log_f(y):
        z = (y[:, None] - k[None, :]) / s
        return special.logsumexp(logw[None, :] - 0.5 * z * z, axis=1) - np.log(s * np.sqrt(2.0 * np.pi))

    lp, lq = log_f(x - shift), log_f(x)
    return float(np.sum(np.exp(lp) * (lp - lq)) * step)
