"""Closed-form RDP of the basic mechanisms, each against an independent route."""

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpnotes import rdp_gaussian, rdp_laplace, rdp_randomized_response, renyi_divergence

ORDERS = [1.0, 1.01, 1.5, 2.0, 3.7, 10.0, 64.0]


def _mp_laplace(alpha, t):
    """Mironov's formula evaluated with 60 digits (the high-precision route)."""
    mp.mp.dps = 60
    a, t = mp.mpf(alpha), mp.mpf(t)
    if a == 1:
        return t + mp.e ** (-t) - 1
    inner = a / (2 * a - 1) * mp.e ** ((a - 1) * t) + (a - 1) / (2 * a - 1) * mp.e ** (-a * t)
    return mp.log(inner) / (a - 1)


def _mp_rr(alpha, p):
    mp.mp.dps = 60
    a, p = mp.mpf(alpha), mp.mpf(p)
    if a == 1:
        return (2 * p - 1) * mp.log(p / (1 - p))
    return mp.log(p**a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)) / (a - 1)


@pytest.mark.claim("S2-06")
@pytest.mark.parametrize("sigma", [0.3, 1.0, 7.0])
def test_s2_06_gaussian_divergence_matches_quadrature(sigma):
    for delta in (0.5, 1.0, 2.0):
        numeric = renyi_divergence(stats.norm(delta, sigma), stats.norm(0, sigma), ORDERS)
        np.testing.assert_allclose(rdp_gaussian(ORDERS, sigma, delta), numeric, rtol=1e-9)


@pytest.mark.parametrize("scale", [0.5, 1.0, 4.0])
def test_laplace_matches_quadrature_and_mpmath(scale):
    numeric = renyi_divergence(stats.laplace(1, scale), stats.laplace(0, scale), ORDERS, points=[0, 1])
    closed = rdp_laplace(ORDERS, scale)
    np.testing.assert_allclose(closed, numeric, rtol=1e-9)
    exact = [float(_mp_laplace(a, 1 / scale)) for a in ORDERS]
    np.testing.assert_allclose(closed, exact, rtol=1e-13)


@pytest.mark.parametrize("p", [0.5001, 0.6, 0.75, 0.99, 0.999999])
def test_randomized_response_matches_direct_sum_and_mpmath(p):
    closed = rdp_randomized_response(ORDERS, p)
    # the naive sum cancels near p = 1/2 (two terms ≈ 1/2 add to 1 + tiny), so a looser check there
    np.testing.assert_allclose(closed, renyi_divergence([p, 1 - p], [1 - p, p], ORDERS), rtol=1e-6)
    exact = [float(_mp_rr(a, p)) for a in ORDERS]
    np.testing.assert_allclose(closed, exact, rtol=1e-10)


def test_randomized_response_symmetric_in_p():
    np.testing.assert_allclose(rdp_randomized_response(ORDERS, 0.2), rdp_randomized_response(ORDERS, 0.8), rtol=1e-14)


@pytest.mark.parametrize("u", [1e-12, 1e-8, 1e-4, 0.3, 0.7])
@pytest.mark.parametrize("t", [1e-3, 0.1, 1.0, 30.0])
def test_laplace_stable_near_order_one(u, t):
    # the two numerical branches (log1p and logaddexp) against 60-digit arithmetic
    assert rdp_laplace(1 + u, 1.0, t) == pytest.approx(float(_mp_laplace(mp.mpf(1) + mp.mpf(u), t)), rel=1e-9)


