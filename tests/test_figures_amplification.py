"""Figures and exercises of the amplification chapters (08 iteration, 09 repeated noise).

The figures draw bounds against exact values; these tests check, at every slider
position, that what is drawn is finite and that each bound lies above the exact
value it bounds. Two claims without a test of their own in the math modules
(S0-03, S0-11) are checked here by independent routes.
"""

import numpy as np
import pytest
from scipy import stats

from dpnotes.convolution import rdp_convolution_bound, rdp_discrete_shift, rdp_laplace_convolution
from dpnotes.divergence import renyi_divergence
import dpnotes.chapter_exercises  # noqa: F401  (registers the exercises)
from dpnotes.exercises import EXERCISES
from dpnotes.figures import FIGURES
from dpnotes.figures import convolution as figconv
from dpnotes.figures import iteration as figiter
from dpnotes.iteration import rdp_noisy_sgd_all_iterates, rdp_noisy_sgd_last_iterate
from figure_positions import positions as _positions, trace_y as _by_prefix

OUR_KEYS = ("iteration-last-iterate", "iteration-contraction", "convolution-laplace", "convolution-laplace-ratio",
            "convolution-schedule", "convolution-discrete")


@pytest.mark.slow
@pytest.mark.parametrize("key", OUR_KEYS)
def test_figures_registered_finite_and_same_traces_everywhere(key):
    fig = FIGURES[key]
    names = lengths = None
    for _, traces in _positions(fig):
        if names is None:
            names, lengths = list(traces), [len(t.y) for t in traces.values()]
        assert list(traces) == names
        assert [len(t.y) for t in traces.values()] == lengths  # live widgets update lines in place
        for t in traces.values():
            assert np.all(np.isfinite(np.asarray(t.x, float))) and np.all(np.isfinite(np.asarray(t.y, float)))
            assert len(t.x) == len(t.y)


# ---------------------------------------------------------------- chapter 09


@pytest.mark.claim("S1-05")
@pytest.mark.slow
def test_s1_05_figure_bound_above_exact_at_every_position():
    for params, tr in _positions(FIGURES["convolution-laplace"]):
        bound = _by_prefix(tr, "repeated-noise bound")
        exact = _by_prefix(tr, "exact")
        assert np.all(bound >= exact * (1 - 1e-10)), params
        if params["n"] == 1:
            np.testing.assert_allclose(bound, exact, rtol=1e-9)
        else:
            assert np.all(bound > 1.2 * exact), params  # strictly loose from n = 2 on
        assert np.all(exact <= 1.0 + 1e-9)  # the sum stays 1-DP: D_α ≤ D_∞ = 1/b


@pytest.mark.claim("S1-05")
@pytest.mark.slow
def test_s1_05_figure_grid_matches_direct_evaluation():
    # the cached grid is the package's exact value, recomputed here point by point
    grid = figconv.laplace_exact_grid()
    for i, j in [(0, 0), (3, 7), (9, 19), (6, 12)]:
        n, alpha = figconv.NS[i], figconv.ORDERS[j]
        assert grid[i, j] == pytest.approx(float(rdp_laplace_convolution(alpha, n, 1.0)), rel=1e-12)


@pytest.mark.claim("S1-05")
@pytest.mark.slow
def test_s1_05_figure_ratio_starts_at_one_and_approaches_two():
    for params, tr in _positions(FIGURES["convolution-laplace-ratio"]):
        ratio = _by_prefix(tr, "bound / exact")
        assert ratio[0] == pytest.approx(1.0, rel=1e-9)
        assert np.all(ratio >= 1 - 1e-9)
        assert 1.9 < ratio[-1] < 2.2, params  # n = 100
    # at moderate order the ratio increases monotonically towards 2 from below
    tr = {t.name: t for t in FIGURES["convolution-laplace-ratio"].traces(alpha=figconv.ORDERS[3])}
    ratio = _by_prefix(tr, "bound / exact")
    assert np.all(np.diff(ratio) > 0) and ratio[-1] < 2.0


