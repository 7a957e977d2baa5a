"""Privacy-loss variables and exact privacy curves: each δ by several independent routes."""

import itertools
import math

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import laplace, norm

from dp_accounting import gaussian_mechanism
from dp_accounting.pld import privacy_loss_mechanism as plm

from dpnotes.privacy_loss import (
    delta_expected_hinge,
    delta_gaussian,
    delta_laplace,
    delta_randomized_response,
    delta_sup_over_sets,
    delta_tail_bound,
    delta_tail_difference,
    delta_tail_integral,
    epsilon_gaussian,
    epsilon_laplace,
    epsilon_randomized_response,
    exact_epsilon_rr_composition,
    hockey_stick_divergence,
    privacy_loss_discrete,
    privacy_loss_gaussian,
    privacy_loss_laplace,
    privacy_loss_randomized_response,
)
from dpnotes.privacy_loss.laws import (
    GaussianLossLaw,
    LaplaceLossLaw,
    LossLaw,
    SubsampledGaussianLossLaw,
    normal_bin_masses,
    normal_mass,
)
from dpnotes.privacy_loss.mixture import log_mixture_ratio, log_mixture_ratio_inverse, mixture_privacy_loss
from dpnotes.rdp import rdp_gaussian, rdp_laplace, rdp_randomized_response

RNG = np.random.default_rng(20240501)
LOSSES = [
    privacy_loss_gaussian(0.5),
    privacy_loss_gaussian(1.0),
    privacy_loss_gaussian(3.0, sensitivity=2.0),
    privacy_loss_laplace(1.0),
    privacy_loss_laplace(0.5, sensitivity=2.0),
    privacy_loss_randomized_response(0.8),
    privacy_loss_discrete(RNG.dirichlet(np.ones(6)), RNG.dirichlet(np.ones(6))),
]


def _mp_delta_gaussian(eps, mu):
    mp.mp.dps = 60
    e, m = mp.mpf(eps), mp.mpf(mu)
    return mp.ncdf(-e / m + m / 2) - mp.e**e * mp.ncdf(-e / m - m / 2)


# --- S2-01 / S2-02: the privacy-loss variable and the four expressions of δ -------------


@pytest.mark.claim("S2-02")
@pytest.mark.parametrize("loss", LOSSES, ids=lambda l: l.name)
@pytest.mark.parametrize("eps", [0.0, 0.3, 1.0, 2.5])
def test_s2_02_four_expressions_of_delta_agree(loss, eps):
    direct = delta_sup_over_sets(loss, eps)
    routes = {
        "tail difference": delta_tail_difference(loss, eps),
        "expected hinge": delta_expected_hinge(loss, eps),
        "tail integral": delta_tail_integral(loss, eps),
    }
    for name, val in routes.items():
        assert val == pytest.approx(direct, rel=1e-9, abs=1e-14), name
    assert delta_tail_bound(loss, eps) >= direct - 1e-15


@pytest.mark.claim("S2-02")
@pytest.mark.parametrize("loss", LOSSES, ids=lambda l: l.name)
def test_s2_02_expected_hinge_monte_carlo(loss):
    eps = 0.5
    est, se = delta_expected_hinge(loss, eps, n_samples=200_000, seed=7)
    exact = delta_sup_over_sets(loss, eps)
    assert abs(est - exact) <= 5 * se + 1e-12


@pytest.mark.claim("S2-02")
def test_s2_02_sup_over_sets_brute_force_all_subsets():
    p, q = RNG.dirichlet(np.ones(7)), RNG.dirichlet(np.ones(7))
    for eps in (0.0, 0.2, 0.7):
        best = max(
            sum(p[i] for i in s) - np.exp(eps) * sum(q[i] for i in s)
            for r in range(8) for s in itertools.combinations(range(7), r)
        )
        assert hockey_stick_divergence(p, q, eps) == pytest.approx(best, rel=1e-12, abs=1e-15)


