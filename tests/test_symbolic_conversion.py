"""The sympy derivations agree with the numeric modules and expose the source documents' misprints."""

import numpy as np
import pytest
import sympy as sp

from dpnotes.composition import gaussian_variance_advanced_composition, laplace_scale_for_queries
from dpnotes.conversion import delta_from_rdp_curve, epsilon_from_zcdp, legendre_transform
from dpnotes.symbolic.conversion import (
    derive_composed_gaussian_sigma,
    derive_gaussian_delta_prime,
    derive_gaussian_optimal_order,
    derive_laplace_scales,
    derive_legendre_scaling,
    derive_zcdp_conversion,
)

eps, sigma, k, L = sp.symbols("epsilon sigma T L_delta", positive=True)
delta = sp.Symbol("delta", positive=True)


@pytest.mark.claim("S4-05")
def test_s4_05_optimal_order_symbolic_and_source_correction():
    steps = dict(derive_gaussian_optimal_order())
    lam_star = steps["optimal order α*"]
    assert sp.simplify(lam_star - (sp.Rational(1, 2) + eps * sigma**2)) == 0
    assert steps["equals −(εσ − 1/(2σ))²/2 (difference)"] == 0
    # numeric check of the corrected order against continuous optimisation
    for s_, e_ in [(2.0, 1.0), (0.7, 3.0)]:
        _, a = delta_from_rdp_curve(lambda x: x / (2 * s_**2), e_, method="mironov", return_order=True)
        assert a == pytest.approx(float(lam_star.subs({eps: e_, sigma: s_})), rel=1e-6)
    seed = steps["the misprinted order (1 + 2ε/σ²)/2"]
    assert sp.simplify(seed - lam_star) != 0
    assert steps["the misprinted order at ε = 1, σ = 2 (< 1: not an order)"] < 1
    assert steps["exponent at the misprinted order, ε = 1, σ = 2"] > 0 > steps["exponent at α*, ε = 1, σ = 2"]


@pytest.mark.claim("S4-08")
def test_s4_08_sigma_threshold():
    steps = dict(derive_composed_gaussian_sigma())
    s_exact = steps["exact threshold s*"]
    for e_, d_ in [(0.5, 1e-5), (2.0, 1e-9)]:
        val = float(s_exact.subs({eps: e_, L: np.log(1 / d_)}))
        # at σ = √k·s*, the Example-3 bound equals δ exactly
        kk = 30
        sig = np.sqrt(kk) * val
        got = delta_from_rdp_curve(lambda a: kk * a / (2 * sig**2), e_, method="mironov")
        assert got == pytest.approx(d_, rel=1e-8)
    assert steps["the simpler condition is sufficient (gap ≥ 0)"] is True


@pytest.mark.claim("S4-07")
def test_s4_07_legendre_scaling():
    steps = dict(derive_legendre_scaling())
    assert steps["(Tκ)∗(z) − Tκ∗(z/T)"] == 0
    # numeric Legendre transform on a fine grid agrees with the symbolic κ*
    ks = steps["κ*(z) = sup_{λ ≥ 0} (zλ − κ(λ)), for z at least the mean of the loss"]
    x = sp.Symbol("z", positive=True)
    t = np.linspace(0, 200, 2_000_001)
    for s_, x_ in [(1.0, 3.0), (2.0, 1.5)]:
        num = legendre_transform(t, t * (t + 1) / (2 * s_**2), x_)
        assert num == pytest.approx(float(ks.subs({x: x_, sigma: s_})), rel=1e-9)


@pytest.mark.claim("S2-04")
def test_s2_04_zcdp_conversion_symbolic():
    steps = derive_zcdp_conversion()
    d = dict(steps)
    assert d["minus ρ + 2√(ρL_δ)"] == 0
    assert d["minus Tε₀²/2 + ε₀√(2TL_δ)"] == 0
    rho = sp.Symbol("rho", positive=True)
    e_star = d["ε at the optimum"]
    assert float(e_star.subs({rho: 0.3, L: np.log(1e6)})) == pytest.approx(epsilon_from_zcdp(0.3, 1e-6), rel=1e-13)


@pytest.mark.claim("S3-02")
def test_s3_02_laplace_scales_symbolic():
    d = dict(derive_laplace_scales())
    assert d["within budget iff"] == (eps <= 8 * L) or sp.simplify(d["within budget iff"]) == (eps <= 8 * L)
    tight = d["tight ε₀ (root of Tε₀²/2 + ε₀√(2TL_δ) = ε)"]
    b = laplace_scale_for_queries(100, 1.0, 1e-5, rule="advanced-tight")
    assert 1 / b == pytest.approx(float(tight.subs({k: 100, eps: 1.0, L: np.log(1e5)})), rel=1e-12)
    assert sp.simplify(d["variance ratio basic/advanced (that scale)"] - k / (8 * L)) == 0


@pytest.mark.claim("S3-04")
def test_s3_04_delta_prime_symbolic():
    d = dict(derive_gaussian_delta_prime())
    num = {k: 10, eps: 1, delta: sp.Rational(1, 10**5)}
    v_half = float(d["first-order share, δ' = δ/2"].subs(num))
    v_alt = float(d["first-order share, δ' = δ₀ = δ/(T+1)"].subs(num))
    assert v_half == pytest.approx(gaussian_variance_advanced_composition(10, 1.0, 1e-5, 0.5e-5, form="linear"), rel=1e-12)
    assert v_alt == pytest.approx(gaussian_variance_advanced_composition(10, 1.0, 1e-5, 1e-5 / 11, form="linear"), rel=1e-12)
    assert v_alt > v_half > float(d["the variance without its calibration factor"].subs(num))
    assert sp.simplify(d["ratio actual / without the calibration factor"] - sp.log(sp.Rational(5, 4) * (k + 1) / delta)) == 0
    # the share within budget: its variance at δ' = δ/2 is the package's default
    dp = sp.Symbol("delta'", positive=True)
    exact = d["σ²(δ') = 2 log(1.25/δ₀)/ε₀²"].subs(dp, sp.Rational(1, 2 * 10**5)).subs(num)
    assert float(exact) == pytest.approx(gaussian_variance_advanced_composition(10, 1.0, 1e-5, 0.5e-5), rel=1e-12)
    # the first-order share overshoots the budget by ε²/(4 log(1/δ')): 1.0205 at T = 10, δ' = 5e-6
    over = d["first-order share ε/√(2T log(1/δ')): its composition exceeds ε by"]
    assert 1 + float(over.subs({eps: 1, dp: sp.Rational(5, 10**6)})) == pytest.approx(1.0205, abs=5e-5)


def test_every_step_is_a_description_and_expression():
    for fn in (derive_gaussian_optimal_order, derive_composed_gaussian_sigma, derive_legendre_scaling,
               derive_zcdp_conversion, derive_laplace_scales, derive_gaussian_delta_prime):
        for desc, expr in fn():
            assert isinstance(desc, str) and desc
            assert expr is not None
