"""Tests for dpnotes.convolution: Theorem 1 of seed 001, exact Laplace sums, discrete noise."""

import mpmath as mp
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import integrate, stats
from scipy.special import gammaln, logsumexp

from dpnotes.convolution import (
    discrete_shift_table,
    laplace_convolution_table,
    laplace_sum_logpdf,
    rdp_convolution_bound,
    rdp_discrete_convolution_shift,
    rdp_discrete_shift,
    rdp_laplace_convolution,
)
from dpnotes.divergence import renyi_divergence
from dpnotes.rdp import rdp_laplace


# ----------------------------------------------------------------- independent routes

def _mp_laplace_sum_pdf(x, n):
    """Variance-gamma (Bessel K) density of the sum of n Laplace(1), in mpmath."""
    x = abs(x)
    nu = n - mp.mpf(1) / 2
    const = mp.sqrt(mp.pi) * mp.gamma(n) * mp.power(2, nu)
    if x == 0:
        return mp.gamma(nu) * mp.power(2, nu - 1) / const
    return mp.power(x, nu) * mp.besselk(nu, x) / const


def _mp_renyi_laplace_sum(alpha, n, s, dps=30):
    """D_α(L_n + s‖L_n) by mpmath quadrature of the Bessel-form density."""
    with mp.workdps(dps):
        a = mp.mpf(alpha)
        s = mp.mpf(s)

        def integrand(x):
            q = _mp_laplace_sum_pdf(x, n)
            p = _mp_laplace_sum_pdf(x - s, n)
            r = p / q
            return q * (r**a - 1 - a * (r - 1))  # ≥ 0; integral = I − 1

        w = 30 + 6 * mp.sqrt(n) + a * s
        pts = [-mp.inf, -w, -w / 4, 0, s, s + w / 4, s + w, s + 3 * w, mp.inf]
        excess = mp.quad(integrand, pts, maxdegree=10)
        return float(mp.log1p(excess) / (a - 1))


def _gamma_difference_logpdf(x, n):
    """log density of G1 − G2, G_i ~ Gamma(n, 1), by numerical convolution (scipy quad, log space)."""
    x = abs(x)
    if n == 1:
        return -x - np.log(2.0)

    def h(y):
        return (n - 1) * (np.log(x + y) + np.log(y)) - x - 2 * y - 2 * gammaln(n)

    # peak of h: (n−1)/(x+y) + (n−1)/y = 2
    ystar = 0.5 * ((n - 1) - x + np.sqrt((x - (n - 1)) ** 2 + 4 * (n - 1) * x + 0.0)) if x > 0 else (n - 1) / 2
    ystar = max(ystar, 1e-12)
    m = h(ystar)
    width = 40.0 + 10 * np.sqrt(n)
    pieces = [0.0, ystar / 2, ystar, ystar + np.sqrt(n) + 1, ystar + width, np.inf]
    tot = 0.0
    for a, b in zip(pieces[:-1], pieces[1:]):
        tot += integrate.quad(lambda y: np.exp(h(y) - m), a, b, epsabs=0, epsrel=1e-13, limit=200)[0]
    return m + np.log(tot)


def _scipy_renyi_laplace_sum(alpha, n, s):
    """D_α(L_n + s‖L_n) with the gamma-difference density and scipy quad over x."""
    lq = np.vectorize(lambda x: _gamma_difference_logpdf(x, n))

    def excess(x):
        a, b = lq(x), lq(x - s)
        r = np.exp(b - a)
        return float(np.exp(a) * (r**alpha - 1 - alpha * (r - 1)))

    w = 40.0 + 6 * np.sqrt(n) + alpha * s
    edges = [-np.inf, -w, 0.0, s, s + w, s + 3 * w, np.inf]
    tot = sum(integrate.quad(excess, a, b, epsabs=0, epsrel=1e-12, limit=200)[0] for a, b in zip(edges[:-1], edges[1:]))
    return float(np.log1p(tot) / (alpha - 1))


# ----------------------------------------------------------------- Theorem 1 bound

@pytest.mark.claim("S1-04")
@pytest.mark.parametrize("n", [1, 3, 10])
@pytest.mark.parametrize("sigma", [0.5, 2.0])
def test_s1_04_gaussian_bound_tight(n, sigma):
    # the sum of n N(0, σ²) is N(0, nσ²); its divergence by quadrature equals the bound
    alpha = 3.0
    exact = renyi_divergence(stats.norm(1.0, np.sqrt(n) * sigma), stats.norm(0.0, np.sqrt(n) * sigma), alpha)
    bound = rdp_convolution_bound(alpha, n, "gaussian", sigma)
    assert bound == pytest.approx(alpha / (2 * n * sigma**2), rel=1e-14)
    assert bound == pytest.approx(exact, rel=1e-9)


