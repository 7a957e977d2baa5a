"""Trade-off functions (dpnotes/tradeoff.py), each against a route that does not use its formula.

- the Gaussian and the Laplace trade-off functions: Neyman–Pearson threshold tests whose errors are
  integrated by scipy quadrature of the densities, a 40-digit mpmath evaluation, and random tests
  that must never beat the curve;
- the trade-off function of two pmfs: a linear program over all randomized tests (scipy linprog);
- the (ε, δ) boundary: the trade-off function of the four-point (ε, δ) randomized response
  (Kairouz, Oh & Viswanath 2015) by the linear program, and the equivalence "(ε, δ) inequality on every
  event ⇔ trade-off curve above f_{ε,δ}" on random pmf pairs;
- the duality between G_μ and the privacy profile δ(ε): the envelope of the boundaries f_{ε,δ(ε)}, and
  δ(ε) = sup_α (1 − α − e^ε G_μ(α)) against dp-accounting's Gaussian privacy loss.
"""

import mpmath as mp
import numpy as np
import pytest
from scipy import integrate, optimize, stats

from dpnotes import (
    delta_gaussian,
    gaussian_sigma_exact,
    tradeoff_discrete,
    tradeoff_epsilon_delta,
    tradeoff_gaussian,
    tradeoff_laplace,
)

# ---------------------------------------------------------------------------
# independent routes
# ---------------------------------------------------------------------------


def _quad(f, a, b):
    return integrate.quad(f, a, b, epsabs=1e-14, epsrel=1e-12, limit=200)[0]


def _threshold_errors(pdf_p, pdf_q, c):
    """(α_I, β_II) of the test rejecting H₀ (law P) when y > c, by quadrature of the two densities."""
    alpha = _quad(pdf_p, c, np.inf)
    beta = _quad(pdf_q, -np.inf, c)
    return alpha, beta


def _lp_tradeoff(p, q, alpha):
    """min over tests φ ∈ [0, 1]^n of 1 − q·φ subject to p·φ ≤ α (all randomized tests), by linprog."""
    res = optimize.linprog(-np.asarray(q), A_ub=[p], b_ub=[alpha], bounds=[(0, 1)] * len(p), method="highs")
    assert res.status == 0
    return 1.0 + res.fun


def _hockey_stick(p, q, eps):
    """sup_E P(E) − e^ε Q(E), typed in directly: the sum of the positive parts."""
    return float(np.sum(np.maximum(np.asarray(p) - np.exp(eps) * np.asarray(q), 0.0)))


def _rr_epsilon_delta_pair(eps, delta):
    """The (ε, δ) randomized response of Kairouz, Oh & Viswanath (2015) as two pmfs on four outcomes."""
    a = (1 - delta) * np.exp(eps) / (1 + np.exp(eps))
    b = (1 - delta) / (1 + np.exp(eps))
    return np.array([delta, a, b, 0.0]), np.array([0.0, b, a, delta])


# ---------------------------------------------------------------------------
# the Gaussian trade-off function G_μ
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("mu", [0.1, 0.5, 1.0, 2.5, 5.0])
def test_gaussian_tradeoff_is_neyman_pearson_by_quadrature(mu):
    pdf_p, pdf_q = stats.norm(0, 1).pdf, stats.norm(mu, 1).pdf
    for c in np.linspace(-4.0, mu + 4.0, 17):
        alpha, beta = _threshold_errors(pdf_p, pdf_q, c)
        assert tradeoff_gaussian(alpha, mu) == pytest.approx(beta, rel=1e-9, abs=1e-13)


@pytest.mark.parametrize("mu", [0.3, 1.0, 3.0])
def test_gaussian_tradeoff_against_mpmath(mu):
    with mp.workdps(40):
        for a in [1e-30, 1e-12, 1e-4, 0.05, 0.3, 0.5, 0.9, 1 - 1e-9]:
            z = -mp.sqrt(2) * mp.erfinv(2 * mp.mpf(a) - 1)  # Φ⁻¹(1 − a)
            ref = float(mp.ncdf(z - mu))
            assert tradeoff_gaussian(a, mu) == pytest.approx(ref, rel=1e-11)


def test_gaussian_tradeoff_tiny_alpha_keeps_precision():
    # 1 − 1e-20 rounds to 1 in double precision; the function must not
    with mp.workdps(40):
        ref = float(mp.ncdf(-mp.sqrt(2) * mp.erfinv(2 * mp.mpf("1e-20") - 1) - 8))
    assert tradeoff_gaussian(1e-20, 8.0) == pytest.approx(ref, rel=1e-10)
    assert 0.0 < ref < 1.0


