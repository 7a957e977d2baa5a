"""Figures of the chapter "The exact answer" against the package and independent routes."""

import math

import numpy as np
import pytest
from scipy.special import log_ndtr

from dpnotes.figures import FIGURES
from dpnotes.figures import pld as fp
from dpnotes.pld import dpsgd_epsilon_bracket
from figure_positions import slider_values as positions


def test_pld_curve_lower_below_upper_and_rdp_above_lower():
    fig = FIGURES["pld-privacy-curve"]
    for params in positions(fig):
        up, lo, rdp, _ = fig.traces(**params)
        assert np.all(lo.y <= up.y * (1 + 1e-12)), params
        assert np.all(rdp.y >= lo.y * (1 - 1e-9)), params  # RDP is an upper bound on the exact curve


def test_pld_curve_upper_matches_the_bracket_function():
    """The coarse figure grid still brackets the default-grid answer of the package."""
    q, T, delta = 0.01, 1000, 1e-5
    up, lo = fp.composed(q, fp.SIGMA_CURVE, T)
    e_lo, e_up = dpsgd_epsilon_bracket(q, fp.SIGMA_CURVE, T, delta)
    assert float(lo.epsilon(delta)) <= e_up and e_lo <= float(up.epsilon(delta))


def test_clt_trace_is_the_gdp_curve():
    """Independent route: δ of μ-GDP written here with log_ndtr."""
    q, T = 0.01, 1000.0
    traces = FIGURES["pld-privacy-curve"].traces(q=q, steps=T)
    clt = traces[3]
    mu = 0.01 * math.sqrt(1000) * math.sqrt(math.e - 1)
    for x, y in zip(clt.x[::7], clt.y[::7]):
        ref = math.exp(log_ndtr(-x / mu + mu / 2)) - math.exp(x + log_ndtr(-x / mu - mu / 2))
        assert y == pytest.approx(max(ref, fp.DELTA_FLOOR), rel=1e-9, abs=1e-15)


def test_histogram_is_a_density_close_to_clt_at_large_t():
    tr, clt = FIGURES["pld-histogram"].traces(steps=1e4, sigma=1.0)
    width = tr.x[1] - tr.x[0]
    assert float(np.sum(tr.y) * width) == pytest.approx(1.0, abs=1e-3)
    assert float(np.sum(np.abs(tr.y - clt.y)) * width) < 0.1  # total variation-like distance
