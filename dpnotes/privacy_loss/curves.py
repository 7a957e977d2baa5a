r"""Exact privacy curves in closed form: δ(ε) and its inverse ε(δ), mechanism by mechanism.

The Gaussian mechanism with μ = Δ/σ (:func:`delta_gaussian`; :func:`log_delta_gaussian`
where δ underflows, both through the private :func:`_log_delta_gaussian`, which is
accurate in log space down to δ ≈ 1e-300; the inverse :func:`epsilon_gaussian` by
Brent's method), the Laplace mechanism (:func:`delta_laplace`,
:func:`epsilon_laplace`) and binary randomized response
(:func:`delta_randomized_response`, :func:`epsilon_randomized_response`), and its
k-fold composition (:func:`exact_epsilon_rr_composition`, the exact ε of k-fold
ε₀-DP, Kairouz, Oh & Viswanath 2015); and :func:`hockey_stick_divergence`, δ(ε) of
any two pmfs, which :mod:`dpnotes.privacy_loss.expressions` uses for discrete pairs.
"""

import numpy as np
from scipy.special import erfcx, log_ndtr, ndtr

from .._validation import (
    check_count,
    check_delta,
    check_interval,
    check_nonnegative,
    check_pmf_pair,
    check_positive,
    named_shapes,
    scalar_or_array,
)

_SQRT2 = np.sqrt(2.0)
MAX_RR_COMPOSITIONS = 2000  # k: δ at the k + 1 loss values costs (k + 1)² products


#: below this μ, log δ(ε) is computed by quadrature (:func:`_log_delta_gaussian_small_mu`): the closed form
#: subtracts two tails that agree to about μ relative, losing ~1e-16/μ of relative accuracy
_SMALL_MU = 1e-2
# 64-point Gauss–Legendre nodes and weights on [0, 1]
_GL_X, _GL_W = np.polynomial.legendre.leggauss(64)
_GL_X, _GL_W = 0.5 * (_GL_X + 1.0), 0.5 * _GL_W


def _log_delta_gaussian_small_mu(eps, mu):
    r"""log δ(ε) for small μ, without cancellation (1-D arrays, ε ≥ 0, 0 < μ).

    With Z = μ²/2 + μX (X standard normal) and x₀ = ε/μ − μ/2,

    .. math:: \delta(\varepsilon) = \mathbb E\big[(1 - e^{\varepsilon - Z})_+\big]
              = \varphi(x_0) \int_0^\infty e^{-x_0 t - t^2/2}\,\big(1 - e^{-\mu t}\big)\,dt,

    every factor positive and 1 − e^{−μt} = μt·(1 − e^{−μt})/(μt) taken by ``expm1`` (log μ apart, so a
    subnormal μ keeps its digits); the integral by 64-point
    Gauss–Legendre on [0, t_max] with x₀t_max + t_max²/2 = 45 (the weight below e^{−45} beyond),
    where the integrand is smooth (relative error about 1e-15).
    """
    out = np.empty(eps.shape)
    for start in range(0, eps.size, 4096):  # 64 nodes per point: bounded memory
        e, m = eps[start:start + 4096], mu[start:start + 4096]
        x0 = e / m - 0.5 * m
        t_max = 90.0 / (x0 + np.sqrt(x0 * x0 + 90.0))  # the root of x0·t + t²/2 = 45, without cancellation
        t = t_max[:, None] * _GL_X[None, :]
        y = m[:, None] * t  # 1 − e^{−y} = y·g(y), g(y) = (1 − e^{−y})/y → 1: log μ taken out (μ may be subnormal)
        g = np.where(y > 0, -np.expm1(-y) / np.where(y > 0, y, 1.0), 1.0)
        f = np.exp(-x0[:, None] * t - 0.5 * t * t) * t * g
        log_integral = np.log(m) + np.log(t_max * (f @ _GL_W))
        val = -0.5 * x0 * x0 - 0.5 * np.log(2.0 * np.pi) + log_integral
        # ε/μ = ∞ (a subnormal μ): δ = 0 exactly as far as floats go (log δ ≤ −x₀²/2 = −∞), not ∞·0
        out[start:start + 4096] = np.where(np.isinf(x0), -np.inf, val)
    return out


