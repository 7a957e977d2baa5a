r"""Privacy-loss random variables and exact privacy curves δ(ε).

For a pair (P, Q) the privacy loss is Z = log(P(Y)/Q(Y)) with Y ~ P. Its law
gives the exact privacy curve (the hockey-stick divergence, a supremum over
events E)

.. math:: \delta(\varepsilon) = \sup_E P(E) - e^\varepsilon Q(E),

which can be written in four ways (seed 002, §2.1). This module provides the
privacy-loss variables of the Gaussian, Laplace and randomized-response
mechanisms (and of any two pmfs), one function per expression of δ, each
computed by its own route (sets in output space, tails of Z, an expectation
over Z, an integral of the tail), and the exact curves in closed form,
accurate in log space down to δ ≈ 1e-300.

Used in: book/02-composition, book/03-conversion, book/04-hypothesis-testing
"""

import warnings

import numpy as np
from scipy import integrate, optimize
from scipy.special import erfcx, log_ndtr, ndtr

from ._validation import (
    check_delta,
    check_int,
    check_interval,
    check_nonnegative,
    check_pmf_pair,
    check_positive,
    named_shapes,
    scalar_or_array,
)

__all__ = [
    "PrivacyLoss",
    "privacy_loss_gaussian",
    "privacy_loss_laplace",
    "privacy_loss_randomized_response",
    "privacy_loss_discrete",
    "hockey_stick_divergence",
    "delta_sup_over_sets",
    "delta_tail_difference",
    "delta_expected_hinge",
    "delta_tail_integral",
    "delta_tail_bound",
    "delta_gaussian",
    "log_delta_gaussian",
    "epsilon_gaussian",
    "delta_laplace",
    "epsilon_laplace",
    "delta_randomized_response",
    "epsilon_randomized_response",
]

_SQRT2 = np.sqrt(2.0)


# ---------------------------------------------------------------------------
# Exact privacy curves in closed form
# ---------------------------------------------------------------------------


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
    Balle & Wang (2018), "Improving the Gaussian mechanism", Theorem 8; seed 002, S2-02.

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
    Warner (1965); Kairouz, Oh & Viswanath (2015); seed 002, S2-11.

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
    Seed 002, S2-02, equation (.1).

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


# ---------------------------------------------------------------------------
# Privacy-loss random variables
# ---------------------------------------------------------------------------


class PrivacyLoss:
    r"""The privacy-loss random variable Z = log(P(Y)/Q(Y)), Y ~ P, of a pair (P, Q).

    Build one with :func:`privacy_loss_gaussian`, :func:`privacy_loss_laplace`,
    :func:`privacy_loss_randomized_response` or :func:`privacy_loss_discrete`.

    The object exposes the pair in output space (``log_p``, ``log_q``,
    ``log_ratio``, ``sample_y``) and, separately, the law of Z derived by hand:
    its atoms and their masses (``atoms``, ``masses``), the density of its
    continuous part (``density`` on ``density_range``), and the two survival
    functions ``sf(z) = P_{Y~P}[ℓ(Y) > z]`` and ``sf_q(z) = P_{Y~Q}[ℓ(Y) > z]``
    (the latter is P[−Z' > z] for Z' = PrivLoss(Q‖P)), where ℓ(y) = log(P(y)/Q(y))
    is the privacy loss at output y. The δ functions of this module use these
    two descriptions independently.

    References
    ----------
    Seed 002, S2-01 (definition); Dwork & Rothblum (2016); Sommer, Meiser & Mohammadi (2019).
    """

    def __init__(self, name, *, log_p, log_q, sample_y, sf, sf_q, atoms=(), masses=(),
                 density=None, density_range=None, y_points=(), y_scale=1.0, pmfs=None):
        self.name = name
        self.log_p = log_p
        self.log_q = log_q
        self.sample_y = sample_y
        self.sf = sf
        self.sf_q = sf_q
        self.atoms = np.asarray(atoms, dtype=float)
        self.masses = np.asarray(masses, dtype=float)
        self.density = density
        self.density_range = density_range
        self.y_points = tuple(y_points)
        self.y_scale = float(y_scale)
        self.pmfs = pmfs  # (p, q) for discrete pairs, else None

    def log_ratio(self, y):
        """The privacy loss ℓ(y) = log P(y) − log Q(y) at output y."""
        return self.log_p(y) - self.log_q(y)

    def sample(self, n, seed=0):
        """``n`` draws of Z (Y ~ P mapped through the log ratio), from ``numpy.random.default_rng(seed)``."""
        rng = np.random.default_rng(seed)
        return self.log_ratio(self.sample_y(int(n), rng))

    def expect(self, h):
        """E[h(Z)] from the law of Z: atoms plus quadrature of the continuous part."""
        total = float(np.sum(self.masses * h(self.atoms))) if self.atoms.size else 0.0
        if self.density is not None:
            lo, hi = self.density_range
            total += _quad(lambda z: h(z) * self.density(z), lo, hi)
        return total

    def __repr__(self):
        return f"PrivacyLoss({self.name})"