def test_no_random_test_beats_the_gaussian_curve():
    # tests that reject on a random union of intervals: their (α_I, β_II) lie on or above G_μ
    rng = np.random.default_rng(7)
    mu = 1.3
    P, Q = stats.norm(0, 1), stats.norm(mu, 1)
    for _ in range(200):
        cuts = np.sort(rng.uniform(-4, 6, size=2 * rng.integers(1, 4)))
        lo, hi = cuts[0::2], cuts[1::2]
        alpha = np.sum(P.cdf(hi) - P.cdf(lo))
        beta = 1 - np.sum(Q.cdf(hi) - Q.cdf(lo))
        assert beta >= tradeoff_gaussian(alpha, mu) - 1e-12


def test_gaussian_tradeoff_shape():
    a = np.linspace(0, 1, 1001)
    for mu in [0.0, 0.7, 2.0]:
        g = tradeoff_gaussian(a, mu)
        assert g[0] == 1.0 and g[-1] == 0.0
        assert np.all(np.diff(g) <= 1e-15)  # non-increasing
        assert np.all(g <= 1 - a + 1e-15)  # below the diagonal
        assert np.all(np.diff(g, 2) >= -1e-12)  # convex
        # symmetric: G_μ is its own inverse
        np.testing.assert_allclose(tradeoff_gaussian(g, mu), a, atol=1e-9)
    np.testing.assert_allclose(tradeoff_gaussian(a, 0.0), 1 - a, atol=1e-15)


def test_gaussian_tradeoff_broadcasts():
    out = tradeoff_gaussian(np.linspace(0, 1, 5)[:, None], np.array([0.5, 1.0, 2.0]))
    assert out.shape == (5, 3)
    assert isinstance(tradeoff_gaussian(0.2, 1.0), float)


# ---------------------------------------------------------------------------
# the Laplace trade-off function
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("b,shift", [(1.0, 1.0), (0.5, 1.0), (2.0, 0.5), (1.0, 3.0)])
def test_laplace_tradeoff_is_neyman_pearson_by_quadrature(b, shift):
    # P = Lap(0, b), Q = Lap(Δ, b); Q/P increases in y, so the best tests reject when y > c
    pdf_p = lambda y: np.exp(-abs(y) / b) / (2 * b)  # noqa: E731
    pdf_q = lambda y: np.exp(-abs(y - shift) / b) / (2 * b)  # noqa: E731
    for c in np.linspace(-3 * b, shift + 3 * b, 23):
        alpha = _quad(pdf_p, c, max(c, 0.0)) + _quad(pdf_p, max(c, 0.0), np.inf)
        beta = _quad(pdf_q, -np.inf, min(c, shift)) + _quad(pdf_q, min(c, shift), c)
        assert tradeoff_laplace(alpha, shift / b) == pytest.approx(beta, rel=1e-9, abs=1e-13)


def test_laplace_tradeoff_against_a_fine_discretisation():
    # binning the outputs is a post-processing: the binned pair's trade-off lies above, and converges
    mu = 1.2
    edges = np.linspace(-15, 15, 3001)
    cuts = np.concatenate([[-np.inf], edges, [np.inf]])
    p = np.diff(stats.laplace(0, 1).cdf(cuts))
    q = np.diff(stats.laplace(mu, 1).cdf(cuts))
    a = np.linspace(0, 1, 201)
    binned = tradeoff_discrete(p / p.sum(), q / q.sum(), a)
    exact = tradeoff_laplace(a, mu)
    assert np.all(binned >= exact - 1e-9)
    assert np.max(binned - exact) < 1e-3


def test_laplace_tradeoff_outer_pieces_are_the_pure_dp_boundary():
    mu = 0.8
    a = np.linspace(0, 1, 401)
    t, f = tradeoff_laplace(a, mu), tradeoff_epsilon_delta(a, mu, 0.0)
    assert np.all(t >= f - 1e-15)  # the Laplace mechanism is μ-DP
    outer = (a <= 0.5 * np.exp(-mu)) | (a >= 0.5)
    np.testing.assert_allclose(t[outer], f[outer], atol=1e-14)
    assert np.all(t[~outer] > f[~outer])


# ---------------------------------------------------------------------------
# the trade-off function of two pmfs
# ---------------------------------------------------------------------------


def test_discrete_tradeoff_against_linear_program():
    rng = np.random.default_rng(3)
    for n in [2, 3, 5, 8]:
        for _ in range(5):
            p, q = rng.dirichlet(np.ones(n)), rng.dirichlet(np.ones(n))
            if n > 2:
                p[0], q[-1] = 0.0, 0.0  # outcomes that one law never produces
                p, q = p / p.sum(), q / q.sum()
            for a in np.linspace(0, 1, 11):
                assert tradeoff_discrete(p, q, a) == pytest.approx(_lp_tradeoff(p, q, a), abs=1e-9)


