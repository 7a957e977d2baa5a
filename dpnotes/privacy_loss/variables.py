r"""The privacy-loss random variable of a pair of laws, and its constructors per mechanism.

:class:`PrivacyLoss` holds a pair (P, Q) twice over: in output space (log
densities, sampling) and as the law of Z = log(P(Y)/Q(Y)), Y ~ P, derived by
hand (atoms, density, the two survival functions), and carries that law as a
:class:`~dpnotes.privacy_loss.laws.LossLaw` (``law``: interval masses, the
interface the PLD constructors discretise). It is built by
:func:`privacy_loss_gaussian`, :func:`privacy_loss_laplace`,
:func:`privacy_loss_discrete` (any two pmfs) and
:func:`privacy_loss_randomized_response`. :func:`adaptive_integral` (adaptive
quadrature split at given points; public, not re-exported) is shared with
:mod:`dpnotes.privacy_loss.expressions`.
"""

import math
import warnings

import numpy as np
from scipy.special import ndtr

from .._validation import (check_count, check_interval, check_pmf_pair, check_positive, check_real, check_work,
                           named_shapes, validated_methods)
from .laws import AtomicLossLaw, GaussianLossLaw, LaplaceLossLaw, LossLaw


#: the most draws :meth:`PrivacyLoss.sample` makes in one call (10⁷ doubles: the most entries of an array argument,
#: :data:`dpnotes._validation.MAX_ARRAY_ENTRIES`, which the draws become for the log ratio)
MAX_SAMPLES = 10**7


def _checked_point_function(fn, name, what):
    """``fn`` behind the checks of the public functions: its argument a real number or array (no NaN),
    named ``name``; the result computed under its own floating-point error state."""
    if fn is None:
        return None

    @named_shapes
    def checked(x):
        return fn(check_real(x, name))

    checked.__name__ = what
    checked.__doc__ = getattr(fn, "__doc__", None)
    return checked