def _quad(f, lo, hi, points=()):
    """Adaptive quadrature of a scalar function, split at the given points."""
    inner = sorted(x for x in points if lo < x < hi)
    edges = [lo, *inner, hi]
    total = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        for a, b in zip(edges[:-1], edges[1:]):
            total += integrate.quad(lambda x: float(np.asarray(f(np.asarray(x)))), a, b,
                                    limit=400, epsabs=0.0, epsrel=1e-13)[0]
    return total


@named_shapes
def privacy_loss_gaussian(sigma, sensitivity=1.0):
    r"""Privacy loss of the Gaussian mechanism: P = N(Δ, σ²), Q = N(0, σ²).

    .. math:: \ell(y) = \frac{2y\Delta - \Delta^2}{2\sigma^2},\qquad
              Z \sim \mathcal N(\mu^2/2, \mu^2),\quad \mu = \Delta/\sigma;

    under Q the same map has law N(−μ²/2, μ²).

    Parameters
    ----------
    sigma : float, σ > 0
    sensitivity : float, Δ > 0

    Returns
    -------
    PrivacyLoss

    Raises
    ------
    ValueError
        If σ ≤ 0 or Δ ≤ 0.

    References
    ----------
    Seed 002, S2-01; seed 004, Example 1 (scaling and translation invariance).

    Examples
    --------
    >>> loss = privacy_loss_gaussian(1.0)
    >>> round(float(loss.sf(0.5)), 12)  # P[N(1/2, 1) > 1/2]
    0.5
    """
    sigma = float(check_positive(sigma, "sigma"))
    d = float(check_positive(sensitivity, "sensitivity"))
    mu = d / sigma
    if not 1e-150 <= mu <= 1e150:
        raise ValueError(f"sensitivity/sigma must be in [1e-150, 1e150] (got sensitivity = {d:g}, sigma = {sigma:g}): "
                         f"the loss N(μ²/2, μ²) is not representable beyond")
    m, s = 0.5 * mu**2, mu
    log_c = -0.5 * np.log(2.0 * np.pi) - np.log(sigma)
    return PrivacyLoss(
        f"Gaussian(sigma={sigma:g}, sensitivity={d:g})",
        log_p=lambda y: log_c - 0.5 * ((np.asarray(y, float) - d) / sigma) ** 2,
        log_q=lambda y: log_c - 0.5 * (np.asarray(y, float) / sigma) ** 2,
        sample_y=lambda n, rng: d + sigma * rng.standard_normal(n),
        sf=lambda z: ndtr((m - np.asarray(z, float)) / s),
        sf_q=lambda z: ndtr((-m - np.asarray(z, float)) / s),
        density=lambda z: np.exp(-0.5 * ((z - m) / s) ** 2) / (s * np.sqrt(2.0 * np.pi)),
        density_range=(m - 80.0 * s, m + 80.0 * s),  # e^{-3200}: beyond double precision
        y_points=(0.0, d),
        y_scale=sigma,
    )


