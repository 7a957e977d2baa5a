"""Properties of Rényi divergence and (ε, δ) pairs (seed 002), on real pairs."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import laplace, norm

from dpnotes.divergence import renyi_divergence
from dpnotes.privacy_loss import delta_gaussian, hockey_stick_divergence
from dpnotes.properties import (
    group_privacy_epsilon_delta,
    approximate_rdp_delta_hat,
    approximate_renyi_divergence,
    bayesian_event_probability,
    decompose_dp_pair,
    group_privacy_bound,
    moment_difference_bound,
    post_processing_sides,
    posterior_bound,
    pure_dp_rdp_bound,
    quasi_convexity_sides,
    randomized_response_decomposition,
    triangle_bound,
)
from dpnotes.rdp import rdp_gaussian, rdp_laplace, rdp_randomized_response

ALPHAS = [1.0, 1.001, 1.5, 2.0, 5.0, 30.0, np.inf]


def pmf(n, seed):
    return np.random.default_rng(seed).dirichlet(np.ones(n))


def delta_both_ways(p, q, eps):
    return max(hockey_stick_divergence(p, q, eps), hockey_stick_divergence(q, p, eps))


# --- S2-06 RDP properties --------------------------------------------------------------------


@pytest.mark.claim("S2-06")
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 6), m=st.integers(1, 4))
def test_s2_06_post_processing_and_nonnegativity(seed, n, m):
    rng = np.random.default_rng(seed)
    p, q = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(n))
    kernel = rng.dirichlet(np.ones(m), size=n)
    for a in ALPHAS:
        after, before = post_processing_sides(p, q, kernel, a)
        assert -1e-12 <= after <= before * (1 + 1e-9) + 1e-12


@pytest.mark.claim("S2-06")
@pytest.mark.parametrize("curve", [
    lambda a: renyi_divergence(norm(1.3, 1), norm(0, 1), a),
    lambda a: renyi_divergence(laplace(1, 0.8), laplace(0, 0.8), a, points=(0.0, 1.0)),
    lambda a: rdp_randomized_response(a, 0.8),
    lambda a: renyi_divergence(pmf(5, 1), pmf(5, 2), a),
], ids=["gaussian", "laplace", "rr", "pmf"])
def test_s2_06_monotone_in_alpha(curve):
    alphas = np.array([1.0, 1.01, 1.3, 2.0, 3.5, 8.0, 20.0])
    vals = np.array([curve(a) for a in alphas])
    assert np.all(vals >= 0)
    assert np.all(np.diff(vals) >= -1e-10)


@pytest.mark.claim("S2-06")
def test_s2_06_gaussian_divergence_symmetric_in_means():
    for a in (1.5, 4.0):
        assert renyi_divergence(norm(2, 1.5), norm(-1, 1.5), a) == pytest.approx(rdp_gaussian(a, 1.5, 3.0), rel=1e-9)
        assert renyi_divergence(norm(-1, 1.5), norm(2, 1.5), a) == pytest.approx(rdp_gaussian(a, 1.5, 3.0), rel=1e-9)


@pytest.mark.claim("S2-06")
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), s=st.floats(0, 1), a=st.sampled_from([1.0, 1.2, 2.0, 6.0, 40.0]))
def test_s2_06_quasi_convexity_both_inequalities(seed, s, a):
    p, q, p2, q2 = (pmf(4, seed + i) for i in range(4))
    sides = quasi_convexity_sides(p, q, p2, q2, s, a)
    if a == 1.0:
        lhs, mid, _ = sides
        assert lhs <= mid * (1 + 1e-10) + 1e-14  # joint convexity of KL
    else:
        lhs, mid, rhs = sides
        assert lhs <= mid * (1 + 1e-10) + 1e-14 and mid <= rhs * (1 + 1e-12) + 1e-14


@pytest.mark.claim("S2-06")
def test_s2_06_triangle_and_group_privacy_gaussians_tight():
    # P = N(a+b), Q = N(b), R = N(0): the group bound (√ρ1+√ρ2)²α is attained
    a_, b_, sigma = 0.7, 1.2, 1.0
    P, Q, R = norm(a_ + b_, sigma), norm(b_, sigma), norm(0, sigma)
    rho1, rho2 = a_**2 / (2 * sigma**2), b_**2 / (2 * sigma**2)
    for alpha in (1.5, 3.0, 8.0):
        exact = renyi_divergence(P, R, alpha)
        assert exact == pytest.approx(group_privacy_bound(rho1, rho2, alpha), rel=1e-9)
        # the optimal α' = α(1 + √(ρ1/ρ2)) makes the triangle bound equal it
        ap = alpha * (1 + np.sqrt(rho1 / rho2))
        assert triangle_bound(P, Q, R, alpha, ap) == pytest.approx(exact, rel=1e-8)
        for ap2 in (alpha * 1.1, alpha * 5):
            assert triangle_bound(P, Q, R, alpha, ap2) >= exact * (1 - 1e-9)


@pytest.mark.claim("S2-06")
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), alpha=st.floats(1.05, 20.0), gap=st.floats(0.05, 20.0))
def test_s2_06_triangle_inequality_pmfs(seed, alpha, gap):
    p, q, r = (pmf(5, seed + i) for i in range(3))
    assert renyi_divergence(p, r, alpha) <= triangle_bound(p, q, r, alpha, alpha + gap) * (1 + 1e-9)


@pytest.mark.claim("S2-06")
@pytest.mark.parametrize("pair", [
    ([0.8, 0.2], [0.2, 0.8]),
    (pmf(6, 11), pmf(6, 12)),
    (pmf(3, 13), pmf(3, 14)),
], ids=["rr", "pmf6", "pmf3"])
def test_s2_06_pure_dp_implies_concentrated(pair):
    p, q = pair
    for a in (1.0, 1.5, 3.0, 10.0, 100.0):
        assert renyi_divergence(p, q, a) <= pure_dp_rdp_bound(p, q, a) * (1 + 1e-12)


@pytest.mark.claim("S2-06")
def test_s2_06_pure_dp_bound_laplace():
    for b in (0.5, 2.0):
        t = 1 / b
        for a in (1.0, 2.0, 10.0):
            assert rdp_laplace(a, b) <= a / 8 * (2 * t) ** 2


@pytest.mark.claim("S2-06")
@pytest.mark.parametrize("sigma", [0.5, 1.0, 3.0])
def test_s2_06_improved_conversion_property8(sigma):
    # P(S) ≤ e^ε̃ Q(S) + e^{−(α−1)(ε̃−D)}(1/α)(1−1/α)^{α−1}: the sup over S is the exact δ(ε̃)
    mu = 1 / sigma
    for a in (1.5, 2.0, 6.0, 30.0):
        D = rdp_gaussian(a, sigma)
        for et in (D, D + 0.5, D + 3.0):
            bound = np.exp(-(a - 1) * (et - D)) / a * (1 - 1 / a) ** (a - 1)
            assert delta_gaussian(et, mu) <= bound * (1 + 1e-12)
            assert bound <= np.exp(-(a - 1) * (et - D))  # second inequality


# --- S2-03 moment difference -----------------------------------------------------------------


@pytest.mark.claim("S2-03")
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), eps=st.floats(0.0, 3.0), n=st.integers(2, 9))
def test_s2_03_moment_difference_bound(seed, eps, n):
    rng = np.random.default_rng(seed)
    Delta = 2.5
    support = np.linspace(-Delta, Delta, n)
    px, py = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(n))
    d = delta_both_ways(px, py, eps)
    diff = px @ support - py @ support
    assert diff <= moment_difference_bound(eps, d, py @ np.abs(support), Delta) + 1e-12


def test_moment_difference_bound_with_a_point_mass_at_zero_is_two_delta_delta_at_any_epsilon():
    """moment_difference_bound(5270955.1, 3.9e-10, 0.0, 1.0) was NaN (fuzz, seed 203): e^ε − 1 overflowed and ∞·0 is NaN,
    where E|Y| = 0 makes the first term 0 exactly. A term beyond the float range with E|Y| > 0 is ∞ (documented),
    and no RuntimeWarning escapes."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert moment_difference_bound(5270955.0968185775, 3.930834782920979e-10, 0.0, 1.0) == 2 * 3.930834782920979e-10
        got = moment_difference_bound(np.array([1.0, 800.0]), 0.25, np.array([0.0, 0.0]), 2.0)
        assert np.array_equal(got, [1.0, 1.0])
        assert moment_difference_bound(800.0, 0.0, 0.5, 1.0) == math.inf
        assert moment_difference_bound(700.0, 0.0, 1e-300, 1.0) == pytest.approx(math.expm1(700.0) * 1e-300, rel=1e-12)


