"""Seed 004's further questions (S4-18): equal-variance noises, Claim 26's constant."""

import numpy as np
import pytest
from scipy import integrate, stats

from dpnotes.noise_comparison import (
    kl_smoothed_lattice_shift,
    smoothed_lattice_variance,
    NOISE_LAWS,
    best_noise_law,
    claim26_table,
    crossover_order,
    epsilon_after_composition,
    max_divergence,
    noise_logpdf,
    shift_rdp,
    shift_rdp_grid,
)
from dpnotes.noise_comparison.laws import fisher_information  # the small-shift constant, checked by mpmath below
from dpnotes.rdp import rdp_gaussian, rdp_laplace

SCIPY = {
    "gaussian": lambda v: stats.norm(0, np.sqrt(v)),
    "laplace": lambda v: stats.laplace(0, np.sqrt(v / 2)),
    "logistic": lambda v: stats.logistic(0, np.sqrt(3 * v) / np.pi),
    "sech": lambda v: stats.hypsecant(0, 2 * np.sqrt(v) / np.pi),
    "student-t3": lambda v: stats.t(3, 0, np.sqrt(v / 3)),
    "student-t5": lambda v: stats.t(5, 0, np.sqrt(v * 3 / 5)),
}


@pytest.mark.claim("S4-18")
@pytest.mark.parametrize("law", NOISE_LAWS)
def test_s4_18_laws_have_unit_mass_zero_mean_and_the_stated_variance(law):
    for v in (0.5, 3.0):
        f = lambda x, k: x**k * np.exp(noise_logpdf(law, x, v))
        mass, mean, var = (integrate.quad(f, -np.inf, np.inf, args=(k,), points=None, limit=400)[0] for k in (0, 1, 2))
        assert mass == pytest.approx(1.0, abs=1e-8)
        assert abs(mean) < 1e-8
        assert var == pytest.approx(v, rel=1e-6)
        if law in SCIPY:  # the same density as scipy's, where scipy is accurate
            x = np.linspace(-5, 5, 41)
            assert np.allclose(noise_logpdf(law, x, v), SCIPY[law](v).logpdf(x), atol=1e-12)


@pytest.mark.claim("S4-18")
def test_s4_18_closed_forms_gaussian_and_laplace():
    orders = np.array([1.0, 1.5, 2.0, 8.0, 64.0, 1000.0])
    for v in (0.5, 1.0, 4.0):
        assert np.allclose(shift_rdp("gaussian", orders, v), rdp_gaussian(orders, np.sqrt(v)), rtol=1e-14)
        lap = rdp_laplace(orders, np.sqrt(v / 2))
        assert np.allclose(shift_rdp("laplace", orders, v), lap, rtol=1e-9)
        assert np.allclose(shift_rdp_grid("laplace", orders, v), lap, rtol=1e-9)
        assert max_divergence("laplace", v) == pytest.approx(float(rdp_laplace(np.inf, np.sqrt(v / 2))), rel=1e-14)


@pytest.mark.claim("S4-18")
@pytest.mark.parametrize("law", ["logistic", "sech", "student-t3", "mixture"])
def test_s4_18_fast_grid_agrees_with_quadrature(law):
    orders = np.array([1.0, 3.0, 100.0])
    assert np.allclose(shift_rdp_grid(law, orders, 2.0), shift_rdp(law, orders, 2.0), rtol=1e-9)


@pytest.mark.claim("S4-18")
@pytest.mark.parametrize("law", ["logistic", "sech", "student-t5", "mixture"])
def test_s4_18_max_divergence_is_the_limit_of_d_alpha(law):
    dinf = max_divergence(law)
    d = shift_rdp_grid(law, np.array([1e3, 1e4, 1e5]))
    assert np.all(np.diff(d) > 0) and np.all(d < dinf + 1e-9)
    assert d[-1] == pytest.approx(dinf, rel=2e-3)
    # an independent check of the closed forms: the log-ratio far in the tail
    x = 1e3 * np.sqrt(1.0)
    tail = noise_logpdf(law, x - 1, 1.0) - noise_logpdf(law, x, 1.0)
    assert tail <= dinf + 1e-12