@pytest.mark.claim("S1-01")
def test_s1_01_laplace_bound_is_n_times_shifted_divergence():
    # the Laplace bound by quadrature of the Laplace densities at shift 1/n
    alpha, n, b = 4.0, 5, 0.7
    one = renyi_divergence(stats.laplace(1.0 / n, b), stats.laplace(0.0, b), alpha, points=(0.0, 1.0 / n))
    assert rdp_convolution_bound(alpha, n, "laplace", b) == pytest.approx(n * one, rel=1e-9)


@pytest.mark.claim("S1-01")
@settings(max_examples=25, deadline=None)
@given(alpha=st.floats(1.05, 64.0), n=st.integers(1, 30), b=st.floats(0.3, 5.0))
def test_s1_01_theorem1_holds_for_laplace(alpha, n, b):
    exact = rdp_laplace_convolution(alpha, n, b)
    assert exact <= rdp_convolution_bound(alpha, n, "laplace", b) * (1 + 1e-10)


# ----------------------------------------------------------------- Laplace sums, exact

@pytest.mark.claim("S1-05")
@pytest.mark.parametrize("n", [1, 2, 7, 40, 100])
def test_s1_05_laplace_sum_density_matches_bessel_form(n):
    xs = [0.0, 0.3, 1.0, 5.0, 30.0, 150.0]
    with mp.workdps(40):
        want = [float(mp.log(_mp_laplace_sum_pdf(mp.mpf(x), n))) for x in xs]
    got = laplace_sum_logpdf(np.array(xs), n)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-12)


@pytest.mark.claim("S1-05")
def test_s1_05_laplace_sum_density_integrates_to_one_with_right_variance():
    n, b = 6, 1.5
    f = lambda x: np.exp(laplace_sum_logpdf(x, n, b))  # noqa: E731
    mass = integrate.quad(f, -np.inf, np.inf, points=None)[0]
    var = 2 * integrate.quad(lambda x: x * x * f(x), 0, np.inf)[0]
    assert mass == pytest.approx(1.0, rel=1e-10)
    assert var == pytest.approx(2 * n * b**2, rel=1e-9)


@pytest.mark.claim("S1-05")
@pytest.mark.parametrize("alpha", [1.0, 1.001, 1.5, 2.0, 8.0, 64.0, 1e3, np.inf])
@pytest.mark.parametrize("b", [0.1, 1.0, 30.0])
def test_s1_05_n1_matches_mironov(alpha, b):
    assert rdp_laplace_convolution(alpha, 1, b) == pytest.approx(rdp_laplace(alpha, b), rel=1e-10)


@pytest.mark.claim("S1-05")
@pytest.mark.parametrize("n,alpha", [(2, 2.0), (5, 8.0), (20, 1.5), pytest.param(3, 64.0, marks=pytest.mark.slow)])
def test_s1_05_laplace_exact_vs_mpmath_bessel(n, alpha):
    assert rdp_laplace_convolution(alpha, n) == pytest.approx(_mp_renyi_laplace_sum(alpha, n, 1.0), rel=1e-8)


@pytest.mark.claim("S1-05")
@pytest.mark.parametrize("n,alpha", [(100, 2.0), (100, 64.0), (50, 1.01)])
def test_s1_05_laplace_exact_vs_mpmath_bessel_large_n(n, alpha):
    assert rdp_laplace_convolution(alpha, n) == pytest.approx(_mp_renyi_laplace_sum(alpha, n, 1.0), rel=1e-8)


@pytest.mark.claim("S1-05")
@pytest.mark.parametrize("n,alpha", [(2, 1.5), pytest.param(4, 3.0, marks=pytest.mark.slow),
                                     pytest.param(12, 1.2, marks=pytest.mark.slow)])
def test_s1_05_laplace_exact_vs_gamma_difference_convolution(n, alpha):
    assert rdp_laplace_convolution(alpha, n) == pytest.approx(_scipy_renyi_laplace_sum(alpha, n, 1.0), rel=1e-8)