@pytest.mark.claim("S1-03")
@pytest.mark.slow
def test_s1_03_figure_schedules_never_beat_uniform():
    for params, tr in _positions(FIGURES["convolution-schedule"]):
        lap_exact = _by_prefix(tr, "Laplace: exact")
        lap_uniform = _by_prefix(tr, "Laplace: uniform")
        lap_geo = _by_prefix(tr, "Laplace: geometric")
        g_uniform = _by_prefix(tr, "Gaussian σ²=2: exact")
        g_geo = _by_prefix(tr, "Gaussian σ²=2: geometric")
        assert np.all(lap_geo >= lap_uniform * (1 - 1e-12)), params
        assert np.all(lap_uniform >= lap_exact * (1 - 1e-10)), params
        assert np.all(g_geo >= g_uniform * (1 - 1e-12)), params
        # Gaussian σ² = 2 summed n times: N(0, 2n), exact α/(4n), independent of the schedule code
        np.testing.assert_allclose(g_uniform, figconv._ALPHAS / (4.0 * params["n"]), rtol=1e-12)
        if params["rho"] == 1.0:
            np.testing.assert_allclose(lap_geo, lap_uniform, rtol=1e-12)


@pytest.mark.claim("S1-03")
def test_s1_03_geometric_schedule_increments():
    d = figconv.schedule_increments(4, 0.5)
    np.testing.assert_allclose(d, np.array([8, 4, 2, 1]) / 15.0)
    np.testing.assert_allclose(figconv.schedule_increments(5, 1.0), 0.2)


@pytest.mark.claim("S1-06")
def test_s1_06_figure_shows_counterexample_at_every_position():
    for params, tr in _positions(FIGURES["convolution-discrete"]):
        g = _by_prefix(tr, "discrete Gaussian")
        lap = _by_prefix(tr, "discrete Laplace")
        assert g[0] == pytest.approx(1.0) and lap[0] == pytest.approx(1.0)
        assert np.all(g[1:] > 1.0 + 1e-9), params  # fails at every Δ ≥ 2
        assert np.all(lap[1:] > 1.0 + 1e-12), params
        assert np.all(np.diff(lap) > 0), params


@pytest.mark.claim("S1-06")
def test_s1_06_figure_gaussian_ratio_is_delta_when_alpha_delta_is_integer():
    # independent route: D_α(P+Δ‖P) for the discrete Gaussian is exactly αΔ²/(2σ²) when αΔ ∈ ℤ,
    # by completing the square in the lattice sum (Canonne, Kamath, Steinke 2020)
    tr = {t.name: t for t in FIGURES["convolution-discrete"].traces(alpha=4.0, scale=2.0)}
    np.testing.assert_allclose(_by_prefix(tr, "discrete Gaussian"), figconv.SHIFTS, rtol=1e-10)
    assert rdp_discrete_shift(4.0, 3, "gaussian", 2.0) == pytest.approx(4.0 * 9 / 8.0, rel=1e-12)


@pytest.mark.claim("S1-04")
def test_s1_04_exercise_gaussian_bound_is_exact_sum():
    # the released sum of m N(0,1) noises is N(0, m): divergence by quadrature; the exercise's 17 parties are
    # the fewest whose sum has D_5 <= 0.15
    for m in (8, 16, 17):
        exact = renyi_divergence(stats.norm(1, np.sqrt(m)), stats.norm(0, np.sqrt(m)), 5.0)
        assert rdp_convolution_bound(5.0, m, "gaussian", 1.0) == pytest.approx(exact, rel=1e-9)
    assert renyi_divergence(stats.norm(1, 4.0), stats.norm(0, 4.0), 5.0) > 0.15
    assert renyi_divergence(stats.norm(1, np.sqrt(17)), stats.norm(0, np.sqrt(17)), 5.0) <= 0.15
    assert EXERCISES["convolution-gaussian-bound"].answer() == 17
    assert rdp_convolution_bound(4.0, 8, "gaussian", 1.0) == pytest.approx(0.25, rel=1e-14)