@pytest.mark.claim("S4-18")
def test_s4_18_gaussian_has_the_smallest_kl_among_the_compared_laws():
    kl = {law: shift_rdp_grid(law, [1.0], 1.0)[0] for law in NOISE_LAWS}
    assert min(kl, key=kl.get) == "gaussian"
    # KL ≈ Δ²·I(P)/2 for small shifts, and Fisher information I ≥ 1/v (Cramér–Rao): Laplace I = 2/v
    small = shift_rdp_grid("laplace", [1.0], 1.0, shift=1e-2)[0]
    assert small == pytest.approx(1e-4 * 2 / 2, rel=2e-2)


@pytest.mark.claim("S4-18")
def test_s4_18_every_bounded_tail_law_beats_the_gaussian_from_some_order():
    for law in NOISE_LAWS[1:]:
        a = crossover_order(law)
        assert 1.0 < a < 5.0
        below, above = shift_rdp_grid(law, [a * 0.99, a * 1.01])
        assert below > a * 0.99 / 2 and above < a * 1.01 / 2
    assert best_noise_law([1.0, 1.5, 4.0, 1000.0]) == ["gaussian", "logistic", "sech", "laplace"]
    # the crossover is scale dependent: larger variance (smaller effective shift) pushes it out
    assert crossover_order("laplace", variance=25.0) > crossover_order("laplace", variance=1.0)


@pytest.mark.claim("S4-18")
def test_s4_18_composition_decides_which_noise_wins():
    one_shot = {law: epsilon_after_composition(law, 1, 1e-6) for law in ("gaussian", "laplace")}
    many = {law: epsilon_after_composition(law, 1000, 1e-6, variance=1e4) for law in ("gaussian", "laplace")}
    assert one_shot["laplace"] < one_shot["gaussian"]
    assert many["gaussian"] < many["laplace"]
    # Laplace one-shot: the pure-DP value √2 bounds the RDP-converted ε from below
    assert one_shot["laplace"] >= np.sqrt(2) - 1e-9


@pytest.mark.claim("S4-18")
def test_s4_18_claim26_constant_table():
    from dpnotes.subsampling import rdp_subsampled_gaussian

    rows = claim26_table([(0.5, 0.5), (1.0, 1.0)])
    for c1, c2, C, K in rows:
        # the constant in front of q²α/σ² at the boundary α = c2σ², q = c1/σ: log C/(α − 1) ≈ K q²α/σ²
        assert C >= 1.0 and K == pytest.approx(np.log(C) / (c1 * c1 * c2 * c2))
        sig = 1e3
        alpha, q = c2 * sig * sig, c1 / sig
        assert np.log(C) / (alpha - 1) == pytest.approx(K * q * q * alpha / sig**2, rel=1e-5)
        # C is a sup over σ: it dominates G_λ at any admissible σ, computed from the exact RDP
        sigma = 20.0
        lam = c2 * sigma**2
        g = np.exp((lam - 1) * rdp_subsampled_gaussian(lam, c1 / sigma, sigma))
        assert C >= g * (1 - 1e-9)
    assert rows[1][2] > rows[0][2]


def test_noise_comparison_validation():
    with pytest.raises(ValueError, match="law"):
        noise_logpdf("cauchy", 0.0)
    with pytest.raises(ValueError, match="variance"):
        shift_rdp("laplace", 2.0, variance=0.0)
    with pytest.raises(ValueError, match="alpha"):
        shift_rdp_grid("laplace", [0.5])
    with pytest.raises(ValueError, match="Gaussian"):
        crossover_order("gaussian")


# ------------------------------------------- S4-18: the Gaussian's KL is not minimal


def _mp_smoothed_lattice(tau, s, shift):
    """(variance, KL(P + Δ‖P)) by mpmath: lattice weights summed and the KL integral by quadrature."""
    import mpmath as mp

    with mp.workdps(20):
        tau, s, shift = mp.mpf(tau), mp.mpf(s), mp.mpf(shift)
        ks = range(-8, 9)  # weights beyond |k| = 8 are below e^{-50} for τ ≤ 0.8
        w = [mp.exp(-k * k / (2 * tau * tau)) for k in ks]
        total = mp.fsum(w)
        w = [x / total for x in w]
        variance = mp.fsum(wk * k * k for wk, k in zip(w, ks)) + s * s

        def f(x):
            return mp.fsum(wk * mp.npdf(x, k, s) for wk, k in zip(w, ks))

        def integrand(x):
            p = f(x - shift)
            return p * mp.log(p / f(x)) if p > 0 else mp.mpf(0)

        nodes = [mp.mpf(k) / 2 for k in range(-22, 25)]  # break at every half-integer
        kl = mp.quad(integrand, nodes)
        return float(variance), float(kl)