def test_randomized_response_tradeoff_is_the_pure_dp_boundary():
    for pr in [0.55, 0.75, 0.9]:
        a = np.linspace(0, 1, 101)
        np.testing.assert_allclose(tradeoff_discrete([pr, 1 - pr], [1 - pr, pr], a),
                                   tradeoff_epsilon_delta(a, np.log(pr / (1 - pr))), atol=1e-14)


# ---------------------------------------------------------------------------
# the (ε, δ) boundary f_{ε,δ}
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("eps,delta", [(0.0, 0.0), (0.5, 0.0), (1.0, 1e-5), (2.0, 0.1), (0.3, 0.6)])
def test_boundary_is_the_tradeoff_of_epsilon_delta_randomized_response(eps, delta):
    p, q = _rr_epsilon_delta_pair(eps, delta)
    assert _hockey_stick(p, q, eps) == pytest.approx(delta, abs=1e-15)
    for a in np.linspace(0, 1, 21):
        assert tradeoff_epsilon_delta(a, eps, delta) == pytest.approx(_lp_tradeoff(p, q, a), abs=1e-9)


def test_boundary_against_mpmath():
    with mp.workdps(30):
        for a, e, d in [(0.01, 1.0, 1e-5), (0.3, 0.2, 0.01), (0.95, 3.0, 0.0), (0.0, 50.0, 1e-9)]:
            ref = max(0, 1 - d - mp.exp(e) * a, mp.exp(-e) * (1 - d - a))
            assert tradeoff_epsilon_delta(a, e, d) == pytest.approx(float(ref), rel=1e-14, abs=1e-300)


def test_epsilon_delta_inequality_iff_tradeoff_above_boundary():
    # on random pmf pairs: with δ the pair's own smallest δ (both directions), the LP trade-off curve lies above
    # f_{ε,δ}; with a δ slightly smaller some test falls below it
    rng = np.random.default_rng(11)
    a = np.linspace(0, 1, 41)
    for _ in range(20):
        p, q = rng.dirichlet(np.ones(4)), rng.dirichlet(np.ones(4))
        eps = rng.uniform(0, 1.5)
        delta = max(_hockey_stick(p, q, eps), _hockey_stick(q, p, eps))
        t = np.array([_lp_tradeoff(p, q, x) for x in a])
        assert np.all(t >= tradeoff_epsilon_delta(a, eps, delta) - 1e-9)
        fine = np.linspace(0, 1, 20001)
        t_fine = tradeoff_discrete(p, q, fine)  # checked against the LP above
        assert np.all(t_fine >= tradeoff_epsilon_delta(fine, eps, delta) - 1e-12)
        if delta > 1e-3:
            assert np.any(t_fine < tradeoff_epsilon_delta(fine, eps, delta - 1e-3))


def test_boundary_extremes():
    assert tradeoff_epsilon_delta(0.0, np.inf, 0.0) == 1.0
    assert tradeoff_epsilon_delta(0.5, np.inf, 0.0) == 0.0
    assert tradeoff_epsilon_delta(0.2, 1.0, 1.0) == 0.0
    np.testing.assert_allclose(tradeoff_epsilon_delta(np.linspace(0, 1, 5), 0.0), 1 - np.linspace(0, 1, 5))


# ---------------------------------------------------------------------------
# duality: G_μ and the privacy profile of μ-GDP
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("mu", [0.25, 0.8, 1.5, 3.0])
def test_gaussian_curve_is_the_envelope_of_its_epsilon_delta_boundaries(mu):
    # a grid fine near α_I = 0, where the boundaries of large ε touch the curve
    a = np.unique(np.concatenate([np.geomspace(1e-15, 1e-2, 1000), np.linspace(0, 1, 2001)]))
    g = tradeoff_gaussian(a, mu)
    eps = np.linspace(0, 25, 2501)
    boundaries = tradeoff_epsilon_delta(a[None, :], eps[:, None], delta_gaussian(eps, mu)[:, None])
    # (ε, δ(ε)) for all ε ⇒ curve above every boundary; and the envelope of the boundaries is the curve
    assert np.all(g >= boundaries.max(axis=0) - 1e-12)
    assert np.max(g - boundaries.max(axis=0)) < 2e-3
    # a smaller δ at any one ε makes some boundary cross the curve
    for e in [0.0, 0.5, 1.0, 2.0]:
        d = delta_gaussian(e, mu)
        if d > 1e-8:
            assert np.min(g - tradeoff_epsilon_delta(a, e, 0.99 * d)) < 0