@pytest.mark.claim("S1-05")
def test_s1_05_bound_not_tight_ratio_tends_to_two():
    # CLT: the sum is close to N(0, 2n b²), whose divergence is α/(4n b²); the bound is ~α/(2n b²)
    t = laplace_convolution_table(ns=(1, 10, 100), alphas=(2.0,))
    assert t["ratio"][0] == pytest.approx(1.0, rel=1e-10)
    assert t["exact"][-1] == pytest.approx(2.0 / 400, rel=2e-3)
    assert 1.9 < t["ratio"][-1] < 2.0
    assert np.all(np.diff(t["ratio"]) > 0)
    np.testing.assert_allclose(t["gaussian_same_variance"], 2.0 / (4 * np.array([1, 10, 100])))


@pytest.mark.claim("S1-05")
def test_s1_05_bound_asymptotic_alpha_over_variance():
    for n in (10**4, 10**6):
        assert rdp_convolution_bound(3.0, n, "laplace", 2.0) == pytest.approx(3.0 / (2 * n * 4.0), rel=5e-4)


def test_laplace_convolution_decreases_in_n_and_is_cached_fast():
    vals = rdp_laplace_convolution(4.0, np.arange(1, 30))
    assert np.all(np.diff(vals) < 0)


def test_laplace_convolution_broadcasts_and_validates():
    out = rdp_laplace_convolution(np.array([2.0, 3.0]), np.array([[1], [2]]))
    assert out.shape == (2, 2)
    for bad in (dict(alpha=0.5, n=2), dict(alpha=2.0, n=0), dict(alpha=2.0, n=2.5), dict(alpha=2.0, n=2, scale=0)):
        with pytest.raises(ValueError):
            rdp_laplace_convolution(**bad)
    with pytest.raises(ValueError, match="noise"):
        rdp_convolution_bound(2.0, 3, "cauchy")


# ----------------------------------------------------------------- discrete noise (S1-06)

def _discrete_gaussian_closed(alpha, delta, sigma):
    """αΔ²/(2σ²) + log(Z(αΔ)/Z(0))/(α−1), Z(c) = Σ_k exp(−(k−c)²/(2σ²)) (Canonne et al.)."""
    k = np.arange(-4000, 4001, dtype=float)
    z = lambda c: logsumexp(-((k - c) ** 2) / (2 * sigma**2))  # noqa: E731
    return alpha * delta**2 / (2 * sigma**2) + (z(alpha * delta) - z(0.0)) / (alpha - 1)


def _discrete_laplace_closed(alpha, delta, b):
    """Geometric series over k ≤ 0, 0 < k < Δ, k ≥ Δ for p(k) ∝ e^{−|k|/b}."""
    t = 1.0 / b
    r = np.exp(-t)
    log_s = [-alpha * delta * t - np.log1p(-r), (alpha - 1) * delta * t - np.log1p(-r)]
    if delta > 1:
        kk = np.arange(1, delta)
        log_s.append(logsumexp((2 * alpha - 1) * kk * t - alpha * delta * t))
    log_z = np.log1p(r) - np.log1p(-r)
    return (logsumexp(log_s) - log_z) / (alpha - 1)


@pytest.mark.claim("S1-06")
@pytest.mark.parametrize("alpha", [1.5, 2.0, 7.0])
@pytest.mark.parametrize("delta", [1, 2, 3])
@pytest.mark.parametrize("sigma", [0.5, 1.0, 4.0])
def test_s1_06_discrete_gaussian_matches_closed_form(alpha, delta, sigma):
    got = rdp_discrete_shift(alpha, delta, "gaussian", sigma)
    assert got == pytest.approx(_discrete_gaussian_closed(alpha, delta, sigma), rel=1e-10)
    assert got <= alpha * delta**2 / (2 * sigma**2) * (1 + 1e-12)  # Canonne–Kamath–Steinke


@pytest.mark.claim("S1-06")
@pytest.mark.parametrize("alpha", [1.5, 2.0, 7.0])
@pytest.mark.parametrize("delta", [1, 2, 5])
@pytest.mark.parametrize("b", [0.3, 1.0, 10.0])
def test_s1_06_discrete_laplace_matches_geometric_series(alpha, delta, b):
    got = rdp_discrete_shift(alpha, delta, "laplace", b)
    assert got == pytest.approx(_discrete_laplace_closed(alpha, delta, b), rel=1e-10)


