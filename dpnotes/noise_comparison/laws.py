r"""The candidate noise laws of equal variance: names, exact log-densities and two constants.

:data:`NOISE_LAWS` names the candidates; :func:`noise_logpdf` is the exact
log-density of each, scaled to a given variance and written in log space (the
Student-t density in :func:`_student`, log cosh in :func:`_logcosh`).
:func:`max_score` (the largest slope of the log-density) and
:func:`fisher_information` are constants of the unit-variance laws, used by
:mod:`dpnotes.noise_comparison.shift` where a shift is too small for quadrature.
"""

import functools

import numpy as np
from scipy import optimize, special

from .._validation import check_choice, check_positive, check_real, named_shapes, scalar_or_array


NOISE_LAWS = ("gaussian", "laplace", "logistic", "sech", "student-t3", "student-t5", "mixture")
_LOG2 = float(np.log(2.0))


@functools.lru_cache(maxsize=None)
def max_score(law):
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
def fisher_information(law):
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


def check_law(law):
    """Check that ``law`` is one of :data:`NOISE_LAWS` (ValueError naming ``law`` otherwise)."""
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
    Source S4, "Further questions" (S4-18); Gil, Alajaji and Linder (2013), tables of Rényi divergences.

    Examples
    --------
    >>> round(noise_logpdf("laplace", 1000.0), 4)  # finite where scipy's laplace.pdf underflows
    -1414.5601
    """
    check_law(law)
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
