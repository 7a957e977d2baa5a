r"""Loss laws: the law of the privacy loss Z = log(dP/dQ)(Y), Y ~ P, behind one interface.

A :class:`LossLaw` describes Z by what discretising it onto a grid needs
(:mod:`dpnotes.pld.discretise`): the P- and Q-masses of loss intervals, a
log-density of its continuous part (for quadrature inside an interval), its
atoms, its support and a range holding all but its tails. Every
:class:`~dpnotes.privacy_loss.variables.PrivacyLoss` carries its law
(``loss.law``). The laws:

* :class:`GaussianLossLaw`: the Gaussian mechanism, Z ~ N(μ²/2, μ²);
* :class:`LaplaceLossLaw`: the Laplace mechanism, two atoms and a density between;
* :class:`SubsampledGaussianLossLaw`: the Poisson-subsampled Gaussian, either direction;
* :class:`AtomicLossLaw`: a purely atomic law (randomized response, finite pmfs).

:func:`normal_mass` is Φ(b) − Φ(a), accurate in the tails, which the Gaussian laws use.

References
----------
Koskela, Jälkö & Honkela (2020), "Computing tight differential privacy
guarantees using FFT"; Doroshenko, Ghazi, Kamath, Kumar & Manurangsi (2022),
"Connect the dots: tighter discrete approximations of privacy loss
distributions"; source S2, S2-01 and S2-02.
"""

import math

import numpy as np
from scipy.special import log_ndtr, ndtr, ndtri

from .._validation import check_interval, check_noise_multiplier, check_positive
from .mixture import log_mixture_ratio_inverse_unchecked, mixture_privacy_loss


def normal_mass(a, b):
    r"""Φ(b) − Φ(a) for a ≤ b, elementwise, to full relative precision also far in the tails.

    .. math:: \Phi(b) - \Phi(a) = \begin{cases}
              \Phi(b)\,\big(1 - e^{\log\Phi(a) - \log\Phi(b)}\big) & b \le 0,\\
              \Phi(-a)\,\big(1 - e^{\log\Phi(-b) - \log\Phi(-a)}\big) & a \ge 0,\\
              1 - \Phi(a) - \Phi(-b) & a < 0 < b,
              \end{cases}

    with log Φ from :func:`scipy.special.log_ndtr` and 1 − e^t by ``expm1``: in
    each tail the difference is taken relative to the larger of the two masses.
    The relative error is about 2⁻⁵³·|log Φ| (from exponentiating log Φ):
    ~1e-16 in the bulk, ~1e-13 thirty standard deviations out.

    Parameters
    ----------
    a, b : float or array, a ≤ b (±∞ allowed), broadcast together

    Returns
    -------
    ndarray
        Φ(b) − Φ(a) ≥ 0.

    References
    ----------
    Abramowitz & Stegun (1964), 26.2 (the normal distribution function);
    scipy.special.log_ndtr (Cody's rational approximations).

    Examples
    --------
    >>> round(float(normal_mass(-1.0, 1.0)), 10)
    0.6826894921
    >>> float(normal_mass(40.0, 41.0)) > 0.0  # 1 − Φ(40) ≈ 3.7e-350 underflows; the mass is below it
    False
    >>> abs(float(normal_mass(30.0, np.inf)) / 4.906713927148187e-198 - 1) < 1e-13  # 1 − Φ(30) (mpmath)
    True
    """
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


def normal_bin_masses(z):
    r"""Φ(z_{j+1}) − Φ(z_j) for consecutive edges z_0 ≤ z_1 ≤ … of a partition, to full relative precision.

    The same values as :func:`normal_mass` of ``(z[:-1], z[1:])``, bit for bit, with log Φ taken once
    per edge: each edge's smaller tail, log Φ(−|z|), serves both bins it bounds (a bin below 0 uses
    log Φ at both its ends, a bin above 0 log Φ(−·)); a bin across 0 is 1 − Φ(a) − Φ(−b).

    Parameters
    ----------
    z : array of at least two non-decreasing floats (±∞ allowed)

    Returns
    -------
    ndarray
        The len(z) − 1 masses, ≥ 0.

    References
    ----------
    Abramowitz & Stegun (1964), 26.2; scipy.special.log_ndtr.

    Examples
    --------
    >>> z = np.array([-np.inf, -1.0, 1.0, 30.0, np.inf])
    >>> bool(np.array_equal(normal_bin_masses(z), normal_mass(z[:-1], z[1:])))
    True
    """
    z = np.asarray(z, float)
    a, b = z[:-1], z[1:]
    out = np.empty(a.shape)
    left = b <= 0
    right = a >= 0
    mid = ~(left | right)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        tail = log_ndtr(-np.abs(z))  # log Φ(z) for z ≤ 0, log Φ(−z) for z ≥ 0
        la, lb = tail[:-1], tail[1:]
        lbl, lal = lb[left], la[left]
        out[left] = np.where(np.isneginf(lbl), 0.0, np.exp(lbl) * -np.expm1(lal - lbl))
        lar, lbr = la[right], lb[right]
        out[right] = np.where(np.isneginf(lar), 0.0, np.exp(lar) * -np.expm1(lbr - lar))
        out[mid] = 1.0 - ndtr(a[mid]) - ndtr(-b[mid])
    return np.maximum(out, 0.0)