@pytest.mark.claim("S2-02")
def test_s2_02_tail_bound_strict_for_gaussian():
    loss = privacy_loss_gaussian(1.0)
    assert delta_tail_bound(loss, 1.0) > 1.5 * delta_sup_over_sets(loss, 1.0)


@pytest.mark.claim("S2-01")
@pytest.mark.parametrize("loss,rdp", [
    (privacy_loss_gaussian(1.5), lambda a: rdp_gaussian(a, 1.5)),
    (privacy_loss_laplace(0.7), lambda a: rdp_laplace(a, 0.7)),
    (privacy_loss_randomized_response(0.7), lambda a: rdp_randomized_response(a, 0.7)),
], ids=["gaussian", "laplace", "rr"])
def test_s2_01_cumulants_of_privacy_loss_give_rdp(loss, rdp):
    # D_α = log E[e^{(α−1)Z}]/(α−1) from the law of Z, vs the closed forms of dpnotes.rdp
    for a in (1.5, 2.0, 5.0):
        mgf = loss.expect(lambda z: np.exp((a - 1) * z))
        assert np.log(mgf) / (a - 1) == pytest.approx(rdp(a), rel=1e-10)
    assert loss.expect(lambda z: z) == pytest.approx(rdp(1.0), rel=1e-10)  # KL = E[Z]
    assert loss.expect(lambda z: np.ones_like(z)) == pytest.approx(1.0, rel=1e-12)


@pytest.mark.claim("S2-01")
def test_s2_01_gaussian_loss_law_by_sampling():
    z = privacy_loss_gaussian(2.0).sample(400_000, seed=3)
    mu = 0.5
    assert abs(z.mean() - mu**2 / 2) < 5 * mu / np.sqrt(z.size)
    assert z.std() == pytest.approx(mu, rel=0.01)


@pytest.mark.claim("S2-01")
def test_s2_01_discrete_requires_equal_supports():
    with pytest.raises(ValueError, match="support"):
        privacy_loss_discrete([0.5, 0.5, 0.0], [0.2, 0.3, 0.5])


# --- exact curves vs dp-accounting and mpmath ---------------------------------------------


@pytest.mark.parametrize("sigma", [0.1, 0.5, 1.0, 3.0, 30.0, 1000.0])
def test_delta_gaussian_matches_dp_accounting(sigma):
    eps = np.array([0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0])
    ref = plm.GaussianPrivacyLoss(sigma).get_delta_for_epsilon(eps)
    ref2 = np.exp([gaussian_mechanism._get_log_delta(sigma, e) for e in eps])
    ours = delta_gaussian(eps, 1.0 / sigma)
    keep = ref2 > 1e-250
    np.testing.assert_allclose(ours[keep], ref2[keep], rtol=1e-9)
    big = ref > 1e-12  # the PLD routine uses plain differences, accurate only for moderate δ
    np.testing.assert_allclose(ours[big], ref[big], rtol=1e-9)


@pytest.mark.parametrize("eps,mu", [(50.0, 10.0), (50.0, 2.0), (20.0, 1.0), (5.0, 0.25),
                                    (0.05, 1e-3), (1e-4, 1e-3), (30.0, 0.9), (2.0, 0.1)])
def test_delta_gaussian_log_space_vs_mpmath(eps, mu):
    exact = _mp_delta_gaussian(eps, mu)
    ours = delta_gaussian(eps, mu)
    if exact < mp.mpf("1e-300"):
        assert ours == 0.0 or ours == pytest.approx(float(exact), rel=1e-9)
    else:
        assert ours == pytest.approx(float(exact), rel=1e-9)


def test_delta_gaussian_down_to_1e_300():
    # pick μ so that δ(ε = 40) is about 1e-300, and check by mpmath
    mu = 2.0 * 40.0 / (2 * np.sqrt(2 * 690.0))
    exact = _mp_delta_gaussian(40.0, mu)
    assert 1e-305 < exact < 1e-290
    assert delta_gaussian(40.0, mu) == pytest.approx(float(exact), rel=1e-9)