def test_chapter_exercise_answers_match_hand_computations():
    expected = {
        "iteration-shifted-gaussian": 1.5 - 1 / np.sqrt(3),  # 3(1.5 - z)²/2 = 0.5
        "iteration-shift-sup": 4 * 0.5**2 / (2 * 0.6**2),
        "iteration-step-size": 4 / 9,  # β = λ_max(diag(9, 1)/2) = 4.5
        "iteration-last-iterate": 0.1,
        "iteration-positions": 53.0,  # 1/(60 - t + 1) <= 1/8 iff t <= 53
        "convolution-laplace-bound": 3 * np.log(2 / 3 * np.exp(1 / 3) + np.exp(-2 / 3) / 3),
        "convolution-laplace-limit": 2.0,
        "convolution-discrete-ratio": 3.0,
    }
    for key, value in expected.items():
        assert EXERCISES[key].answer() == pytest.approx(value, rel=1e-9), key
        assert EXERCISES[key].check(value).status == "right"
        assert EXERCISES[key].check(value * 1.5).status == "wrong"


# ---------------------------------------------------------------- chapter 08


def _w_infinity_1d(dist_a, dist_b, points=20001, tail=1e-9):
    """W∞ on the real line by the monotone (quantile) coupling, sup over levels u ∈ [tail, 1 − tail]."""
    u = np.linspace(tail, 1 - tail, points)
    return float(np.max(np.abs(dist_a.ppf(u) - dist_b.ppf(u))))


@pytest.mark.claim("S0-03")
@pytest.mark.parametrize("x, x2", [(0.7, 0.0), (-1.3, 0.4), (2.0, 2.0)])
def test_s0_03_w_infinity_of_shifts_is_the_shift_distance(x, x2):
    for base in (stats.norm, stats.laplace):
        assert _w_infinity_1d(base(x, 1.3), base(x2, 1.3)) == pytest.approx(abs(x - x2), abs=1e-9)
    # the bound |x − x'| is attained by the shift coupling: no coupling can move less,
    # since the means differ by |x − x'| (E|X − Y| ≥ |EX − EY|)
    assert abs(stats.norm(x, 1).mean() - stats.norm(x2, 1).mean()) == pytest.approx(abs(x - x2))


@pytest.mark.claim("S0-03")
def test_s0_03_w_infinity_between_different_scales_grows_without_bound():
    # N(0,1) against N(0,2): the quantile gap (√2 − 1)|Φ⁻¹(u)| is unbounded, so W∞ = ∞;
    # on finer tails the computed gap keeps growing
    gaps = [_w_infinity_1d(stats.norm(0, 1), stats.norm(0, np.sqrt(2)), 2001, tail) for tail in (1e-3, 1e-6, 1e-12)]
    assert gaps[-1] == pytest.approx((np.sqrt(2) - 1) * abs(stats.norm.ppf(1e-12)), rel=1e-5)  # 1 − 1e-12 is rounded
    assert gaps[0] < gaps[1] < gaps[2]