def _log_delta_gaussian(eps, mu):
    """log δ(ε) of the Gaussian mechanism with μ = Δ/σ (arrays, ε ≥ 0, μ ≥ 0).

    With a = μ/2 − ε/μ and b = −μ/2 − ε/μ, δ = Φ(a) − e^ε Φ(b). Since
    ε − b²/2 = −a²/2 exactly, for a ≤ 0 (both tails small) this is
    δ = ½ e^{−a²/2} (erfcx(−a/√2) − erfcx(−b/√2)), which never under- or
    overflows before the final exponential; for a > 0, Φ(a) ≥ ½ and the plain
    difference is accurate.
    """
    eps, mu = np.broadcast_arrays(np.asarray(eps, float), np.asarray(mu, float))
    out = np.full(eps.shape, -np.inf)
    live = (mu > 0) & np.isfinite(eps)
    safe_mu = np.where(live, mu, 1.0)
    safe_eps = np.where(live, eps, 0.0)
    a = safe_mu / 2.0 - safe_eps / safe_mu
    b = -safe_mu / 2.0 - safe_eps / safe_mu
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        diff = erfcx(-a / _SQRT2) - erfcx(-np.minimum(b, 0.0) / _SQRT2)
        tail = -0.5 * a**2 - np.log(2.0) + np.log(np.where(diff > 0, diff, 0.0))
        head = np.log(np.maximum(ndtr(a) - np.exp(safe_eps + log_ndtr(b)), 0.0))
    val = np.where(a <= 0, tail, head)
    small = live & (mu < _SMALL_MU)
    if np.any(small):
        with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
            val[small] = _log_delta_gaussian_small_mu(eps[small], mu[small])
    out = np.where(live, val, out)
    # μ = 0: identical laws, δ(ε) = max(0, 1 − e^ε) = 0 for ε ≥ 0 (already −inf).
    return out


@named_shapes
def log_delta_gaussian(epsilon, mu):
    r"""log δ(ε) of the Gaussian mechanism with μ = Δ/σ, accurate where δ underflows.

    .. math:: \log\delta(\varepsilon) = \log\Big(\Phi\big(\tfrac{\mu}{2} - \tfrac{\varepsilon}{\mu}\big)
              - e^{\varepsilon}\,\Phi\big(-\tfrac{\mu}{2} - \tfrac{\varepsilon}{\mu}\big)\Big)

    Parameters
    ----------
    epsilon : float or array, ε ≥ 0
    mu : float or array, μ ≥ 0

    Returns
    -------
    float or ndarray (−∞ where δ = 0)

    References
    ----------
    Balle & Wang (2018), Theorem 8.

    Examples
    --------
    >>> round(log_delta_gaussian(1.0, 1.0), 10) == round(float(np.log(delta_gaussian(1.0, 1.0))), 10)
    True
    >>> bool(log_delta_gaussian(2000.0, 1.0) < -1e5)  # δ itself underflows to 0
    True
    """
    eps = check_nonnegative(epsilon, "epsilon", allow_inf=True)
    mu = check_nonnegative(mu, "mu")
    return scalar_or_array(_log_delta_gaussian(eps, mu))


@named_shapes
def delta_gaussian(epsilon, mu):
    r"""Exact δ(ε) of the Gaussian mechanism with μ = Δ/σ.

    .. math:: \delta(\varepsilon) = \Phi\Big(-\frac{\varepsilon}{\mu} + \frac{\mu}{2}\Big)
              - e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu} - \frac{\mu}{2}\Big)

    Evaluated in log space (scaled complementary error function), so values
    down to 1e-300 keep full relative precision (about 1e-12 or better).

    Parameters
    ----------
    epsilon : float or array, ε ∈ [0, ∞]
    mu : float or array, μ = Δ/σ ∈ [0, ∞)

    Returns
    -------
    float or ndarray, δ ∈ [0, 1]

    Raises
    ------
    ValueError
        If ε < 0 or μ < 0.

    References
    ----------
    Balle & Wang (2018), "Improving the Gaussian mechanism", Theorem 8; source S2, S2-02.

    Examples
    --------
    >>> round(delta_gaussian(1.0, 1.0), 12)
    0.126936737507
    >>> float(f"{delta_gaussian(40.0, 2.0):.6e}")  # far tail, no underflow
    8.082866e-82
    """
    eps = check_nonnegative(epsilon, "epsilon", allow_inf=True)
    mu = check_nonnegative(mu, "mu")
    return scalar_or_array(np.minimum(np.exp(_log_delta_gaussian(eps, mu)), 1.0))


