"""Figures of the subsampling and DP-SGD chapters against the package."""

import warnings

import numpy as np
import pytest

from dpnotes.conversion import OrderGridWarning
from dpnotes.dpsgd import dpsgd_epsilon, route_applicable
from dpnotes.figures import FIGURES
from dpnotes.figures import dpsgd as fd
from dpnotes.figures import subsampling as fs
from dpnotes.orders import DEFAULT_ORDERS
from dpnotes.subsampling import rdp_subsampled_gaussian
from dpnotes.widgets.figure_tables import FigureTable, table_arrays
from figure_positions import slider_values as positions


@pytest.mark.claim("S4-17")
@pytest.mark.parametrize("key", ["dpsgd-epochs", "dpsgd-sigma"])
def test_s4_17_every_route_is_above_the_tightest_curve_at_every_position(key):
    fig = FIGURES[key]
    for params in positions(fig):
        traces = fig.traces(**params)
        tight = traces[-1]
        assert "tightest" in tight.name
        for tr in traces[:-1]:
            assert np.array_equal(tr.x, tight.x)
            assert np.all(np.isfinite(tr.y))
            assert np.all(tr.y >= tight.y * (1 - 1e-12)), (key, params, tr.name)


def test_plotted_routes_match_the_package():
    q, sigma = 0.01, 4.0
    traces = FIGURES["dpsgd-epochs"].traces(q=q, sigma=sigma)
    names = ["route1", "route2", "route3", "rdp-mironov", "rdp"]
    for i in [0, 7, 19]:
        steps = int(np.ceil(round(fd.EPOCHS[i] / q, 9)))
        for name, tr in zip(names, traces):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", OrderGridWarning)
                # the figure converts on DEFAULT_ORDERS; the package's "rdp" default searches the order
                orders = None if name in ("route1", "route3") else DEFAULT_ORDERS
                ref = dpsgd_epsilon(q, sigma, steps, fd.DELTA, route=name, orders=orders)
                searched = dpsgd_epsilon(q, sigma, steps, fd.DELTA, route="rdp")
            ref = min(ref, fd.CAP)
            if name == "route1":  # grid over δ₀: never below the optimised split, within 1 %
                assert ref * (1 - 1e-9) <= tr.y[i] <= ref * 1.01
            else:
                assert tr.y[i] == pytest.approx(ref, rel=1e-10)
            if name == "rdp":  # the grid value is not below the searched one
                assert searched * (1 - 1e-8) <= tr.y[i]


@pytest.mark.claim("S4-15")
def test_s4_15_route3_drawn_at_the_cap_where_it_does_not_apply():
    traces = FIGURES["dpsgd-sigma"].traces(q=0.1, delta=1e-5)
    r3 = traces[2]
    for s, y in zip(r3.x, r3.y):
        if not route_applicable(0.1, s, "route3"):
            assert y == fd.CAP


@pytest.mark.claim("S4-09")
def test_s4_09_subsampling_figure_orders_exact_below_claim24():
    fig = FIGURES["subsampling-rdp"]
    for params in positions(fig):
        gauss, claim24, relaxed, exact = fig.traces(**params)
        assert np.all(exact.y <= claim24.y * (1 + 1e-9))
        assert np.all(claim24.y <= relaxed.y * (1 + 1e-9))
        assert np.all(exact.y <= gauss.y * (1 + 1e-9))
    q, s = 0.01, 2.0
    np.testing.assert_allclose(fig.traces(q=q, sigma=s)[3].y, rdp_subsampled_gaussian(fs.ORDERS, q, s), rtol=1e-12)


@pytest.mark.claim("S4-11")
def test_s4_11_scaling_figure_slopes():
    fig = FIGURES["subsampling-scaling"]
    claim24, asym, exact = fig.traces(order=4.0, sigma=4.0)
    small = fs.RATES < 1e-3
    slope = lambda tr: np.diff(np.log(tr.y[small])) / np.diff(np.log(fs.RATES[small]))  # noqa: E731
    assert np.allclose(slope(claim24), 1.0, atol=1e-3)
    assert np.allclose(slope(exact), 2.0, atol=1e-3)
    np.testing.assert_allclose(exact.y[small], asym.y[small], rtol=0.01)


def test_noise_figure_is_dpsgd_sigma_at_every_position(figure_payload):
    """The calibration figure brackets each target on a grid of σ and bisects; at every slider position its
    σ's are those of dpsgd_sigma (on the certified side, within 0.25 %), every target lies inside the grid (no clamped end), and the curves are
    ordered: the moments accountant and δ = 10⁻⁷ need more noise than the improved RDP at δ = 10⁻⁵."""
    from dpnotes.dpsgd import dpsgd_sigma, steps_from_epochs

    fig = FIGURES["dpsgd-noise"]
    # the figure's traces at every position, computed once per session (shared with the table and widget tests)
    table = FigureTable(table_arrays(fig, figure_payload("dpsgd-noise")))
    for params in positions(fig):
        mironov, small_delta, tight = table.traces(params)
        steps = steps_from_epochs(params["epochs"], params["q"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OrderGridWarning)
            for tr, route, delta in [(tight, "rdp", 1e-5), (mironov, "rdp-mironov", 1e-5), (small_delta, "rdp", 1e-7)]:
                assert np.all(np.isfinite(tr.y))
                assert dpsgd_epsilon(params["q"], fd.NOISE_SIGMAS[0], steps, delta, route=route) > fd.TARGETS[-1]
                assert dpsgd_epsilon(params["q"], fd.NOISE_SIGMAS[-1], steps, delta, route=route) < fd.TARGETS[0]
                for i in (0, 24):  # the certified side, within 0.25 % of dpsgd_sigma's smallest σ
                    ref = dpsgd_sigma(fd.TARGETS[i], delta, params["q"], steps, route=route, rtol=1e-5)
                    assert ref / (1 + 1e-5) <= tr.y[i] <= ref * 1.0025, (params, route, i)
        assert np.all(np.diff(tight.y) < 0)  # a larger ε needs less noise
        assert np.all(mironov.y >= tight.y) and np.all(small_delta.y >= tight.y)


def test_noise_figure_passes_through_the_running_run():
    """At q = 0.1 and 30 epochs (300 steps) the book's run, σ = 2, sits on the curve: ε(2) ≈ 4.56."""
    from dpnotes.learning.data import RUNNING_RUN

    run = RUNNING_RUN
    eps = dpsgd_epsilon(run["q"], run["sigma"], run["steps"], run["delta"])
    _, _, tight = FIGURES["dpsgd-noise"].traces(q=run["q"], epochs=run["q"] * run["steps"])
    sigma_at_eps = np.exp(np.interp(np.log(eps), np.log(tight.x), np.log(tight.y)))
    assert sigma_at_eps == pytest.approx(run["sigma"], rel=1e-2)


def test_route1_curve_at_a_tiny_noise_multiplier_warns_nothing_and_bounds_the_optimum():
    """route_curves(0.01, 0.02, …) overflowed in e^{ε₀} − 1 (ε₀ ≈ 10³ at δ₀ = 1e-40) and let a RuntimeWarning out;
    route 1 is now amplified in log space: no warning, and its grid value is a valid split, so it lies above the
    optimised route 1 of the package and within 1 % of it."""
    for sigma in (0.02, 0.03):
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            warnings.simplefilter("ignore", OrderGridWarning)
            plotted = fd.route_curves(0.01, sigma, [100.0], 1e-5)["route1"][0]
        best = dpsgd_epsilon(0.01, sigma, 100, 1e-5, route="route1")
        assert best * (1 - 1e-12) <= plotted <= 1.01 * best
