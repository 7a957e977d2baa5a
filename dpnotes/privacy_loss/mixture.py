r"""The privacy loss of a mixture against one of its components, and of the subsampled Gaussian.

Poisson subsampling with rate q turns a pair (P, Q) into ((1 − q)Q + qP, Q).
Where P against Q has privacy loss u = log(dP/dQ), the mixture has

.. math:: \ell = \log\big(1 - q + q\,e^{u}\big)

(:func:`mixture_privacy_loss`). For the Gaussian pair P = N(1, σ²), Q = N(0, σ²)
(sensitivity 1) u = (x − ½)/σ² at output x, so the subsampled Gaussian's loss is

.. math:: \ell(x) = \log\big(1 - q + q\,e^{(x - 1/2)/\sigma^2}\big),

increasing in x from log(1 − q) (:func:`log_mixture_ratio`), with the inverse
:func:`log_mixture_ratio_inverse`. These are the one implementation used by the
loss law of the subsampled Gaussian (:class:`dpnotes.privacy_loss.laws.SubsampledGaussianLossLaw`)
and by :mod:`dpnotes.subsampling.claim26`.

References
----------
Mironov, Talwar & Zhang (2019), "Rényi differential privacy of the sampled
Gaussian mechanism", §3; Koskela, Jälkö & Honkela (2020), "Computing tight
differential privacy guarantees using FFT", §5.
"""

import math

import numpy as np

from .._validation import check_interval, check_positive, check_probability, check_real

# Above this u the loss is u + log(q + (1 − q)e^{−u}), computed as a log-sum-exp.
_FAR = 30.0


def mixture_privacy_loss(u, q):
    r"""ℓ = log(1 − q + q e^u): the privacy loss of (1 − q)Q + qP against Q where P against Q has loss u.

    .. math:: \ell = \begin{cases}
              \operatorname{log1p}\big(q\,\operatorname{expm1}(u)\big) &
                  u < 30 \text{ and } q\,(1 - e^{u}) \le \tfrac12,\\
              \operatorname{logaddexp}\big(\log(1 - q),\ \log q + u\big) & \text{otherwise.}
              \end{cases}

    The first form keeps full relative precision when ℓ is near 0 (u near 0 or q
    small); where 1 − q + q e^u < ½ (q near 1, u ≪ 0) it would lose digits to
    cancellation and the second form, a sum of two positive terms in log space,
    is used; above u = 30 the second form avoids overflow. ℓ ∈ [log(1 − q), ∞):
    −∞ only for q = 1, u = −∞.

    Parameters
    ----------
    u : float or array, the privacy loss of P against Q (±∞ allowed)
    q : float or array, the mixture weight q ∈ [0, 1] (broadcast against u)

    Returns
    -------
    ndarray
        ℓ, of the broadcast shape of u and q.

    Raises
    ------
    ValueError
        If u is NaN or q ∉ [0, 1].

    References
    ----------
    Mironov, Talwar & Zhang (2019), §3 (the likelihood ratio of the sampled Gaussian).

    Examples
    --------
    >>> float(mixture_privacy_loss(0.0, 0.3))  # P = Q at this output: the mixture too
    0.0
    >>> round(float(mixture_privacy_loss(2.0, 0.5)), 12) == round(float(np.log(0.5 + 0.5 * np.e**2)), 12)
    True
    """
    return mixture_privacy_loss_unchecked(check_real(u, "u"), check_probability(q, "q"))


def mixture_privacy_loss_unchecked(u, q):
    r""":func:`mixture_privacy_loss` without the argument checks, for inner loops.

    The same two forms, the same choice between them; the second is evaluated only
    where it is used. The caller guarantees u is a float array without NaN and
    q ∈ [0, 1] (as the quadratures of :mod:`dpnotes.subsampling.moments` do).

    Parameters
    ----------
    u : ndarray of float
    q : float or ndarray of float

    Returns
    -------
    ndarray
        log(1 − q + q e^u).

    Examples
    --------
    >>> float(mixture_privacy_loss_unchecked(np.array(0.0), 0.3))
    0.0
    """
    u = np.asarray(u, float)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        t = q * np.expm1(np.minimum(u, _FAR))
        near = np.log1p(t)
        use_far = (u >= _FAR) | (t < -0.5)
        if not np.any(use_far):
            return near
        return np.where(use_far, np.logaddexp(np.log1p(-q), np.log(q) + u), near)