@named_shapes
def privacy_loss_laplace(scale, sensitivity=1.0):
    r"""Privacy loss of the Laplace mechanism: P = Lap(Δ, b), Q = Lap(0, b).

    The privacy loss at output y is ℓ(y) = (|y| − |y − Δ|)/b ∈ [−Δ/b, Δ/b]. Under P,
    Z has an atom of mass ½ at Δ/b, an atom of mass ½e^{−Δ/b} at −Δ/b, and density
    ¼e^{(z−Δ/b)/2} on (−Δ/b, Δ/b); for −Δ/b ≤ z < Δ/b,

    .. math:: P[Z > z] = 1 - \tfrac12 e^{(z-\Delta/b)/2},\qquad
              P_{Y\sim Q}[\ell(Y) > z] = \tfrac12 e^{-(z+\Delta/b)/2}.

    Parameters
    ----------
    scale : float, b > 0
    sensitivity : float, Δ > 0

    Returns
    -------
    PrivacyLoss

    Raises
    ------
    ValueError
        If b ≤ 0 or Δ ≤ 0.

    References
    ----------
    Seed 002, S2-01; derived here (see :func:`delta_laplace`).

    Examples
    --------
    >>> loss = privacy_loss_laplace(1.0)
    >>> [float(x) for x in loss.atoms], [round(float(m), 6) for m in loss.masses]
    ([-1.0, 1.0], [0.18394, 0.5])
    """
    b = float(check_positive(scale, "scale"))
    d = float(check_positive(sensitivity, "sensitivity"))
    t = d / b
    log_c = -np.log(2.0 * b)

    def sf(z):
        z = np.asarray(z, float)
        mid = 1.0 - 0.5 * np.exp(0.5 * (np.clip(z, -t, t) - t))
        return np.where(z < -t, 1.0, np.where(z >= t, 0.0, mid))

    def sf_q(z):
        z = np.asarray(z, float)
        mid = 0.5 * np.exp(-0.5 * (np.clip(z, -t, t) + t))
        return np.where(z < -t, 1.0, np.where(z >= t, 0.0, mid))

    return PrivacyLoss(
        f"Laplace(scale={b:g}, sensitivity={d:g})",
        log_p=lambda y: log_c - np.abs(np.asarray(y, float) - d) / b,
        log_q=lambda y: log_c - np.abs(np.asarray(y, float)) / b,
        sample_y=lambda n, rng: d + rng.laplace(0.0, b, n),
        sf=sf,
        sf_q=sf_q,
        atoms=(-t, t),
        masses=(0.5 * np.exp(-t), 0.5),
        density=lambda z: 0.25 * np.exp(0.5 * (z - t)),
        density_range=(-t, t),
        y_points=(0.0, d),
        y_scale=b,
    )


@named_shapes
def privacy_loss_discrete(p, q):
    r"""Privacy loss of two pmfs on the same finite support {0, 1, …} (indices of the arrays).

    Z takes the value log(P(i)/Q(i)) with probability P(i).

    Parameters
    ----------
    p, q : array_like, the pmfs of P and Q, of equal length with the same support

    Returns
    -------
    PrivacyLoss

    Raises
    ------
    ValueError
        If p, q are not pmfs of equal length, or their supports differ
        (the privacy loss is then undefined, seed 002 §1).

    References
    ----------
    Seed 002, S2-01.

    Examples
    --------
    >>> loss = privacy_loss_discrete([0.5, 0.5], [0.25, 0.75])
    >>> [round(float(z), 6) for z in loss.atoms]
    [0.693147, -0.405465]
    """
    p, q = check_pmf_pair(p, q)
    on = p > 0
    with np.errstate(divide="ignore"):
        lp, lq = np.log(p), np.log(q)
    z = np.where(on, lp - lq, 0.0)
    idx = np.arange(p.size)

    def lookup(table):
        return lambda y: table[np.asarray(y, dtype=int)]

    def sf(zz):
        zz = np.asarray(zz, float)
        return np.sum(np.where(z[on] > zz[..., None], p[on], 0.0), axis=-1)

    def sf_q(zz):
        zz = np.asarray(zz, float)
        return np.sum(np.where(z[on] > zz[..., None], q[on], 0.0), axis=-1)

    return PrivacyLoss(
        f"discrete(n={p.size})",
        log_p=lookup(lp),
        log_q=lookup(lq),
        sample_y=lambda n, rng: rng.choice(idx, size=n, p=p),
        sf=sf,
        sf_q=sf_q,
        atoms=z[on],
        masses=p[on],
        pmfs=(p, q),
    )


@named_shapes
def privacy_loss_randomized_response(p):
    r"""Privacy loss of binary randomized response: P = (p, 1−p), Q = (1−p, p).

    Z = ℓ with probability p and −ℓ with probability 1 − p, ℓ = log(p/(1−p)).

    Parameters
    ----------
    p : float, p ∈ (0, 1)

    Returns
    -------
    PrivacyLoss

    Raises
    ------
    ValueError
        If p ∉ (0, 1).

    Examples
    --------
    >>> loss = privacy_loss_randomized_response(0.75)
    >>> [round(float(z), 6) for z in loss.atoms]
    [1.098612, -1.098612]
    """
    p = float(check_interval(p, "p", 0, 1, closed_low=False, closed_high=False))
    loss = privacy_loss_discrete([p, 1.0 - p], [1.0 - p, p])
    loss.name = f"randomized response(p={p:g})"
    return loss