@pytest.mark.parametrize("sigma", [0.1, 0.8, 2.0, 50.0, 1000.0])
@pytest.mark.parametrize("delta", [1e-15, 1e-10, 1e-5, 0.1, 0.5])
def test_epsilon_gaussian_matches_dp_accounting(sigma, delta):
    ref = gaussian_mechanism.get_epsilon_gaussian(sigma, delta, tol=1e-15)
    ours = epsilon_gaussian(delta, 1.0 / sigma)
    assert ours == pytest.approx(ref, rel=1e-9, abs=1e-12)
    if ours > 0:
        assert delta_gaussian(ours, 1.0 / sigma) == pytest.approx(delta, rel=1e-9)


@pytest.mark.parametrize("b,d", [(1.0, 1.0), (0.3, 1.0), (2.0, 0.5), (10.0, 1.0)])
def test_delta_laplace_matches_dp_accounting_and_sup_over_sets(b, d):
    eps = np.array([0.0, 0.05, 0.2, 1.0, 2.0, 3.0])
    ref = plm.LaplacePrivacyLoss(b, sensitivity=d).get_delta_for_epsilon(eps)
    ours = delta_laplace(eps, b, d)
    np.testing.assert_allclose(ours, ref, rtol=1e-9, atol=1e-15)
    # the sup over sets by quadrature over y of (p − e^ε q)_+, a different route
    for e, o in zip(eps, ours):
        pp, qq = laplace(d, b), laplace(0, b)
        ys = np.linspace(-40 * b, 40 * b + d, 400_001)
        integrand = np.maximum(pp.pdf(ys) - np.exp(e) * qq.pdf(ys), 0.0)
        assert np.trapezoid(integrand, ys) == pytest.approx(o, rel=1e-6, abs=1e-9)


def test_epsilon_laplace_and_rr_are_inverses():
    for b in (0.5, 1.0, 4.0):
        for d in (1e-6, 1e-3, 0.2):
            e = epsilon_laplace(d, b)
            if e > 0:
                assert delta_laplace(e, b) == pytest.approx(d, rel=1e-10)
            else:
                assert delta_laplace(0.0, b) <= d
    for p in (0.6, 0.9, 0.3):
        for d in (1e-4, 0.05):
            e = epsilon_randomized_response(d, p)
            assert delta_randomized_response(e, p) == pytest.approx(d, rel=1e-10, abs=1e-15)


def test_delta_randomized_response_vs_hockey_stick():
    for p in (0.55, 0.8, 0.2):
        for e in (0.0, 0.3, 1.0, 2.0):
            assert delta_randomized_response(e, p) == pytest.approx(
                hockey_stick_divergence([p, 1 - p], [1 - p, p], e), abs=1e-15)


# --- hypothesis: ranges, monotonicity ---------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(sigma=st.floats(0.1, 1e3), eps=st.floats(1e-4, 50.0), factor=st.floats(1.0, 3.0))
def test_delta_gaussian_properties(sigma, eps, factor):
    mu = 1.0 / sigma
    d = delta_gaussian(eps, mu)
    assert np.isfinite(d) and 0.0 <= d <= 1.0
    assert delta_gaussian(eps * factor, mu) <= d * (1 + 1e-12) + 1e-300  # decreasing in ε
    assert delta_gaussian(eps, mu * factor) >= d * (1 - 1e-12)  # increasing in μ
    assert d <= delta_tail_bound(privacy_loss_gaussian(sigma), eps) + 1e-15


