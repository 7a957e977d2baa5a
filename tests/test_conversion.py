"""RDP / zCDP to (ε, δ)-DP conversions: against dp-accounting, against exact curves, and each other."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dp_accounting.rdp.rdp_privacy_accountant import compute_delta, compute_epsilon

from dpnotes.composition import rdp_composition
from dpnotes.conversion import (
    OrderGridWarning,
    delta_from_rdp,
    delta_from_rdp_curve,
    epsilon_from_rdp,
    epsilon_from_rdp_curve,
    epsilon_from_zcdp,
    legendre_transform,
)
from dpnotes.privacy_loss import delta_gaussian, epsilon_gaussian
from dpnotes.rdp import rdp_gaussian, rdp_laplace

ORDERS = np.concatenate([np.linspace(1.05, 10.95, 100), np.arange(11, 64), [80.0, 128.0, 256.0, 512.0, 1024.0]])


def _quiet(fn, *a, **k):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OrderGridWarning)
        return fn(*a, **k)


# --- against dp-accounting (same quantity, independent code) -----------------------------


@pytest.mark.claim("S2-06")
@pytest.mark.parametrize("sigma", [0.7, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-5, 1e-2])
def test_s2_06_improved_epsilon_matches_dp_accounting(sigma, delta):
    rho = rdp_gaussian(ORDERS, sigma)
    ref_eps, ref_order = compute_epsilon(ORDERS, rho, delta)
    ours, order = _quiet(epsilon_from_rdp, ORDERS, rho, delta, return_order=True)
    if ref_eps > 0:  # dp-accounting returns 0 via its KL shortcut, which we do not use
        assert ours == pytest.approx(ref_eps, rel=1e-9)
        assert order == ref_order


@pytest.mark.claim("S2-06")
@pytest.mark.parametrize("sigma", [0.7, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("eps", [0.1, 1.0, 4.0])
def test_s2_06_improved_delta_matches_dp_accounting(sigma, eps):
    rho = rdp_gaussian(ORDERS, sigma)
    ref, ref_order = compute_delta(ORDERS, rho, eps)
    ours, order = _quiet(delta_from_rdp, ORDERS, rho, eps, return_order=True)
    kl_bound = np.sqrt(-np.expm1(-rdp_gaussian(1.0, sigma)))  # dp-accounting also tries this one
    if ref < min(kl_bound, 1.0) * (1 - 1e-9):
        assert ours == pytest.approx(ref, rel=1e-9)
        assert order == ref_order


# --- the three methods and the seed formulas -----------------------------------------------


@pytest.mark.claim("S0-07", "S3-06")
def test_s0_07_s3_06_mironov_formula():
    orders = np.array([2.0, 3.0, 7.0, 9.0])
    rho = np.array([0.3, 0.5, 1.2, 3.0])
    for d in (1e-3, 1e-9):
        expected = np.min(rho + np.log(1 / d) / (orders - 1))
        assert epsilon_from_rdp(orders, rho, d, method="mironov") == pytest.approx(expected, rel=1e-14)


def _coin_renyi(p, q, alpha):
    """D_α of the coins Bernoulli(p) ‖ Bernoulli(q), straight from the definition (mpmath, 50 digits)."""
    import mpmath

    with mpmath.workdps(50):
        p, q = mpmath.mpf(p), mpmath.mpf(q)
        a = mpmath.mpf(alpha)
        return float(mpmath.log(p**a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a)) / (a - 1))


@pytest.mark.claim("S3-06")
def test_s3_06_every_test_of_a_gaussian_pair_obeys_the_renyi_bound_of_its_decision():
    # RDP's reading through tests: a test's decision is a post-processing, so its errors obey
    # D_α(Bern(1 − α_I) ‖ Bern(β_II)) ≤ D_α(P ‖ Q); checked on the optimal tests of N(1, 1) vs N(0, 1), D_α = α/2
    from dpnotes.tradeoff import tradeoff_gaussian

    for alpha in (1.5, 2.0, 4.0, 8.0):
        for a1 in (1e-4, 0.01, 0.05, 0.2, 0.5, 0.8, 0.99):
            beta = float(tradeoff_gaussian(a1, 1.0))
            assert _coin_renyi(1 - a1, beta, alpha) <= alpha / 2
    # tests that rarely accept H0 come close to the bound at a large order: the reading is not vacuous
    rare = [_coin_renyi(1 - a1, float(tradeoff_gaussian(a1, 1.0)), 8.0) for a1 in 1 - np.geomspace(1e-14, 0.5, 40)]
    assert 3.5 < max(rare) <= 4.0


@pytest.mark.claim("S3-06")
def test_s3_06_tests_do_not_pin_down_the_renyi_divergence():
    # (0.6, 0.3, 0.1) vs (0.2, 0.3, 0.5) at order 3: D_3 = ½ log(5.704) exceeds D_3 of every test's decision
    # (the six non-trivial events; randomized tests mix them and the coin divergence is convex in the errors)
    from itertools import product

    from dpnotes.divergence import renyi_divergence

    p, q = np.array([0.6, 0.3, 0.1]), np.array([0.2, 0.3, 0.5])
    full = renyi_divergence(p, q, 3.0)
    assert full == pytest.approx(0.5 * np.log(0.6**3 / 0.2**2 + 0.3**3 / 0.3**2 + 0.1**3 / 0.5**2), rel=1e-12)
    coins = [_coin_renyi(p[e].sum(), q[e].sum(), 3.0) for e in map(np.array, product([False, True], repeat=3))
             if 0 < e.sum() < 3]
    assert max(coins) == pytest.approx(0.5 * np.log(5.5), rel=1e-12) and max(coins) < full - 0.018


@pytest.mark.claim("S3-06")
def test_s3_06_the_optimal_one_order_conversion_lies_between_the_exact_curve_and_the_improved_one():
    # δ*_α(ε) = sup{p − e^ε q : D_α(Bern p ‖ Bern q) ≤ ρ}: the best δ from the RDP value at one order
    # (Asoodeh et al. 2021). For the Gaussian (μ = 1, ρ = α/2) it must lie between the exact δ(ε) and the
    # improved conversion, which lies below Mironov's.
    from scipy.special import logsumexp

    def coin_log(p, log_q, a):  # (α − 1) D_α of the coins, in log space
        return logsumexp([a * np.log(p) + (1 - a) * log_q, a * np.log1p(-p) + (1 - a) * np.log1p(-np.exp(log_q))],
                         axis=0)

    for alpha, eps in ((4.0, 3.0), (8.0, 5.0)):
        rho = alpha / 2
        p = np.linspace(1e-4, 1 - 1e-9, 3001)
        lo, hi = np.full_like(p, -745.0), np.log(p)  # D_α decreases in q on (0, p]: bisect for the smallest q
        feasible_lo = coin_log(p, lo, alpha) <= (alpha - 1) * rho
        for _ in range(80):
            mid = (lo + hi) / 2
            bad = coin_log(p, mid, alpha) > (alpha - 1) * rho
            lo, hi = np.where(bad, mid, lo), np.where(bad, hi, mid)
        q = np.where(feasible_lo, 0.0, np.exp(hi))
        best = np.max(p - np.exp(eps) * q)
        improved = delta_from_rdp([alpha], [rho], eps)
        assert delta_gaussian(eps, 1.0) < best <= improved * (1 + 1e-9)
        assert improved < delta_from_rdp([alpha], [rho], eps, method="mironov")


@pytest.mark.claim("S0-07")
def test_s0_07_pure_dp_is_infinite_order():
    # pure ε-DP ≡ (∞, ε)-RDP: ε is returned whatever δ; δ = 0 at ε
    assert epsilon_from_rdp([np.inf], [0.7], 1e-9) == 0.7
    assert delta_from_rdp([2.0, np.inf], [0.1, 0.7], 0.7) == 0.0


@pytest.mark.claim("S4-03", "S4-04")
@pytest.mark.parametrize("sigma", [0.5, 2.0, 20.0])
def test_s4_03_s4_04_chernoff_coincides_with_mironov_on_a_grid(sigma):
    rho = rdp_gaussian(ORDERS, sigma)
    for d in (1e-10, 1e-4, 0.3):
        m = _quiet(epsilon_from_rdp, ORDERS, rho, d, method="mironov")
        c = _quiet(epsilon_from_rdp, ORDERS, rho, d, method="chernoff")
        assert c == pytest.approx(m, rel=1e-11)
    for e in (0.2, 1.0, 5.0):
        m = _quiet(delta_from_rdp, ORDERS, rho, e, method="mironov")
        c = _quiet(delta_from_rdp, ORDERS, rho, e, method="chernoff")
        assert c == pytest.approx(m, rel=1e-11)


@pytest.mark.claim("S4-04")
def test_s4_04_claim21_round_trip():
    # (λ, ρ)-RDP ⇒ (ε, e^{(λ−1)(ρ−ε)})-DP ⇔ (ρ + log(1/δ)/(λ−1), δ)-DP at one order
    lam, rho = 5.0, 0.4
    for d in (1e-2, 1e-8):
        e = epsilon_from_rdp([lam], [rho], d, method="mironov")
        assert delta_from_rdp([lam], [rho], e, method="mironov") == pytest.approx(d, rel=1e-12)


def test_improved_never_exceeds_mironov_and_deltas_order():
    rho = rdp_laplace(ORDERS, 1.0)
    for d in (1e-10, 1e-3):
        assert _quiet(epsilon_from_rdp, ORDERS, rho, d) <= _quiet(epsilon_from_rdp, ORDERS, rho, d, method="mironov")
    for e in (0.5, 1.5):
        assert _quiet(delta_from_rdp, ORDERS, rho, e) <= _quiet(delta_from_rdp, ORDERS, rho, e, method="mironov")


@pytest.mark.claim("S4-07")
def test_s4_07_claim23_kfold_composition_via_legendre_scaling():
    sigma, k = 2.0, 25
    rho = rdp_gaussian(ORDERS, sigma)
    t = ORDERS - 1
    kappa = t * rho
    for eps in (2.0, 6.0, 10.0, 15.0):
        via_scaling = min(1.0, np.exp(-k * legendre_transform(t, kappa, eps / k)))  # exp(−kκ*(ε/k))
        composed = _quiet(delta_from_rdp, ORDERS, rdp_composition(rho, counts=k), eps, method="chernoff")
        assert composed == pytest.approx(via_scaling, rel=1e-12)


@pytest.mark.claim("S4-05")
@pytest.mark.parametrize("sigma,eps", [(1.5, 3.0), (2.0, 1.0), (5.0, 0.2), (0.6, 4.0)])
def test_s4_05_example2_optimal_order_and_delta(sigma, eps):
    # valid when εσ² > 1/2
    d, order = delta_from_rdp_curve(lambda a: a / (2 * sigma**2), eps, method="mironov", return_order=True)
    assert order == pytest.approx(0.5 + eps * sigma**2, rel=1e-6)
    assert d == pytest.approx(np.exp(-((eps * sigma - 1 / (2 * sigma)) ** 2) / 2), rel=1e-10)
    # the seed's printed order (1 + 2ε/σ²)/2 gives a worse (or no) bound
    lam_seed = (1 + 2 * eps / sigma**2) / 2
    if lam_seed > 1:
        assert np.exp((lam_seed - 1) * (lam_seed / (2 * sigma**2) - eps)) > d * 1.01
    # and every bound sits above the exact curve
    assert d >= delta_gaussian(eps, 1 / sigma)


@pytest.mark.claim("S4-05")
def test_s4_05_source_order_is_wrong_numerically():
    sigma, eps = 2.0, 1.0
    lam_seed = (1 + 2 * eps / sigma**2) / 2  # 0.75: not even an order > 1
    assert lam_seed < 1
    exponent = lambda lam: (lam - 1) * (lam / (2 * sigma**2) - eps)  # noqa: E731
    assert exponent(0.5 + eps * sigma**2) < exponent(lam_seed)


@pytest.mark.claim("S4-08")
@pytest.mark.parametrize("k,eps,delta", [(10, 1.0, 1e-5), (100, 2.0, 1e-6), (1000, 8.0, 1e-10)])
def test_s4_08_example3_sigma_bound_suffices(k, eps, delta):
    L = np.log(1 / delta)
    sigma = np.sqrt(k) * (np.sqrt(2 * L) / eps + (2 * eps) ** -0.5)
    d_rdp = delta_from_rdp_curve(lambda a: k * a / (2 * sigma**2), eps, method="mironov")
    assert d_rdp <= delta
    # the k-fold Gaussian is exactly one Gaussian with μ = √k/σ: the exact δ is smaller still
    assert delta_gaussian(eps, np.sqrt(k) / sigma) <= d_rdp
    # and the exact threshold (root of the quadratic) is smaller than the seed's σ
    s_exact = (np.sqrt(2 * L) + np.sqrt(2 * L + 2 * eps)) / (2 * eps)
    assert np.sqrt(k) * s_exact < sigma
    d_at_exact = delta_from_rdp_curve(lambda a: k * a / (2 * (np.sqrt(k) * s_exact) ** 2), eps, method="mironov")
    assert d_at_exact == pytest.approx(delta, rel=1e-8)


def test_epsilon_from_rdp_curve_gaussian_closed_form():
    for sigma, d in [(1.0, 1e-5), (4.0, 1e-9)]:
        L = np.log(1 / d)
        eps, a = epsilon_from_rdp_curve(lambda x: x / (2 * sigma**2), d, method="mironov", return_order=True)
        rho = 1 / (2 * sigma**2)
        assert eps == pytest.approx(rho + 2 * np.sqrt(rho * L), rel=1e-10)
        assert a == pytest.approx(1 + np.sqrt(L / rho), rel=1e-5)


def test_grid_edge_warning():
    rho = rdp_gaussian(np.array([2.0, 3.0, 4.0]), 10.0)  # best order far above 4
    with pytest.warns(OrderGridWarning):
        epsilon_from_rdp([2.0, 3.0, 4.0], rho, 1e-6)
    with pytest.warns(OrderGridWarning):
        epsilon_from_rdp_curve(lambda a: a / 2e6, 1e-6, bounds=(1.5, 10.0))
    with warnings.catch_warnings():
        warnings.simplefilter("error", OrderGridWarning)
        epsilon_from_rdp(ORDERS, rdp_gaussian(ORDERS, 1.0), 1e-6)


# --- zCDP -------------------------------------------------------------------------------


@pytest.mark.claim("S2-04")
@pytest.mark.parametrize("rho", [1e-4, 0.02, 0.5, 3.0, 50.0])
@pytest.mark.parametrize("delta", [1e-12, 1e-5, 0.1])
def test_s2_04_zcdp_conversions(rho, delta):
    bs = epsilon_from_zcdp(rho, delta)
    imp = epsilon_from_zcdp(rho, delta, method="improved")
    assert bs == pytest.approx(rho + 2 * np.sqrt(rho * np.log(1 / delta)), rel=1e-14)
    # Bun–Steinke = Mironov optimised continuously over α
    m = _quiet(epsilon_from_rdp_curve, lambda a: rho * a, delta, method="mironov", bounds=(1 + 1e-9, 1e9))
    assert bs == pytest.approx(m, rel=1e-9)
    # improved = the improved RDP conversion optimised by a generic optimiser
    i2 = _quiet(epsilon_from_rdp_curve, lambda a: rho * a, delta, method="improved", bounds=(1 + 1e-9, 1e9))
    assert imp == pytest.approx(i2, rel=1e-8, abs=1e-12)
    assert imp <= bs
    # both bound the exact Gaussian curve with the same ρ = μ²/2
    assert imp >= epsilon_gaussian(delta, np.sqrt(2 * rho)) * (1 - 1e-12)


@pytest.mark.claim("S2-04")
def test_s2_04_kfold_pure_dp_conversion():
    eps0, k, d = 0.1, 100, 1e-6
    rho = 0.5 * eps0**2 * k
    assert epsilon_from_zcdp(rho, d) == pytest.approx(eps0 * np.sqrt(2 * k * np.log(1 / d)) + 0.5 * eps0**2 * k)


# --- hypothesis: every conversion bounds the exact curve -----------------------------------


@settings(max_examples=80, deadline=None)
@given(sigma=st.floats(0.1, 1e3), log_delta=st.floats(np.log(1e-15), np.log(0.5)))
def test_every_conversion_bounds_exact_gaussian(sigma, log_delta):
    delta = float(np.exp(log_delta))
    rho = rdp_gaussian(ORDERS, sigma)
    exact = epsilon_gaussian(delta, 1 / sigma)
    vals = {m: _quiet(epsilon_from_rdp, ORDERS, rho, delta, method=m) for m in ("improved", "mironov", "chernoff")}
    for m, v in vals.items():
        assert np.isfinite(v), m
        assert v >= exact * (1 - 1e-9) - 1e-12, m
    assert vals["improved"] <= vals["mironov"] * (1 + 1e-12)
    assert vals["chernoff"] == pytest.approx(vals["mironov"], rel=1e-9, abs=1e-12)
    z = epsilon_from_zcdp(1 / (2 * sigma**2), delta, method="improved")
    assert exact * (1 - 1e-9) - 1e-12 <= z <= epsilon_from_zcdp(1 / (2 * sigma**2), delta) * (1 + 1e-12)


@settings(max_examples=60, deadline=None)
@given(sigma=st.floats(0.1, 1e3), eps=st.floats(1e-4, 50.0))
def test_delta_conversions_bound_exact_and_are_monotone(sigma, eps):
    rho = rdp_gaussian(ORDERS, sigma)
    exact = delta_gaussian(eps, 1 / sigma)
    d_imp = _quiet(delta_from_rdp, ORDERS, rho, eps)
    d_mir = _quiet(delta_from_rdp, ORDERS, rho, eps, method="mironov")
    assert 0 <= exact <= d_imp * (1 + 1e-9) + 1e-300
    assert d_imp <= d_mir * (1 + 1e-12)
    assert _quiet(delta_from_rdp, ORDERS, rho, eps * 1.5) <= d_imp * (1 + 1e-12)


@settings(max_examples=60, deadline=None)
@given(alpha=st.floats(1.0001, 1e4), rho=st.floats(0.0, 100.0), log_delta=st.floats(np.log(1e-15), np.log(0.5)))
def test_single_order_conversions_finite_and_ordered(alpha, rho, log_delta):
    d = float(np.exp(log_delta))
    imp = epsilon_from_rdp([alpha], [rho], d)
    mir = epsilon_from_rdp([alpha], [rho], d, method="mironov")
    assert np.isfinite(imp) and np.isfinite(mir) and 0 <= imp <= mir * (1 + 1e-12) + 1e-12
    back = delta_from_rdp([alpha], [rho], mir, method="mironov")
    assert back == pytest.approx(d, rel=1e-6)


def test_validation_errors():
    with pytest.raises(ValueError, match="orders"):
        epsilon_from_rdp([1.0, 2.0], [0.1, 0.2], 1e-5)
    with pytest.raises(ValueError, match="equal length"):
        epsilon_from_rdp([2.0, 3.0], [0.1], 1e-5)
    with pytest.raises(ValueError, match="delta"):
        epsilon_from_rdp([2.0], [0.1], 0.0)
    with pytest.raises(ValueError, match="method"):
        epsilon_from_rdp([2.0], [0.1], 1e-5, method="magic")
    with pytest.raises(ValueError, match="rdp"):
        delta_from_rdp([2.0], [-0.1], 1.0)
    with pytest.raises(ValueError, match="rho"):
        epsilon_from_zcdp(-1.0, 1e-5)


# ----------------------------------------------------------------------------- bad curves (regressions)


@pytest.mark.parametrize("curve", [lambda a: float("nan"), lambda a: -1.0, lambda a: "a", lambda a: [1.0, 2.0]])
def test_a_curve_returning_no_rdp_value_is_refused(curve):
    # ε was ∞ for a NaN curve and δ was 0 for a negative one
    with pytest.raises(ValueError, match="rdp_fn"):
        epsilon_from_rdp_curve(curve, 1e-5)
    with pytest.raises(ValueError, match="rdp_fn"):
        delta_from_rdp_curve(curve, 1.0)
    with pytest.raises(TypeError, match="rdp_fn"):
        epsilon_from_rdp_curve("alpha / 2", 1e-5)
    with pytest.raises(ValueError, match="bounds"):
        epsilon_from_rdp_curve(lambda a: a / 2, 1e-5, bounds=(2.0,))
