r"""Loss laws: the privacy loss of one direction of a mechanism, before discretisation.

A loss law describes Z = log(dP/dQ)(Y), Y ~ P, through the small interface
:class:`_LossLaw` (the masses of loss intervals under P and Q, a log-density
for quadrature, the atoms, the support and a range holding all but the tails),
which is all :func:`dpnotes.pld.discretise._discretise` needs. The laws:

* :class:`_GaussianLoss`: the Gaussian mechanism, Z ~ N(μ²/2, μ²);
* :class:`_LaplaceLoss`: the Laplace mechanism, two atoms and a density between;
* :class:`_SubsampledGaussianLoss`: the Poisson-subsampled Gaussian, either direction;
* :class:`_AtomicLoss`: a purely atomic law (randomized response, finite pmfs).

:func:`_norm_mass` is Φ(b) − Φ(a) accurate in the tails, which the Gaussian laws use.

Used in: book/07-exact-answer
"""

import math

import numpy as np
from scipy.special import log_ndtr, ndtr, ndtri


def _norm_mass(a, b):
    """Φ(b) − Φ(a) for a ≤ b, accurate to a few ulps relative also in the tails."""
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    out = np.empty(a.shape)
    left = b <= 0
    right = a >= 0
    mid = ~(left | right)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lb, la = log_ndtr(b[left]), log_ndtr(a[left])
        out[left] = np.where(np.isneginf(lb), 0.0, np.exp(lb) * -np.expm1(la - lb))
        ra, rb = log_ndtr(-a[right]), log_ndtr(-b[right])
        out[right] = np.where(np.isneginf(ra), 0.0, np.exp(ra) * -np.expm1(rb - ra))
        out[mid] = 1.0 - ndtr(a[mid]) - ndtr(-b[mid])
    return np.maximum(out, 0.0)


class _LossLaw:
    """The interface of a loss law: what discretising one direction of a mechanism needs.

    The privacy loss Z = log(dP/dQ)(Y), Y ~ P, has a continuous part and finitely many atoms.

    Attributes
    ----------
    support : (float, float)
        The smallest and largest loss of the continuous part (±∞ allowed).
    atoms : sequence of (float, float)
        (loss, P-mass) of each atom at a finite loss.

    Methods
    -------
    mass(a, b)
        P(a < Z ≤ b) of the continuous part, elementwise over arrays.
    q_mass(a, b)
        The Q-mass of the same outputs (dQ = e^{−Z} dP).
    log_density(ell)
        log of the density of the continuous part under P, up to an additive
        constant (quadrature weights inside a bin); −∞ outside the support.
    range(tail)
        Losses (lo, hi) outside which each tail of Z holds about ``tail``.
    """

    support = (-math.inf, math.inf)
    atoms = ()

    def mass(self, a, b):
        raise NotImplementedError

    def q_mass(self, a, b):
        raise NotImplementedError

    def log_density(self, ell):
        raise NotImplementedError

    def range(self, tail):
        raise NotImplementedError


class _GaussianLoss(_LossLaw):
    """Z ~ N(μ²/2, μ²) under P (Gaussian mechanism, μ = sensitivity/σ)."""

    def __init__(self, mu):
        self.mu = mu
        self.mean = 0.5 * mu * mu
        self.support = (-math.inf, math.inf)
        self.atoms = ()

    def mass(self, a, b):
        return _norm_mass((np.asarray(a) - self.mean) / self.mu, (np.asarray(b) - self.mean) / self.mu)

    def q_mass(self, a, b):  # under Q the loss is N(−μ²/2, μ²)
        return _norm_mass((np.asarray(a) + self.mean) / self.mu, (np.asarray(b) + self.mean) / self.mu)

    def log_density(self, ell):
        z = (ell - self.mean) / self.mu
        return -0.5 * z * z

    def range(self, tail):
        z = -ndtri(tail)
        return self.mean - z * self.mu, self.mean + z * self.mu


class _LaplaceLoss(_LossLaw):
    """Laplace mechanism, t = Δ/b: atoms ½e^{−t} at −t and ½ at t, density ¼e^{(ℓ−t)/2} between."""

    def __init__(self, t):
        self.t = t
        self.support = (-t, t)
        self.atoms = ((-t, 0.5 * math.exp(-t)), (t, 0.5))

    def mass(self, a, b):  # continuous part only
        a = np.clip(a, -self.t, self.t)
        b = np.clip(b, -self.t, self.t)
        return 0.5 * np.exp((b - self.t) / 2) * -np.expm1((a - b) / 2)

    def q_mass(self, a, b):  # continuous part: ∫ ¼e^{(ℓ−t)/2} e^{−ℓ} dℓ
        a = np.clip(a, -self.t, self.t)
        b = np.clip(b, -self.t, self.t)
        return 0.5 * np.exp(-(self.t + a) / 2) * -np.expm1((a - b) / 2)

    def log_density(self, ell):
        return 0.5 * ell

    def range(self, tail):
        return -self.t, self.t