@settings(max_examples=60, deadline=None)
@given(sigma=st.floats(0.1, 1e3), log_delta=st.floats(np.log(1e-15), np.log(0.5)))
def test_epsilon_gaussian_round_trip(sigma, log_delta):
    delta = float(np.exp(log_delta))
    e = epsilon_gaussian(delta, 1.0 / sigma)
    assert np.isfinite(e) and e >= 0
    if e > 1e-9:
        assert delta_gaussian(e, 1.0 / sigma) == pytest.approx(delta, rel=1e-8)
    else:
        assert delta_gaussian(0.0, 1.0 / sigma) <= delta * (1 + 1e-9)


def test_validation_errors():
    with pytest.raises(ValueError, match="epsilon"):
        delta_gaussian(-1.0, 1.0)
    with pytest.raises(ValueError, match="mu"):
        delta_gaussian(1.0, -1.0)
    with pytest.raises(ValueError, match="delta"):
        epsilon_gaussian(1.5, 1.0)
    with pytest.raises(ValueError, match="scale"):
        delta_laplace(1.0, 0.0)
    with pytest.raises(ValueError, match="p"):
        delta_randomized_response(1.0, 1.0)
    with pytest.raises(ValueError, match="sigma"):
        privacy_loss_gaussian(0.0)


# ----------------------------------------------------------------------------- extreme inputs (regressions)


def test_randomized_response_delta_and_epsilon_at_tiny_p():
    from dpnotes.privacy_loss import delta_randomized_response, epsilon_randomized_response

    # δ(100) = max(0, (1 − p) − e^100·p) = 0 at p = 1e-20 (it returned 1)
    assert delta_randomized_response(100.0, 1e-20) == 0.0
    assert delta_randomized_response(40.0, 1e-20) == pytest.approx(1 - math.exp(40) * 1e-20, rel=1e-12)
    # ε(δ) = log((1 − p − δ)/p), finite on the whole grid (it was ∞ at 2,840 of 3,980 points)
    d, p = np.logspace(-15, -0.31, 60)[:, None], np.logspace(-300, -0.31, 66)[None, :]
    eps = epsilon_randomized_response(d, p)
    assert np.all(np.isfinite(eps)) and np.all(eps >= 0)
    with mp.workdps(40):
        for dd, pp in [(1e-10, 1e-20), (1e-3, 1e-300), (0.1, 0.3)]:
            exact = max(0.0, float(mp.log((1 - mp.mpf(pp) - mp.mpf(dd)) / mp.mpf(pp))))
            assert epsilon_randomized_response(dd, pp) == pytest.approx(exact, rel=1e-13)


def test_gaussian_epsilon_names_mu_beyond_the_float_range_and_losses_refuse_bad_objects():
    from dpnotes.privacy_loss import delta_tail_difference, epsilon_gaussian, privacy_loss_gaussian

    with pytest.raises(ValueError, match="mu"):
        epsilon_gaussian(1e-5, 1e300)  # was OverflowError
    with pytest.raises(TypeError, match="loss"):
        delta_tail_difference(0.5, 1.0)
    with pytest.raises(ValueError, match="sigma"):
        privacy_loss_gaussian(1e-300)
    # e^ε overflows past ε ≈ 709, the product e^ε·P[−Z' > ε] does not: δ = 0 there, not NaN
    assert delta_tail_difference(privacy_loss_gaussian(1.0), 1e300) == 0.0
    assert delta_tail_difference(privacy_loss_laplace(1.0), 1000.0) == 0.0


def _enumerated_delta_rr(eps0, k, eps):
    """δ(ε) of k-fold ε₀ randomized response by enumerating all 2^k answer vectors."""
    p = 1.0 / (1.0 + np.exp(-eps0))
    total = 0.0
    for bits in itertools.product((0, 1), repeat=k):
        j = sum(bits)
        total += max(0.0, p**j * (1 - p) ** (k - j) - np.exp(eps) * (1 - p) ** j * p ** (k - j))
    return total


