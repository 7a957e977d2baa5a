"""Composition theorems checked against exact compositions of worst-case mechanisms."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import binom

from dpnotes.composition import (
    gaussian_classical_breakdown_epsilon,
    gaussian_sigma_classical,
    delta_prime_minimising_variance,
    epsilon_advanced_composition,
    epsilon_delta_advanced_composition,
    epsilon_delta_basic_composition,
    epsilon_heterogeneous_composition,
    epsilon_per_query_advanced,
    gaussian_sigma_exact,
    gaussian_variance_advanced_composition,
    laplace_scale_for_queries,
    rdp_composition,
    zcdp_composition,
    zcdp_from_pure_dp,
)
from dpnotes.conversion import epsilon_from_zcdp
from dpnotes.divergence import renyi_divergence
from dpnotes.privacy_loss import delta_gaussian, hockey_stick_divergence
from dpnotes.rdp import rdp_gaussian, rdp_laplace, rdp_randomized_response


def exact_delta_rr_composition(eps0, k, eps):
    """Exact δ(ε) of k-fold ε0-randomized response (the worst case for pure ε0-DP,
    Kairouz–Oh–Viswanath): the loss is (2J − k)ε0 with J ~ Bin(k, e^ε0/(1+e^ε0))."""
    p = 1.0 / (1.0 + np.exp(-eps0))
    j = np.arange(k + 1)
    z = (2 * j - k) * eps0
    w = binom.pmf(j, k, p)
    return float(np.sum(w * np.maximum(0.0, -np.expm1(np.minimum(eps - z, 0.0)))))


def exact_delta_heterogeneous_rr(epsilons, eps):
    total = 0.0
    for signs in itertools.product((1, -1), repeat=len(epsilons)):
        z = sum(s * e for s, e in zip(signs, epsilons))
        w = np.prod([1 / (1 + np.exp(-e)) if s > 0 else 1 / (1 + np.exp(e)) for s, e in zip(signs, epsilons)])
        total += w * max(0.0, 1 - np.exp(eps - z))
    return total


# --- S2-08 / S3-01 / S3-03: advanced composition -------------------------------------------


@pytest.mark.claim("S2-08", "S3-01")
@pytest.mark.parametrize("eps0,k", [(0.01, 1000), (0.1, 100), (0.1, 1000), (0.5, 50), (1.0, 20)])
@pytest.mark.parametrize("dprime", [1e-9, 1e-5, 1e-2])
def test_s2_08_s3_01_advanced_composition_is_valid(eps0, k, dprime):
    drv = epsilon_advanced_composition(eps0, k, dprime, form="drv")
    zc = epsilon_advanced_composition(eps0, k, dprime, form="zcdp")
    assert zc <= drv
    # exact composition of the worst-case ε0-DP mechanism stays within δ'
    assert exact_delta_rr_composition(eps0, k, zc) <= dprime
    assert exact_delta_rr_composition(eps0, k, drv) <= dprime


@pytest.mark.claim("S2-08")
def test_s2_08_formula_values():
    eps0, k, d = 0.2, 50, 1e-6
    L = np.log(1 / d)
    assert epsilon_advanced_composition(eps0, k, d) == pytest.approx(
        eps0 * np.sqrt(2 * k * L) + k * eps0 * (np.exp(eps0) - 1), rel=1e-14)
    assert epsilon_advanced_composition(eps0, k, d, form="zcdp") == pytest.approx(
        k * eps0**2 / 2 + eps0 * np.sqrt(2 * k * L), rel=1e-14)


@pytest.mark.claim("S3-01")
def test_s3_01_sublinear_growth_vs_basic():
    eps0, d = 0.01, 1e-6
    ks = np.array([10, 100, 1000, 10_000])
    adv = epsilon_advanced_composition(eps0, ks, d, form="zcdp")
    basic = ks * eps0
    assert np.all(np.diff(adv / np.sqrt(ks)) < 0.01)  # ~√k
    assert adv[-1] < basic[-1] / 5


@pytest.mark.claim("S3-01")
def test_s3_01_zcdp_form_is_zcdp_route():
    # ε-DP ⇒ ½ε²-zCDP, ρ's add, Bun–Steinke conversion: same number as the formula
    eps0, k, d = 0.3, 40, 1e-7
    rho = zcdp_composition([zcdp_from_pure_dp(eps0)] * k)
    assert epsilon_from_zcdp(rho, d) == pytest.approx(epsilon_advanced_composition(eps0, k, d, form="zcdp"), rel=1e-13)


@pytest.mark.claim("S3-03")
def test_s3_03_eps_delta_mechanisms():
    e, d = epsilon_delta_advanced_composition(0.1, 1e-8, 200, 1e-6)
    assert d == pytest.approx(200 * 1e-8 + 1e-6)
    assert e == epsilon_advanced_composition(0.1, 200, 1e-6, form="zcdp")


@pytest.mark.claim("S2-08")
@pytest.mark.parametrize("epsilons", [[0.1, 0.2, 0.3, 0.05, 0.4, 0.1, 0.2, 0.3, 0.1, 0.25, 0.15, 0.2], [1.0, 1.0], [0.5] * 8])
@pytest.mark.parametrize("dprime", [1e-6, 1e-2])
def test_s2_08_heterogeneous_composition(epsilons, dprime):
    e = epsilon_heterogeneous_composition(epsilons, dprime)
    assert e <= sum(epsilons)
    assert exact_delta_heterogeneous_rr(epsilons, e) <= dprime + 1e-15
    if len(set(epsilons)) == 1:
        k, e0 = len(epsilons), epsilons[0]
        assert e == pytest.approx(min(k * e0, epsilon_advanced_composition(e0, k, dprime, form="zcdp")))


def test_basic_composition():
    assert epsilon_delta_basic_composition([0.1, 0.2], [1e-6, 2e-6]) == pytest.approx((0.3, 3e-6))
    # valid: exact δ of 2 RR at Σε is 0
    assert exact_delta_heterogeneous_rr([0.3, 0.5], 0.8) == 0.0


# --- S0-08 / S3-05 / S4-06 RDP composition; S2-04 zCDP -------------------------------------


@pytest.mark.claim("S0-08", "S3-05")
def test_s3_05_s0_08_rdp_additivity_for_products():
    rng = np.random.default_rng(5)
    p1, q1, p2, q2 = (rng.dirichlet(np.ones(4)) for _ in range(4))
    for a in (1.0, 1.5, 2.0, 7.0, np.inf):
        joint = renyi_divergence(np.outer(p1, p2).ravel(), np.outer(q1, q2).ravel(), a)
        parts = renyi_divergence(p1, q1, a) + renyi_divergence(p2, q2, a)
        assert joint == pytest.approx(parts, rel=1e-12)


@pytest.mark.claim("S4-06")
def test_s4_06_moment_composition_gaussian():
    orders = np.array([1.5, 2.0, 10.0, 100.0])
    k, sigma = 16, 3.0
    composed = rdp_composition(rdp_gaussian(orders, sigma), counts=k)
    # k Gaussians with the same σ = one Gaussian with σ/√k
    np.testing.assert_allclose(composed, rdp_gaussian(orders, sigma / np.sqrt(k)), rtol=1e-14)
    mixed = rdp_composition(np.vstack([rdp_gaussian(orders, 1.0), rdp_laplace(orders, 2.0)]), counts=[2, 3])
    np.testing.assert_allclose(mixed, 2 * rdp_gaussian(orders, 1.0) + 3 * rdp_laplace(orders, 2.0))


@pytest.mark.claim("S2-04")
def test_s2_04_pure_dp_implies_half_eps_squared_zcdp():
    orders = np.array([1.0, 1.01, 2.0, 10.0, 1000.0])
    for p in (0.55, 0.75, 0.95):
        eps = np.log(p / (1 - p))
        assert np.all(rdp_randomized_response(orders, p) <= zcdp_from_pure_dp(eps) * orders * (1 + 1e-12))
    for b in (0.3, 1.0, 5.0):
        assert np.all(rdp_laplace(orders, b) <= zcdp_from_pure_dp(1 / b) * orders * (1 + 1e-12))


# --- S3-02 Laplace scales; S3-04 Gaussian δ' ---------------------------------------------


@pytest.mark.claim("S3-02")
@pytest.mark.parametrize("k", [10, 100, 1000])
@pytest.mark.parametrize("eps,delta", [(1.0, 1e-5), (0.1, 1e-9), (5.0, 1e-3)])
def test_s3_02_laplace_scales(k, eps, delta):
    L = np.log(1 / delta)
    b_basic = laplace_scale_for_queries(k, eps, delta, rule="basic")
    b_adv = laplace_scale_for_queries(k, eps, delta, rule="advanced")
    b_tight = laplace_scale_for_queries(k, eps, delta, rule="advanced-tight")
    assert b_basic == pytest.approx(k / eps)
    # seed's scale: within budget (ε ≤ 8 log 1/δ holds here), and spends only ~half of it
    total = epsilon_advanced_composition(1 / b_adv, k, delta, form="zcdp")
    assert total == pytest.approx(eps / 2 + eps**2 / (16 * L), rel=1e-12)
    assert total <= eps
    # the tight scale uses the budget exactly and is about half the seed's
    assert epsilon_advanced_composition(1 / b_tight, k, delta, form="zcdp") == pytest.approx(eps, rel=1e-12)
    assert b_tight < b_adv
    # validity by exact composition of Laplace-worst-case (RR) mechanisms
    assert exact_delta_rr_composition(1 / b_adv, k, eps) <= delta
    # variance ratio basic/advanced = k/(8L)
    assert (b_basic / b_adv) ** 2 == pytest.approx(k / (8 * L), rel=1e-12)


@pytest.mark.claim("S3-02")
def test_s3_02_source_scale_fails_for_huge_budgets():
    # with δ = 0.4 (L ≈ 0.92) and ε = 10 > 8L the seed's rule overshoots the budget
    k, eps, delta = 50, 10.0, 0.4
    b = laplace_scale_for_queries(k, eps, delta, rule="advanced")
    assert epsilon_advanced_composition(1 / b, k, delta, form="zcdp") > eps


@pytest.mark.claim("S3-04")
def test_s3_04_delta_prime_choices_with_the_first_order_share():
    # the closed forms of the lecture notes' first-order share ε₀ = ε/√(2T log(1/δ'))
    eps, delta = 1.0, 1e-5
    for k in (1, 2, 5, 10, 100, 1000):
        v_half = gaussian_variance_advanced_composition(k, eps, delta, delta / 2, form="linear")
        v_alt = gaussian_variance_advanced_composition(k, eps, delta, delta / (k + 1), form="linear")
        assert v_half == pytest.approx(4 * k / eps**2 * np.log(2 / delta) * np.log(2.5 * k / delta), rel=1e-12)
        assert v_alt == pytest.approx(
            4 * k / eps**2 * np.log((k + 1) / delta) * np.log(1.25 * (k + 1) / delta), rel=1e-12)
        printed = 4 * k / eps**2 * np.log((k + 1) / delta)
        assert v_alt > 5 * printed  # the printed variance drops the calibration factor


@pytest.mark.claim("S3-04")
def test_s3_04_first_order_share_exceeds_the_budget_and_the_default_does_not():
    # ε₀ = ε/√(2T log(1/δ')) composes (Tε₀²/2 + ε₀√(2T log 1/δ')) to ε + ε²/(4 log(1/δ')) > ε
    T, eps, dprime = 10, 1.0, 5e-6
    linear = epsilon_per_query_advanced(eps, T, dprime, form="linear")
    over = epsilon_advanced_composition(linear, T, dprime, form="zcdp")
    assert over == pytest.approx(eps + eps**2 / (4 * np.log(1 / dprime)), rel=1e-12)
    assert over == pytest.approx(1.0205, abs=5e-5) and over > eps
    share = epsilon_per_query_advanced(eps, T, dprime)
    assert epsilon_advanced_composition(share, T, dprime, form="zcdp") <= eps * (1 + 1e-12)
    # the default variance uses the share within budget, so it is larger than the first-order one
    assert gaussian_variance_advanced_composition(T, eps, 1e-5, 5e-6) > gaussian_variance_advanced_composition(
        T, eps, 1e-5, 5e-6, form="linear")


@pytest.mark.claim("S3-04")
@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0])
@pytest.mark.parametrize("delta", [1e-3, 1e-5, 1e-9])
def test_s3_04_delta_over_T_plus_one_is_strictly_worse_for_T_at_least_2(eps, delta):
    for k in (1, 2, 3, 5, 10, 100, 1000, 10**5):
        v_half = gaussian_variance_advanced_composition(k, eps, delta, delta / 2)
        v_alt = gaussian_variance_advanced_composition(k, eps, delta, delta / (k + 1))
        if k == 1:
            assert v_alt == pytest.approx(v_half, rel=1e-12)
        else:
            assert v_alt > v_half
        dp, v_opt = delta_prime_minimising_variance(k, eps, delta)
        assert v_opt <= v_half * (1 + 1e-12) and 0 < dp < delta


@pytest.mark.claim("S3-04")
def test_s3_04_split_is_valid_by_exact_composition():
    # k Gaussians with variance σ² compose exactly to one Gaussian with μ = √k/σ
    eps, delta = 1.0, 1e-5
    for k in (10, 100):
        for calibration in ("classical", "exact"):
            # form="zcdp" keeps the kε₀²/2 term, so the advanced-composition guarantee applies
            v = gaussian_variance_advanced_composition(k, eps, delta, delta / 2, calibration=calibration, form="zcdp")
            assert delta_gaussian(eps, np.sqrt(k / v)) <= delta


def test_gaussian_sigma_exact_is_calibrated():
    for e, d in [(0.5, 1e-6), (1.0, 1e-5), (4.0, 1e-10)]:
        s = gaussian_sigma_exact(e, d)
        assert delta_gaussian(e, 1 / s) == pytest.approx(d, rel=1e-9)
        assert s < np.sqrt(2 * np.log(1.25 / d)) / e or e >= 1  # exact beats classical (ε < 1)


@settings(max_examples=60, deadline=None)
@given(eps=st.floats(1e-4, 50.0), k=st.integers(1, 10_000), log_dp=st.floats(np.log(1e-15), np.log(0.5)))
def test_per_query_budget_properties(eps, k, log_dp):
    dp = float(np.exp(log_dp))
    e0 = epsilon_per_query_advanced(eps, k, dp)
    assert np.isfinite(e0) and 0 < e0 <= eps
    assert epsilon_advanced_composition(e0, k, dp, form="zcdp") == pytest.approx(eps, rel=1e-9)
    e_drv = epsilon_per_query_advanced(eps, k, dp, form="drv")
    assert e_drv <= e0 * (1 + 1e-12)
    assert epsilon_advanced_composition(e_drv, k, dp) == pytest.approx(eps, rel=1e-9)


def test_validation_errors():
    with pytest.raises(ValueError, match="k"):
        epsilon_advanced_composition(0.1, 0, 1e-5)
    with pytest.raises(ValueError, match="delta_prime"):
        epsilon_advanced_composition(0.1, 10, 0.0)
    with pytest.raises(ValueError, match="form"):
        epsilon_advanced_composition(0.1, 10, 1e-5, form="x")
    with pytest.raises(ValueError, match="rule"):
        laplace_scale_for_queries(10, 1.0, 1e-5, rule="x")
    with pytest.raises(ValueError, match="delta_prime"):
        gaussian_variance_advanced_composition(10, 1.0, 1e-5, 2e-5)
    assert hockey_stick_divergence([1.0, 0.0], [0.0, 1.0], 5.0) == 1.0


# ---------------------------------------------------------------------------
# the classical calibration of the Gaussian mechanism, against the exact one and dp-accounting's
# ---------------------------------------------------------------------------


def test_classical_calibration_is_valid_and_above_the_exact_one():
    for eps in [0.01, 0.1, 0.5, 0.9, 0.999]:
        for delta in [1e-12, 1e-6, 1e-3, 0.1, 0.5, 0.9]:
            classical = gaussian_sigma_classical(eps, delta)
            assert classical >= gaussian_sigma_exact(eps, delta)
            assert delta_gaussian(eps, 1 / classical) <= delta
    # the formula typed in
    assert gaussian_sigma_classical(0.3, 1e-7, 2.5) == pytest.approx(2.5 * np.sqrt(2 * np.log(1.25e7)) / 0.3, rel=1e-14)


def test_exact_calibration_matches_dp_accounting():
    from dp_accounting.pld import accountant, common

    for eps, delta in [(0.5, 1e-5), (1.0, 1e-6), (2.0, 1e-3)]:
        ref = accountant.get_smallest_gaussian_noise(common.DifferentialPrivacyParameters(eps, delta), 1)
        assert gaussian_sigma_exact(eps, delta) == pytest.approx(ref, rel=1e-3)


def test_classical_formula_fails_beyond_epsilon_one():
    # the rule's σ scales as 1/ε; at ε = 10, δ = 1e-10 it is too small (the chapter's example)
    sigma_rule = np.sqrt(2 * np.log(1.25e10)) / 10
    assert delta_gaussian(10.0, 1 / sigma_rule) > 1e-10
    with pytest.raises(ValueError, match="epsilon"):
        gaussian_sigma_classical(10.0, 1e-10)


def _mp_delta_at_classical_sigma(eps, delta):
    """δ_exact(ε) of the Gaussian mechanism at the classical σ = √(2 log(1.25/δ))/ε, in mpmath (50 digits)."""
    import mpmath as mp

    with mp.workdps(50):
        e, c = mp.mpf(eps), mp.sqrt(2 * mp.log(mp.mpf(1.25) / mp.mpf(delta)))
        mu = e / c
        return mp.ncdf(-e / mu + mu / 2) - mp.exp(e) * mp.ncdf(-e / mu - mu / 2)


@pytest.mark.parametrize("delta", [0.5, 1e-3, 1e-5, 1e-10, 1e-20])
def test_classical_breakdown_epsilon_against_mpmath(delta):
    import mpmath as mp

    eps_star = gaussian_classical_breakdown_epsilon(delta)
    assert eps_star > 1.0
    # an independent root in 50-digit arithmetic
    with mp.workdps(50):
        root = mp.findroot(lambda e: _mp_delta_at_classical_sigma(e, delta) - mp.mpf(delta), eps_star)
    assert eps_star == pytest.approx(float(root), rel=1e-9)
    # the formula holds below ε* and fails above it, on a grid up to 40
    for e in np.linspace(1.0, 40.0, 157):
        ok = _mp_delta_at_classical_sigma(e, delta) <= delta
        assert ok == (e < eps_star), (delta, e)


def test_classical_breakdown_epsilon_thresholds_of_the_chapter():
    # book/00b-foundations states these (to two decimals) for δ = 1e-3, 1e-5, 1e-10
    got = [round(gaussian_classical_breakdown_epsilon(d), 2) for d in (1e-3, 1e-5, 1e-10)]
    assert got == [7.46, 8.42, 9.85]
    with pytest.raises(ValueError, match="delta"):
        gaussian_classical_breakdown_epsilon(0.6)
    with pytest.raises(ValueError, match="delta"):
        gaussian_classical_breakdown_epsilon(0.0)


@pytest.mark.parametrize("call,name", [
    (lambda: gaussian_sigma_classical(1.0, 1e-5), "epsilon"),
    (lambda: gaussian_sigma_classical(0.5, 0.0), "delta"),
    (lambda: gaussian_sigma_classical(0.5, 1e-5, 0.0), "sensitivity"),
])
def test_classical_calibration_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def _classical_variance_by_hand(k, eps, delta, dprime):
    """The classical-calibration variance with the share within budget, by the quadratic formula (a second route)."""
    b = np.sqrt(2 * k * np.log(1 / dprime))
    e0 = (-b + np.sqrt(b * b + 2 * k * eps)) / k  # root of kε₀²/2 + bε₀ = ε
    return e0, 2 * np.log(1.25 / ((delta - dprime) / k)) / e0**2


@pytest.mark.claim("S3-04")
def test_s3_04_the_comparison_needs_a_share_below_one():
    # the counterexample: T = 2, δ = 1e-5, ε > 14.56 — the formula's comparison flips, at shares ε₀ > 1,
    # where the classical calibration is not a guarantee; the package refuses that range
    T, delta = 2, 1e-5
    flip = None
    for eps in np.arange(14.0, 15.0, 0.005):
        e0_half, v_half = _classical_variance_by_hand(T, eps, delta, delta / 2)
        e0_even, v_even = _classical_variance_by_hand(T, eps, delta, delta / (T + 1))
        if v_half >= v_even:
            flip = eps
            break
    assert flip is not None and 14.55 <= flip <= 14.57 and e0_half > 1.6 and e0_even > 1.6
    with pytest.raises(ValueError, match="epsilon_0 < 1"):
        gaussian_variance_advanced_composition(T, 15.0, delta, delta / 2)
    with pytest.raises(ValueError, match="calibration='exact'"):
        gaussian_variance_advanced_composition(T, 15.0, delta, delta / (T + 1))
    # just below a share of 1 the package still answers, and agrees with the formula by hand
    e0, v = _classical_variance_by_hand(T, 7.0, delta, delta / 2)
    assert e0 < 1 and gaussian_variance_advanced_composition(T, 7.0, delta, delta / 2) == pytest.approx(v, rel=1e-10)


@pytest.mark.claim("S3-04")
@settings(max_examples=200, deadline=None)
@given(T=st.integers(2, 10_000), log_delta=st.floats(np.log(1e-12), np.log(0.1)), log_eps=st.floats(-5.0, 5.0))
def test_s3_04_the_split_comparison_holds_wherever_the_calibration_is_defined(T, log_delta, log_eps):
    delta, eps = float(np.exp(log_delta)), float(np.exp(log_eps))
    e0_half, v_half = _classical_variance_by_hand(T, eps, delta, delta / 2)
    e0_even, v_even = _classical_variance_by_hand(T, eps, delta, delta / (T + 1))
    if max(e0_half, e0_even) >= 1:
        with pytest.raises(ValueError, match="epsilon_0"):
            gaussian_variance_advanced_composition(T, eps, delta, delta / 2 if e0_half >= 1 else delta / (T + 1))
        return
    assert v_even > v_half
    assert gaussian_variance_advanced_composition(T, eps, delta, delta / 2) == pytest.approx(v_half, rel=1e-9)


@pytest.mark.claim("S3-04")
def test_s3_04_the_squared_reading_differs_from_the_book_only_by_the_calibration_constant():
    # "(4k/ε²)(log((k+1)/δ))" with a square lost in the scan: 7,740 against the book's 7,864.6 (k = 10, ε = 1, δ = 1e-5)
    k, eps, delta = 10, 1.0, 1e-5
    squared = 4 * k / eps**2 * np.log((k + 1) / delta) ** 2
    book = gaussian_variance_advanced_composition(k, eps, delta, delta / (k + 1), form="linear")
    as_scanned = 4 * k / eps**2 * np.log((k + 1) / delta)
    assert round(squared) == 7740 and round(book, 1) == 7864.6 and round(as_scanned, 1) == 556.4
    # the ratio is exactly the 1.25 inside one logarithm
    assert book / squared == pytest.approx(np.log(1.25 * (k + 1) / delta) / np.log((k + 1) / delta), rel=1e-12)
