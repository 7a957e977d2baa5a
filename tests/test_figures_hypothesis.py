"""The moment-difference figure of the hypothesis-testing chapter (S2-03), against independent computations.

The figure draws E[X] − E[Y] for a clipped, rounded Gaussian release and the bound
(e^ε − 1)E|Y| + 2δ(ε)Δ; these tests recompute the release's law by quadrature, check
δ(ε) against the Gaussian it post-processes, and check the bound against the exact gap
at every slider position.
"""

import numpy as np
import pytest
from scipy import integrate, stats

from dpnotes.figures import FIGURES
from dpnotes.figures import hypothesis as fighyp
from dpnotes.privacy_loss import delta_gaussian
from figure_positions import positions, trace_y as _y

KEY = "hypothesis-moment-bound"


def _release_by_quadrature(mean, sigma, bound, bins):
    """E[g(mean + N(0, σ²))] and E|g(…)|, g = centre of the bin of [−Δ, Δ] (ends absorb the tails), by quad."""
    edges = np.linspace(-bound, bound, bins + 1)
    centres = 0.5 * (edges[:-1] + edges[1:])
    lo = np.concatenate([[-np.inf], edges[1:-1]])
    hi = np.concatenate([edges[1:-1], [np.inf]])
    dens = stats.norm(mean, sigma).pdf
    mass = np.array([integrate.quad(dens, a, b, epsabs=1e-14, epsrel=1e-12)[0] for a, b in zip(lo, hi)])
    return mass, centres @ mass, np.abs(centres) @ mass


def test_s2_03_figure_bound_above_exact_gap_at_every_position():
    eps = fighyp.MOMENT_EPSILONS
    for params, tr in positions(KEY):
        bound, gap = _y(tr, "bound"), _y(tr, "exact")[0]
        assert np.all(bound >= gap - 1e-12), params
        # the two terms add up to the bound, and the marker is its minimum on the grid
        np.testing.assert_allclose(_y(tr, "(e<sup>ε</sup> − 1)E|Y|") + _y(tr, "2δ(ε)Δ"), bound, rtol=1e-12, atol=1e-15)
        assert _y(tr, "best ε")[0] == pytest.approx(bound.min(), rel=1e-12)
        # the gap of a pair on [−Δ, Δ] is at most 2Δ; the (e^ε − 1)E|Y| term is increasing in ε
        assert 0 < gap <= 2 * params["bound"]
        assert np.all(np.diff(_y(tr, "(e<sup>ε</sup> − 1)E|Y|")) >= 0)
        assert eps[0] == 0.0


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
    np.testing.assert_allclose(_y(tr, "(e<sup>ε</sup> − 1)E|Y|"), np.expm1(eps) * abs_y, rtol=1e-9, atol=1e-14)


@pytest.mark.parametrize("sigma,bound", [(0.25, 0.5), (1.0, 1.5), (2.0, 3.0)])
def test_s2_03_figure_delta_is_a_post_processing_of_the_gaussian(sigma, bound):
    eps = fighyp.MOMENT_EPSILONS
    tr = {t.name: t for t in FIGURES[KEY].traces(sigma=sigma, bound=bound)}
    delta = _y(tr, "2δ(ε)Δ") / (2 * bound)
    # rounding and clipping cannot increase δ(ε) of N(1, σ²) against N(0, σ²)
    assert np.all(delta <= delta_gaussian(eps, 1.0 / sigma) + 1e-12)
    # at ε = 0, δ is the total variation distance and the bound is 2Δ·TV
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