@pytest.mark.parametrize("eps0,k,delta", [(0.1, 1, 1e-3), (0.3, 5, 1e-4), (0.5, 8, 1e-2), (1.0, 10, 1e-5)])
def test_exact_rr_composition_against_enumeration(eps0, k, delta):
    eps = exact_epsilon_rr_composition(eps0, k, delta)
    assert _enumerated_delta_rr(eps0, k, eps) == pytest.approx(delta, rel=1e-9)
    assert _enumerated_delta_rr(eps0, k, eps * (1 - 1e-6)) > delta  # the smallest such ε


def _mp_epsilon_rr_composition(eps0, k, delta, dps=40):
    """ε(δ) of the binomial privacy-loss distribution at ``dps`` digits: δ(ε) summed term by term, bisected."""
    with mp.workdps(dps):
        e0, d = mp.mpf(eps0), mp.mpf(delta)
        p = 1 / (1 + mp.exp(-e0))
        P = [mp.binomial(k, j) * p**j * (1 - p) ** (k - j) for j in range(k + 1)]
        Q = [mp.binomial(k, j) * (1 - p) ** j * p ** (k - j) for j in range(k + 1)]

        def delta_of(eps):
            return mp.fsum(max(mp.mpf(0), a - mp.exp(eps) * b) for a, b in zip(P, Q))

        lo, hi = mp.mpf(0), k * e0
        if delta_of(lo) <= d:
            return 0.0
        for _ in range(200):  # δ(ε) is non-increasing: bisect on [0, kε₀]
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if delta_of(mid) > d else (lo, mid)
        return float(hi)


@pytest.mark.parametrize("eps0,k,delta", [(0.1, 100, 1e-5), (0.1, 30, 1e-6), (0.5, 40, 1e-3), (2.0, 25, 1e-8),
                                          (0.01, 200, 1e-2), (1.0, 3, 0.2)])
def test_exact_rr_composition_against_mpmath_binomial_sum(eps0, k, delta):
    assert exact_epsilon_rr_composition(eps0, k, delta) == pytest.approx(
        _mp_epsilon_rr_composition(eps0, k, delta), rel=1e-9, abs=1e-12)


def test_exact_rr_composition_one_step_is_randomized_response_and_lies_in_range():
    for eps0, delta in [(0.5, 0.1), (2.0, 1e-3), (0.05, 1e-6)]:
        p = 1.0 / (1.0 + np.exp(-eps0))
        assert exact_epsilon_rr_composition(eps0, 1, delta) == pytest.approx(epsilon_randomized_response(delta, p),
                                                                             rel=1e-12)
    assert exact_epsilon_rr_composition(0.0, 50, 1e-5) == 0.0  # identical laws
    assert exact_epsilon_rr_composition(0.1, 10, 0.9) == 0.0  # δ(0) = TV ≤ δ
    for delta in (1e-300, 1e-100, 1e-20):  # δ below every positive δ(ℓ): ε is finite, at most kε₀
        eps = exact_epsilon_rr_composition(1.0, 10, delta)
        assert np.isfinite(eps) and 9.0 <= eps <= 10.0


@pytest.mark.parametrize("args,name", [((-0.1, 5, 1e-5), "eps0"), ((np.nan, 5, 1e-5), "eps0"), ((51.0, 5, 1e-5), "eps0"),
                                       ((0.1, 0, 1e-5), "k"), ((0.1, 2.5, 1e-5), "k"), ((0.1, 2001, 1e-5), "k"),
                                       ((0.1, 5, 0.0), "delta"), ((0.1, 5, 1.0), "delta")])
def test_exact_rr_composition_rejects_bad_arguments(args, name):
    with pytest.raises(ValueError, match=name):
        exact_epsilon_rr_composition(*args)


# ----------------------------------------------------------------------------
# the loss laws (dpnotes.privacy_loss.laws) and the mixture's loss (dpnotes.privacy_loss.mixture)
# ----------------------------------------------------------------------------