@pytest.mark.claim("S1-06")
def test_s1_06_discrete_matches_pmf_divergence():
    k = np.arange(-60, 61)
    p = np.exp(-np.abs(k) / 2.0)
    p /= p.sum()
    shifted = np.roll(p, 3)  # P + 3 (the mass that wraps is < e^{-28})
    shifted /= shifted.sum()
    assert rdp_discrete_shift(2.5, 3, "laplace", 2.0) == pytest.approx(renyi_divergence(shifted, p, 2.5), rel=1e-9)


@pytest.mark.claim("S1-06")
@pytest.mark.parametrize("sigma", [0.3, 1.0, 3.0, 30.0])
@pytest.mark.parametrize("alpha", [1.01, 2.0, 10.0])
def test_s1_06_linear_in_shift_fails_for_discrete_gaussian(sigma, alpha):
    t = discrete_shift_table(alpha, 4, "gaussian", sigma)
    assert t["holds"][0] and not np.any(t["holds"][1:])


@pytest.mark.claim("S1-06")
@pytest.mark.parametrize("b", [0.3, 1.0, 10.0, 100.0])
@pytest.mark.parametrize("alpha", [1.01, 2.0, 10.0])
def test_s1_06_linear_in_shift_fails_for_discrete_laplace_at_finite_order(b, alpha):
    t = discrete_shift_table(alpha, 4, "laplace", b)
    assert not np.any(t["holds"][1:])
    # the ratio D(P+Δ)/Δ increases with Δ (convexity with D(P+0) = 0)
    assert np.all(np.diff(t["divergence"] / t["shift"]) > 0)


@pytest.mark.claim("S1-06")
def test_s1_06_linear_in_shift_holds_at_infinite_order():
    t = discrete_shift_table(np.inf, 6, "laplace", 0.7)
    np.testing.assert_allclose(t["divergence"], np.arange(1, 7) / 0.7, rtol=1e-14)
    assert np.all(t["holds"])
    assert rdp_discrete_shift(np.inf, 2, "gaussian", 1.0) == np.inf


def test_discrete_small_divergence_and_kl():
    # large scale: no cancellation (excess form); KL of the discrete Gaussian ≈ Δ²/(2σ²)
    assert rdp_discrete_shift(1.0, 1, "gaussian", 100.0) == pytest.approx(1 / 2e4, rel=1e-10)
    assert rdp_discrete_shift(1.001, 1, "laplace", 500.0) == pytest.approx(_discrete_laplace_closed(1.001, 1, 500.0), rel=1e-6)
    with pytest.raises(ValueError, match="shift"):
        rdp_discrete_shift(2.0, 1.5)
    with pytest.raises(ValueError, match="scale"):
        rdp_discrete_shift(2.0, 1, "gaussian", 1e4)


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize("b", [0.1, 1e3])
@pytest.mark.parametrize("alpha", [1.0, 1.0001, 1e3, 1e4])
def test_extremes_finite_and_below_bound(b, alpha):
    for n in (1, 7, 100):
        e = rdp_laplace_convolution(alpha, n, b)
        assert np.isfinite(e) and 0 < e <= rdp_convolution_bound(alpha, n, "laplace", b) * (1 + 1e-9)
    assert rdp_laplace_convolution(alpha, 1, b) == pytest.approx(rdp_laplace(alpha, b), rel=1e-9)
    for noise in ("gaussian", "laplace"):
        d = rdp_discrete_shift(alpha, 3, noise, [0.05, 1.0, 1e3])
        assert np.all(np.isfinite(d)) and np.all(d > 0)
    # discrete Gaussian: the Canonne–Kamath–Steinke upper bound αΔ²/(2σ²) holds at the extremes too
    assert rdp_discrete_shift(alpha, 3, "gaussian", 1e3) <= alpha * 9 / 2e6 * (1 + 1e-9)


# --------------------------------------------- S1-06, the reading with m parties


def _mp_pmf(masses):
    total = mp.fsum(masses)
    return [w / total for w in masses]


