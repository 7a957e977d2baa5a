"""Tests of dpnotes.pld.discretise: a pessimistic grid is an upper bound on δ(ε) at every ε.

Independent route: the one-step privacy curve of the Poisson-subsampled Gaussian
in closed form, evaluated in mpmath at 40 digits (not the package's code). With
x(m) = ½ + σ² log((e^m − 1 + q)/q) the output at which the remove loss
ℓ(x) = log(1 − q + q e^{(x−½)/σ²}) equals m,

* remove (P = (1−q)N(0,σ²) + qN(1,σ²), Q = N(0,σ²)): for ε > log(1−q),
  δ(ε) = (1−q)Φ̄(x/σ) + qΦ̄((x−1)/σ) − e^ε Φ̄(x/σ), x = x(ε); else 1 − e^ε;
* add (P = N(0,σ²), Q = the mixture): for ε < −log(1−q),
  δ(ε) = Φ(x/σ) − e^ε[(1−q)Φ(x/σ) + qΦ((x−1)/σ)], x = x(−ε); else 0.

At ε = 0 both are q(1 − 2Φ̄(1/(2σ))).

The grid points checked include the few next to each direction's support edge
(log(1−q) for remove, −log(1−q) for add), where the loss density has a
log-singular peak: there an 8-point quadrature of the connect-the-dots split fell
up to 10⁻³ relative below the truth (q = 10⁻⁴, σ = 0.8, h = 5·10⁻⁵), which this
test catches.
"""

import math

import mpmath
import pytest

from dpnotes.pld import pld_subsampled_gaussian

QS = (1e-4, 1e-3, 1e-2, 0.05, 0.5)
SIGMAS = (0.5, 0.8, 1.1, 2.0, 4.0)
H_OVER_Q = (0.02, 0.2, 0.5)  # the grid spacing relative to the support edge ≈ q


def _subsampled_gaussian_delta(eps, q, sigma, remove):
    """The exact one-step δ(ε) of one direction, in mpmath (formulas in the module docstring)."""
    with mpmath.workdps(40):
        q, s, eps = mpmath.mpf(q), mpmath.mpf(sigma), mpmath.mpf(eps)
        l0 = mpmath.log1p(-q)

        def x_of(m):
            return mpmath.mpf(1) / 2 + s**2 * mpmath.log((mpmath.exp(m) - 1 + q) / q)

        if remove:
            if eps <= l0:
                return float(-mpmath.expm1(eps))
            x = x_of(eps)
            return float((1 - q) * mpmath.ncdf(-x / s) + q * mpmath.ncdf((1 - x) / s)
                         - mpmath.exp(eps) * mpmath.ncdf(-x / s))
        if eps >= -l0:
            return 0.0
        x = x_of(-eps)
        return float(mpmath.ncdf(x / s) - mpmath.exp(eps) * ((1 - q) * mpmath.ncdf(x / s)
                                                              + q * mpmath.ncdf((x - 1) / s)))


def test_exact_reference_at_zero():
    """The reference formulas agree with q(1 − 2Φ̄(1/(2σ))) at ε = 0 in both directions, and with 1 − e^ε below the remove edge."""
    q, s = 1e-3, 0.8
    at0 = float(q * (1 - 2 * mpmath.ncdf(-1 / (2 * mpmath.mpf(s)))))
    assert _subsampled_gaussian_delta(0.0, q, s, True) == pytest.approx(at0, rel=1e-14)
    assert _subsampled_gaussian_delta(0.0, q, s, False) == pytest.approx(at0, rel=1e-14)
    assert _subsampled_gaussian_delta(-0.01, q, s, True) == pytest.approx(-math.expm1(-0.01), rel=1e-14)
    assert _subsampled_gaussian_delta(0.01, q, s, False) == 0.0


@pytest.mark.parametrize("sigma", SIGMAS)
@pytest.mark.parametrize("q", QS)
def test_pessimistic_subsampled_gaussian_grid_is_above_the_exact_curve(q, sigma):
    """Every pessimistic grid's δ̂(ε) ≥ the exact δ(ε), both directions, at grid ε near the support edges and across the range."""
    failures = []
    for h_over_q in H_OVER_Q:
        h = min(h_over_q * q, 0.05)
        pl = pld_subsampled_gaussian(q, sigma, interval=h, pessimistic=True)
        for grid, remove in zip(pl.grids, (True, False)):
            edge = math.log1p(-q) if remove else -math.log1p(-q)
            k_edge = math.floor(edge / h)
            ks = set(range(k_edge - 6, k_edge + 3)) | {-1, 0, 1} | {round(e / h) for e in (0.05, 0.2, 0.5, 1.0, 2.0, 4.0)}
            for k in sorted(ks):
                eps = k * h
                exact = _subsampled_gaussian_delta(eps, q, sigma, remove)
                upper = float(grid.delta(eps))
                # 1e-13 relative: the float sums of the grid; the defects found were ≥ 2e-8 relative
                if upper < exact * (1 - 1e-13):
                    failures.append((h, "remove" if remove else "add", eps, upper / exact - 1))
    assert not failures, f"pessimistic δ̂(ε) below the exact δ(ε) (h, direction, ε, relative): {failures}"