@pytest.mark.claim("S2-03")
def test_s2_03_randomized_response_example():
    Delta, p = 1.0, 0.8
    eps = np.log(p / (1 - p))
    diff = 2 * Delta * (2 * p - 1)
    bound = moment_difference_bound(eps, 0.0, Delta, Delta)
    assert diff <= bound
    assert bound == pytest.approx(Delta * (2 * p - 1) / (1 - p))


# --- S2-07 approximate RDP ----------------------------------------------------------------


PAIRS = [(pmf(4, 21), pmf(4, 22)), (pmf(3, 23), pmf(3, 24)), (np.array([0.7, 0.3]), np.array([0.2, 0.8]))]


@pytest.mark.claim("S2-07")
@pytest.mark.parametrize("p,q", PAIRS)
@pytest.mark.parametrize("eps", [0.1, 0.5, 1.0])
def test_s2_07_properties_1_and_2_via_decomposition(p, q, eps):
    d = delta_both_ways(p, q, eps)
    dec = decompose_dp_pair(p, q, eps)
    assert dec.delta_prime == pytest.approx(d, abs=1e-12)
    # property 1: (ε, δ)-DP ⇒ D∞ of the decomposed pair ≤ ε (the seed's "(∞, δ)" means (∞, ε))
    assert renyi_divergence(dec.p_prime, dec.q_prime, np.inf) <= eps + 1e-12
    assert renyi_divergence(dec.q_prime, dec.p_prime, np.inf) <= eps + 1e-12
    # property 2: δ-approximate (λ, ½ε²λ)-RDP (the seed prints ½ε²δ)
    for lam in (1.5, 3.0, 10.0):
        upper = renyi_divergence(dec.p_prime, dec.q_prime, lam)
        assert upper <= 0.5 * eps**2 * lam * (1 + 1e-12)
        assert approximate_renyi_divergence(p, q, lam, d) <= upper + 1e-7