def _mp_convolve(a, b):
    out = [mp.mpf(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


def _mp_shift_divergence(pmf, shift, alpha):
    """D_α(P + Δ‖P) for a pmf on consecutive integers, by a direct sum (α > 1)."""
    terms = [pmf[i - shift] ** alpha * pmf[i] ** (1 - alpha) for i in range(shift, len(pmf))]
    return mp.log(mp.fsum(terms)) / (alpha - 1)


@pytest.mark.claim("S1-06")
def test_s1_06_convolution_reading_matches_a_50_digit_sum():
    # independent route: the m-fold convolution and the divergence sum in mpmath
    with mp.workdps(50):
        for noise, scale, alpha, parties, shift in [("laplace", 2.0, 4.0, 2, 2), ("gaussian", 1.5, 3.0, 3, 2),
                                                    ("laplace", 0.7, 2.5, 3, 1)]:
            width = 70 if noise == "gaussian" else int(120 * scale)
            xs = range(-width, width + 1)
            one = _mp_pmf([mp.exp(-mp.mpf(x) ** 2 / (2 * mp.mpf(scale) ** 2)) if noise == "gaussian"
                           else mp.exp(-abs(mp.mpf(x)) / mp.mpf(scale)) for x in xs])
            total = one
            for _ in range(parties - 1):
                total = _mp_convolve(total, one)
            expected = float(_mp_shift_divergence(total, shift, mp.mpf(alpha)))
            got = rdp_discrete_convolution_shift(alpha, parties, shift, noise, scale)
            assert got == pytest.approx(expected, rel=1e-9)


@pytest.mark.claim("S1-06")
@pytest.mark.parametrize("noise", ["gaussian", "laplace"])
def test_s1_06_convolution_reading_holds_whenever_the_shift_is_at_most_the_parties(noise):
    # D_α(P^{*m} + Δ‖P^{*m}) ≤ Δ·D_α(P + 1‖P) for 1 ≤ Δ ≤ m (additivity, then post-processing)
    checked = 0
    for scale in (0.5, 1.0, 2.0, 5.0):
        for alpha in (1.0, 1.5, 2.0, 4.0, 8.0):
            unit = rdp_discrete_shift(alpha, 1, noise, scale)
            for shift in (1, 2, 3, 4):
                for parties in range(shift, shift + 4):
                    got = rdp_discrete_convolution_shift(alpha, parties, shift, noise, scale)
                    assert 0.0 <= got <= shift * unit * (1 + 1e-9), (noise, scale, alpha, shift, parties)
                    checked += 1
    assert checked == 4 * 5 * 4 * 4


@pytest.mark.claim("S1-06")
def test_s1_06_convolution_reading_holds_for_irregular_laws():
    # the proof uses nothing about the law: random masses on a geometric envelope, in mpmath
    rng = np.random.default_rng(7)
    with mp.workdps(40):
        for _ in range(3):
            xs = np.arange(-90, 91)
            wobble = np.where(np.abs(xs) <= 6, rng.uniform(0.3, 3.0, xs.size), 1.0)
            one = _mp_pmf([mp.mpf(float(w)) * mp.exp(-abs(int(x)) / mp.mpf(1.5)) for x, w in zip(xs, wobble)])
            total = _mp_convolve(_mp_convolve(one, one), one)  # m = 3 parties
            for alpha in (mp.mpf(2), mp.mpf(5)):
                unit = _mp_shift_divergence(one, 1, alpha)
                for shift in (1, 2, 3):
                    assert _mp_shift_divergence(total, shift, alpha) <= shift * unit


@pytest.mark.claim("S1-06")
def test_s1_06_convolution_reading_needs_enough_parties():
    # with fewer parties than steps the bound fails, as the literal reading (m = 1) does
    unit = rdp_discrete_shift(2.0, 1, "gaussian", 2.0)
    assert rdp_discrete_convolution_shift(2.0, 2, 3, "gaussian", 2.0) > 3 * unit * 1.4
    # the audited cases: discrete Gaussian σ = 2, α = 2 and discrete Laplace b = 2, α = 4 at m = Δ = 2
    assert rdp_discrete_convolution_shift(2.0, 2, 2, "gaussian", 2.0) == pytest.approx(0.5, rel=1e-9)
    assert rdp_discrete_convolution_shift(4.0, 2, 2, "laplace", 2.0) < 2 * rdp_discrete_shift(4.0, 1, "laplace", 2.0)


@pytest.mark.parametrize("kwargs, match", [
    (dict(alpha=0.5), "alpha"), (dict(alpha=np.inf), "alpha"), (dict(parties=0), "parties"),
    (dict(parties=201), "parties"), (dict(shift=-1), "shift"), (dict(scale=100.0), "scale"),
    (dict(noise="cauchy"), "noise"),
])
def test_convolution_reading_rejects_bad_input(kwargs, match):
    args = dict(alpha=2.0, parties=2, shift=1, noise="gaussian", scale=1.0) | kwargs
    with pytest.raises(ValueError, match=match):
        rdp_discrete_convolution_shift(**args)
