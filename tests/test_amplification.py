"""Tests for dpnotes.amplification: shifted divergence, R_α, shift reduction (seeds 000, 001)."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import stats

from dpnotes.amplification import (
    optimal_shift_increments,
    renyi_shift_sup,
    shift_increments,
    shift_reduction_bound,
    shifted_renyi_location,
)
from dpnotes.convolution import rdp_convolution_bound, rdp_laplace_convolution
from dpnotes.divergence import renyi_divergence


def _law(noise, loc, scale):
    return stats.norm(loc, scale) if noise == "gaussian" else stats.laplace(loc, scale)


@pytest.mark.claim("S0-06")
@pytest.mark.parametrize("noise", ["gaussian", "laplace"])
def test_s0_06_sup_is_at_the_largest_shift(noise):
    alpha, a, scale = 3.0, 0.8, 0.9
    xs = np.linspace(-a, a, 9)
    vals = [renyi_divergence(_law(noise, x, scale), _law(noise, 0.0, scale), alpha, points=(0.0, x)) for x in xs]
    assert np.argmax(vals) in (0, len(xs) - 1)
    assert np.all(np.diff(vals[4:]) >= -1e-12)  # non-decreasing in |x|
    np.testing.assert_allclose(vals, vals[::-1], rtol=1e-9, atol=1e-14)  # symmetric
    assert renyi_shift_sup(alpha, a, noise, scale) == pytest.approx(max(vals), rel=1e-9)


@pytest.mark.claim("S0-06")
def test_s0_06_gaussian_closed_form():
    assert renyi_shift_sup(5.0, 0.3, "gaussian", 2.0) == pytest.approx(5.0 * 0.09 / 8.0, rel=1e-15)


@pytest.mark.claim("S0-05")
@pytest.mark.parametrize("noise", ["gaussian", "laplace"])
def test_s0_05_shift_coupling_attains_the_value(noise):
    # the admissible μ' = ζ + (|x| − z) (a W∞ ≤ z move of ζ + x) has exactly this divergence
    alpha, x, z, scale = 2.5, 1.3, 0.4, 1.1
    direct = renyi_divergence(_law(noise, x - z, scale), _law(noise, 0.0, scale), alpha, points=(0.0, x - z))
    assert shifted_renyi_location(alpha, x, z, noise, scale) == pytest.approx(direct, rel=1e-9)
    # W∞ of the coupling (X, X − z) is z: the quantile functions differ by exactly z
    u = np.linspace(0.01, 0.99, 99)
    w_inf = np.max(np.abs(_law(noise, x, scale).ppf(u) - _law(noise, x - z, scale).ppf(u)))
    assert w_inf == pytest.approx(z, rel=1e-9)


@pytest.mark.claim("S0-05")
@settings(max_examples=40, deadline=None)
@given(x=st.floats(-3, 3), y=st.floats(-3, 3), z1=st.floats(0, 3), z2=st.floats(0, 3),
       alpha=st.floats(1.01, 50), noise=st.sampled_from(["gaussian", "laplace"]))
def test_s0_05_monotone_in_z_and_shifting_property(x, y, z1, z2, alpha, noise):
    lo, hi = min(z1, z2), max(z1, z2)
    assert shifted_renyi_location(alpha, x, hi, noise) <= shifted_renyi_location(alpha, x, lo, noise) + 1e-15
    # shifting: D^{(|y|)}(ζ + x + y ‖ ζ) ≤ D(ζ + x ‖ ζ)
    assert shifted_renyi_location(alpha, x + y, abs(y), noise) <= shifted_renyi_location(alpha, x, 0.0, noise) * (1 + 1e-12) + 1e-15


@pytest.mark.claim("S0-05")
def test_s0_05_source_definition_takes_inf_over_wrong_argument():
    # Seed 000 writes inf over ν' of D_α(μ‖ν'). Read literally the infimum is 0 (ν' = μ),
    # whatever μ and ν are, so it cannot be the shifted divergence; the correct one moves μ.
    alpha, x, z = 2.0, 2.0, 0.5
    mu = stats.norm(x, 1.0)
    assert renyi_divergence(mu, mu, alpha) == pytest.approx(0.0, abs=1e-12)
    assert shifted_renyi_location(alpha, x, z) == pytest.approx(alpha * (x - z) ** 2 / 2, rel=1e-14)


@pytest.mark.claim("S1-02")
@pytest.mark.parametrize("n", [2, 3, 6])
@pytest.mark.parametrize("alpha", [1.5, 4.0, 20.0])
def test_s1_02_shift_reduction_lemma_with_exact_laplace_sums(n, alpha):
    # one application of Lemma 2 (z = 0) with U = Lap + 1, V = Lap, ζ = Lap^{∗(n−1)}:
    # D(Lap^{∗n} + 1) ≤ D(Lap + 1 − a) + D(Lap^{∗(n−1)} + a) for every a ∈ [0, 1]
    lhs = rdp_laplace_convolution(alpha, n)
    for a in np.linspace(0.05, 0.95, 7):
        rhs = renyi_shift_sup(alpha, 1 - a, "laplace") + rdp_laplace_convolution(alpha, n - 1, 1.0 / a)
        assert lhs <= rhs * (1 + 1e-10)


@pytest.mark.claim("S1-03")
def test_s1_03_schedule_to_increments():
    np.testing.assert_allclose(shift_increments([1.0, 0.6, 0.1]), [0.4, 0.5, 0.1])
    with pytest.raises(ValueError):
        shift_increments([1.0, 0.5, 0.7])


@pytest.mark.claim("S1-03")
@pytest.mark.parametrize("noise", ["gaussian", "laplace"])
@pytest.mark.parametrize("n", [1, 4, 25])
def test_s1_03_uniform_increments_give_theorem1(noise, n):
    val = shift_reduction_bound(3.0, np.full(n, 1.0 / n), noise, 0.8)
    assert val == pytest.approx(rdp_convolution_bound(3.0, n, noise, 0.8), rel=1e-12)
    if noise == "laplace":
        assert rdp_laplace_convolution(3.0, n, 0.8) <= val * (1 + 1e-10)


@pytest.mark.claim("S1-03")
@pytest.mark.parametrize("noise", ["gaussian", "laplace"])
@pytest.mark.parametrize("alpha", [1.5, 8.0, 64.0])
def test_s1_03_optimal_schedule_is_uniform(noise, alpha):
    d, v = optimal_shift_increments(alpha, 8, noise, 1.0, seed=3)
    if not (noise == "laplace" and alpha > 10):  # there D_α(Lap + t) is nearly linear: a flat optimum
        np.testing.assert_allclose(d, 1 / 8, atol=2e-4)
    assert v == pytest.approx(rdp_convolution_bound(alpha, 8, noise, 1.0), rel=1e-8)


@pytest.mark.claim("S1-03")
@settings(max_examples=30, deadline=None)
@given(w=st.lists(st.floats(0.0, 1.0), min_size=2, max_size=10).filter(lambda w: sum(w) > 1e-3),
       alpha=st.floats(1.01, 30.0), noise=st.sampled_from(["gaussian", "laplace"]))
def test_s1_03_any_schedule_is_no_better_than_uniform(w, alpha, noise):
    d = np.asarray(w) / sum(w)
    assert shift_reduction_bound(alpha, d, noise) >= rdp_convolution_bound(alpha, d.size, noise) * (1 - 1e-12)


def test_shift_reduction_broadcasts_and_validates():
    out = shift_reduction_bound(np.array([2.0, 4.0]), [0.5, 0.5])
    np.testing.assert_allclose(out, [0.5, 1.0])
    with pytest.raises(ValueError, match="increments"):
        shift_reduction_bound(2.0, [0.5, -0.1])
    with pytest.raises(ValueError, match="noise"):
        renyi_shift_sup(2.0, 1.0, "cauchy")
    with pytest.raises(ValueError, match="alpha"):
        shifted_renyi_location(0.5, 1.0, 0.0)
    with pytest.raises(ValueError, match="z"):
        shifted_renyi_location(2.0, 1.0, -1.0)


@pytest.mark.claim("S0-03")
@pytest.mark.parametrize("x", [-0.7, 0.0, 1.3])
def test_s0_03_the_distance_of_a_shift_is_its_absolute_value(x):
    # W∞ on ℝ by the quantile coupling: sup_u |F_U⁻¹(u) − F_V⁻¹(u)|; for U = V + x it is |x|, not x (the post's slip)
    from scipy import stats

    u = np.linspace(1e-6, 1 - 1e-6, 2001)
    for law in (stats.norm(), stats.laplace(scale=0.5), stats.t(df=3)):
        w = np.max(np.abs((law.ppf(u) + x) - law.ppf(u)))
        assert w == pytest.approx(abs(x), abs=1e-12)
        assert w >= 0
