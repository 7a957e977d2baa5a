"""Figures of the hypothesis-testing chapter, against independent computations.

The moment-difference figure (S2-03) draws E[Y] − E[Y′] for a clipped, rounded Gaussian release and
the bound (e^ε − 1)E|Y′| + 2δ(ε)B; these tests recompute the release's law by quadrature, check
δ(ε) against the Gaussian it post-processes, and check the bound against the exact gap at every
slider position.

The trade-off figure draws randomized response, the Laplace and the calibrated Gaussian mechanism at
the same ε; these tests recompute each curve by Neyman–Pearson threshold tests integrated by
quadrature (or typed in), check the Gaussian's calibration against dp-accounting, and check every
curve against the (ε, δ) boundary at every slider position.
"""

import numpy as np
import pytest
from scipy import integrate, stats

from dpnotes.figures import FIGURES
from dpnotes.figures import hypothesis as fighyp
from dpnotes.privacy_loss import delta_gaussian
from figure_positions import positions, trace, trace_y as _y

KEY = "hypothesis-moment-bound"


def _release_by_quadrature(mean, sigma, bound, bins):
    """E[g(mean + N(0, σ²))] and E|g(…)|, g = centre of the bin of [−B, B] (ends absorb the tails), by quad."""
    edges = np.linspace(-bound, bound, bins + 1)
    centres = 0.5 * (edges[:-1] + edges[1:])
    lo = np.concatenate([[-np.inf], edges[1:-1]])
    hi = np.concatenate([edges[1:-1], [np.inf]])
    dens = stats.norm(mean, sigma).pdf
    mass = np.array([integrate.quad(dens, a, b, epsabs=1e-14, epsrel=1e-12)[0] for a, b in zip(lo, hi)])
    return mass, centres @ mass, np.abs(centres) @ mass


@pytest.mark.claim("S2-03")
def test_s2_03_figure_bound_above_exact_gap_at_every_position():
    eps = fighyp.MOMENT_EPSILONS
    for params, tr in positions(KEY):
        bound, gap = _y(tr, "bound"), _y(tr, "exact")[0]
        assert np.all(bound >= gap - 1e-12), params
        # the two terms add up to the bound, and the marker is its minimum on the grid
        np.testing.assert_allclose(_y(tr, "(e<sup>ε</sup> − 1)E|Y′|") + _y(tr, "2δ(ε)B"), bound, rtol=1e-12, atol=1e-15)
        assert _y(tr, "best ε")[0] == pytest.approx(bound.min(), rel=1e-12)
        # the gap of a pair on [−B, B] is at most 2B; the (e^ε − 1)E|Y′| term is increasing in ε
        assert 0 < gap <= 2 * params["bound"]
        assert np.all(np.diff(_y(tr, "(e<sup>ε</sup> − 1)E|Y′|")) >= 0)
        assert eps[0] == 0.0


@pytest.mark.claim("S2-03")
@pytest.mark.parametrize("sigma,bound", [(0.25, 0.5), (1.0, 1.5), (4.0, 3.0)])
def test_s2_03_figure_release_law_by_quadrature(sigma, bound):
    values, p, q = fighyp.clipped_gaussian_release(sigma, bound)
    px, ex, _ = _release_by_quadrature(1.0, sigma, bound, fighyp.RELEASE_BINS)
    qy, ey, abs_y = _release_by_quadrature(0.0, sigma, bound, fighyp.RELEASE_BINS)
    np.testing.assert_allclose(p, px, atol=1e-11)
    np.testing.assert_allclose(q, qy, atol=1e-11)
    tr = {t.name: t for t in FIGURES[KEY].traces(sigma=sigma, bound=bound)}
    assert _y(tr, "exact")[0] == pytest.approx(ex - ey, abs=1e-10)
    eps = fighyp.MOMENT_EPSILONS
    np.testing.assert_allclose(_y(tr, "(e<sup>ε</sup> − 1)E|Y′|"), np.expm1(eps) * abs_y, rtol=1e-9, atol=1e-14)


@pytest.mark.claim("S2-03")
@pytest.mark.parametrize("sigma,bound", [(0.25, 0.5), (1.0, 1.5), (2.0, 3.0)])
def test_s2_03_figure_delta_is_a_post_processing_of_the_gaussian(sigma, bound):
    eps = fighyp.MOMENT_EPSILONS
    tr = {t.name: t for t in FIGURES[KEY].traces(sigma=sigma, bound=bound)}
    delta = _y(tr, "2δ(ε)B") / (2 * bound)
    # rounding and clipping cannot increase δ(ε) of N(1, σ²) against N(0, σ²)
    assert np.all(delta <= delta_gaussian(eps, 1.0 / sigma) + 1e-12)
    # at ε = 0, δ is the total variation distance and the bound is 2B·TV
    _, p, q = fighyp.clipped_gaussian_release(sigma, bound)
    tv = 0.5 * np.abs(p - q).sum()
    assert delta[0] == pytest.approx(tv, rel=1e-12)
    assert _y(tr, "bound")[0] == pytest.approx(2 * bound * tv, rel=1e-12)
    # a brute-force δ: sweep the threshold sets {y : p(y) > e^ε q(y)} and their neighbours
    for j in (5, 20, 40):
        e = eps[j]
        best = 0.0
        for P, Q in ((p, q), (q, p)):
            ratio_order = np.argsort(-(P - np.exp(e) * Q))
            cums = np.cumsum(P[ratio_order] - np.exp(e) * Q[ratio_order])
            best = max(best, cums.max(initial=0.0))
        assert delta[j] == pytest.approx(best, abs=1e-12)


