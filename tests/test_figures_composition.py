"""The figures of chapters 2–4: at every slider position the plotted bounds lie above the plotted exact curves."""

import numpy as np
import pytest

from dpnotes.figures import FIGURES
from figure_positions import positions as _positions, trace as _by_prefix


def test_composition_pure_bounds_above_exact():
    for params, tr in _positions("composition-pure"):
        exact = _by_prefix(tr, "exact").y
        for name, t in tr.items():
            assert np.all(t.y >= exact * (1 - 1e-9)), (params, name)
        assert np.all(_by_prefix(tr, "advanced via zCDP").y <= _by_prefix(tr, "advanced, Dwork").y)


def test_laplace_queries_tight_scale_spends_the_budget():
    from dpnotes.composition import epsilon_advanced_composition

    for params, tr in _positions("composition-laplace-queries"):
        tight, rule = _by_prefix(tr, "advanced, tight"), _by_prefix(tr, "advanced, b =")
        assert np.all(tight.y <= rule.y)
        k = tight.x[-1]
        eps = epsilon_advanced_composition(1 / tight.y[-1], k, params["delta"], form="zcdp")
        assert eps == pytest.approx(params["epsilon"], rel=1e-9)


def test_conversion_gaussian_bounds_above_exact_and_chernoff_on_mironov():
    for params, tr in _positions("conversion-gaussian"):
        exact = _by_prefix(tr, "exact")
        for name, t in tr.items():
            ref = np.interp(np.log(t.x), np.log(exact.x), exact.y)
            assert np.all(t.y >= ref * (1 - 1e-9)), (params, name)
        mir, che = _by_prefix(tr, "Mironov"), _by_prefix(tr, "Chernoff")
        np.testing.assert_allclose(che.y, np.interp(che.x, mir.x, mir.y), rtol=1e-9)
        assert np.all(_by_prefix(tr, "improved").y <= mir.y)


def test_conversion_order_marker_is_the_minimum_and_above_exact():
    for params, tr in _positions("conversion-order"):
        exact = _by_prefix(tr, "exact").y[0]
        claim21 = _by_prefix(tr, "one-order bound").y
        marker = _by_prefix(tr, "α*").y[0]
        assert np.all(claim21 >= exact - 1e-9)
        assert np.all(_by_prefix(tr, "improved").y >= exact - 1e-9)
        assert marker <= np.min(claim21) + 1e-12
        assert marker >= exact - 1e-9


def test_four_deltas_agree_and_tail_bound_is_above():
    for params, tr in _positions("hypothesis-four-deltas"):
        exact = _by_prefix(tr, "exact")
        np.testing.assert_allclose(_by_prefix(tr, "P[Z > ε] −").y, exact.y, atol=1e-12)
        for prefix in ("E[max", "∫"):
            t = _by_prefix(tr, prefix)
            np.testing.assert_allclose(t.y, np.interp(t.x, exact.x, exact.y), rtol=1e-8, atol=1e-14)
        assert np.all(_by_prefix(tr, "upper bound").y >= exact.y)


def test_pure_dp_bound_above_laplace_divergence():
    for params, tr in _positions("hypothesis-pure-dp"):
        d = _by_prefix(tr, "D<sub>α</sub>(Lap")
        line = _by_prefix(tr, "½ε²α")
        assert np.all(d.y <= line.y * (1 + 1e-12))
        marks = _by_prefix(tr, "(α/8)")
        np.testing.assert_allclose(marks.y, np.interp(marks.x, line.x, line.y), rtol=1e-9)


def test_posterior_on_the_event_stays_below_the_bound():
    exceeded = 0
    for params, tr in _positions("hypothesis-posterior"):
        bound = _by_prefix(tr, "bound").y[0]
        assert np.all(_by_prefix(tr, "P[X = 1 ∧ E").y <= bound + 1e-12), params
        exceeded += bool(np.any(_by_prefix(tr, "P[X = 1 |").y > bound))
    assert exceeded > 0