def _mp_mixture_loss(u, q):
    """log(1 − q + q e^u) in 50-digit arithmetic (the second route)."""
    with mp.workdps(50):
        return float(mp.log(1 - mp.mpf(q) + mp.mpf(q) * mp.exp(mp.mpf(u))))


@pytest.mark.parametrize("u_range, q_range", [((-40.0, 40.0), (1e-8, 1.0)),  # everywhere
                                               ((-1e-3, 1e-3), (1e-8, 1.0)),  # ℓ near 0: no cancellation
                                               ((-60.0, 0.0), (1 - 1e-1, 1 - 1e-12))])  # q → 1, u ≪ 0
def test_mixture_privacy_loss_matches_mpmath_to_a_few_ulps(u_range, q_range):
    rng = np.random.default_rng(7)
    u = rng.uniform(*u_range, 400)
    q = q_range[0] + (q_range[1] - q_range[0]) * rng.uniform(size=400)
    got = mixture_privacy_loss(u, q)
    ref = np.array([_mp_mixture_loss(a, b) for a, b in zip(u, q)])
    assert np.all(np.abs(got - ref) <= 4e-16 * np.abs(ref) + 1e-300)


def test_mixture_privacy_loss_edges():
    assert float(mixture_privacy_loss(3.0, 0.0)) == 0.0  # no sampling: the pair is (Q, Q)
    assert float(mixture_privacy_loss(3.0, 1.0)) == 3.0  # always sampled: the loss of P against Q
    assert float(mixture_privacy_loss(-np.inf, 1.0)) == -np.inf
    assert float(mixture_privacy_loss(-np.inf, 0.25)) == pytest.approx(math.log(0.75), rel=1e-15)
    assert float(mixture_privacy_loss(1e300, 0.25)) == pytest.approx(1e300 + math.log(0.25), rel=1e-15)
    assert float(mixture_privacy_loss(np.inf, 0.25)) == np.inf
    for bad, name in [(dict(u=np.nan, q=0.5), "u"), (dict(u=1.0, q=1.5), "q"), (dict(u=1.0, q=np.nan), "q")]:
        with pytest.raises(ValueError, match=name):
            mixture_privacy_loss(**bad)


@pytest.mark.parametrize("q, sigma", [(0.01, 1.0), (0.3, 0.5), (0.9, 4.0)])
def test_log_mixture_ratio_is_the_log_density_ratio_and_its_inverse_inverts_it(q, sigma):
    x = np.linspace(-5.0, 5.0, 41) * sigma
    # second route: the densities themselves (scipy), moderate x where they do not underflow
    ratio = np.log((1 - q) * norm.pdf(x, 0.0, sigma) + q * norm.pdf(x, 1.0, sigma)) - norm.logpdf(x, 0.0, sigma)
    assert np.allclose(log_mixture_ratio(x, q, sigma), ratio, rtol=1e-12, atol=1e-14)
    m = log_mixture_ratio(x, q, sigma)
    back = log_mixture_ratio_inverse(m, q, sigma)
    with mp.workdps(40):  # the root of ℓ(x) = m found by mpmath
        ref = [float(mp.findroot(lambda t: mp.log(1 - q + q * mp.exp((t - mp.mpf(1) / 2) / sigma**2)) - mi, xi))
               for mi, xi in zip(m[::8], x[::8])]
    assert np.allclose(back[::8], ref, rtol=1e-9, atol=1e-9 * sigma**2)
    assert float(log_mixture_ratio_inverse(math.log1p(-q), q, sigma)) == -np.inf
    assert float(log_mixture_ratio_inverse(np.inf, q, sigma)) == np.inf
    with pytest.raises(ValueError, match="q"):
        log_mixture_ratio_inverse(0.1, 1.0, sigma)
    with pytest.raises(ValueError, match="sigma"):
        log_mixture_ratio(0.1, q, 0.0)


@pytest.mark.parametrize("a, b", [(-1.0, 1.0), (30.0, 31.0), (-38.0, -37.5), (5.0, np.inf), (-np.inf, -20.0),
                                  (-0.5, 40.0), (2.0, 2.0)])