class LossLaw:
    r"""The law of a privacy loss Z = log(dP/dQ)(Y), Y ~ P: a continuous part and finitely many atoms.

    Under Q the same outputs have dQ = e^{−Z} dP, so every Q-mass follows from
    the P-law:

    .. math:: Q(a < Z \le b) = \mathbb E_P\big[e^{-Z}\,\mathbf 1\{a < Z \le b\}\big].

    Attributes
    ----------
    support : (float, float)
        The smallest and largest loss of the continuous part (±∞ allowed).
    atoms : sequence of (float, float)
        (loss, P-mass) of each atom (a loss +∞ holds P(dQ = 0)).

    Methods
    -------
    mass(a, b)
        P(a < Z ≤ b) of the continuous part, elementwise over arrays.
    q_mass(a, b)
        Q(a < Z ≤ b) of the continuous part: the Q-mass of the same outputs.
    log_density(ell)
        log of the density of the continuous part under P at ℓ, up to an additive
        constant (quadrature weights inside an interval); −∞ outside the support.
    range(tail)
        Losses (lo, hi) outside which each tail of Z holds about ``tail``.

    References
    ----------
    Source S2, S2-01 (the privacy loss) and S2-02 (δ(ε) from its law).
    """

    support = (-math.inf, math.inf)
    atoms = ()

    def mass(self, a, b):
        raise NotImplementedError

    def bin_masses(self, edges):
        """(P-masses, Q-masses) of the bins (edges_j, edges_{j+1}] of non-decreasing ``edges``: ``mass`` and
        ``q_mass`` of consecutive edges (a law may compute them together, to the same values)."""
        return self.mass(edges[:-1], edges[1:]), self.q_mass(edges[:-1], edges[1:])

    def q_mass(self, a, b):
        raise NotImplementedError

    def log_density(self, ell):
        raise NotImplementedError

    def range(self, tail):
        raise NotImplementedError


class GaussianLossLaw(LossLaw):
    r"""The Gaussian mechanism's loss, μ = Δ/σ: Z ~ N(μ²/2, μ²) under P, N(−μ²/2, μ²) under Q.

    .. math:: P(a < Z \le b) = \Phi\Big(\frac{b - \mu^2/2}{\mu}\Big) - \Phi\Big(\frac{a - \mu^2/2}{\mu}\Big),
              \qquad \log f(\ell) = -\frac{(\ell - \mu^2/2)^2}{2\mu^2} + \text{const},

    and the range holding all but ``tail`` in each tail is μ²/2 ∓ μΦ⁻¹(1 − tail).

    Parameters
    ----------
    mu : float, μ > 0

    References
    ----------
    Balle & Wang (2018), "Improving the Gaussian mechanism for differential
    privacy", Lemma 3; source S2, S2-01.
    """

    def __init__(self, mu):
        mu = float(check_positive(mu, "mu"))
        self.mu = mu
        self.mean = 0.5 * mu * mu
        self.support = (-math.inf, math.inf)
        self.atoms = ()

    def mass(self, a, b):
        return normal_mass((np.asarray(a) - self.mean) / self.mu, (np.asarray(b) - self.mean) / self.mu)

    def q_mass(self, a, b):
        return normal_mass((np.asarray(a) + self.mean) / self.mu, (np.asarray(b) + self.mean) / self.mu)

    def log_density(self, ell):
        z = (ell - self.mean) / self.mu
        return -0.5 * z * z

    def range(self, tail):
        z = -ndtri(tail)
        return self.mean - z * self.mu, self.mean + z * self.mu


class LaplaceLossLaw(LossLaw):
    r"""The Laplace mechanism's loss, t = Δ/b: atoms ½e^{−t} at −t and ½ at t, density ¼e^{(ℓ−t)/2} between.

    .. math:: P(a < Z \le b)_{\rm cont} = \tfrac12 e^{(b-t)/2}\big(1 - e^{(a-b)/2}\big),\qquad
              Q(a < Z \le b)_{\rm cont} = \tfrac12 e^{-(t+a)/2}\big(1 - e^{(a-b)/2}\big)

    for −t ≤ a ≤ b ≤ t (the arguments are clipped to [−t, t]).

    Parameters
    ----------
    t : float, t = Δ/b > 0

    References
    ----------
    Koskela, Jälkö & Honkela (2020), Sec. 6 (the Laplace PLD); source S2, S2-01.
    """

    def __init__(self, t):
        t = float(check_positive(t, "t"))
        self.t = t
        self.support = (-t, t)
        self.atoms = ((-t, 0.5 * math.exp(-t)), (t, 0.5))

    def mass(self, a, b):
        a = np.clip(a, -self.t, self.t)
        b = np.clip(b, -self.t, self.t)
        return 0.5 * np.exp((b - self.t) / 2) * -np.expm1((a - b) / 2)

    def q_mass(self, a, b):
        a = np.clip(a, -self.t, self.t)
        b = np.clip(b, -self.t, self.t)
        return 0.5 * np.exp(-(self.t + a) / 2) * -np.expm1((a - b) / 2)

    def log_density(self, ell):
        return 0.5 * ell

    def range(self, tail):
        return -self.t, self.t