@pytest.mark.parametrize("sigma", [0.5, 1.0, 2.0])
def test_profile_from_the_curve_matches_dp_accounting(sigma):
    from dp_accounting.pld.privacy_loss_mechanism import GaussianPrivacyLoss

    mu = 1 / sigma
    loss = GaussianPrivacyLoss(sigma, sensitivity=1.0)
    for eps in [0.0, 0.3, 1.0, 2.5]:
        # δ(ε) = sup over tests of 1 − α_I − e^ε β_II, maximised over the curve
        res = optimize.minimize_scalar(lambda a: -(1 - tradeoff_gaussian(a, mu) - np.exp(eps) * a),
                                       bounds=(0.0, 1.0), method="bounded", options={"xatol": 1e-12})
        from_curve = -res.fun
        assert from_curve == pytest.approx(loss.get_delta_for_epsilon(eps), rel=1e-6, abs=1e-12)
        assert delta_gaussian(eps, mu) == pytest.approx(loss.get_delta_for_epsilon(eps), rel=1e-9, abs=1e-15)


# ---------------------------------------------------------------------------
# errors name the parameter
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("call,name", [
    (lambda: tradeoff_gaussian(1.5, 1.0), "alpha_type1"),
    (lambda: tradeoff_gaussian(0.5, -1.0), "mu"),
    (lambda: tradeoff_gaussian(np.nan, 1.0), "alpha_type1"),
    (lambda: tradeoff_laplace(-0.1, 1.0), "alpha_type1"),
    (lambda: tradeoff_laplace(0.5, -2.0), "mu"),
    (lambda: tradeoff_epsilon_delta(0.5, -1.0), "epsilon"),
    (lambda: tradeoff_epsilon_delta(0.5, 1.0, 1.5), "delta"),
    (lambda: tradeoff_discrete([0.5, 0.5], [1.0], 0.5), "equal length"),
    (lambda: tradeoff_discrete([0.5, 0.6], [0.5, 0.5], 0.5), "pmf"),
])
def test_bad_input_raises_naming_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_non_numeric_input_raises():
    with pytest.raises(TypeError, match="alpha_type1"):
        tradeoff_gaussian("half", 1.0)


def test_exercise_answers_of_the_two_chapters_by_hand():
    # answers worked out in the solutions of book/00b-foundations and book/04-hypothesis-testing
    from dpnotes.exercises import EXERCISES, check

    check("foundations-rr-p", None)  # registers the chapters' exercises
    assert EXERCISES["foundations-laplace-epsilon"].answer() == pytest.approx(3 / 4)
    assert EXERCISES["foundations-rr-p"].answer() == pytest.approx(np.exp(2) / (1 + np.exp(2)))
    k = np.arange(1, 100)  # the largest family whose simple group slack k e^{(k−1)ε} δ stays at most 5·10⁻⁵
    assert EXERCISES["foundations-group-delta"].answer() == k[k * np.exp(0.2 * (k - 1)) * 1e-6 <= 5e-5].max() == 9
    eps = EXERCISES["foundations-tradeoff-read"].answer()  # the exact ε of δ = 10⁻⁵ at μ = 1/2
    assert stats.norm.cdf(-eps / 0.5 + 0.25) - np.exp(eps) * stats.norm.cdf(-eps / 0.5 - 0.25) == pytest.approx(1e-5,
                                                                                                          rel=1e-8)
    from dp_accounting.pld.privacy_loss_mechanism import GaussianPrivacyLoss

    sigma = EXERCISES["foundations-gaussian-sigma"].answer()
    assert GaussianPrivacyLoss(sigma, sensitivity=2.0).get_delta_for_epsilon(0.25) == pytest.approx(1e-6, rel=1e-6)
    assert EXERCISES["hypothesis-rr-delta"].answer() == pytest.approx(0.8 - np.exp(0.4) * 0.2)
    exact = EXERCISES["hypothesis-tail-bound"].answer() - (2.0 + 2.0 * stats.norm.isf(1e-7))  # minus the exact ε
    assert GaussianPrivacyLoss(0.5).get_delta_for_epsilon(-exact) == pytest.approx(1e-7, rel=1e-6)
    sigma = 1 / (stats.norm.isf(0.05) - stats.norm.ppf(EXERCISES["hypothesis-tradeoff-gaussian"].answer()))
    assert GaussianPrivacyLoss(sigma).get_delta_for_epsilon(1.0) == pytest.approx(1e-5, rel=1e-6)