@pytest.mark.claim("S0-11")
@pytest.mark.parametrize("n", [1, 3, 10])
def test_s0_11_every_iterate_released_costs_one_gaussian_step_at_any_position(n):
    # linear losses: the trajectory (w_1..w_n) is Gaussian with covariance η²σ² min(j, k) and a mean
    # difference 2ηL from step t on; its Rényi divergence αmᵀC⁻¹m/2 is the all-iterates price
    alpha, L, sigma, eta = 3.0, 0.8, 1.7, 0.4
    j = np.arange(1, n + 1)
    cov = (eta * sigma) ** 2 * np.minimum.outer(j, j)
    for t in range(1, n + 1):
        m = np.where(j >= t, 2 * eta * L, 0.0)
        whole = alpha / 2 * m @ np.linalg.solve(cov, m)
        assert whole == pytest.approx(rdp_noisy_sgd_all_iterates(alpha, L, sigma), rel=1e-10)
        last = alpha / 2 * m[-1] ** 2 / cov[-1, -1]  # the last iterate alone
        assert last <= rdp_noisy_sgd_last_iterate(alpha, t, n, L, sigma) * (1 + 1e-12)
        assert last <= whole * (1 + 1e-12)
    # and the one step is a Gaussian mechanism: check by quadrature
    quad = renyi_divergence(stats.norm(2 * eta * L, eta * sigma), stats.norm(0, eta * sigma), alpha)
    assert quad == pytest.approx(rdp_noisy_sgd_all_iterates(alpha, L, sigma), rel=1e-9)


@pytest.mark.claim("S0-10")
def test_s0_10_figure_last_iterate_between_linear_exact_and_all_iterates():
    for params, tr in _positions(FIGURES["iteration-last-iterate"]):
        n = int(params["n"])
        t = np.round(np.asarray(tr["last iterate only (amplification by iteration)"].x) * n).astype(int)
        bound = _by_prefix(tr, "last iterate only")
        everything = _by_prefix(tr, "every iterate")[0]
        linear = _by_prefix(tr, "exact for a linear loss")[0]
        assert t[0] == 1 and t[-1] == n and np.all(np.diff(t) > 0)
        assert np.all(bound <= everything * (1 + 1e-12)) and bound[-1] == pytest.approx(everything)
        assert np.all(bound >= linear * (1 - 1e-12)) and bound[0] == pytest.approx(linear)
        # 2αL²/(σ²(n − t + 1)) at α = 2, L = 1, recomputed from the slider values
        np.testing.assert_allclose(bound, 4.0 / (params["sigma"] ** 2 * (n - t + 1)), rtol=1e-12)


@pytest.mark.claim("S0-09")
def test_s0_09_figure_contraction_breaks_at_two_over_beta_for_squared_loss():
    f = figiter.STEP_FRACTIONS
    for params, tr in _positions(FIGURES["iteration-contraction"]):
        exact = _by_prefix(tr, "squared loss: exact")
        sampled = _by_prefix(tr, "squared loss: largest")
        logistic = _by_prefix(tr, "logistic loss")
        assert np.all(exact[f <= 1.0] <= 1 + 1e-12) and np.all(exact[f > 1.0] > 1.0), params
        assert np.all(sampled <= exact * (1 + 1e-9)), params  # samples never beat the true constant
        assert np.all(sampled[f > 1.05] > 1.0), params  # and they find the failure
        assert np.all(logistic[f <= 1.0] <= 1 + 1e-9), params  # convex β-smooth: contractive up to 2/β
        np.testing.assert_allclose(exact, np.maximum(np.abs(1 - 2 * f), np.abs(1 - 2 * f * _min_ratio())), rtol=1e-9)


def _min_ratio():
    X, _, _ = figiter.contraction_data()
    eig = np.linalg.eigvalsh(X.T @ X / X.shape[0])
    return eig[0] / eig[-1]


@pytest.mark.claim("S0-09")
def test_s0_09_logistic_contractive_past_two_over_beta_for_large_data():
    tr = {t.name: t for t in FIGURES["iteration-contraction"].traces(scale=4.0)}
    logistic = _by_prefix(tr, "logistic loss")
    f = figiter.STEP_FRACTIONS
    assert np.any(logistic[f > 1.0] <= 1.0)  # stays contractive somewhat past 2/β


# ---------------------------------------------------------------- chapter 08: S0-06 and S1-02 figures


