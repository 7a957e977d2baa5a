"""The Gaussian mechanism's exact privacy curve, written independently of the package (a second route for the PLD tests)."""

import math

from scipy.optimize import brentq
from scipy.special import log_ndtr


def analytic_gaussian_delta(eps, mu):
    """δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), in log space."""
    la = log_ndtr(-eps / mu + mu / 2)
    lb = eps + log_ndtr(-eps / mu - mu / 2)
    return math.exp(la) * -math.expm1(lb - la)


def analytic_gaussian_epsilon(delta, mu):
    """The ε with δ(ε) = δ, by root finding on :func:`analytic_gaussian_delta`."""
    return brentq(lambda e: math.log(max(analytic_gaussian_delta(e, mu), 1e-300)) - math.log(delta), 0.0, 2000.0,
                  xtol=1e-13)