def test_normal_mass_matches_mpmath_in_the_tails(a, b):
    with mp.workdps(60):  # Φ(b) − Φ(a) = Φ(−a) − Φ(−b): the tail form keeps the digits for a ≥ 0
        cdf = lambda x: mp.ncdf(x) if np.isfinite(x) else (mp.mpf(1) if x > 0 else mp.mpf(0))  # noqa: E731
        ref = float(cdf(-a) - cdf(-b)) if a >= 0 else float(cdf(b) - cdf(a))
    # the relative error is about 2⁻⁵³·|log Φ| (the larger mass is exponentiated from its log)
    assert float(normal_mass(a, b)) == pytest.approx(ref, rel=4e-16 * (1 + abs(math.log(ref))) if ref > 0 else 0,
                                                     abs=1e-320)


def test_normal_bin_masses_are_normal_mass_of_consecutive_edges_bit_for_bit():
    """One log Φ per edge gives each bin the value :func:`normal_mass` (checked against mpmath above) gives it: edges
    across 0, deep in both tails, repeated, and infinite."""
    rng = np.random.default_rng(7)
    z = np.sort(np.concatenate([rng.normal(size=2000) * 15, [-np.inf, np.inf, 0.0, 0.0, -0.0, 3.0, 3.0, -39.0, 39.0]]))
    assert np.array_equal(normal_bin_masses(z), normal_mass(z[:-1], z[1:]))


@pytest.mark.parametrize("q, sigma", [(1e-3, 0.8), (0.05, 1.1), (0.5, 4.0), (0.99, 0.3)])
@pytest.mark.parametrize("remove", [True, False])
def test_a_subsampled_gaussian_laws_bin_masses_are_its_mass_and_q_mass(q, sigma, remove):
    """``bin_masses`` computes a partition's P- and Q-masses together (one inversion, one log Φ per edge and
    component), to the same values as ``mass`` and ``q_mass`` bin by bin, in both directions."""
    law = SubsampledGaussianLossLaw(q, sigma, remove)
    lo, hi = law.range(1e-30)
    edges = np.concatenate([[-np.inf], np.linspace(lo - 0.1, hi + 0.1, 5001), [np.inf]])
    p, qm = law.bin_masses(edges)
    assert np.array_equal(p, law.mass(edges[:-1], edges[1:]))
    assert np.array_equal(qm, law.q_mass(edges[:-1], edges[1:]))


def _laws():
    return [("gauss", GaussianLossLaw(0.8)), ("laplace", LaplaceLossLaw(1.3)),
            ("remove", SubsampledGaussianLossLaw(0.2, 0.9, True)), ("add", SubsampledGaussianLossLaw(0.2, 0.9, False))]


def _output_masses(name, law, a, b):
    """(P, Q) masses of the loss interval (a, b] of the continuous part, from the output space (second route)."""
    if name == "gauss":  # Z ~ N(μ²/2, μ²) under P, N(−μ²/2, μ²) under Q
        m, s = 0.5 * law.mu**2, law.mu
        return norm.cdf(b, m, s) - norm.cdf(a, m, s), norm.cdf(b, -m, s) - norm.cdf(a, -m, s)
    if name == "laplace":  # outputs y ∈ (0, Δ): ℓ = (2y − Δ)/b, here Δ = t, b = 1
        t = law.t
        ya, yb = (np.clip(a, -t, t) + t) / 2, (np.clip(b, -t, t) + t) / 2
        return laplace.cdf(yb, t) - laplace.cdf(ya, t), laplace.cdf(yb) - laplace.cdf(ya)
    q, s = law.q, law.sigma
    ell = lambda x: mp.log(1 - q + q * mp.exp((x - mp.mpf(1) / 2) / s**2))  # noqa: E731
    with mp.workdps(40):
        xa, xb = (mp.findroot(lambda x, m=m: ell(x) - m, 0.5 + s**2 * m / max(q, 0.5)) for m in
                  ((a, b) if name == "remove" else (-b, -a)))
        mix = (1 - q) * (mp.ncdf(xb / s) - mp.ncdf(xa / s)) + q * (mp.ncdf((xb - 1) / s) - mp.ncdf((xa - 1) / s))
        plain = mp.ncdf(xb / s) - mp.ncdf(xa / s)
    return (float(mix), float(plain)) if name == "remove" else (float(plain), float(mix))