@validated_methods
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
    two descriptions independently. ``law`` is the same law of Z behind the
    interface of :class:`~dpnotes.privacy_loss.laws.LossLaw` (masses of loss
    intervals under P and Q, log-density, atoms), which
    :func:`dpnotes.pld.pld_from_privacy_loss` discretises; ``sf`` and ``sf_q``
    are kept as their own closed forms (the law's tail masses are computed
    differently and would differ in the last digits).

    References
    ----------
    Source S2, S2-01 (definition); Dwork & Rothblum (2016); Sommer, Meiser & Mohammadi (2019).
    """

    def __init__(self, name, *, log_p, log_q, sample_y, sf, sf_q, law, atoms=(), masses=(),
                 density=None, density_range=None, y_points=(), y_scale=1.0, pmfs=None, log_ratio=None):
        if not isinstance(law, LossLaw):
            raise TypeError(f"law must be a LossLaw (got {type(law).__name__})")
        self.name = name
        self.law = law
        self.log_p = _checked_point_function(log_p, "y", "log_p")
        self.log_q = _checked_point_function(log_q, "y", "log_q")
        self.sample_y = sample_y
        self.sf = _checked_point_function(sf, "z", "sf")
        self.sf_q = _checked_point_function(sf_q, "z", "sf_q")
        self.atoms = np.asarray(atoms, dtype=float)
        self.masses = np.asarray(masses, dtype=float)
        self.density = _checked_point_function(density, "z", "density")
        self.density_range = density_range
        self.y_points = tuple(y_points)
        self.y_scale = float(y_scale)
        self.pmfs = pmfs  # (p, q) for discrete pairs, else None
        # ℓ(y) in closed form where the mechanism has one: log P(y) − log Q(y) is −∞ − (−∞) at y = ±∞
        self.log_ratio_closed = _checked_point_function(log_ratio, "y", "log_ratio")

    def log_ratio(self, y):
        """The privacy loss ℓ(y) = log P(y) − log Q(y) at output y (its closed form where the constructor gives
        one, so that ℓ(±∞) is its limit, not ∞ − ∞)."""
        if self.log_ratio_closed is not None:
            return self.log_ratio_closed(y)
        return self.log_p(y) - self.log_q(y)

    def sample(self, n, seed=0):
        """``n`` draws of Z (Y ~ P mapped through the log ratio), from ``numpy.random.default_rng(seed)``."""
        n = int(check_count(n, "n", minimum=0))
        check_work(n, MAX_SAMPLES, f"PrivacyLoss.sample(n={n})", f"draw at most {MAX_SAMPLES:.0e} values per call")
        try:
            rng = np.random.default_rng(seed)
        except (TypeError, ValueError) as err:
            raise TypeError(f"seed must be a non-negative int, None or a numpy Generator (got "
                            f"{type(seed).__name__} {seed!r:.40})") from err
        return self.log_ratio(self.sample_y(n, rng))

    def expect(self, h):
        """E[h(Z)] from the law of Z: atoms plus quadrature of the continuous part."""
        if not callable(h):
            raise TypeError(f"h must be a function of z (got {type(h).__name__} {h!r:.40})")
        total = float(np.sum(self.masses * h(self.atoms))) if self.atoms.size else 0.0
        if self.density is not None:
            # z = c + w·x on x ∈ [−1, 1], the integrand divided by its largest sampled magnitude M: QUADPACK then
            # sees values of order one whatever the scale of the loss (a range of width 1e-148, values 1e300)
            lo, hi = self.density_range
            # the position of a loss z is known to u·|z| (u the unit round-off): where that is not small against the
            # width of the continuous part, its density is evaluated at the wrong places (the Laplace loss at
            # Δ/b = 1e16: E[Z] off by 4 %; at 1e13 by 7e-6, at 1e10 by 2e-10): refused
            resolution = np.finfo(float).eps * max(abs(lo), abs(hi)) / (hi - lo)
            if not resolution <= _MAX_RESOLUTION:
                raise ValueError(f"h: E[h(Z)] of {self.name} is not computed: its continuous part lies on [{lo:.6g}, "
                                 f"{hi:.6g}], too narrow for its position to be resolved in double precision (relative "
                                 f"resolution {resolution:.2g}, limit {_MAX_RESOLUTION:g}); use a mechanism whose loss "
                                 f"range is closer to 0 (a smaller sensitivity/scale)")
            c, w = 0.5 * (lo + hi), 0.5 * (hi - lo)
            x = np.linspace(-1.0, 1.0, 401)
            sampled = np.asarray(h(c + w * x), float) * self.density(c + w * x)
            big = float(np.max(np.abs(sampled))) if np.all(np.isfinite(sampled)) else math.inf
            if not math.isfinite(big):
                raise ValueError(f"h(z)·density(z) exceeds the float range on the loss range [{lo:.3g}, {hi:.3g}] of "
                                 f"{self.name}: E[h(Z)] is not representable; use an h that grows less")
            if big > 0:
                part = w * adaptive_integral(lambda u: h(c + w * u) * self.density(c + w * u) / big, -1.0, 1.0, (0.0,))
                total += part * big
        if not math.isfinite(total):
            raise ValueError(f"h: E[h(Z)] is not a finite float for {self.name} (got {total}; beyond 1.8e308 or h "
                             f"infinite at the atoms {self.atoms[:3]}); use an h that grows less")
        return total

    def __repr__(self):
        return f"PrivacyLoss({self.name})"


#: the largest relative resolution u·max|z|/(width) of a continuous part that :meth:`PrivacyLoss.expect` integrates
#: (about 10⁻¹¹–10⁻¹⁰ relative error of E[h(Z)] at this limit, checked against mpmath in the tests)
_MAX_RESOLUTION = 1e-10


def adaptive_integral(f, lo, hi, points=()):
    """∫_lo^hi f(x) dx by adaptive quadrature (scipy's QUADPACK), split at the ``points`` inside (lo, hi).

    Each piece is integrated to relative tolerance 1e-13 with at most 400 subintervals;
    QUADPACK's warnings are silenced (the callers check their results by a second route).
    """
    from scipy import integrate  # imported here: loading this module stays light
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
    Source S2, S2-01; source S4, Example 1 (scaling and translation invariance).

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
        log_ratio=lambda y: mu * ((np.asarray(y, float) - 0.5 * d) / sigma),  # (2yΔ − Δ²)/(2σ²), ±∞ at y = ±∞
        sf=lambda z: ndtr((m - np.asarray(z, float)) / s),
        sf_q=lambda z: ndtr((-m - np.asarray(z, float)) / s),
        density=lambda z: np.exp(-0.5 * ((z - m) / s) ** 2) / (s * np.sqrt(2.0 * np.pi)),
        density_range=(m - 80.0 * s, m + 80.0 * s),  # e^{-3200}: beyond double precision
        law=GaussianLossLaw(mu),
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
    Source S2, S2-01; derived here (see :func:`delta_laplace`).

    Examples
    --------
    >>> loss = privacy_loss_laplace(1.0)
    >>> [float(x) for x in loss.atoms], [round(float(m), 6) for m in loss.masses]
    ([-1.0, 1.0], [0.18394, 0.5])
    """
    b = float(check_positive(scale, "scale"))
    d = float(check_positive(sensitivity, "sensitivity"))
    t = d / b
    if not 0.0 < t < math.inf:
        raise ValueError(f"sensitivity/scale must be in (0, ∞) as a float (got sensitivity {d:g} / scale {b:g} "
                         f"= {t:g}); use a ratio between about 1e-300 and 1e300")
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
        log_ratio=lambda y: np.clip((2.0 * np.asarray(y, float) - d) / b, -t, t),  # (|y| − |y − Δ|)/b, ±Δ/b at ±∞
        sf=sf,
        sf_q=sf_q,
        atoms=(-t, t),
        masses=(0.5 * np.exp(-t), 0.5),
        density=lambda z: 0.25 * np.exp(0.5 * (z - t)),
        # the density (1/4)e^{(z−t)/2} is below e^{−750} (under the smallest double) beyond 1500 below t: the
        # quadrature of expect() sees the bulk, not a peak of width 2 at the end of a range of width 2t
        density_range=(max(-t, t - 1500.0), t),
        law=LaplaceLossLaw(t),
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
        (the privacy loss is then undefined, source S2 §1).

    References
    ----------
    Source S2, S2-01.

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
        def at(y):  # y an outcome index 0 … n − 1 (integer-valued)
            y = np.asarray(y, dtype=float)
            if not np.all((y == np.round(y)) & (y >= 0) & (y < table.size)):
                raise ValueError(f"y must be outcome indices, integers in [0, {table.size - 1}] (got {np.ravel(y)[:3]})")
            return table[y.astype(int)]

        return at

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
        law=AtomicLossLaw(zip(z[on].tolist(), p[on].tolist())),
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
    ell = math.log(p) - math.log1p(-p)  # log1p: as the PLD constructor has always computed it
    loss.law = AtomicLossLaw([(ell, p), (-ell, 1.0 - p)])
    return loss