class SubsampledGaussianLossLaw(LossLaw):
    r"""The Poisson-subsampled Gaussian's loss (sensitivity 1, 0 < q < 1), in either direction.

    With ℓ(x) = log(1 − q + q e^{(x−½)/σ²}) (:func:`~dpnotes.privacy_loss.mixture.log_mixture_ratio`),
    increasing from log(1 − q), and x(m) its inverse:

    * remove: P = (1 − q)N(0, σ²) + qN(1, σ²), Q = N(0, σ²), Z = ℓ(Y);
    * add: P = N(0, σ²), Q = the mixture, Z = −ℓ(Y).

    The masses are normal masses of the output interval (x(a), x(b)] (remove) or
    [x(−b), x(−a)) (add); the density follows by the change of variables

    .. math:: \Big|\frac{dx}{dm}\Big| = \frac{\sigma^2 e^{m}}{e^{m} - (1 - q)}.

    Parameters
    ----------
    q : float, the sampling rate q ∈ (0, 1)
    sigma : float, the noise multiplier σ > 0
    remove : bool, the direction (True: remove, False: add)

    References
    ----------
    Koskela, Jälkö & Honkela (2020), §5; Zhu, Dong & Wang (2022), "Optimal
    accounting of differential privacy via characteristic function" (both
    directions); source S4, S4-17.
    """

    def __init__(self, q, sigma, remove):
        self.q = float(check_interval(q, "q", 0.0, 1.0, closed_low=False, closed_high=False))
        self.sigma = check_noise_multiplier(sigma)
        self.remove = bool(remove)
        self.l0 = math.log1p(-self.q)  # log(1 − q): the infimum of the remove loss
        self.support = (self.l0, math.inf) if self.remove else (-math.inf, -self.l0)
        self.atoms = ()

    def _x(self, m):
        """The output x with ℓ(x) = m."""
        return log_mixture_ratio_inverse_unchecked(m, self.q, self.sigma)

    def mass(self, a, b):
        s = self.sigma
        if self.remove:
            xa, xb = self._x(a), self._x(b)
            return ((1 - self.q) * normal_mass(xa / s, xb / s)
                    + self.q * normal_mass((xa - 1) / s, (xb - 1) / s))
        xa, xb = self._x(-np.asarray(b, float)), self._x(-np.asarray(a, float))
        return normal_mass(xa / s, xb / s)

    def q_mass(self, a, b):
        s = self.sigma
        if self.remove:
            xa, xb = self._x(a), self._x(b)
            return normal_mass(xa / s, xb / s)
        xa, xb = self._x(-np.asarray(b, float)), self._x(-np.asarray(a, float))
        return (1 - self.q) * normal_mass(xa / s, xb / s) + self.q * normal_mass((xa - 1) / s, (xb - 1) / s)

    def bin_masses(self, edges):
        s = self.sigma
        if self.remove:
            x = self._x(edges)
            n0, n1 = normal_bin_masses(x / s), normal_bin_masses((x - 1) / s)
            return (1 - self.q) * n0 + self.q * n1, n0
        x = self._x(-np.asarray(edges, float))[::-1]  # increasing: bin j of the edges is bin n − 1 − j here
        n0, n1 = normal_bin_masses(x / s)[::-1], normal_bin_masses((x - 1) / s)[::-1]
        return n0, (1 - self.q) * n0 + self.q * n1

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
        # the outputs holding all but tail/2 of each component, through u = (x − ½)/σ²
        m_lo, m_hi = (float(mixture_privacy_loss((x - 0.5) / s**2, self.q)) for x in (-z * s, 1 + z * s))
        if self.remove:
            return m_lo, m_hi
        return -m_hi, -m_lo


class AtomicLossLaw(LossLaw):
    """A purely atomic loss law (randomized response, finite pmfs): the atoms (loss, P-mass), no density.

    Parameters
    ----------
    atoms : sequence of (float, float)
        (loss, P-mass) pairs; a loss +∞ holds P(dQ = 0).

    References
    ----------
    Source S2, S2-01 (the privacy loss of two pmfs).
    """

    def __init__(self, atoms):
        self.atoms = tuple(atoms)
        zs = [z for z, _ in self.atoms] or [0.0]
        self.support = (min(zs), max(zs))

    def mass(self, a, b):
        return np.zeros(np.broadcast(np.asarray(a), np.asarray(b)).shape)

    def q_mass(self, a, b):
        return self.mass(a, b)

    def log_density(self, ell):
        return np.full(np.shape(ell), -np.inf)

    def range(self, tail):
        return self.support
