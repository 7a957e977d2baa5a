"""ε and δ of composed sampled-Gaussian steps at the searched order (dpnotes.subsampling.optimal_order),
against fixed grids, a bounded Brent search, the PLD lower bound and dp-accounting."""

import logging
import warnings

import numpy as np
import pytest
from scipy import optimize

from dpnotes import dpsgd_epsilon_bracket
from dpnotes.conversion import OrderGridWarning, delta_from_rdp, epsilon_from_rdp
from dpnotes.dpsgd import dpsgd_delta, dpsgd_epsilon
from dpnotes.orders import DEFAULT_ORDERS
from dpnotes.subsampling import (
    ORDER_LADDER,
    delta_rdp_subsampled_gaussian,
    epsilon_rdp_subsampled_gaussian,
    rdp_subsampled_gaussian,
)

DELTA = 1e-5
GRID = [(q, s, t) for q in (1e-3, 1e-2, 0.05) for s in (0.8, 1.1, 2.0, 4.0) for t in (100, 10_000, 1_000_000)]


def improved_eps_at(alpha, q, sigma, steps, delta=DELTA):
    """The improved conversion at one order, through the public grid function (independent of the search)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OrderGridWarning)
        return epsilon_from_rdp(np.array([alpha]), steps * np.atleast_1d(rdp_subsampled_gaussian(alpha, q, sigma)),
                                delta)


@pytest.mark.parametrize("q, sigma, steps", GRID)
def test_searched_epsilon_is_not_above_the_default_grid_and_is_the_conversion_at_its_order(q, sigma, steps):
    eps, order = epsilon_rdp_subsampled_gaussian(q, sigma, steps, DELTA, return_order=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OrderGridWarning)
        grid = dpsgd_epsilon(q, sigma, steps, DELTA, route="rdp", orders=DEFAULT_ORDERS)
    assert eps <= grid * (1 + 1e-8)  # the search locates the minimum to 1e-8
    assert eps == pytest.approx(improved_eps_at(order, q, sigma, steps), rel=1e-10)
    assert dpsgd_epsilon(q, sigma, steps, DELTA, route="rdp") == eps  # the route's default


@pytest.mark.parametrize("q, sigma, steps", GRID)
def test_searched_order_is_a_local_minimum(q, sigma, steps):
    """Brent's method (scipy, bounded, tolerance 1e-10 in log(α − 1)) around the order finds nothing lower
    (beyond the search's tolerance, 1e-8 relative), nor do the orders at ±1e-3 in log(α − 1)."""
    eps, order = epsilon_rdp_subsampled_gaussian(q, sigma, steps, DELTA, return_order=True)
    u = np.log(order - 1.0)
    res = optimize.minimize_scalar(lambda x: improved_eps_at(1.0 + np.exp(x), q, sigma, steps),
                                   bounds=(u - 0.1, u + 0.1), method="bounded", options={"xatol": 1e-10})
    assert eps <= res.fun * (1 + 1e-8)
    for x in (u - 1e-3, u + 1e-3):
        assert eps <= improved_eps_at(1.0 + np.exp(x), q, sigma, steps) * (1 + 1e-8)


@pytest.mark.parametrize("q, sigma, steps", [(1e-3, 1.1, 100), (1e-2, 0.8, 100), (1e-2, 4.0, 10_000),
                                             (0.05, 2.0, 100), (0.05, 1.1, 10_000), (1e-3, 4.0, 10_000)])
def test_searched_epsilon_is_not_below_the_pld_lower_bound(q, sigma, steps):
    lower, upper = dpsgd_epsilon_bracket(q, sigma, steps, DELTA)
    assert lower <= epsilon_rdp_subsampled_gaussian(q, sigma, steps, DELTA)


@pytest.mark.parametrize("q, sigma, steps", GRID)
def test_searched_epsilon_is_not_above_dp_accounting(q, sigma, steps):
    """dp-accounting 0.6.0's RdpAccountant as its README calls it (default orders)."""
    import dp_accounting

    logging.disable(logging.WARNING)
    try:
        acc = dp_accounting.rdp.RdpAccountant()
        acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
        ref = acc.get_epsilon(DELTA)
    finally:
        logging.disable(logging.NOTSET)
    assert epsilon_rdp_subsampled_gaussian(q, sigma, steps, DELTA) <= ref * (1 + 1e-8)


@pytest.mark.parametrize("q, sigma, steps, eps", [(0.01, 4.0, 10_000, 1.0), (1e-3, 1.1, 100, 0.3),
                                                  (0.05, 0.8, 10_000, 80.0)])
def test_searched_delta_is_not_above_the_default_grid_and_inverts_epsilon(q, sigma, steps, eps):
    d, order = delta_rdp_subsampled_gaussian(q, sigma, steps, eps, return_order=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OrderGridWarning)
        grid = delta_from_rdp(DEFAULT_ORDERS, steps * rdp_subsampled_gaussian(DEFAULT_ORDERS, q, sigma), eps)
        at_order = delta_from_rdp(np.array([order]), steps * np.atleast_1d(rdp_subsampled_gaussian(order, q, sigma)),
                                  eps)
    assert d <= grid * (1 + 1e-5)  # log δ located to 1e-8 relative: δ to ≈ 1e-6
    assert d == pytest.approx(at_order, rel=1e-9)
    assert dpsgd_delta(q, sigma, steps, eps, route="rdp") == d
    e = epsilon_rdp_subsampled_gaussian(q, sigma, steps, d * (1 + 1e-9))
    assert e <= eps * (1 + 1e-6)


def test_full_batch_matches_the_closed_form_minimum():
    """q = 1: Tα/(2σ²); the improved minimum solves ρ(α−1)² + log α = log(1/δ), ρ = T/(2σ²) (bisection here)."""
    sigma, steps = 4.0, 100
    rho = steps / (2 * sigma ** 2)
    g = lambda a: rho * (a - 1) ** 2 + np.log(a) - np.log(1 / DELTA)  # noqa: E731
    a_star = optimize.brentq(g, 1 + 1e-9, 1e4, xtol=1e-14)
    ref = rho * a_star + np.log1p(-1 / a_star) - (np.log(DELTA) + np.log(a_star)) / (a_star - 1)
    eps, order = epsilon_rdp_subsampled_gaussian(1.0, sigma, steps, DELTA, return_order=True)
    assert eps == pytest.approx(ref, rel=1e-8)
    assert order == pytest.approx(a_star, rel=1e-3)


def test_warns_when_the_best_order_is_an_end_of_the_ladder():
    # q = 1: ρ = T/(2σ²), the best order ≈ 1 + √(log(1/δ)/ρ): 7·10⁵ > 2¹⁷ (δ = 1e-12), then 1 + 4.8·10⁻⁴ < 1.001
    with pytest.warns(OrderGridWarning, match="edge of the search range"):
        epsilon_rdp_subsampled_gaussian(1.0, 1e5, 1, 1e-12)
    with pytest.warns(OrderGridWarning, match="edge of the search range"):
        epsilon_rdp_subsampled_gaussian(1.0, 0.01, 10_000, DELTA)
    with warnings.catch_warnings():
        warnings.simplefilter("error", OrderGridWarning)
        epsilon_rdp_subsampled_gaussian(0.01, 4.0, 10_000, DELTA)
    assert ORDER_LADDER[0] > 1 and np.all(np.diff(ORDER_LADDER) > 0)


def test_zero_rate_and_bad_arguments():
    assert epsilon_rdp_subsampled_gaussian(0.0, 1.0, 10, DELTA) == 0.0
    assert delta_rdp_subsampled_gaussian(0.0, 1.0, 10, 0.5) == 0.0
    with pytest.raises(ValueError, match="delta"):
        epsilon_rdp_subsampled_gaussian(0.01, 1.0, 10, 1.5)
    with pytest.raises(ValueError, match="q"):
        epsilon_rdp_subsampled_gaussian(1.5, 1.0, 10, DELTA)
    with pytest.raises(ValueError, match="epsilon"):
        delta_rdp_subsampled_gaussian(0.01, 1.0, 10, -1.0)
    with pytest.raises(ValueError, match="steps"):
        epsilon_rdp_subsampled_gaussian(0.01, 1.0, 0, DELTA)


@pytest.mark.parametrize("alpha", [1.01, 2.5, 17.37, 32.5])
def test_shared_grid_matches_mpmath_quadrature(alpha):
    """The rounds' shared trapezoid grid (moments.log_a_shared_grid) against a 50-digit mpmath quadrature
    (test_subsampling.mp_log_a_quad): 1e-10 relative with the full-precision integrand, 1e-8 in the
    search mode (plain integrand down to log A = 1e-6)."""
    from dpnotes.subsampling.moments import log_a_shared_grid
    from test_subsampling import mp_log_a_quad

    for q in (1e-6, 1e-3, 0.05):
        for sigma in (0.8, 4.0, 100.0):
            log_a = log_a_shared_grid(q, sigma, 1.5 * alpha)
            ref = float(mp_log_a_quad(alpha, q, sigma))
            got = log_a(np.array([alpha]))[0]
            assert got == pytest.approx(ref, rel=1e-10), (q, sigma)
            assert log_a(np.array([alpha]), 1e-6)[0] == pytest.approx(ref, rel=1e-8), (q, sigma)