class _SubsampledGaussianLoss(_LossLaw):
    """Poisson-subsampled Gaussian, 0 < q < 1, sensitivity 1.

    remove: P = (1−q)N(0,σ²) + qN(1,σ²), Q = N(0,σ²), loss ℓ(x) = log(1−q+q e^{(x−½)/σ²}) ↑ in x.
    add:    P = N(0,σ²), Q = the mixture, loss ℓ(x) = −log(1−q+q e^{(x−½)/σ²}) ↓ in x.
    """

    def __init__(self, q, sigma, remove):
        self.q, self.sigma, self.remove = q, sigma, remove
        self.l0 = math.log1p(-q)  # log(1 − q): infimum of the remove loss
        self.support = (self.l0, math.inf) if remove else (-math.inf, -self.l0)
        self.atoms = ()

    def _x(self, m):
        """x with log(1 − q + q e^{(x−½)/σ²}) = m, for m > log(1−q); −∞ at the edge."""
        m = np.asarray(m, float)
        with np.errstate(divide="ignore", invalid="ignore"):
            inner = np.log(np.expm1(np.maximum(m - self.l0, 0.0)))
            x = 0.5 + self.sigma**2 * (self.l0 + inner - math.log(self.q))
        x = np.where(m <= self.l0, -np.inf, x)
        return np.where(np.isposinf(m), np.inf, x)

    def mass(self, a, b):
        s = self.sigma
        if self.remove:
            xa, xb = self._x(a), self._x(b)
            return ((1 - self.q) * _norm_mass(xa / s, xb / s)
                    + self.q * _norm_mass((xa - 1) / s, (xb - 1) / s))
        xa, xb = self._x(-np.asarray(b, float)), self._x(-np.asarray(a, float))
        return _norm_mass(xa / s, xb / s)

    def q_mass(self, a, b):
        """Q-mass of the loss interval (a, b]: the mass of the same outputs under the other law."""
        s = self.sigma
        if self.remove:
            xa, xb = self._x(a), self._x(b)
            return _norm_mass(xa / s, xb / s)
        xa, xb = self._x(-np.asarray(b, float)), self._x(-np.asarray(a, float))
        return (1 - self.q) * _norm_mass(xa / s, xb / s) + self.q * _norm_mass((xa - 1) / s, (xb - 1) / s)

    def log_density(self, ell):
        s2 = self.sigma**2
        m = ell if self.remove else -ell
        x = self._x(m)
        with np.errstate(divide="ignore", invalid="ignore"):
            # |dx/dm| = σ² e^m / (e^m − (1−q)); for remove the mixture density is φ_σ(x)·e^m
            log_jac = math.log(s2) + m - (self.l0 + np.log(np.expm1(m - self.l0)))
            out = -0.5 * x * x / s2 + log_jac + (m if self.remove else 0.0)
        return np.where(np.isfinite(out), out, -np.inf)

    def range(self, tail):
        z = -ndtri(tail / 2)
        s = self.sigma
        lo_x, hi_x = -z * s, 1 + z * s
        m_lo = float(np.log1p(-self.q + self.q * math.exp((lo_x - 0.5) / s**2)))
        m_hi = float(np.logaddexp(math.log1p(-self.q), math.log(self.q) + (hi_x - 0.5) / s**2))
        if self.remove:
            return m_lo, m_hi
        return -m_hi, -m_lo


class _AtomicLoss(_LossLaw):
    """A purely atomic loss law (randomized response, finite pmfs): the atoms (loss, P-mass) and no density."""

    def __init__(self, atoms):
        self.atoms = atoms
        zs = [z for z, _ in atoms] or [0.0]
        self.support = (min(zs), max(zs))

    def mass(self, a, b):
        return np.zeros(np.broadcast(np.asarray(a), np.asarray(b)).shape)

    def q_mass(self, a, b):
        return self.mass(a, b)

    def log_density(self, ell):
        return np.full(np.shape(ell), -np.inf)

    def range(self, tail):
        return self.support
