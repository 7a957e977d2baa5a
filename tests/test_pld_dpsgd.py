"""Tests of dpnotes.pld.dpsgd: the grid chosen up front from a requested width, the upper bound alone.

Independent routes: the analytic Gaussian curve (q = 1, written here with log_ndtr) and the certified
lower end of a bracket (a lower bound on the true ε).
"""

import math

import pytest

from dpnotes.pld import dpsgd_composed_plds, dpsgd_epsilon_bracket, dpsgd_epsilon_pld
from analytic_gaussian import analytic_gaussian_delta, analytic_gaussian_epsilon


@pytest.mark.parametrize("sigma, T, rel_width", [(2.0, 16, 1e-2), (2.0, 16, 1e-4), (4.0, 1000, 1e-3)])
def test_requested_width_is_met_and_brackets_the_exact_gaussian(sigma, T, rel_width):
    """q = 1 is the Gaussian mechanism: ε exact from the analytic curve (μ = √T/σ), an independent route."""
    exact = analytic_gaussian_epsilon(1e-5, math.sqrt(T) / sigma)
    bracket = dpsgd_epsilon_bracket(1.0, sigma, T, 1e-5, rel_width=rel_width)
    assert bracket.width_met and bracket.upper - bracket.lower <= rel_width * bracket.upper
    assert bracket.lower <= exact <= bracket.upper
    up = dpsgd_epsilon_pld(1.0, sigma, T, 1e-5, rel_width=rel_width)
    assert exact <= up <= exact * (1 + rel_width)


@pytest.mark.parametrize("q, sigma, T, rel_width", [(0.01, 1.1, 1000, 1e-3), (0.05, 2.0, 10000, 1e-2),
                                                    (1e-3, 4.0, 1000, 1e-3), (0.01, 0.8, 1000, 1e-2)])
def test_requested_width_is_met_for_dpsgd_and_the_upper_alone_is_that_close(q, sigma, T, rel_width):
    """The bracket meets rel_width; the upper bound computed alone lies within rel_width of the lower end
    of a 10× tighter bracket (so within rel_width of the true ε)."""
    bracket = dpsgd_epsilon_bracket(q, sigma, T, 1e-5, rel_width=rel_width)
    assert bracket.width_met and bracket.upper - bracket.lower <= rel_width * bracket.upper
    tight = dpsgd_epsilon_bracket(q, sigma, T, 1e-5, rel_width=rel_width / 10)  # its lower end: ≤ the true ε
    up = dpsgd_epsilon_pld(q, sigma, T, 1e-5, rel_width=rel_width)
    assert tight.lower <= up <= tight.lower * (1 + rel_width)


def test_a_coarse_request_is_cheaper_than_a_fine_one():
    """The grid follows the requested width: 100× wider asks for a coarser spacing (width ∝ h² to h³)."""
    from dpnotes.pld.dpsgd import _width_interval  # white-box: the a-priori spacing

    coarse, _ = _width_interval(0.01, 2.0, 10000, 1e-5, 1e-2, 1e-16)
    fine, _ = _width_interval(0.01, 2.0, 10000, 1e-5, 1e-4, 1e-16)
    assert 100 ** (1 / 3) * 0.999 <= coarse / fine <= 10.0 * 1.001
    up_coarse, _ = _width_interval(0.01, 2.0, 10000, 1e-5, 1e-2, 1e-16, upper_only=True)
    up_fine, _ = _width_interval(0.01, 2.0, 10000, 1e-5, 1e-4, 1e-16, upper_only=True)
    assert up_coarse / up_fine == pytest.approx(10.0, rel=1e-9)


