"""Tests of dpnotes.pld.grid: the T-fold composition in the Fourier domain (LossGrid.power).

Independent routes: exact integer convolution of dyadic probabilities (no rounding at all), the
analytic Gaussian curve, and the repeated-squaring composition of the same grid.
"""

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy.special import log_ndtr

from dpnotes.pld import LossGrid, pld_gaussian, pld_subsampled_gaussian

SCALE = 28  # probabilities are integers / 2^SCALE


def _dyadic_grid(seed, n, pessimistic):
    ints = np.random.default_rng(seed).integers(0, 2 ** (SCALE + 1) // n, n)  # total mass near 1
    ints[[0, n // 3]] = 0  # zeros inside and at the edge
    probs = np.array([float(Fraction(int(v), 2**SCALE)) for v in ints])
    return [int(v) for v in ints], LossGrid(-0.1, 0.01, probs, 0.0, pessimistic)


def _exact_power(ints, count):
    c = np.array([1], dtype=object)
    for _ in range(count):
        c = np.convolve(c, np.array(ints, dtype=object))
    return np.array([float(Fraction(int(v), 2 ** (SCALE * count))) for v in c])


@pytest.mark.parametrize("lam", [0.0, 3.0])
@pytest.mark.parametrize("count", [2, 12, 33])
def test_power_error_bounds_hold_against_exact_integer_convolution(lam, count):
    ints, g = _dyadic_grid(count, 40, False)
    out = g.with_tilt(lam).power(count, 1e-30)
    exact = _exact_power(ints, count)
    start = round((out.shift - count * g.shift) / g.interval)
    window = exact[start:start + out.probs.size]
    assert exact.sum() - window.sum() <= 1e-30 * 2  # what the window leaves out is within the tail bounds
    diff = np.abs(out.probs - window)
    assert math.sqrt(float(np.sum(diff**2))) <= out.error
    if lam > 0:
        with np.errstate(divide="ignore"):
            log_actual = 0.5 * np.logaddexp.reduce(2 * (np.log(diff) + lam * out.losses))
        assert log_actual <= out.log_tilt_error


@pytest.mark.parametrize("sigma, T", [(2.0, 16), (10.0, 1000)])
def test_power_brackets_the_exact_gaussian_and_agrees_with_squaring(sigma, T):
    mu = math.sqrt(T) / sigma
    up = pld_gaussian(sigma, interval=1e-3)
    lo = pld_gaussian(sigma, interval=1e-3, pessimistic=False)
    lam = up.chernoff_tilt(T, delta=1e-10)
    p_up = up.self_compose(T, tilt=lam, algorithm="power")
    p_lo = lo.self_compose(T, tilt=lam, algorithm="power")
    s_up = up.self_compose(T, tilt=lam)
    for eps in (0.5, 1.0, 2.0, 4.0):
        la, lb = log_ndtr(-eps / mu + mu / 2), eps + log_ndtr(-eps / mu - mu / 2)
        exact = math.exp(la) * -math.expm1(lb - la)
        assert p_lo.delta(eps) <= exact <= p_up.delta(eps)
        assert p_up.delta(eps) == pytest.approx(s_up.delta(eps), rel=1e-6, abs=1e-15)


def test_power_keeps_the_infinite_atom_and_the_tails_in_the_upper_bound():
    """An atom at +∞ composes to 1 − (1 − p∞)^T; the window's cut tails go to +∞ (pessimistic)."""
    g = LossGrid(0.0, 0.1, np.array([0.25, 0.5, 0.25 - 1e-3]), 1e-3, True)
    out = g.power(50, 1e-12)
    assert out.inf_mass >= 1 - (1 - 1e-3) ** 50
    assert out.inf_mass <= 1 - (1 - 1e-3) ** 50 + 1e-9
    assert out.delta(1e6) >= 1 - (1 - 1e-3) ** 50


def test_power_is_the_squaring_result_for_dpsgd_at_delta_1e_10():
    """Both algorithms give certified upper bounds that agree to the round-off of either."""
    pl = pld_subsampled_gaussian(0.01, 1.0, interval=1e-3)
    lam = pl.chernoff_tilt(1000, delta=1e-10)
    a = float(pl.self_compose(1000, tilt=lam).epsilon(1e-10))
    b = float(pl.self_compose(1000, tilt=lam, algorithm="power").epsilon(1e-10))
    assert b == pytest.approx(a, rel=1e-6)


def test_power_keeps_a_step_with_a_rare_wide_part_in_the_fourier_domain(monkeypatch):
    """q = 10⁻³, σ = 0.8 (issue 29): the Chernoff window fits without falling back to squaring, same bound.

    One step's loss is mostly near 0 with a rare, widely spread part (the subsampled record's
    own noise); exponents chosen from the step's standard deviation alone made the window
    ~10⁸ points wide, and power fell back to repeated squaring.
    """
    up = pld_subsampled_gaussian(1e-3, 0.8, interval=1e-4, tail_mass=1e-19)
    lo = pld_subsampled_gaussian(1e-3, 0.8, interval=1e-4, tail_mass=1e-19, pessimistic=False)
    squared = up.self_compose(1000, tilt=0.0)

    def no_squaring(self, *args):
        raise AssertionError("power fell back to repeated squaring")

    monkeypatch.setattr(LossGrid, "self_compose", no_squaring)
    powered = up.self_compose(1000, tilt=0.0, algorithm="power")
    lower = lo.self_compose(1000, tilt=0.0, algorithm="power")
    assert all(g.probs.size < 20 * s.probs.size for g, s in zip(powered.grids, up.grids))
    for eps in (0.05, 0.1, 0.2, 0.4):
        assert lower.delta(eps) <= powered.delta(eps)
        # two certified upper bounds on the same discretised law: apart by at most their round-off bounds
        slack = sum(max(g.round_off(eps) for g in pld.grids) for pld in (powered, squared))
        assert abs(powered.delta(eps) - squared.delta(eps)) <= slack + 1e-6 * squared.delta(eps)


def test_power_refuses_a_grid_that_carries_round_off_and_bad_arguments():
    g = pld_gaussian(1.0).grids[0].with_tilt(1.0).self_compose(4)
    with pytest.raises(ValueError, match="round-off"):
        g.power(3)
    with pytest.raises(ValueError, match="tail_mass"):
        pld_gaussian(1.0).grids[0].power(3, 0.0)
    with pytest.raises(ValueError, match="algorithm"):
        pld_gaussian(1.0).self_compose(3, algorithm="fft")


@pytest.mark.parametrize("tilt", [math.inf, -math.inf, [1.0, math.inf]])
def test_log_mgf_refuses_an_infinite_tilt_by_name(tilt):
    """λ = ±∞ has no moment generating function to return (λℓ at ℓ = 0 was ∞·0 = NaN): refused, named."""
    g = LossGrid(-0.1, 0.01, np.array([0.2, 0.5, 0.3]), 0.0, True)
    with pytest.raises(ValueError, match="tilt must be finite"):
        g.log_mgf(tilt)
    assert np.isfinite(g.log_mgf(50.0))


@pytest.mark.parametrize("lam", [0.0, 3.0])
def test_epsilon_is_the_grid_crossing_of_its_delta(lam):
    """ε(δ) read by a guess and galloping lies between the last grid loss whose δ is above δ and the next one, where δ
    is affine in e^ε (the grid's masses and the error vector's share alike, so the chord of the two certified values is
    itself certified): checked against an exhaustive scan of the grid's own δ at every grid loss, independent of the
    search."""
    g = pld_subsampled_gaussian(0.01, 1.1, interval=2e-3).grids[0].with_tilt(lam).power(300)
    losses = np.concatenate([[0.0], g.losses[g.losses > 0]])
    deltas = np.array([g.delta(x) for x in losses])
    for delta in (1e-2, 1e-5, 1e-9, 1e-12):
        eps = g.epsilon(delta)
        k = int(np.flatnonzero(deltas > delta)[-1])  # last scanned loss with δ above the target
        a, b = losses[k], losses[k + 1]
        assert a <= eps <= b
        chord = (math.exp(eps) - math.exp(a)) / (math.exp(b) - math.exp(a))
        assert chord == pytest.approx((deltas[k] - delta) / (deltas[k] - deltas[k + 1]), rel=1e-9, abs=1e-12)


def test_log_mgf_agrees_with_scipy_logsumexp():
    """log Σ p_i e^{λℓ_i} against scipy's logsumexp of the same terms (including a grid with zero masses)."""
    from scipy.special import logsumexp

    g = pld_subsampled_gaussian(0.05, 1.0, interval=1e-2).grids[1]
    probs = g.probs.copy()
    probs[::7] = 0.0
    g = LossGrid(g.shift, g.interval, probs, g.inf_mass, True)
    lams = np.array([1e-3, 0.5, 4.0, 60.0])
    keep = probs > 0
    ref = [logsumexp(np.log(probs[keep]) + lam * g.losses[keep]) for lam in lams]
    assert np.allclose(g.log_mgf(lams), ref, rtol=1e-13, atol=0)


def test_a_tilted_composition_whose_low_entries_carry_amplified_round_off_passes_the_mass_check():
    """pld_randomized_response(0.0047...).self_compose(1000) (fuzz seed 702) summed to 1 + 2·10⁻⁶: the tilted FFT's
    round-off, amplified by e^{−λℓ} far below 0, which the mass check did not count (it refused with a ValueError
    naming no argument). Counted (Cauchy–Schwarz on the tilted error norm), the composition stands, and its δ(ε) is
    an upper bound within 10⁻⁵ of the exact binomial sum in mpmath."""
    import mpmath

    from dpnotes.pld import pld_randomized_response

    p, k = 0.004725752362023707, 1000
    composed = pld_randomized_response(p).self_compose(k)
    e0 = math.log((1 - p) / p)
    with mpmath.workdps(30):
        def exact(eps):  # Z = (k − 2j)·ε₀ with j ~ Binomial(k, p) under P
            return float(mpmath.fsum(mpmath.binomial(k, j) * (1 - mpmath.mpf(p)) ** (k - j) * mpmath.mpf(p) ** j
                                     * (1 - mpmath.exp(eps - (k - 2 * j) * e0))
                                     for j in range(k + 1) if (k - 2 * j) * e0 > eps))
        for eps in (5200.0, 5300.0, 5330.0, 5345.0):
            ref = exact(eps)
            assert ref <= float(composed.delta(eps)) <= ref + 1e-5
