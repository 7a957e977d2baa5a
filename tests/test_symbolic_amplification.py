"""Tests for dpnotes.symbolic.amplification: each derivation's result checked by a second route."""

import numpy as np
import pytest
import sympy as sp
from scipy import optimize

from dpnotes.convolution import rdp_convolution_bound
from dpnotes.rdp import rdp_laplace
from dpnotes.symbolic.amplification import (
    derive_gaussian_convolution_bound,
    derive_laplace_bound_asymptotic,
    derive_laplace_shift_convexity,
    derive_uniform_schedule_optimal,
)


def _steps_ok(steps):
    assert steps and all(isinstance(s, str) and isinstance(e, sp.Basic) for s, e in steps)


@pytest.mark.claim("S1-03")
def test_s1_03_uniform_schedule_lagrange():
    steps = derive_uniform_schedule_optimal(n_check=4)
    _steps_ok(steps)
    n = sp.Symbol("m", positive=True, integer=True)
    assert sp.simplify(steps[-1][1] - 1 / n) == 0
    # numerical route: minimise Σ d² on the simplex for n = 6
    res = optimize.minimize(lambda d: np.sum(d**2), np.random.default_rng(0).dirichlet(np.ones(6)),
                            method="SLSQP", bounds=[(0, 1)] * 6,
                            constraints=[{"type": "eq", "fun": lambda d: d.sum() - 1}], options={"ftol": 1e-15})
    np.testing.assert_allclose(res.x, 1 / 6, atol=1e-6)
    assert res.fun == pytest.approx(float(steps[-1][1].subs(n, 6)), rel=1e-9)


@pytest.mark.claim("S1-04")
def test_s1_04_gaussian_bound_derivation():
    steps = derive_gaussian_convolution_bound()
    _steps_ok(steps)
    alpha, sigma, n = sp.symbols("alpha sigma m", positive=True)
    bound = dict(steps)["the bound m·D_α(P + 1/m ‖ P)"]
    val = float(bound.subs({alpha: 3.0, sigma: 0.7, n: 5}))
    assert val == pytest.approx(rdp_convolution_bound(3.0, 5, "gaussian", 0.7), rel=1e-14)
    assert steps[-1][1] == 0


@pytest.mark.claim("S1-05")
def test_s1_05_laplace_asymptotic_derivation():
    steps = derive_laplace_bound_asymptotic()
    _steps_ok(steps)
    alpha, lam, n = sp.symbols("alpha b m", positive=True)
    leading = steps[2][1]
    assert sp.simplify(leading - alpha / (2 * n * lam**2)) == 0
    # numerical route: the bound from Mironov's formula approaches the leading term
    for nn in (10**3, 10**5):
        num = rdp_convolution_bound(4.0, nn, "laplace", 1.5)
        assert num == pytest.approx(float(leading.subs({alpha: 4.0, lam: 1.5, n: nn})), rel=10.0 / nn)


@pytest.mark.claim("S1-03")
def test_s1_03_laplace_shift_divergence_is_convex():
    steps = derive_laplace_shift_convexity()
    _steps_ok(steps)
    assert sp.simplify(steps[-1][1]) == 0
    # numerical route: second differences of Mironov's formula are positive
    t = np.linspace(0.01, 3, 300)
    for alpha in (1.1, 2.0, 30.0):
        vals = rdp_laplace(alpha, 1.0, t)
        assert np.all(np.diff(vals, 2) > -1e-14)  # rounding where the curve is linear (large αt)
        # and the closed-form g'' agrees with a finite difference of (α − 1)·D_α at moderate t
        a, tt = sp.symbols("alpha t", positive=True)
        g2 = sp.lambdify((a, tt), steps[2][1])
        h = 1e-3
        fd = (alpha - 1) * (rdp_laplace(alpha, 1.0, 0.5 + h) - 2 * rdp_laplace(alpha, 1.0, 0.5) + rdp_laplace(alpha, 1.0, 0.5 - h)) / h**2
        if alpha < 10:  # for large α, g'' ~ e^{−αt} is below finite-difference noise
            assert g2(alpha, 0.5) == pytest.approx(fd, rel=1e-4)