@pytest.mark.parametrize("name", ["gauss", "laplace", "remove", "add"])
def test_loss_law_masses_match_the_output_space(name):
    law = dict(_laws())[name]
    lo, hi = law.range(1e-6)
    edges = np.linspace(max(lo, -3.0), min(hi, 3.0), 7)
    for a, b in zip(edges[:-1], edges[1:]):
        p_ref, q_ref = _output_masses(name, law, a, b)
        assert float(law.mass(a, b)) == pytest.approx(p_ref, rel=1e-9)
        assert float(law.q_mass(a, b)) == pytest.approx(q_ref, rel=1e-9)


@pytest.mark.parametrize("name", ["gauss", "laplace", "remove", "add"])
def test_loss_law_log_density_is_the_derivative_of_the_mass(name):
    law = dict(_laws())[name]
    lo, hi = law.range(1e-4)
    pts = np.linspace(max(lo, law.support[0]) + 0.05, min(hi, law.support[1]) - 0.05, 5)
    h = 1e-5
    dens = np.array([float(law.mass(x - h, x + h)) / (2 * h) for x in pts])  # central difference of P(a < Z ≤ b)
    logd = law.log_density(pts)
    assert np.allclose(np.exp(logd - logd[0]), dens / dens[0], rtol=1e-6)


@pytest.mark.parametrize("name", ["gauss", "remove", "add"])
def test_loss_law_range_leaves_about_tail_in_each_tail(name):
    law = dict(_laws())[name]
    for tail in (1e-6, 1e-12):
        lo, hi = law.range(tail)
        below, above = float(law.mass(-np.inf, lo)), float(law.mass(hi, np.inf))
        assert below <= tail * (1 + 1e-9) and above <= tail * (1 + 1e-9)
        assert below >= tail / 4 or name == "add"  # the remove/add ranges cover both components' tails
        assert above >= tail / 4 or name == "remove"


@pytest.mark.parametrize("loss", LOSSES + [privacy_loss_discrete([0.5, 0.3, 0.2], [0.2, 0.3, 0.5])],
                         ids=lambda loss: loss.name)
def test_every_privacy_loss_carries_a_law_with_its_tails(loss):
    """loss.law (interval masses) against loss.sf and loss.sf_q (hand-derived tails): two descriptions, one law."""
    law = loss.law
    assert isinstance(law, LossLaw)
    for z in np.linspace(-3.0, 3.0, 13):
        p_tail = float(law.mass(z, np.inf)) + sum(m for a, m in law.atoms if a > z)
        q_tail = float(law.q_mass(z, np.inf)) + sum(m * math.exp(-a) for a, m in law.atoms if a > z)
        assert p_tail == pytest.approx(float(loss.sf(z)), rel=1e-12, abs=1e-15)
        assert q_tail == pytest.approx(float(loss.sf_q(z)), rel=1e-12, abs=1e-15)


def test_laws_refuse_bad_parameters():
    for make, name in [(lambda: GaussianLossLaw(0.0), "mu"), (lambda: LaplaceLossLaw(-1.0), "t"),
                       (lambda: SubsampledGaussianLossLaw(1.0, 1.0, True), "q"),
                       (lambda: SubsampledGaussianLossLaw(0.5, 0.0, True), "sigma")]:
        with pytest.raises(ValueError, match=name):
            make()