@pytest.mark.claim("S2-07")
def test_s2_07_property2_source_typo_is_false():
    # ½ε²δ would claim almost nothing is left: approximate divergence exceeds it
    p, q = np.array([0.7, 0.3]), np.array([0.2, 0.8])
    eps = 0.5
    d = delta_both_ways(p, q, eps)
    assert approximate_renyi_divergence(p, q, 3.0, d) > 0.5 * eps**2 * d


@pytest.mark.claim("S2-07")
@pytest.mark.parametrize("p,q", PAIRS)
def test_s2_07_property3_corrected_conversion(p, q):
    for lam in (2.0, 5.0):
        for d in (0.0, 0.05):
            e = approximate_renyi_divergence(p, q, lam, d)
            for eh in (e, e + 0.3, e + 1.0):
                exact = hockey_stick_divergence(p, q, eh)
                assert exact <= approximate_rdp_delta_hat(lam, e, eh, d) + 1e-7


@pytest.mark.claim("S2-07")
def test_s2_07_source_sign_counterexample():
    # Gaussian μ = 1: (2, 1)-RDP exactly; at ε̂ = 0 the printed δ̂ is below the true δ(0)
    lam, rho = 2.0, rdp_gaussian(2.0, 1.0)
    true = delta_gaussian(0.0, 1.0)
    assert approximate_rdp_delta_hat(lam, rho, 0.0, sign="seed") < true
    assert approximate_rdp_delta_hat(lam, rho, 0.0) >= true
    # and the printed version grows with ε̂ (vacuous), the corrected one decreases
    assert approximate_rdp_delta_hat(lam, rho, 10.0, sign="seed") == 1.0
    assert approximate_rdp_delta_hat(lam, rho, 10.0) < 1e-3


@pytest.mark.claim("S2-07")
def test_s2_07_properties_4_and_5():
    p1, q1, p2, q2 = pmf(3, 31), pmf(3, 32), pmf(2, 33), pmf(2, 34)
    lam, d1, d2 = 2.0, 0.03, 0.05
    e1 = approximate_renyi_divergence(p1, q1, lam, d1)
    e2 = approximate_renyi_divergence(p2, q2, lam, d2)
    joint = approximate_renyi_divergence(np.outer(p1, p2).ravel(), np.outer(q1, q2).ravel(), lam, d1 + d2)
    assert joint <= e1 + e2 + 1e-7
    kernel = np.array([[0.9, 0.1], [0.5, 0.5], [0.2, 0.8]])
    assert approximate_renyi_divergence(p1 @ kernel, q1 @ kernel, lam, d1) <= e1 + 1e-7


# --- S2-11 decomposition ---------------------------------------------------------------------


@pytest.mark.claim("S2-11")
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 7),
       eps=st.one_of(st.just(0.0), st.floats(1e-4, 2.0)))  # (0, 1e-4): ill-conditioned, see docstring
def test_s2_11_decomposition(seed, n, eps):
    rng = np.random.default_rng(seed)
    p, q = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(n))
    d = delta_both_ways(p, q, eps)
    dec = decompose_dp_pair(p, q, eps)
    w = dec.delta_prime
    assert w <= d + 1e-12
    np.testing.assert_allclose((1 - w) * dec.p_prime + w * dec.p_extra, p, atol=1e-12)
    np.testing.assert_allclose((1 - w) * dec.q_prime + w * dec.q_extra, q, atol=1e-12)
    E = np.exp(eps)
    assert np.all(dec.q_prime <= E * dec.p_prime + 1e-12) and np.all(dec.p_prime <= E * dec.q_prime + 1e-12)
    if w > 1e-12:
        assert np.all(dec.p_extra[p < q] <= 1e-10) and np.all(dec.q_extra[q < p] <= 1e-10)
    # corollary: post-processing of (ε, δ) randomized response reproduces P and Q
    rr = randomized_response_decomposition(p, q, eps, d)
    for v in rr:
        assert np.all(v >= -1e-12) and v.sum() == pytest.approx(1.0, abs=1e-9)
    hi, lo = (1 - d) * E / (1 + E), (1 - d) / (1 + E)
    np.testing.assert_allclose(hi * rr.a + lo * rr.b + d * rr.p_extra, p, atol=1e-9)
    np.testing.assert_allclose(hi * rr.b + lo * rr.a + d * rr.q_extra, q, atol=1e-9)