def log_mixture_ratio(x, q, sigma):
    r"""ℓ(x) = log(1 − q + q e^{(x − ½)/σ²}): the privacy loss of the Poisson-subsampled Gaussian at output x.

    The log of the density ratio of (1 − q)N(0, σ²) + qN(1, σ²) to N(0, σ²)
    (sensitivity 1), evaluated by :func:`mixture_privacy_loss` at u = (x − ½)/σ².
    It increases in x from log(1 − q) (x → −∞) to ∞.

    Parameters
    ----------
    x : float or array, the output (±∞ allowed)
    q : float, the sampling rate q ∈ [0, 1]
    sigma : float, the noise multiplier σ > 0

    Returns
    -------
    ndarray

    Raises
    ------
    ValueError
        If x is NaN, q ∉ [0, 1] or σ ≤ 0.

    References
    ----------
    Mironov, Talwar & Zhang (2019), §3; Abadi et al. (2016), "Deep learning with
    differential privacy" (the moments accountant).

    Examples
    --------
    >>> float(log_mixture_ratio(0.5, 0.1, 2.0))  # u = 0
    0.0
    >>> round(float(log_mixture_ratio(-1e6, 0.1, 1.0)), 12) == round(float(np.log(0.9)), 12)
    True
    """
    x = check_real(x, "x")
    sigma = float(check_positive(sigma, "sigma"))
    return mixture_privacy_loss((x - 0.5) / sigma**2, q)


def log_mixture_ratio_inverse(m, q, sigma):
    r"""The output x with ℓ(x) = log(1 − q + q e^{(x − ½)/σ²}) = m: the inverse of :func:`log_mixture_ratio`.

    .. math:: x = \tfrac12 + \sigma^2\Big(\log(1 - q) + \log\big(e^{\,m - \log(1-q)} - 1\big) - \log q\Big),

    −∞ for m ≤ log(1 − q) (the infimum of ℓ) and ∞ for m = ∞.

    Parameters
    ----------
    m : float or array, a loss value (±∞ allowed)
    q : float, the sampling rate q ∈ (0, 1)
    sigma : float, the noise multiplier σ > 0

    Returns
    -------
    ndarray

    Raises
    ------
    ValueError
        If m is NaN, q ∉ (0, 1) or σ ≤ 0.

    References
    ----------
    Koskela, Jälkö & Honkela (2020), §5 (the subsampled Gaussian's loss and its inverse).

    Examples
    --------
    >>> x = log_mixture_ratio_inverse(0.2, 0.3, 1.5)
    >>> round(float(log_mixture_ratio(x, 0.3, 1.5)), 12)
    0.2
    >>> float(log_mixture_ratio_inverse(np.log1p(-0.3), 0.3, 1.5))  # the infimum log(1 − q)
    -inf
    """
    m = check_real(m, "m")
    q = float(check_interval(q, "q", 0.0, 1.0, closed_low=False, closed_high=False))
    sigma = float(check_positive(sigma, "sigma"))
    return log_mixture_ratio_inverse_unchecked(m, q, sigma)


def log_mixture_ratio_inverse_unchecked(m, q, sigma):
    """:func:`log_mixture_ratio_inverse` without the argument checks, for inner loops.

    The caller guarantees m is a float array without NaN, 0 < q < 1 and σ > 0 (a
    :class:`~dpnotes.privacy_loss.laws.SubsampledGaussianLossLaw` checks them once).

    Examples
    --------
    >>> float(log_mixture_ratio_inverse_unchecked(np.array(-np.inf), 0.5, 1.0))
    -inf
    """
    m = np.asarray(m, float)
    l0 = math.log1p(-q)
    with np.errstate(divide="ignore", invalid="ignore"):
        inner = np.log(np.expm1(np.maximum(m - l0, 0.0)))
        x = 0.5 + sigma**2 * (l0 + inner - math.log(q))
    x = np.where(m <= l0, -np.inf, x)
    return np.where(np.isposinf(m), np.inf, x)