@pytest.mark.claim("S4-18")
@pytest.mark.parametrize("tau, s, shift", [(0.5, 0.1, 1.0), (0.5, 0.2, 1.0), (0.8, 0.3, 0.7)])
def test_s4_18_smoothed_lattice_against_mpmath(tau, s, shift):
    v, kl = _mp_smoothed_lattice(tau, s, shift)
    assert smoothed_lattice_variance(tau, s) == pytest.approx(v, rel=1e-10)
    assert kl_smoothed_lattice_shift(tau, s, shift) == pytest.approx(kl, rel=1e-8)


@pytest.mark.claim("S4-18")
def test_s4_18_a_smoothed_lattice_law_beats_the_gaussian_kl_at_equal_variance():
    # the audit's counterexample to "among laws of equal variance the Gaussian has the smallest KL"
    for s, (v_pub, kl_pub, gauss_pub) in [(0.1, (0.22501, 1.99999, 2.2221)), (0.2, (0.25501, 1.94851, 1.96069))]:
        v = smoothed_lattice_variance(0.5, s)
        kl = kl_smoothed_lattice_shift(0.5, s)
        assert v == pytest.approx(v_pub, abs=1e-5) and kl == pytest.approx(kl_pub, abs=1e-5)
        assert 1 / (2 * v) == pytest.approx(gauss_pub, abs=1e-4)
        assert kl < 1 / (2 * v)


@pytest.mark.claim("S4-18")
def test_s4_18_small_shifts_obey_cramer_rao():
    # KL(P + Δ‖P) ≈ Δ² I(P)/2 ≥ Δ²/(2v) as Δ → 0, for the same smoothed lattice law
    v = smoothed_lattice_variance(0.5, 0.2)
    for shift in (0.05, 0.02):
        assert kl_smoothed_lattice_shift(0.5, 0.2, shift) > shift**2 / (2 * v)


@pytest.mark.parametrize("args, match", [((0.01, 0.1), "tau"), ((0.5, 0.0), "smoothing"),
                                         ((0.5, 50.0), "smoothing"), ((0.5, 0.1, 20.0), "shift")])
def test_smoothed_lattice_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        kl_smoothed_lattice_shift(*args)


# ----------------------------------------------------------------------------- extreme variances (regressions)


def test_extreme_variances_give_non_negative_divergences_or_a_named_error():
    # D_α depends on Δ/√v only; at Δ/√v = 1e-150 the Laplace value is α·t²·(2)/2 = 2e-300 (−333.7 was returned)
    assert shift_rdp("laplace", 2.0, variance=1e300) == pytest.approx(2e-300, rel=1e-6)
    for law in NOISE_LAWS:
        assert shift_rdp(law, 2.0, variance=1e300) >= 0.0
        if law in ("gaussian", "laplace", "logistic", "sech"):
            assert max_divergence(law, variance=1e-300) >= 0.0  # closed forms at any scale
    with pytest.raises(ValueError, match="shift/√variance"):
        max_divergence("mixture", variance=1e-300)  # was −1.4e150
    with pytest.raises(ValueError, match="shift/√variance"):
        shift_rdp("student-t3", 2.0, variance=1e-300)


@pytest.mark.parametrize("law", ["logistic", "sech", "student-t3", "student-t5", "mixture"])
def test_small_shift_expansion_joins_the_quadrature(law):
    # below t = 1e-5 the expansion α·I·t²/2 is used: it must agree with the quadrature just above
    t = 2e-5
    quad = shift_rdp(law, 3.0, shift=t)
    expansion = 3.0 * fisher_information(law) * t * t / 2
    assert expansion == pytest.approx(quad, rel=1e-4)
    assert shift_rdp_grid(law, [3.0], variance=1e18)[0] >= 0.0


def test_fisher_information_of_the_mixture_by_mpmath():
    import mpmath as mp

    b = mp.sqrt(0.5)

    def density(x):
        return (mp.npdf(x) + mp.exp(-abs(x) / b) / (2 * b)) / 2

    with mp.workdps(30):
        info = 2 * mp.quad(lambda x: mp.diff(density, x) ** 2 / density(x), [0, 1, 5, 40])
    assert fisher_information("mixture") == pytest.approx(float(info), rel=1e-9)