@pytest.mark.claim("S4-01")
def test_s4_01_limits_kl_and_max_divergence():
    # α → 1 is the KL divergence, computed independently by quadrature / direct sum
    kl_lap = renyi_divergence(stats.laplace(1, 1), stats.laplace(0, 1), 1.0, points=[0, 1])
    assert rdp_laplace(1 + 1e-10, 1.0) == pytest.approx(kl_lap, rel=1e-8)
    kl_rr = 0.5 * np.log(3)  # (2p − 1) log(p/(1 − p)) at p = 3/4, by hand
    assert rdp_randomized_response(1 + 1e-10, 0.75) == pytest.approx(kl_rr, rel=1e-8)
    assert rdp_gaussian(1.0, 2.0) == pytest.approx(
        renyi_divergence(stats.norm(1, 2), stats.norm(0, 2), 1.0), rel=1e-10)
    # α → ∞ is the max divergence: the largest log-ratio
    assert rdp_laplace(1e9, 2.0) == pytest.approx(0.5, rel=1e-8)
    assert rdp_laplace(np.inf, 2.0) == 0.5
    assert rdp_randomized_response(1e9, 0.9) == pytest.approx(np.log(9), rel=1e-8)
    assert rdp_randomized_response(np.inf, 0.9) == pytest.approx(
        renyi_divergence([0.9, 0.1], [0.1, 0.9], np.inf), rel=1e-14)
    assert rdp_gaussian(np.inf, 1.0) == np.inf  # unbounded privacy loss


def test_the_gaussian_order_infinity_is_infinite_where_the_squared_ratio_underflows():
    """D_∞ of two Gaussians with distinct means is ∞ (the likelihood ratio is unbounded) however small Δ/σ: at
    Δ/σ < 1e-162, (Δ/σ)² underflowed to 0 and ∞·0 gave NaN (fuzz seed 801: rdp_convolution_bound(∞, 2⁶³,
    "gaussian", 1e308), which multiplies by m = 2⁶³); Δ = 0 stays 0, finite orders stay α(Δ/σ)²/2."""
    from dpnotes.convolution import rdp_convolution_bound

    assert rdp_gaussian(np.inf, 1e308, 2.0**-63) == np.inf
    assert rdp_gaussian(np.inf, 1e200, 1.0) == np.inf
    assert rdp_convolution_bound(np.inf, 2**63, "gaussian", 1e308) == np.inf
    assert rdp_gaussian(np.inf, 1e200, 0.0) == 0.0
    assert rdp_gaussian(2.0, 1e100, 1.0) == 2.0 * 1e-200 / 2


@pytest.mark.claim("S4-02")
def test_s4_02_gaussian_symmetric_in_means():
    for mu1, mu2, sigma in [(0.0, 1.0, 1.0), (-2.0, 0.5, 3.0)]:
        forward = renyi_divergence(stats.norm(mu1, sigma), stats.norm(mu2, sigma), [1.5, 4.0])
        backward = renyi_divergence(stats.norm(mu2, sigma), stats.norm(mu1, sigma), [1.5, 4.0])
        np.testing.assert_allclose(forward, backward, rtol=1e-10)
        np.testing.assert_allclose(forward, rdp_gaussian([1.5, 4.0], sigma, abs(mu2 - mu1)), rtol=1e-9)


@pytest.mark.claim("S0-04")
def test_s0_04_gaussian_mechanism_is_rdp_for_all_neighbours():
    # neighbouring data sets give query values at distance ≤ Δ; the guarantee must hold for each pair
    rng = np.random.default_rng(0)
    sigma, sens, alpha = 1.5, 1.0, 3.0
    bound = rdp_gaussian(alpha, sigma, sens)
    for _ in range(5):
        fx = rng.normal()
        fx2 = fx + rng.uniform(-sens, sens)
        d = renyi_divergence(stats.norm(fx, sigma), stats.norm(fx2, sigma), alpha)
        assert d <= bound * (1 + 1e-9)
    # the bound is attained at distance exactly Δ
    assert renyi_divergence(stats.norm(sens, sigma), stats.norm(0, sigma), alpha) == pytest.approx(bound, rel=1e-9)


@pytest.mark.claim("S2-05")
def test_s2_05_rdp_curves_are_functions_of_the_order():
    orders = np.geomspace(1.0, 1e3, 50)
    for curve in (rdp_gaussian(orders, 1.0), rdp_laplace(orders, 1.0), rdp_randomized_response(orders, 0.8)):
        assert curve.shape == orders.shape
        assert np.all(np.isfinite(curve))


orders_st = st.floats(1.0, 1e4)
sigma_st = st.floats(0.1, 1e3)