@pytest.mark.parametrize("call, name", [
    (lambda: dpsgd_epsilon_pld(0.01, 1.0, 100, 1e-5, rel_width=0.0), "rel_width"),
    (lambda: dpsgd_epsilon_pld(0.01, 1.0, 100, 1e-5, rel_width=2.0), "rel_width"),
    (lambda: dpsgd_epsilon_pld(0.01, 1.0, 100, 1e-5, rel_width=float("nan")), "rel_width"),
    (lambda: dpsgd_epsilon_pld(0.01, 1.0, 100, 1e-5, interval=-1.0), "interval"),
    (lambda: dpsgd_epsilon_pld(0.01, 1.0, 100, 1e-5, tilt="chernoff"), "tilt"),
    (lambda: dpsgd_epsilon_pld(0.01, 1.0, 100, 1e-5, tilt=-1.0), "tilt"),
    (lambda: dpsgd_epsilon_bracket(0.01, 1.0, 100, 1e-5, tilt="chernoff"), "tilt"),
    (lambda: dpsgd_composed_plds(0.01, 1.0, 100, interval=0.0), "interval"),
    (lambda: dpsgd_composed_plds(0.01, 1.0, 0, interval=1e-3), "steps"),
    (lambda: dpsgd_composed_plds(0.01, 1.0, 100, interval=1e-3, tail_mass=0.5), "tail_mass"),
])
def test_bad_accuracy_arguments_are_refused(call, name):
    with pytest.raises(ValueError, match=name):
        call()


def test_an_upper_bound_that_cannot_reach_its_accuracy_says_so():
    with pytest.warns(RuntimeWarning, match="less accurate than asked"):
        up = dpsgd_epsilon_pld(0.5, 0.8, 1000, 1e-5, rel_width=1e-8)
    assert up >= dpsgd_epsilon_bracket(0.5, 0.8, 1000, 1e-5, rel_width=1e-2).lower


def test_composed_plds_bracket_the_exact_gaussian():
    sigma, T = 2.0, 16
    up, lo = dpsgd_composed_plds(1.0, sigma, T, interval=1e-3)
    for eps in (0.5, 1.0, 2.0):
        exact = analytic_gaussian_delta(eps, math.sqrt(T) / sigma)
        assert lo.delta(eps) <= exact <= up.delta(eps)



