"""The figures of the foundations chapter, against independent computations at every slider position.

- ``foundations-tradeoff``: the Gaussian trade-off curve against scipy.stats' normal quantiles (and
  mpmath at a few positions); δ(ε), read off the intercept of the solid boundary, against
  dp-accounting's Gaussian privacy loss; each boundary against f_{ε,δ} typed in; the markers on the
  curve, where the boundary touches it; the curve never below the boundary at δ(ε).
- ``foundations-privacy-loss``: the two privacy-loss lines against log-density ratios from
  scipy.stats, and the Laplace loss inside its band ±1/b.
"""

import mpmath as mp
import numpy as np
import pytest
from scipy import stats

from dpnotes.figures import FIGURES
from dpnotes.figures import foundations as figf
from figure_positions import positions, trace, trace_y

TRADEOFF = "foundations-tradeoff"
LOSS = "foundations-privacy-loss"


def _boundary(x, eps, delta):
    """f_{ε,δ}(x) = max(0, 1 − δ − e^ε x, e^{−ε}(1 − δ − x)), typed in."""
    x = np.asarray(x, float)
    return np.maximum.reduce([np.zeros_like(x), 1 - delta - np.exp(eps) * x, np.exp(-eps) * (1 - delta - x)])


def _gaussian_delta(sigma, eps):
    from dp_accounting.pld.privacy_loss_mechanism import GaussianPrivacyLoss

    return GaussianPrivacyLoss(sigma, sensitivity=1.0).get_delta_for_epsilon(eps)


def test_tradeoff_figure_curve_is_the_gaussian_tradeoff_at_every_position():
    for params, tr in positions(TRADEOFF):
        mu = 1 / params["sigma"]
        t = trace(tr, "G<sub>μ</sub>")
        x = np.asarray(t.x, float)
        ref = stats.norm.cdf(stats.norm.ppf(1 - x) - mu)
        np.testing.assert_allclose(t.y, ref, rtol=1e-9, atol=1e-12)
        assert x[0] == 0.0 and x[-1] == 1.0 and np.all(np.diff(x) > 0)


@pytest.mark.parametrize("sigma", [0.3, 1.0, 4.0])
def test_tradeoff_figure_curve_against_mpmath(sigma):
    tr = {t.name: t for t in FIGURES[TRADEOFF].traces(sigma=sigma, epsilon=1.0)}
    t = trace(tr, "G<sub>μ</sub>")
    with mp.workdps(30):
        for a, g in list(zip(t.x, t.y))[1:-1:7]:
            z = -mp.sqrt(2) * mp.erfinv(2 * mp.mpf(float(a)) - 1)
            assert g == pytest.approx(float(mp.ncdf(z - 1 / mp.mpf(sigma))), rel=1e-10, abs=1e-300)


def test_tradeoff_figure_delta_is_the_gaussian_privacy_profile_at_every_position():
    for params, tr in positions(TRADEOFF):
        sigma, eps = params["sigma"], params["epsilon"]
        solid = trace(tr, "f<sub>ε,δ(ε)</sub>")
        delta = 1 - solid.y[0]
        assert solid.x[0] == 0.0
        assert delta == pytest.approx(_gaussian_delta(sigma, eps), rel=1e-6, abs=1e-12)
        np.testing.assert_allclose(solid.y, _boundary(solid.x, eps, delta), atol=1e-12)
        # the boundary's corners: its kink and its zero at 1 − δ
        assert solid.x[1] == pytest.approx((1 - delta) / (1 + np.exp(eps)), rel=1e-12)
        assert solid.x[2] == pytest.approx(1 - delta, rel=1e-12)
        dashed = trace(tr, "f<sub>ε,δ</sub> at δ = 10<sup>−5</sup>")
        assert dashed.y[0] == pytest.approx(1 - 1e-5, rel=1e-14)
        np.testing.assert_allclose(dashed.y, _boundary(dashed.x, eps, 1e-5), atol=1e-14)
        diagonal = trace(tr, "1 − α<sub>I</sub>")
        np.testing.assert_allclose(diagonal.y, 1 - np.asarray(diagonal.x), atol=1e-15)


def test_tradeoff_figure_boundary_touches_the_curve_at_the_markers():
    dense = np.unique(np.concatenate([np.geomspace(1e-12, 1e-2, 400), np.linspace(0, 1, 4001)]))
    for params, tr in positions(TRADEOFF):
        sigma, eps = params["sigma"], params["epsilon"]
        mu = 1 / sigma
        delta = 1 - trace(tr, "f<sub>ε,δ(ε)</sub>").y[0]
        g = stats.norm.cdf(stats.norm.ppf(1 - dense) - mu)
        # the curve is never below the (ε, δ(ε)) boundary, and comes within grid resolution of it
        gap = g - _boundary(dense, eps, delta)
        assert gap.min() >= -1e-9, params
        markers = trace(tr, "intercept")
        (x0, xt), (y0, yt) = markers.x, markers.y
        assert x0 == 0.0 and y0 == pytest.approx(1 - delta, abs=1e-15)
        # the touching point lies on the curve and on the boundary's steep side
        assert yt == pytest.approx(stats.norm.cdf(stats.norm.ppf(1 - xt) - mu), rel=1e-9, abs=1e-13)
        assert yt == pytest.approx(1 - delta - np.exp(eps) * xt, rel=1e-7, abs=1e-12)


def test_tradeoff_figure_reading_of_the_exercise_position():
    # the exercise asks for δ(0.5) at σ = 2: the intercept gives it
    tr = {t.name: t for t in FIGURES[TRADEOFF].traces(sigma=2.0, epsilon=0.5)}
    delta = 1 - trace(tr, "f<sub>ε,δ(ε)</sub>").y[0]
    assert delta == pytest.approx(stats.norm.cdf(-0.75) - np.exp(0.5) * stats.norm.cdf(-1.25), rel=1e-12)
    assert 2.0 in FIGURES[TRADEOFF].sliders[0].values and 0.5 in FIGURES[TRADEOFF].sliders[1].values


def test_privacy_loss_figure_against_scipy_log_densities():
    y = figf.OUTPUTS
    for params, tr in positions(LOSS):
        sigma, b = params["sigma"], params["scale"]
        gauss = stats.norm.logpdf(y, 1.0, sigma) - stats.norm.logpdf(y, 0.0, sigma)
        laplace = stats.laplace.logpdf(y, 1.0, b) - stats.laplace.logpdf(y, 0.0, b)
        np.testing.assert_allclose(trace_y(tr, "Gaussian"), gauss, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(trace_y(tr, "Laplace"), laplace, rtol=1e-10, atol=1e-12)
        band = trace_y(tr, "+ε")
        np.testing.assert_allclose(band, 1 / b, rtol=1e-15)
        np.testing.assert_allclose(trace_y(tr, "−ε"), -1 / b, rtol=1e-15)
        # the Laplace loss is clipped to the band and reaches both edges; the Gaussian one leaves any band
        assert np.max(np.abs(laplace)) == pytest.approx(1 / b, rel=1e-12)
        assert np.ptp(trace_y(tr, "Gaussian")) == pytest.approx((y[-1] - y[0]) / sigma**2, rel=1e-10)
