"""The numerical Rényi divergence: exactness on pmfs, and the properties of S0-02."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from dpnotes import rdp_gaussian, rdp_laplace, renyi_divergence
from dpnotes.divergence import LogDensity


def laplace_log_density(loc, b):
    # exact in the far tails (scipy's laplace.logpdf is log(pdf) and underflows)
    return LogDensity(lambda x: -np.abs(x - loc) / b - np.log(2 * b))

pmf = st.lists(st.floats(0.01, 1.0), min_size=2, max_size=6).map(lambda v: np.array(v) / np.sum(v))


@pytest.mark.claim("S0-02")
def test_s0_02_quadrature_matches_closed_forms():
    orders = [1.0, 1.3, 2.0, 7.5, 100.0, 1e4]
    np.testing.assert_allclose(renyi_divergence(stats.norm(1, 1), stats.norm(0, 1), orders),
                               rdp_gaussian(orders, 1.0), rtol=1e-9)
    np.testing.assert_allclose(
        renyi_divergence(laplace_log_density(1, 2), laplace_log_density(0, 2), orders, points=[0, 1]),
        rdp_laplace(orders, 2.0), rtol=1e-9)


def test_pmf_route_is_the_definition():
    p, q = np.array([0.5, 0.3, 0.2]), np.array([0.2, 0.3, 0.5])
    alpha = 2.5
    direct = np.log(np.sum(p**alpha * q ** (1 - alpha))) / (alpha - 1)
    assert renyi_divergence(p, q, alpha) == pytest.approx(direct, rel=1e-14)
    assert renyi_divergence(p, q, 1.0) == pytest.approx(np.sum(p * np.log(p / q)), rel=1e-14)
    assert renyi_divergence(p, q, np.inf) == pytest.approx(np.log(0.5 / 0.2), rel=1e-14)


def test_support_gap_is_infinite():
    assert renyi_divergence([0.5, 0.5], [1.0, 0.0], 2.0) == np.inf
    assert renyi_divergence(stats.uniform(0, 2), stats.uniform(0, 1), 2.0, support=(0, 2)) == np.inf


@pytest.mark.claim("S0-02")
@settings(max_examples=60, deadline=None)
@given(p=pmf, q=pmf, p2=pmf, q2=pmf, alpha=st.floats(1.0, 50.0))
def test_s0_02_additivity_over_products(p, q, p2, q2, alpha):
    if len(p) != len(q) or len(p2) != len(q2):
        q, q2 = np.resize(q, len(p)) / np.resize(q, len(p)).sum(), np.resize(q2, len(p2)) / np.resize(q2, len(p2)).sum()
    joint = renyi_divergence(np.outer(p, p2).ravel(), np.outer(q, q2).ravel(), alpha)
    assert joint == pytest.approx(renyi_divergence(p, q, alpha) + renyi_divergence(p2, q2, alpha), rel=1e-9, abs=1e-12)


@pytest.mark.claim("S0-02")
@settings(max_examples=60, deadline=None)
@given(p=pmf, alpha=st.floats(1.0, 50.0), data=st.data())
def test_s0_02_post_processing(p, alpha, data):
    q = data.draw(pmf.filter(lambda v: len(v) == len(p)))
    # a deterministic map merging outcomes: f sends each outcome to a label in {0, 1}
    labels = np.array(data.draw(st.lists(st.integers(0, 1), min_size=len(p), max_size=len(p))))
    fp = np.bincount(labels, weights=p, minlength=2)
    fq = np.bincount(labels, weights=q, minlength=2)
    assert renyi_divergence(fp, fq, alpha) <= renyi_divergence(p, q, alpha) + 1e-12


@pytest.mark.claim("S2-06")
@settings(max_examples=60, deadline=None)
@given(p=pmf, alpha=st.floats(1.0, 1e4), data=st.data())
def test_s2_06_non_negativity(p, alpha, data):
    q = data.draw(pmf.filter(lambda v: len(v) == len(p)))
    assert renyi_divergence(p, q, alpha) >= -1e-12


def test_bad_input():
    with pytest.raises(ValueError, match="alpha"):
        renyi_divergence([0.5, 0.5], [0.5, 0.5], 0.9)
    with pytest.raises(ValueError, match="pmf"):
        renyi_divergence([0.5, 0.6], [0.5, 0.5], 2.0)
    with pytest.raises(ValueError, match="both"):
        renyi_divergence(stats.norm(0, 1), [0.5, 0.5], 2.0)


@pytest.mark.claim("S0-02")
def test_s0_02_orders_next_to_one_are_continuous_with_kl():
    # hypothesis found D_α = −1 at α = 1 + 2.2e-16 (cancellation in log Σ P^α Q^{1−α} / (α − 1));
    # independent route: the sum at 50 digits in mpmath
    import mpmath as mp

    p, q = np.array([1 / 3, 1 / 3, 1 / 6, 1 / 6]), np.full(4, 0.25)
    for alpha in (1.0 + 2.0**-52, 1.0 + 1e-10, 1.0 + 1e-6, 1.001):
        with mp.workdps(50):
            a = mp.mpf(alpha)
            pp = [mp.mpf(1) / 3, mp.mpf(1) / 3, mp.mpf(1) / 6, mp.mpf(1) / 6]  # the exact pmf (sums to 1)
            exact = mp.log(mp.fsum(x ** a * mp.mpf(0.25) ** (1 - a) for x in pp)) / (a - 1)
        assert renyi_divergence(p, q, alpha) == pytest.approx(float(exact), rel=1e-9)
    assert renyi_divergence(p, q, 1.0 + 2.0**-52) == pytest.approx(renyi_divergence(p, q, 1.0), rel=1e-12)


# ----------------------------------------------------------------------------- regressions


def test_max_divergence_of_a_gaussian_shift_is_infinite():
    # sup_x log N(1,1)/N(0,1) = sup (x − ½) = ∞ (the grid maximum 81376.9 was returned)
    assert renyi_divergence(stats.norm(1, 1), stats.norm(0, 1), np.inf) == np.inf
    assert renyi_divergence(stats.norm(0, 2), stats.norm(0, 1), np.inf) == np.inf
    assert renyi_divergence(stats.norm(0, 1), stats.norm(0, 2), np.inf) == pytest.approx(np.log(2), rel=1e-12)
    # scipy's Laplace log-density underflows in the tails: those points are not trusted (was 1.0116)
    assert renyi_divergence(stats.laplace(1, 1), stats.laplace(0, 1), np.inf) == pytest.approx(1.0, rel=1e-12)


def test_scalar_only_densities_are_vectorised_and_bad_ones_refused():
    import math

    def gauss(m):
        return lambda x: math.exp(-(x - m) ** 2 / 2) / math.sqrt(2 * math.pi)

    assert renyi_divergence(gauss(1.0), gauss(0.0), 2.0) == pytest.approx(1.0, rel=1e-9)
    with pytest.raises(ValueError, match="p must be a density"):
        renyi_divergence(lambda x: -1.0, gauss(0.0), 2.0)
    with pytest.raises(TypeError, match="q must be a density"):
        renyi_divergence(gauss(0.0), lambda x: "a", 2.0)


def test_orders_beyond_the_quadrature_grid_raise_instead_of_a_wrong_value():
    # the integrand of N(1,1)‖N(0,1) at α = 10⁵ peaks at x ≈ α, beyond the grid (0.965 × the truth was returned)
    assert renyi_divergence(stats.norm(1, 1), stats.norm(0, 1), 64.0) == pytest.approx(32.0, rel=1e-10)
    with pytest.raises(ValueError, match="alpha"):
        renyi_divergence(stats.norm(1, 1), stats.norm(0, 1), 1e5)
    with pytest.raises(ValueError, match="alpha"):
        renyi_divergence(stats.norm(1, 1), stats.norm(0, 1), 1e300)
