"""Figures of the subsampling chapter: the RDP of the subsampled Gaussian, exact and bounded.
"""

from functools import lru_cache

import numpy as np

from ..rdp import rdp_gaussian
from ..subsampling import rdp_subsampled, rdp_subsampled_gaussian, rdp_subsampled_relaxed
from ..widgets import Figure, Slider, Trace

__all__ = ["FIGURES"]

ORDERS = np.geomspace(1.1, 1000.0, 48)
RATES = np.geomspace(1e-5, 1.0, 41)
CAP = 1e4  # the relaxation overflows for (α − 1)ε(α) ≳ 700: plotted as min(value, CAP)
_FLOOR = 1e-300


def _show(y):
    """Clip to [1e-300, CAP] for a log axis (values outside are stated in the captions)."""
    return np.clip(np.asarray(y, float), _FLOOR, CAP)


@lru_cache(maxsize=512)
def _exact_curve(q, sigma):
    out = rdp_subsampled_gaussian(ORDERS, q, sigma)
    out.setflags(write=False)
    return out


def rdp_traces(q, sigma):
    """ε(α) of the Poisson-subsampled Gaussian: exact, the generic bound, its relaxation, no subsampling."""
    rho = rdp_gaussian(ORDERS, sigma)
    return [
        Trace("Gaussian without subsampling: α/(2σ²)", ORDERS, _show(rho), dash="dot"),
        Trace("generic bound: log(1 + q(e<sup>(α−1)ε(α)</sup> − 1))/(α−1)", ORDERS, _show(rdp_subsampled(ORDERS, q, rho)),
              dash="dash"),
        Trace("relaxation q(e<sup>(α−1)ε(α)</sup> − 1)/(α−1) (capped at 10⁴)", ORDERS,
              _show(rdp_subsampled_relaxed(ORDERS, q, rho)), dash="dash"),
        Trace("exact sampled Gaussian (Poisson rate q, add/remove)", ORDERS, _show(_exact_curve(q, sigma)), color="black"),
    ]


def scaling_traces(order, sigma):
    """ε(α) against q at a fixed integer order: slope 1 (the generic bound) against slope 2 (exact)."""
    order = float(order)
    rho = float(rdp_gaussian(order, sigma))
    exact = rdp_subsampled_gaussian(order, RATES, sigma)
    return [
        Trace("generic bound (slope 1: O(qα/σ²))", RATES, _show(rdp_subsampled(order, RATES, rho)), dash="dash"),
        Trace("small-q asymptote αq²(e<sup>1/σ²</sup> − 1)/2 (slope 2)", RATES,
              _show(order * RATES ** 2 * np.expm1(1.0 / sigma ** 2) / 2.0), dash="dot"),
        Trace("exact sampled Gaussian", RATES, _show(exact), color="black"),
    ]


RDP_CURVE = Figure(
    key="subsampling-rdp",
    claims=("S4-09", "S4-14", "S4-16"),
    title="Subsampled Gaussian: the RDP curve, exact and by the generic bound",
    compute=rdp_traces,
    sliders=[
        Slider.logspace("q", "q (sampling rate)", 1e-3, 1.0, 13, 0.01),
        Slider.logspace("sigma", "σ (noise multiplier)", 0.5, 8.0, 13, 2.0),
    ],
    x_label="order α (log scale)",
    y_label="ε(α) (nats, log scale)",
    x_log=True,
    y_log=True,
    caption="The generic bound holds for both ways of subsampling; the black curve is the exact one for "
            "Poisson sampling under add/remove adjacency, and the tests check that the bound lies above it. "
            "Values above 10⁴ are drawn at 10⁴.",
)

SCALING = Figure(
    key="subsampling-scaling",
    claims=("S4-11", "S4-13"),
    title="Amplification: a factor q (generic bound) against q² (exact)",
    compute=scaling_traces,
    sliders=[
        Slider("order", "α (integer order)", (2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0), 4.0, fmt=".0f"),
        Slider.logspace("sigma", "σ (noise multiplier)", 0.7, 10.0, 12, 2.0),
    ],
    x_label="sampling rate q (log scale)",
    y_label="ε(α) (nats, log scale)",
    x_log=True,
    y_log=True,
    caption="On log–log axes the generic bound has slope 1 and the exact curve slope 2 for small q; the "
            "asymptote is the first term of the binomial sum. Values above 10⁴ are drawn at 10⁴.",
)

FIGURES = {f.key: f for f in (RDP_CURVE, SCALING)}