def _dp_accounting_pld_epsilon(q, sigma, steps, delta, interval=1e-4):
    """ε of dp-accounting's subsampled-Gaussian PLD (pessimistic, connect-the-dots: an upper bound on the true ε),
    composed ``steps`` times: an independent reference for the bracket."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    dist = pld.from_gaussian_mechanism(sigma, pessimistic_estimate=True, value_discretization_interval=interval,
                                       sampling_prob=q, use_connect_dots=True)
    return dist.self_compose(steps).get_epsilon_for_delta(delta)


@pytest.mark.parametrize("q, sigma, steps", [(1e-3, 0.8, 300), (1e-3, 1.1, 300), (0.01, 0.8, 100)])
def test_bracket_against_dp_accounting_where_it_was_slowest(q, sigma, steps):
    """At the parameters where the bracket was slowest (q = 10⁻³ and 10⁻², σ ≤ 1.1: the merged lower end on its own
    grid, refined alone; the upper end on a coarser grid) both ends stay certified against an independent upper bound,
    dp-accounting's pessimistic PLD: our lower end is below it, and the two upper bounds agree within the width asked
    (dp-accounting's own error at its default interval is far below 10⁻³ here)."""
    rel_width = 1e-3
    lo, up = dpsgd_epsilon_bracket(q, sigma, steps, 1e-5, rel_width=rel_width)
    assert up - lo <= rel_width * up
    ref = _dp_accounting_pld_epsilon(q, sigma, steps, 1e-5)
    assert lo <= ref
    assert abs(ref - up) <= rel_width * up


def _dp_accounting_optimistic_epsilon(q, sigma, steps, delta, interval=1e-4):
    """ε of dp-accounting's optimistic subsampled-Gaussian PLD (a lower bound on the true ε), composed ``steps`` times."""
    from dp_accounting.pld import privacy_loss_distribution as pld

    dist = pld.from_gaussian_mechanism(sigma, pessimistic_estimate=False, value_discretization_interval=interval,
                                       sampling_prob=q)
    return dist.self_compose(steps).get_epsilon_for_delta(delta)


@pytest.mark.parametrize("q, sigma, steps, rel_width", [(1e-3, 4.0, 1000, 1.39e-2), (1e-3, 2.0, 1000, 3e-3),
                                                        (1e-3, 0.8, 300, 1e-2), (0.01, 1.1, 100, 1e-2)])
def test_upper_bound_on_the_pilots_grid_is_certified_and_within_the_width(q, sigma, steps, rel_width):
    """At the benchmark's slowest points for the upper bound (small grids, where the pilot's step grid is reused for the
    composition) the upper bound is above dp-accounting's optimistic PLD (an independent lower bound on the true ε)
    and within ``rel_width`` of its pessimistic PLD at a fine interval (an independent upper bound, far tighter)."""
    up = dpsgd_epsilon_pld(q, sigma, steps, 1e-5, rel_width=rel_width)
    low_ref = _dp_accounting_optimistic_epsilon(q, sigma, steps, 1e-5, interval=1e-5)
    high_ref = _dp_accounting_pld_epsilon(q, sigma, steps, 1e-5, interval=1e-5)
    assert low_ref <= up <= high_ref * (1 + rel_width)


def test_a_subnormal_sampling_rate_is_computed_not_divided_by_zero():
    """q = 5e-324 (fuzz seed 701): the composed loss's span underflowed to 0 and the finest grid spacing with it
    (ZeroDivisionError in the time model); the spans now keep a floor, and the answer is the honest ∞ of an upper bound
    whose kept tail mass is above δ = 5e-324, said by an AccuracyWarning."""
    from dpnotes import AccuracyWarning

    with pytest.warns(AccuracyWarning, match="no finite upper bound"):
        assert dpsgd_epsilon_pld(5e-324, 1.1, 131072000, 5e-324) == math.inf
    assert dpsgd_epsilon_pld(5e-324, 1.1, 1000, 1e-5) == 0.0  # T·q ≤ δ: ε = 0 exactly


def test_an_infinite_upper_bound_is_said_and_is_no_width_met():
    """δ = 10⁻¹⁷ is below the mass the default tail cut keeps: ε = ∞ is a valid upper bound, but the true ε is finite,
    so it comes with an AccuracyWarning, and the bracket's ``width_met`` is False (it was True for (4.35, ∞))."""
    from dpnotes import AccuracyWarning

    with pytest.warns(AccuracyWarning, match="no finite upper bound"):
        assert dpsgd_epsilon_pld(0.01, 1.1, 1000, 1e-17) == math.inf
    with pytest.warns(AccuracyWarning, match="no finite upper bound"):
        bracket = dpsgd_epsilon_bracket(0.01, 1.1, 1000, 1e-17, rel_width=1e-3)
    assert bracket.upper == math.inf and not bracket.width_met and bracket.lower > 4.0


def test_an_infinite_plain_round_off_bound_takes_the_tilted_pipeline():
    """At tail_mass = 10⁻²¹ the untilted FFT's certified round-off is above δ = 10⁻¹⁷, so its ε is ∞; the tilt
    decision skipped the tilted pipeline exactly there (∞ was read as "no round-off to remove") and returned ∞. Now the
    tilted bound is finite, above the lower end of a bracket 10⁻⁴ wide (the merged lower PLD: another route) and
    within the 10⁻³ asked of it."""
    upper = dpsgd_epsilon_pld(0.01, 1.1, 1000, 1e-17, tail_mass=1e-21)
    bracket = dpsgd_epsilon_bracket(0.01, 1.1, 1000, 1e-17, rel_width=1e-4, tail_mass=1e-21)
    assert bracket.width_met
    assert bracket.lower <= upper <= bracket.lower * (1 + 1e-3)