# ---------------------------------------------------------------------------
# The four expressions of δ (seed 002, §2.1), each by its own route
# ---------------------------------------------------------------------------


def _check_loss(loss):
    if not isinstance(loss, PrivacyLoss):
        raise TypeError(f"loss must be a PrivacyLoss (from privacy_loss_gaussian, privacy_loss_laplace, …; got "
                        f"{type(loss).__name__})")


def _check_eps_scalar(epsilon):
    return float(check_nonnegative(epsilon, "epsilon"))


@named_shapes
def delta_sup_over_sets(loss, epsilon):
    r"""δ(ε) = sup_E P(E) − e^ε Q(E), computed in output space.

    .. math:: \delta(\varepsilon) = \int \max\{0,\; P(y) - e^\varepsilon Q(y)\}\,dy

    For pmfs this is a finite sum; for densities, adaptive quadrature of the
    positive part over y (split where P(y) = e^ε Q(y) and at the kinks), with the
    integrand scaled by its peak so that tiny δ keep their relative precision.

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0

    Returns
    -------
    float

    References
    ----------
    Seed 002, S2-02, equation (.1).

    Examples
    --------
    >>> round(delta_sup_over_sets(privacy_loss_gaussian(1.0), 1.0), 10)
    0.1269367375
    """
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)
    if loss.pmfs is not None:
        return float(hockey_stick_divergence(*loss.pmfs, eps))

    def log_integrand(y):
        lr = loss.log_ratio(y)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(lr > eps, loss.log_p(y) + np.log(-np.expm1(np.minimum(eps - lr, 0.0))), -np.inf)

    # the event {ℓ(y) > ε} is a half-line (y*, ∞) because the loss ℓ increases in y
    lo_y, hi_y = _half_line_start(loss, eps)
    if lo_y is None:
        return 0.0
    grid = np.linspace(lo_y, hi_y, 4001)
    vals = log_integrand(grid)
    if not np.any(np.isfinite(vals)):
        return 0.0
    shift = float(np.max(vals))
    live = np.nonzero(vals > shift - 80.0)[0]
    a, b = lo_y, float(grid[min(live[-1] + 1, grid.size - 1)])
    pts = [x for x in loss.y_points if a < x < b] + list(np.linspace(a, b, 9)[1:-1])
    val = _quad(lambda y: np.exp(log_integrand(y) - shift), a, b, points=pts)
    return float(val * np.exp(shift))


def _half_line_start(loss, eps):
    """(y*, y_end): {ℓ(y) > ε} = (y*, ∞) since the loss ℓ increases in y; the positive part
    P(y) − e^ε Q(y) is negligible (below e^-100 of the largest density value) beyond y_end.
    Returns (None, None) when the set is empty."""
    scale = loss.y_scale
    top, bottom = max(loss.y_points), min(loss.y_points)
    hi = top + scale
    while float(loss.log_ratio(hi)) <= eps:
        hi = top + 2.0 * (hi - top)
        if hi - top > 1e6 * scale:
            return None, None  # the loss is bounded by ε
    lo = bottom - scale
    while float(loss.log_ratio(lo)) > eps:
        lo = bottom - 2.0 * (bottom - lo)
    y_star = float(optimize.brentq(lambda y: float(loss.log_ratio(y)) - eps, lo, hi,
                                   xtol=1e-15, rtol=1e-15))
    peak = max(float(loss.log_p(y)) for y in [y_star, *[x for x in loss.y_points if x > y_star]])
    end = max(y_star, top) + scale
    while float(loss.log_p(end)) > peak - 100.0:
        end = y_star + 2.0 * (end - y_star)
    return y_star, float(end)