@named_shapes
def epsilon_gaussian(delta, mu):
    r"""Exact smallest ε with δ(ε) ≤ δ for the Gaussian mechanism, μ = Δ/σ.

    The inverse of :func:`delta_gaussian`, found by Brent's method on
    log δ(ε) − log δ over the bracket [0, μ²/2 + μ√(2 log(1/δ))] (the upper end
    is the zCDP conversion, which is a valid, hence larger, ε).

    .. math:: \varepsilon(\delta) = \min\{\varepsilon \ge 0 : \delta_{\mathcal N}(\varepsilon) \le \delta\}

    Parameters
    ----------
    delta : float or array, δ ∈ (0, 1)
    mu : float or array, μ ∈ [0, ∞)

    Returns
    -------
    float or ndarray, ε ≥ 0

    Raises
    ------
    ValueError
        If δ ∉ (0, 1) or μ < 0.

    References
    ----------
    Balle & Wang (2018), Theorem 8 (and its inversion).

    Examples
    --------
    >>> round(epsilon_gaussian(delta_gaussian(1.0, 1.0), 1.0), 9)
    1.0
    """
    delta = check_delta(delta)
    mu = check_nonnegative(mu, "mu")
    fn = np.vectorize(_epsilon_gaussian_scalar, otypes=[float])
    return scalar_or_array(fn(delta, mu))


_MU_MAX = 1e150  # ε(δ) ≥ μ²/2 − μ√(2 log(1/δ)) overflows a double beyond about 1.8e154


def _epsilon_gaussian_scalar(delta, mu):
    from scipy import optimize  # imported here: loading this module stays light
    if mu == 0.0:
        return 0.0
    if mu > _MU_MAX:
        raise ValueError(f"mu must be ≤ {_MU_MAX:g}: ε ≈ μ²/2 is beyond the floating-point range (got mu = {mu:g})")
    target = np.log(delta)
    f = lambda e: float(_log_delta_gaussian(e, mu)) - target  # noqa: E731
    if f(0.0) <= 0.0:
        return 0.0
    hi = 0.5 * mu**2 + mu * np.sqrt(-2.0 * target)
    hi = hi * (1.0 + 1e-9) + 1e-300
    while f(hi) > 0.0:  # not expected (zCDP bound is valid), kept as a guard
        hi *= 2.0
    return float(optimize.brentq(f, 0.0, hi, xtol=1e-15, rtol=1e-15, maxiter=500))


@named_shapes
def delta_laplace(epsilon, scale, sensitivity=1.0):
    r"""Exact δ(ε) of the Laplace mechanism with scale b and sensitivity Δ.

    .. math:: \delta(\varepsilon) = \begin{cases} 1 - e^{(\varepsilon - \Delta/b)/2}, & 0 \le \varepsilon < \Delta/b,\\
              0, & \varepsilon \ge \Delta/b. \end{cases}

    Derivation: for P = Lap(Δ, b), Q = Lap(0, b) the loss log(P(y)/Q(y)) equals −Δ/b
    for y ≤ 0, (2y − Δ)/b on (0, Δ) and Δ/b for y ≥ Δ, so the optimal event is
    {y > y₀} with y₀ = (Δ + εb)/2, and P(y > y₀) − e^ε Q(y > y₀)
    = 1 − ½e^{(ε−Δ/b)/2} − e^ε·½e^{−(ε+Δ/b)/2}.

    Parameters
    ----------
    epsilon : float or array, ε ≥ 0
    scale : float or array, b > 0
    sensitivity : float or array, Δ ≥ 0

    Raises
    ------
    ValueError
        If ε < 0, b ≤ 0 or Δ < 0.

    References
    ----------
    Derived here; checked against the supremum over sets and dp-accounting's
    ``LaplacePrivacyLoss`` in the tests.

    Examples
    --------
    >>> round(delta_laplace(0.0, 1.0), 12)  # 1 − e^{−1/2}
    0.393469340287
    >>> delta_laplace(1.0, 1.0)
    0.0
    """
    eps = check_nonnegative(epsilon, "epsilon", allow_inf=True)
    b = check_positive(scale, "scale")
    t = check_nonnegative(sensitivity, "sensitivity") / b
    with np.errstate(invalid="ignore"):
        out = np.where(eps < t, -np.expm1(0.5 * (np.minimum(eps, t) - t)), 0.0)
    return scalar_or_array(out)