TRADEOFF = "hypothesis-tradeoff"


def _boundary(x, eps, delta):
    """f_{ε,δ}(x) = max(0, 1 − δ − e^ε x, e^{−ε}(1 − δ − x)), typed in."""
    x = np.asarray(x, float)
    return np.maximum.reduce([np.zeros_like(x), 1 - delta - np.exp(eps) * x, np.exp(-eps) * (1 - delta - x)])


def test_tradeoff_figure_curves_at_every_position():
    from dp_accounting.pld.privacy_loss_mechanism import GaussianPrivacyLoss

    dense = np.unique(np.concatenate([np.geomspace(1e-12, 1e-2, 400), np.linspace(0, 1, 4001)]))
    for params, tr in positions(TRADEOFF):
        eps, delta = params["epsilon"], params["delta"]
        # randomized response with p = e^ε/(1 + e^ε): its curve is the ε-DP boundary, kink at 1 − p
        rr = trace(tr, "randomized response")
        np.testing.assert_allclose(rr.y, _boundary(rr.x, eps, 0.0), atol=1e-14)
        assert rr.x[1] == pytest.approx(1 / (1 + np.exp(eps)), rel=1e-12)
        # Laplace with b = 1/ε: on or above the ε-DP boundary, equal to it outside [e^{−ε}/2, 1/2]
        lap = trace(tr, "Laplace")
        x = np.asarray(lap.x, float)
        assert np.all(lap.y >= _boundary(x, eps, 0.0) - 1e-14)
        outer = (x <= 0.5 * np.exp(-eps)) | (x >= 0.5)
        np.testing.assert_allclose(lap.y[outer], _boundary(x[outer], eps, 0.0), atol=1e-14)
        # the Gaussian: recover μ from one point of the curve, check the calibration with dp-accounting
        gauss = trace(tr, "Gaussian")
        gx, gy = np.asarray(gauss.x, float), np.asarray(gauss.y, float)
        j = int(np.argmin(np.abs(gx - 0.5)))
        mu = stats.norm.isf(gx[j]) - stats.norm.ppf(gy[j])
        np.testing.assert_allclose(gy, stats.norm.cdf(stats.norm.isf(gx) - mu), rtol=1e-9, atol=1e-12)
        assert GaussianPrivacyLoss(1 / mu).get_delta_for_epsilon(eps) == pytest.approx(delta, rel=1e-6)
        # above the (ε, δ) boundary everywhere, touching it
        g = stats.norm.cdf(stats.norm.isf(dense) - mu)
        gap = g - _boundary(dense, eps, delta)
        assert gap.min() >= -1e-9 and gap.min() < 1e-4, params
        dashed = trace(tr, "f<sub>ε,δ</sub>")
        np.testing.assert_allclose(dashed.y, _boundary(dashed.x, eps, delta), atol=1e-14)
        assert dashed.y[0] == pytest.approx(1 - delta, rel=1e-14)


@pytest.mark.parametrize("eps", [0.25, 1.0, 3.0])
def test_tradeoff_figure_laplace_by_neyman_pearson_quadrature(eps):
    # P = Lap(0, 1/ε), Q = Lap(1, 1/ε); Q/P is non-decreasing in y, so the best test at type I error α rejects
    # when y > c with P(Y > c) = α; its type II error Q(Y ≤ c) is integrated by quadrature
    b = 1 / eps
    tr = {t.name: t for t in FIGURES[TRADEOFF].traces(epsilon=eps, delta=1e-5)}
    lap = trace(tr, "Laplace")
    P, Q = stats.laplace(0, b), stats.laplace(1, b)
    x = np.asarray(lap.x, float)
    for a, y in list(zip(x, lap.y))[1:-1:4]:
        c = P.isf(a)
        lo = min(c, 0.0) - 80 * b
        inner = [t for t in (0.0, 1.0) if lo < t < c]
        beta = integrate.quad(Q.pdf, lo, c, points=inner or None, epsabs=1e-15, epsrel=1e-11, limit=200)[0]
        assert y == pytest.approx(beta, rel=1e-8, abs=1e-14)


def test_tradeoff_figure_delta_from_each_curve_is_the_hockey_stick():
    # δ(ε) = sup_α (1 − α − e^ε T(α)): from the curves, against sums over the pmfs / the closed forms
    from dpnotes.privacy_loss import delta_laplace

    for eps in (0.5, 1.0, 2.0):
        tr = {t.name: t for t in FIGURES[TRADEOFF].traces(epsilon=eps, delta=1e-3)}
        rr = trace(tr, "randomized response")
        assert np.max(1 - rr.x - np.exp(eps) * rr.y) == pytest.approx(0.0, abs=1e-14)
        lap = trace(tr, "Laplace")
        for e in (0.0, 0.5 * eps):
            from_curve = np.max(1 - lap.x - np.exp(e) * lap.y)
            assert from_curve == pytest.approx(delta_laplace(e, 1 / eps), abs=1e-3)