@named_shapes
def delta_tail_difference(loss, epsilon):
    r"""δ(ε) = P[Z > ε] − e^ε P[−Z' > ε], Z = PrivLoss(P‖Q), Z' = PrivLoss(Q‖P).

    .. math:: \delta(\varepsilon) = \Pr_{Z}[Z > \varepsilon] - e^\varepsilon \Pr_{Z'}[-Z' > \varepsilon]

    Computed from the closed-form survival functions of the privacy-loss laws.

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0

    Returns
    -------
    float

    References
    ----------
    Seed 002, S2-02, first equality.

    Examples
    --------
    >>> round(delta_tail_difference(privacy_loss_laplace(1.0), 0.0), 12)
    0.393469340287
    """
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)
    with np.errstate(divide="ignore", over="ignore"):
        # e^ε·P[−Z' > ε] in log space: e^ε alone overflows beyond ε ≈ 709 while the product is tiny
        return float(loss.sf(eps) - np.exp(eps + np.log(loss.sf_q(eps))))


@named_shapes
def delta_expected_hinge(loss, epsilon, n_samples=None, seed=0):
    r"""δ(ε) = E[max{0, 1 − e^{ε − Z}}], Z = PrivLoss(P‖Q).

    .. math:: \delta(\varepsilon) = \mathbb E_{Z}\big[\max\{0,\; 1 - e^{\varepsilon - Z}\}\big]

    Exact from the law of Z (atoms plus quadrature of its density) by default;
    with ``n_samples`` a Monte Carlo estimate from ``default_rng(seed)``, returned
    together with its standard error.

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0
    n_samples : int in [2, 1e8], optional
    seed : int, default 0

    Returns
    -------
    float, or (estimate, standard error) when ``n_samples`` is given

    References
    ----------
    Seed 002, S2-02, second equality.

    Examples
    --------
    >>> round(delta_expected_hinge(privacy_loss_randomized_response(0.75), 0.0), 12)
    0.5
    >>> est, se = delta_expected_hinge(privacy_loss_gaussian(1.0), 1.0, n_samples=10**5)
    >>> abs(est - 0.126936737507) < 5 * se
    True
    """
    seed = check_int(seed, "seed", maximum=2**63 - 1)
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)

    def hinge(z):
        with np.errstate(over="ignore"):
            return np.maximum(0.0, -np.expm1(np.minimum(eps - np.asarray(z, float), 700.0)))

    if n_samples is None:
        if loss.density is not None:
            lo, hi = loss.density_range
            total = float(np.sum(loss.masses * hinge(loss.atoms))) if loss.atoms.size else 0.0
            lo = max(lo, eps)
            if hi > lo:
                total += _quad(lambda z: hinge(z) * loss.density(z), lo, hi)
            return total
        return loss.expect(hinge)
    n_samples = check_int(n_samples, "n_samples", minimum=2, maximum=10**8)
    z = loss.sample(n_samples, seed)
    h = hinge(z)
    return float(h.mean()), float(h.std(ddof=1) / np.sqrt(h.size))


@named_shapes
def delta_tail_integral(loss, epsilon):
    r"""δ(ε) = ∫_ε^∞ e^{ε − z} P[Z > z] dz, by quadrature over z.

    .. math:: \delta(\varepsilon) = \int_\varepsilon^\infty e^{\varepsilon - z}\,\Pr[Z > z]\,dz

    (integration by parts of the expected hinge).

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0

    Returns
    -------
    float

    References
    ----------
    Seed 002, S2-02, third equality.

    Examples
    --------
    >>> round(delta_tail_integral(privacy_loss_laplace(1.0), 0.5), 10)
    0.2211992169
    """
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)
    pts = [float(a) for a in loss.atoms if a > eps]
    hi = max(pts) if loss.density is None and pts else np.inf
    if loss.density is not None and np.isfinite(loss.density_range[1]):
        hi = max(loss.density_range[1], *pts) if pts else loss.density_range[1]
    if hi <= eps:
        return 0.0
    return _quad(lambda z: np.exp(eps - z) * loss.sf(z), eps, hi, points=pts)


@named_shapes
def delta_tail_bound(loss, epsilon):
    r"""The upper bound P[Z > ε] ≥ δ(ε).

    .. math:: \delta(\varepsilon) \le \Pr_{Z \sim \mathrm{PrivLoss}(P\|Q)}[Z > \varepsilon]

    Parameters
    ----------
    loss : PrivacyLoss
    epsilon : float, ε ≥ 0

    Returns
    -------
    float

    References
    ----------
    Seed 002, S2-02, final inequality.

    Examples
    --------
    >>> round(delta_tail_bound(privacy_loss_gaussian(1.0), 0.5), 12)
    0.5
    """
    _check_loss(loss)
    eps = _check_eps_scalar(epsilon)
    return float(loss.sf(eps))