@named_shapes
def epsilon_laplace(delta, scale, sensitivity=1.0):
    r"""Exact smallest ε with δ(ε) ≤ δ for the Laplace mechanism.

    .. math:: \varepsilon(\delta) = \max\{0,\; \Delta/b + 2\log(1 - \delta)\}.

    Parameters
    ----------
    delta : float or array, δ ∈ (0, 1)
    scale : float or array, b > 0
    sensitivity : float or array, Δ ≥ 0

    Raises
    ------
    ValueError
        If δ ∉ (0, 1), b ≤ 0 or Δ < 0.

    References
    ----------
    Inverse of :func:`delta_laplace`.

    Examples
    --------
    >>> round(epsilon_laplace(0.1, 1.0), 12)  # 1 + 2 log 0.9
    0.789278968684
    """
    delta = check_delta(delta)
    b = check_positive(scale, "scale")
    t = check_nonnegative(sensitivity, "sensitivity") / b
    return scalar_or_array(np.maximum(0.0, t + 2.0 * np.log1p(-delta)))


@named_shapes
def delta_randomized_response(epsilon, p):
    r"""Exact δ(ε) of binary randomized response reporting the truth with probability p.

    With P = (p, 1−p), Q = (1−p, p) and p̄ = max(p, 1 − p):

    .. math:: \delta(\varepsilon) = \max\{0,\; \bar p - e^{\varepsilon}(1 - \bar p)\}.

    Parameters
    ----------
    epsilon : float or array, ε ≥ 0
    p : float or array, p ∈ (0, 1)

    Raises
    ------
    ValueError
        If ε < 0 or p ∉ (0, 1).

    References
    ----------
    Warner (1965); Kairouz, Oh & Viswanath (2015); source S2, S2-11.

    Examples
    --------
    >>> round(delta_randomized_response(0.0, 0.75), 12)
    0.5
    >>> delta_randomized_response(np.log(3.0), 0.75) < 1e-15
    True
    """
    eps = check_nonnegative(epsilon, "epsilon", allow_inf=True)
    p = check_interval(p, "p", 0, 1, closed_low=False, closed_high=False)
    m = np.minimum(p, 1.0 - p)  # 1 − p̄, kept exact (p̄ itself rounds to 1 for tiny m)
    with np.errstate(over="ignore"):
        out = np.maximum(0.0, (1.0 - m) - np.exp(eps + np.log(m)))
    return scalar_or_array(out)


@named_shapes
def epsilon_randomized_response(delta, p):
    r"""Exact smallest ε with δ(ε) ≤ δ for randomized response.

    .. math:: \varepsilon(\delta) = \max\Big\{0,\; \log\frac{\bar p - \delta}{1 - \bar p}\Big\}
              \ (\text{and } 0 \text{ if } \delta \ge \bar p).

    Parameters
    ----------
    delta : float or array, δ ∈ (0, 1)
    p : float or array, p ∈ (0, 1)

    Examples
    --------
    >>> round(epsilon_randomized_response(0.25, 0.75), 12)  # log 2
    0.69314718056
    """
    delta = check_delta(delta)
    p = check_interval(p, "p", 0, 1, closed_low=False, closed_high=False)
    m = np.minimum(p, 1.0 - p)  # 1 − p̄, kept exact (p̄ itself rounds to 1 for tiny m)
    with np.errstate(divide="ignore", invalid="ignore"):
        val = np.log1p(-np.minimum(m + delta, 1.0)) - np.log(m)
    return scalar_or_array(np.where(m + delta >= 1.0, 0.0, np.maximum(val, 0.0)))


