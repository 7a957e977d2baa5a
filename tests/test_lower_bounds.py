"""The correlation–variance dichotomy (S2-10): exact Beta sums vs Monte Carlo vs quadrature."""

import numpy as np
import pytest
from scipy import integrate, stats

from dpnotes.lower_bounds import (
    estimator_moments,
    fingerprinting_minimum,
    fingerprinting_monte_carlo,
    fingerprinting_terms,
)

CASES = [(n, est) for n in (1, 4, 9) for est in ("mean", "median", "half", "dp-mean")]


@pytest.mark.claim("S2-10")
@pytest.mark.parametrize("n,est", CASES)
def test_s2_10_exact_terms_match_quadrature_over_p(n, est):
    # an independent route: integrate over p numerically with the binomial law of k
    m1, m2 = estimator_moments(n, est, 1.0)
    k = np.arange(n + 1)

    def by_p(p, what):
        pmf = stats.binom.pmf(k, n, p)
        if what == "corr":
            return pmf @ (m1 * (k - n * p)) - p * (pmf @ (k - n * p))
        if what == "mse":
            return pmf @ (m2 - 2 * m1 * p + p * p)
        return (pmf @ m1 - p) ** 2

    exact = fingerprinting_terms(n, est, 1.0)
    for what, key in [("corr", "correlation"), ("mse", "mse"), ("bias", "bias2")]:
        val = integrate.quad(lambda p: by_p(p, what), 0, 1, epsabs=1e-14, epsrel=1e-12)[0]
        assert exact[key] == pytest.approx(val, abs=1e-11)


@pytest.mark.claim("S2-10")
@pytest.mark.parametrize("n,est", [(3, "mean"), (5, "median"), (8, "dp-mean"), (4, "half")])
def test_s2_10_monte_carlo_agrees_within_confidence_interval(n, est):
    exact = fingerprinting_terms(n, est, 1.0)
    mc = fingerprinting_monte_carlo(n, est, 1.0, samples=200_000, seed=n)
    for key in ("correlation", "bias2", "mse", "lhs"):
        value, hw = mc[key]
        assert abs(value - exact[key]) <= 1.5 * hw + 1e-12, key  # 1.5 × the 95% half-width


@pytest.mark.claim("S2-10")
@pytest.mark.parametrize("n,est", CASES + [(20, "dp-mean"), (15, "median")])
def test_s2_10_dichotomy_holds_in_all_three_readings(n, est):
    t = fingerprinting_terms(n, est, 1.0)
    assert t["lhs"] >= 1 / 12 - 1e-15
    assert t["lhs_mse"] >= t["lhs"] - 1e-15  # mse ≥ squared bias (Jensen)
    assert t["lhs_literal"] >= 1 / 12 - 1e-15


@pytest.mark.claim("S2-10")
def test_s2_10_constant_half_attains_one_twelfth_and_is_the_minimum():
    for n in (1, 3, 10):
        t = fingerprinting_terms(n, "half")
        assert t["lhs"] == pytest.approx(1 / 12, abs=1e-25)
        assert t["lhs_mse"] == pytest.approx(1 / 12, abs=1e-25)
        for form in ("bias", "mse"):
            val, f = fingerprinting_minimum(n, form)
            assert val == pytest.approx(1 / 12, abs=1e-9)
            assert np.allclose(f, 0.5, atol=1e-4)


@pytest.mark.claim("S2-10")
def test_s2_10_literal_reading_is_strictly_above_one_twelfth():
    vals = [fingerprinting_minimum(n, "literal")[0] for n in (1, 2, 5, 10, 40)]
    assert all(v > 1 / 12 + 1e-4 for v in vals)
    assert np.all(np.diff(vals) < 0)  # and tends down towards 1/12
    # the minimiser of the literal form, evaluated exactly, gives the same value
    val, f = fingerprinting_minimum(5, "literal")
    k = np.arange(6)
    w, a, b = 1 / 6, (k + 1) / 7, (k + 1) * (k + 2) / 56
    direct = np.sum(w * (f * (k - 5 * a) - (k * a - 5 * b) + (f - k / 5) ** 2))
    assert val == pytest.approx(direct, abs=1e-14)


@pytest.mark.claim("S2-10")
def test_s2_10_dp_mean_moments_against_sampling():
    rng = np.random.default_rng(0)
    n, eps = 6, 0.7
    m1, m2 = estimator_moments(n, "dp-mean", eps)
    for k in (0, 2, 6):
        draws = np.clip(k / n + rng.laplace(0, 1 / (n * eps), 400_000), 0, 1)
        assert m1[k] == pytest.approx(draws.mean(), abs=4 * draws.std() / 632)
        assert m2[k] == pytest.approx((draws**2).mean(), abs=4 * (draws**2).std() / 632)
    # and against quadrature of E[clip(m + Z)] = ∫₀¹ P(m + Z > t) dt
    b = 1 / (n * eps)
    sf = lambda t, m: stats.laplace.sf(t - m, scale=b)
    for k in range(n + 1):
        kink = dict(points=[k / n]) if 0 < k < n else {}  # the Laplace density's kink
        assert m1[k] == pytest.approx(integrate.quad(sf, 0, 1, args=(k / n,), **kink)[0], abs=1e-12)
        assert m2[k] == pytest.approx(integrate.quad(lambda t: 2 * t * sf(t, k / n), 0, 1, **kink)[0], abs=1e-12)


@pytest.mark.claim("S2-10")
def test_s2_10_more_privacy_less_correlation_more_bias():
    strong = fingerprinting_terms(10, "dp-mean", 0.05)
    weak = fingerprinting_terms(10, "dp-mean", 5.0)
    assert strong["correlation"] < weak["correlation"]
    assert strong["bias2"] > weak["bias2"]
    assert strong["lhs"] >= 1 / 12


def test_lower_bounds_validation():
    with pytest.raises(ValueError, match="estimator"):
        estimator_moments(3, "mode")
    with pytest.raises(ValueError, match="epsilon"):
        estimator_moments(3, "dp-mean", 0.0)
    with pytest.raises(ValueError, match="form"):
        fingerprinting_minimum(3, "other")


def test_fingerprinting_terms_leave_the_process_precision_alone():
    import mpmath

    before = mpmath.mp.dps
    with mpmath.workdps(50):
        fingerprinting_terms(5, "mean", dps=60)
        assert mpmath.mp.dps == 50
    assert mpmath.mp.dps == before
    with pytest.raises(ValueError, match="n"):
        fingerprinting_terms(10**6, "mean")
    with pytest.raises(ValueError, match="dps"):
        fingerprinting_terms(5, "mean", dps=5)