def _quad_renyi(logf_p, logf_q, alpha, breaks):
    """D_α(P‖Q) = log ∫ p^α q^{1−α} / (α − 1) by scipy quadrature on pieces split at ``breaks`` (independent route)."""
    from scipy import integrate

    pts = sorted(set(breaks))
    pieces = [(-np.inf, pts[0])] + list(zip(pts[:-1], pts[1:])) + [(pts[-1], np.inf)]
    f = lambda x: np.exp(alpha * logf_p(x) + (1 - alpha) * logf_q(x))  # noqa: E731
    total = sum(integrate.quad(f, lo, hi, epsabs=0, epsrel=1e-12, limit=200)[0] for lo, hi in pieces if hi > lo)
    return np.log(total) / (alpha - 1)


@pytest.mark.claim("S0-06")
def test_s0_06_figure_sup_at_largest_shift():
    x = figiter.SHIFTS
    marks = x[figiter._SHIFT_MARKS]
    for params, tr in _positions(FIGURES["iteration-shift-cost"]):
        alpha, sigma = params["alpha"], params["sigma"]
        gauss, lap = _by_prefix(tr, "Gaussian N"), _by_prefix(tr, "Laplace Lap")
        # the Gaussian curve is the closed form α x²/(2σ²), and so is the dotted reference
        np.testing.assert_allclose(gauss, alpha * x**2 / (2 * sigma**2), rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(_by_prefix(tr, "αv²"), alpha * x**2 / (2 * sigma**2), rtol=1e-12, atol=1e-15)
        # the sup over |x'| ≤ a, taken by brute force over the grid, is the value at |x| = a
        for name, curve in (("Gaussian: sup", gauss), ("Laplace: sup", lap)):
            brute = [curve[np.abs(x) <= abs(m) + 1e-12].max() for m in marks]
            np.testing.assert_allclose(_by_prefix(tr, name), brute, rtol=1e-12, atol=1e-15)
            np.testing.assert_allclose(brute, curve[np.isin(x, marks)], rtol=1e-12, atol=1e-15)
    # Laplace curve against independent quadrature of the two Laplace densities (b = σ/√2)
    for alpha, sigma in [(1.5, 0.5), (2.0, 1.0), (32.0, 2.0)]:
        tr = {t.name: t for t in FIGURES["iteration-shift-cost"].traces(alpha=alpha, sigma=sigma)}
        b = sigma / np.sqrt(2)
        lap = _by_prefix(tr, "Laplace Lap")
        for s in (-1.5, 0.25, 2.0):
            j = int(np.argmin(np.abs(x - s)))
            c = -np.log(2 * b)
            quad = _quad_renyi(lambda t: c - np.abs(t - s) / b, lambda t: c - np.abs(t) / b, alpha, (0.0, s))
            assert lap[j] == pytest.approx(quad, rel=1e-7)


@pytest.mark.claim("S0-06")
def test_s0_06_figure_laplace_below_gaussian_for_large_shifts():
    # equal variance: the Laplace divergence grows linearly (slope ≤ √2/σ), the Gaussian quadratically
    tr = {t.name: t for t in FIGURES["iteration-shift-cost"].traces(alpha=2.0, sigma=1.0)}
    x = figiter.SHIFTS
    gauss, lap = _by_prefix(tr, "Gaussian N"), _by_prefix(tr, "Laplace Lap")
    assert np.all(lap[np.abs(x) >= 1.25] < gauss[np.abs(x) >= 1.25])
    assert np.all(lap[(np.abs(x) > 0) & (np.abs(x) <= 0.75)] > gauss[(np.abs(x) > 0) & (np.abs(x) <= 0.75)])


@pytest.mark.claim("S1-02")
def test_s1_02_figure_bound_above_exact_at_every_split():
    mironov = lambda a, t: np.log(a / (2 * a - 1) * np.exp((a - 1) * t) + (a - 1) / (2 * a - 1) * np.exp(-a * t)) / (a - 1)  # noqa: E731,E501
    for params, tr in _positions(FIGURES["iteration-shift-reduction"]):
        alpha, d = params["alpha"], params["d"]
        a = d * figiter.SPLITS
        g_rhs, l_rhs = _by_prefix(tr, "Gaussian N(0, 1): right"), _by_prefix(tr, "Laplace Lap(0, 1): right")
        g_lhs, l_lhs = _by_prefix(tr, "Gaussian N(0, 1): exact"), _by_prefix(tr, "Laplace Lap(0, 1): exact")
        # the right sides recomputed from the closed forms (shift coupling + R_α at |x| = a)
        np.testing.assert_allclose(g_rhs, alpha * (d - a) ** 2 / 2 + alpha * a**2 / 2, rtol=1e-12)
        np.testing.assert_allclose(l_rhs, mironov(alpha, d - a) + mironov(alpha, a), rtol=1e-10)
        # the left sides: N(d, 2) against N(0, 2); the lemma holds at every split
        assert g_lhs[0] == pytest.approx(alpha * d**2 / 4, rel=1e-12)
        assert np.all(g_rhs >= g_lhs[0] * (1 - 1e-12)), params
        assert np.all(l_rhs >= l_lhs[0] * (1 + 1e-9)), params  # strictly: Laplace is not tight
        # the best split is a = d/2 (convex, symmetric), where the Gaussian bound is exact
        best = _by_prefix(tr, "best split")
        assert best == pytest.approx([min(g_rhs), min(l_rhs)])
        (xs,) = [t.x for n, t in tr.items() if n.startswith("best split")]
        np.testing.assert_allclose(xs, d / 2, rtol=1e-12)
        assert best[0] == pytest.approx(g_lhs[0], rel=1e-12)


@pytest.mark.claim("S1-02")
def test_s1_02_figure_laplace_left_side_by_independent_quadrature():
    # Lap(1) + Lap(1) has density (1 + |x|) e^{−|x|}/4
    logf = lambda t: np.log1p(np.abs(t)) - np.abs(t) - np.log(4.0)  # noqa: E731
    for alpha, d in [(1.5, 0.25), (4.0, 1.0), (16.0, 2.0)]:
        tr = {t.name: t for t in FIGURES["iteration-shift-reduction"].traces(alpha=alpha, d=d)}
        quad = _quad_renyi(lambda t: logf(t - d), logf, alpha, (0.0, d))
        assert _by_prefix(tr, "Laplace Lap(0, 1): exact")[0] == pytest.approx(quad, rel=1e-8)


@pytest.mark.claim("S0-05")
def test_s0_05_figure_monotone_in_z_and_zero_once_the_shift_is_used_up():
    z = figiter.BUDGETS
    for params, tr in _positions(FIGURES["iteration-shifted-divergence"]):
        alpha, x = params["alpha"], params["x"]
        gauss, lap = _by_prefix(tr, "Gaussian N"), _by_prefix(tr, "Laplace Lap")
        # Gaussian: the best shift leaves N(x − z, 1) against N(0, 1): α (x − z)²₊ / 2
        np.testing.assert_allclose(gauss, alpha * np.maximum(x - z, 0.0) ** 2 / 2, rtol=1e-12, atol=1e-15)
        for curve in (gauss, lap):
            assert np.all(np.diff(curve) <= 1e-15)  # monotone non-increasing in z
            assert np.all(curve[z >= x - 1e-12] == 0.0) and np.all(curve[z < x - 1e-12] > 0.0)
    # Laplace against independent quadrature of the two Laplace densities, b = 1, shift x − z
    for alpha, x in [(1.5, 0.5), (3.0, 1.5), (32.0, 2.5)]:
        lap = _by_prefix({t.name: t for t in FIGURES["iteration-shifted-divergence"].traces(alpha=alpha, x=x)},
                         "Laplace Lap")
        for j in (0, 5, 9):
            s = x - z[j]
            if s <= 0:
                continue
            quad = _quad_renyi(lambda t: -np.log(2.0) - np.abs(t - s), lambda t: -np.log(2.0) - np.abs(t), alpha,
                               (0.0, s))
            assert lap[j] == pytest.approx(quad, rel=1e-7)