@pytest.mark.claim("S2-06")
@settings(max_examples=200, deadline=None)
@given(a1=orders_st, a2=orders_st, sigma=sigma_st, p=st.floats(0.5, 1 - 1e-9))
def test_s2_06_monotone_in_order(a1, a2, sigma, p):
    lo, hi = min(a1, a2), max(a1, a2)
    for fn in (lambda a: rdp_gaussian(a, sigma), lambda a: rdp_laplace(a, sigma),
               lambda a: rdp_randomized_response(a, p)):
        d_lo, d_hi = fn(lo), fn(hi)
        assert np.isfinite(d_lo) and np.isfinite(d_hi)
        assert 0 <= d_lo <= d_hi * (1 + 1e-12) + 1e-300


@settings(max_examples=200, deadline=None)
@given(alpha=orders_st, scale=sigma_st, sens=st.floats(0.0, 10.0))
def test_extreme_parameters_are_finite(alpha, scale, sens):
    for val in (rdp_gaussian(alpha, scale, sens), rdp_laplace(alpha, scale, sens)):
        assert np.isfinite(val) and val >= 0
    assert rdp_laplace(alpha, scale, sens) <= sens / scale * (1 + 1e-12) + 1e-300  # below D∞


@pytest.mark.parametrize("call, name", [
    (lambda: rdp_gaussian(0.5, 1.0), "alpha"),
    (lambda: rdp_gaussian(2.0, 0.0), "sigma"),
    (lambda: rdp_gaussian(2.0, 1.0, -1.0), "sensitivity"),
    (lambda: rdp_laplace(2.0, -1.0), "scale"),
    (lambda: rdp_laplace(np.nan, 1.0), "alpha"),
    (lambda: rdp_randomized_response(2.0, 1.0), "p"),
    (lambda: rdp_randomized_response(2.0, 0.0), "p"),
    (lambda: rdp_randomized_response([2.0, 0.9], 0.7), "alpha"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


@pytest.mark.parametrize("alpha,scale,sens", [
    (1.1, 1.0996, 1.175494351e-38),  # found by hypothesis: was −2.2e-54
    (1.1, 1.0, 1e-9), (1.01, 1.0, 1e-5), (2.0, 1.0, 1e-3), (1e4, 1.0, 1e-5), (1.0001, 1.0, 0.3),
])
def test_laplace_small_shift_is_relatively_accurate(alpha, scale, sens):
    """The O(t) terms of the Laplace mixture cancel; the result (≈ αt²/2) keeps full relative precision."""
    with mp.workdps(200):
        a, t = mp.mpf(alpha), mp.mpf(sens) / mp.mpf(scale)
        exact = mp.log(a / (2 * a - 1) * mp.exp((a - 1) * t) + (a - 1) / (2 * a - 1) * mp.exp(-a * t)) / (a - 1)
        assert rdp_laplace(alpha, scale, sens) == pytest.approx(float(exact), rel=1e-12)


# ----------------------------------------------------------------------------- extreme p (regressions)


def _rr_mpmath(alpha, p):
    """D_α((p, 1−p) ‖ (1−p, p)) at 60 digits, from the definition."""
    with mp.workdps(60):
        p = mp.mpf(p)
        if alpha == 1.0:
            return float(p * mp.log(p / (1 - p)) + (1 - p) * mp.log((1 - p) / p))
        a = mp.mpf(alpha)
        return float(mp.log(p**a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)) / (a - 1))


@pytest.mark.parametrize("alpha, p", [(2.0, 1e-20), (2.0, 1e-16), (1.0, 1e-20), (1.5, 1e-300), (50.0, 1e-100),
                                      (1.000001, 1e-12)])
def test_randomized_response_at_tiny_p_matches_mpmath(alpha, p):
    # p = 1e-20 gave ∞ and p = 1e-16 gave 36.737 (true 36.841): 1 − p rounds to 1
    assert rdp_randomized_response(alpha, p) == pytest.approx(_rr_mpmath(alpha, p), rel=1e-13)
    assert rdp_randomized_response(alpha, 1 - 1e-12) == pytest.approx(_rr_mpmath(alpha, 1e-12), rel=1e-3)