@named_shapes
def exact_epsilon_rr_composition(eps0, k, delta):
    r"""Exact smallest ε with δ(ε) ≤ δ for the k-fold composition of ε₀ randomized response.

    With p = e^{ε₀}/(1 + e^{ε₀}), the k-fold composition counts truthful answers:
    P = Bin(k, p) and Q = Bin(k, 1 − p). Its privacy loss at j truthful answers is
    ℓ_j = (2j − k)ε₀, and

    .. math:: \delta(\varepsilon) = \sum_{j=0}^{k} \max\{0,\; P_j - e^{\varepsilon} Q_j\}.

    Between two consecutive loss values ℓ_{i−1} < ℓ_i the positive part keeps the
    same terms, so δ(ε) = A − e^ε B there with A, B constant; δ is evaluated at the
    ℓ_j ≥ 0 (one call of :func:`hockey_stick_divergence`) and the segment that
    brackets δ is solved for e^ε. Randomized response is the worst ε₀-DP mechanism,
    so this is the exact ε of any k-fold ε₀-DP composition (the optimal composition
    theorem).

    Parameters
    ----------
    eps0 : float, ε₀ ∈ [0, 50]
    k : int, the number of compositions, k ∈ [1, 2000] (:data:`MAX_RR_COMPOSITIONS`)
    delta : float, δ ∈ (0, 1)

    Returns
    -------
    float
        ε ∈ [0, kε₀]; 0 when δ(0) ≤ δ.

    Raises
    ------
    ValueError
        If ε₀ ∉ [0, 50], k is not an integer in [1, 2000] or δ ∉ (0, 1).

    References
    ----------
    Kairouz, Oh & Viswanath (2015), "The composition theorem for differential
    privacy" (the optimal composition theorem); Warner (1965); source S3, S3-01.

    Examples
    --------
    >>> round(exact_epsilon_rr_composition(0.5, 1, 0.1), 12) == round(epsilon_randomized_response(0.1, 1 / (1 + np.exp(-0.5))), 12)
    True
    >>> exact_epsilon_rr_composition(0.1, 100, 1e-5) < 100 * 0.1
    True
    """
    from scipy import stats  # imported here: loading this module stays light
    eps0 = float(check_interval(eps0, "eps0", 0, 50))
    k = int(check_count(k, "k", maximum=MAX_RR_COMPOSITIONS))
    delta = float(check_delta(delta))
    p = 1.0 / (1.0 + np.exp(-eps0))
    j = np.arange(k + 1)
    P, Q = stats.binom.pmf(j, k, p), stats.binom.pmf(j, k, 1.0 - p)
    P, Q = P / P.sum(), Q / Q.sum()
    atoms = np.unique(np.concatenate([[0.0], np.abs((2 * j - k) * eps0)]))
    d = np.asarray(hockey_stick_divergence(P, Q, atoms))
    if d[0] <= delta:
        return 0.0
    below = d <= delta
    if not below.any():  # δ(kε₀) is 0 up to rounding; the last segment brackets δ
        below[-1] = True
    i = int(np.argmax(below))  # first loss value with δ(ℓ) ≤ δ; i ≥ 1 since d[0] > δ
    (l1, l2), (d1, d2) = atoms[i - 1:i + 1], d[i - 1:i + 1]
    if not d1 > d2:
        return float(l2)
    # δ(ε) = a − b·e^ε on [l1, l2]; δ(ε) = δ at e^ε = e^{l1} + t(e^{l2} − e^{l1}), t = (d1 − δ)/(d1 − d2), i.e.
    # ε = l2 + log(t + (1 − t)e^{−(l2 − l1)}): no e^{l} formed (it overflows past l ≈ 709, k·ε₀ reaches 10⁵)
    t = (d1 - delta) / (d1 - d2)  # ≥ 0 (d1 > δ), so the argument of the log is ≥ e^{−(l2 − l1)} > 0
    return float(np.clip(l2 + np.log(t + (1.0 - t) * np.exp(l1 - l2)), l1, l2))


@named_shapes
def hockey_stick_divergence(p, q, epsilon):
    r"""δ(ε) = sup_E P(E) − e^ε Q(E) for two pmfs on the same finite support.

    .. math:: \sup_E P(E) - e^\varepsilon Q(E) = \sum_y \max\{0,\, P(y) - e^\varepsilon Q(y)\},

    the supremum being attained at the event E = {y : P(y) > e^ε Q(y)}.

    Parameters
    ----------
    p, q : array_like, the pmfs of P and Q, of equal length
    epsilon : float or array, ε ≥ 0

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If p, q are not pmfs of equal shape, or ε < 0.

    References
    ----------
    Source S2, S2-02, equation (.1).

    Examples
    --------
    >>> round(hockey_stick_divergence([0.75, 0.25], [0.25, 0.75], 0.0), 12)
    0.5
    """
    p, q = check_pmf_pair(p, q, require_same_support=False)
    eps = check_nonnegative(epsilon, "epsilon", allow_inf=True)
    with np.errstate(over="ignore", invalid="ignore"):
        terms = p[None, :] - np.exp(np.ravel(eps))[:, None] * q[None, :]
        terms = np.where(q[None, :] == 0, p[None, :], terms)
    out = np.maximum(terms, 0.0).sum(axis=1).reshape(np.shape(eps))
    return scalar_or_array(out)