@pytest.mark.claim("S2-11")
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), eps=st.floats(0.0, 2.0), prior=st.floats(0.0, 1.0))
def test_s2_11_bayesian_version(seed, eps, prior):
    rng = np.random.default_rng(seed)
    p, q = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
    d = delta_both_ways(p, q, eps)
    e = bayesian_event_probability(p, q, eps)
    marg = prior * p + (1 - prior) * q
    post = np.where(marg > 0, prior * p * e / np.where(marg > 0, marg, 1), 0)
    assert np.all(post <= posterior_bound(prior, eps) + 1e-12)
    assert p @ e >= 1 - d - 1e-12 and q @ e >= 1 - d - 1e-12


def test_validation_errors():
    with pytest.raises(ValueError, match="alpha_prime"):
        triangle_bound([0.5, 0.5], [0.4, 0.6], [0.3, 0.7], 3.0, 2.0)
    with pytest.raises(ValueError, match="kernel"):
        post_processing_sides([0.5, 0.5], [0.4, 0.6], [[1.0, 0.0]], 2.0)
    with pytest.raises(ValueError, match="indistinguishable"):
        randomized_response_decomposition([0.9, 0.1], [0.1, 0.9], 0.1, 0.01)
    with pytest.raises(ValueError, match="sign"):
        approximate_rdp_delta_hat(2.0, 1.0, 1.0, sign="x")


# the (ε, δ) form of group privacy, by chaining

def test_group_privacy_by_chaining_randomized_response_pairs():
    # a chain of k (ε, δ) steps: the bound holds with the geometric sum, which k e^{(k−1)ε} δ dominates
    for eps, delta, k in [(0.5, 1e-3, 2), (0.2, 1e-6, 5), (1.0, 0.01, 3)]:
        eps_k, delta_k = group_privacy_epsilon_delta(eps, delta, k)
        assert eps_k == pytest.approx(k * eps)
        assert delta_k >= delta * sum(np.exp(j * eps) for j in range(k)) - 1e-18
        assert delta_k == pytest.approx(k * np.exp((k - 1) * eps) * delta, rel=1e-14)
    # pure DP: the Laplace mechanism on data sets k steps apart is exactly kε-DP (its δ at kε vanishes)
    from dpnotes import delta_laplace

    assert delta_laplace(3 * 0.5, 2.0, sensitivity=3.0) == 0.0
    assert delta_laplace(3 * 0.5 - 1e-6, 2.0, sensitivity=3.0) > 0.0


def test_group_privacy_sum_form_against_mpmath():
    import mpmath as mp

    for eps, delta, k in [(0.5, 1e-3, 2), (0.2, 1e-6, 5), (1.0, 0.0013, 4), (0.0, 1e-4, 7), (1e-9, 1e-4, 7),
                          (3.0, 1e-30, 20)]:
        eps_k, delta_k = group_privacy_epsilon_delta(eps, delta, k, form="sum")
        with mp.workdps(40):
            ref = mp.mpf(delta) * mp.fsum(mp.exp(j * mp.mpf(eps)) for j in range(k))
        assert eps_k == pytest.approx(k * eps)
        assert delta_k == pytest.approx(float(min(ref, 1)), rel=1e-12)
        # the sum is never above the simple form, and equal to it only for k = 1 or δ = 0
        assert delta_k <= group_privacy_epsilon_delta(eps, delta, k)[1] * (1 + 1e-14)
    assert group_privacy_epsilon_delta(2.0, 0.5, 10, form="sum")[1] == 1.0  # capped: void guarantee
    eps_k, delta_k = group_privacy_epsilon_delta(np.array([0.5, 1.0]), 1e-3, np.array([2, 3]), form="sum")
    assert delta_k == pytest.approx([1e-3 * (1 + np.exp(0.5)), 1e-3 * (1 + np.e + np.e**2)], rel=1e-13)
    with pytest.raises(ValueError, match="form"):
        group_privacy_epsilon_delta(0.5, 1e-5, 2, form="tight")


def test_group_privacy_epsilon_delta_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="k"):
        group_privacy_epsilon_delta(0.5, 1e-5, 2.5)
