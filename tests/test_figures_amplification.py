"""Figures and exercises of the amplification chapters (08 iteration, 09 repeated noise).

The figures draw bounds against exact values; these tests check, at every slider
position, that what is drawn is finite and that each bound lies above the exact
value it bounds. Two claims without a test of their own in the math modules
(S0-03, S0-11) are checked here by independent routes.
"""

import itertools

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

OUR_KEYS = ("iteration-last-iterate", "iteration-contraction", "convolution-laplace", "convolution-laplace-ratio",
            "convolution-schedule", "convolution-discrete")


def _positions(fig):
    names = [s.name for s in fig.sliders]
    for combo in itertools.product(*[s.values for s in fig.sliders]):
        params = dict(zip(names, combo))
        yield params, {t.name: t for t in fig.traces(**params)}


def _by_prefix(traces, prefix):
    (match,) = [t for name, t in traces.items() if name.startswith(prefix)]
    return np.asarray(match.y, float)


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


@pytest.mark.slow
def test_s1_05_figure_bound_above_exact_at_every_position():
    for params, tr in _positions(FIGURES["convolution-laplace"]):
        bound = _by_prefix(tr, "Theorem 1 bound")
        exact = _by_prefix(tr, "exact")
        assert np.all(bound >= exact * (1 - 1e-10)), params
        if params["n"] == 1:
            np.testing.assert_allclose(bound, exact, rtol=1e-9)
        else:
            assert np.all(bound > 1.2 * exact), params  # strictly loose from n = 2 on
        assert np.all(exact <= 1.0 + 1e-9)  # the sum stays 1-DP: D_α ≤ D_∞ = 1/b


@pytest.mark.slow
def test_s1_05_figure_grid_matches_direct_evaluation():
    # the cached grid is the package's exact value, recomputed here point by point
    grid = figconv.laplace_exact_grid()
    for i, j in [(0, 0), (3, 7), (9, 19), (6, 12)]:
        n, alpha = figconv.NS[i], figconv.ORDERS[j]
        assert grid[i, j] == pytest.approx(float(rdp_laplace_convolution(alpha, n, 1.0)), rel=1e-12)


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


def test_s1_03_geometric_schedule_increments():
    d = figconv.schedule_increments(4, 0.5)
    np.testing.assert_allclose(d, np.array([8, 4, 2, 1]) / 15.0)
    np.testing.assert_allclose(figconv.schedule_increments(5, 1.0), 0.2)


def test_s1_06_figure_shows_counterexample_at_every_position():
    for params, tr in _positions(FIGURES["convolution-discrete"]):
        g = _by_prefix(tr, "discrete Gaussian")
        lap = _by_prefix(tr, "discrete Laplace")
        assert g[0] == pytest.approx(1.0) and lap[0] == pytest.approx(1.0)
        assert np.all(g[1:] > 1.0 + 1e-9), params  # fails at every Δ ≥ 2
        assert np.all(lap[1:] > 1.0 + 1e-12), params
        assert np.all(np.diff(lap) > 0), params


def test_s1_06_figure_gaussian_ratio_is_delta_when_alpha_delta_is_integer():
    # independent route: D_α(P+Δ‖P) for the discrete Gaussian is exactly αΔ²/(2σ²) when αΔ ∈ ℤ,
    # by completing the square in the lattice sum (Canonne, Kamath, Steinke 2020)
    tr = {t.name: t for t in FIGURES["convolution-discrete"].traces(alpha=4.0, scale=2.0)}
    np.testing.assert_allclose(_by_prefix(tr, "discrete Gaussian"), figconv.SHIFTS, rtol=1e-10)
    assert rdp_discrete_shift(4.0, 3, "gaussian", 2.0) == pytest.approx(4.0 * 9 / 8.0, rel=1e-12)


def test_s1_04_exercise_gaussian_bound_is_exact_sum():
    # the released sum of 8 N(0,1) noises is N(0, 8): divergence by quadrature
    exact = renyi_divergence(stats.norm(1, np.sqrt(8)), stats.norm(0, np.sqrt(8)), 4.0)
    assert EXERCISES["convolution-gaussian-bound"].answer() == pytest.approx(exact, rel=1e-9)
    assert rdp_convolution_bound(4.0, 8, "gaussian", 1.0) == pytest.approx(0.25, rel=1e-14)


def test_chapter_exercise_answers_match_hand_computations():
    expected = {
        "iteration-shifted-gaussian": 1.5,
        "iteration-shift-sup": 2.0,
        "iteration-step-size": 1.0,
        "iteration-last-iterate": 0.1,
        "iteration-positions": 91.0,
        "convolution-laplace-bound": 2 * np.log(2 / 3 * np.exp(0.5) + np.exp(-1.0) / 3),
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


@pytest.mark.parametrize("x, x2", [(0.7, 0.0), (-1.3, 0.4), (2.0, 2.0)])
def test_s0_03_w_infinity_of_shifts_is_the_shift_distance(x, x2):
    for base in (stats.norm, stats.laplace):
        assert _w_infinity_1d(base(x, 1.3), base(x2, 1.3)) == pytest.approx(abs(x - x2), abs=1e-9)
    # the bound |x − x'| is attained by the shift coupling: no coupling can move less,
    # since the means differ by |x − x'| (E|X − Y| ≥ |EX − EY|)
    assert abs(stats.norm(x, 1).mean() - stats.norm(x2, 1).mean()) == pytest.approx(abs(x - x2))


def test_s0_03_w_infinity_between_different_scales_grows_without_bound():
    # N(0,1) against N(0,2): the quantile gap (√2 − 1)|Φ⁻¹(u)| is unbounded, so W∞ = ∞;
    # on finer tails the computed gap keeps growing
    gaps = [_w_infinity_1d(stats.norm(0, 1), stats.norm(0, np.sqrt(2)), 2001, tail) for tail in (1e-3, 1e-6, 1e-12)]
    assert gaps[-1] == pytest.approx((np.sqrt(2) - 1) * abs(stats.norm.ppf(1e-12)), rel=1e-5)  # 1 − 1e-12 is rounded
    assert gaps[0] < gaps[1] < gaps[2]


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


def test_s0_09_logistic_contractive_past_two_over_beta_for_large_data():
    tr = {t.name: t for t in FIGURES["iteration-contraction"].traces(scale=4.0)}
    logistic = _by_prefix(tr, "logistic loss")
    f = figiter.STEP_FRACTIONS
    assert np.any(logistic[f > 1.0] <= 1.0)  # stays contractive somewhat past 2/β
