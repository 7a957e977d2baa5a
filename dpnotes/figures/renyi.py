"""Figures of chapter 1: D_α against α for the Gaussian, Laplace and RR mechanisms.
"""

import numpy as np

from ..divergence import renyi_divergence
from ..rdp import rdp_gaussian, rdp_laplace, rdp_randomized_response
from ..widgets import Figure, Slider, Trace

ORDERS = np.geomspace(1.0, 1000.0, 61)  # shared α grid, log-spaced from the KL end
_ENDS = np.array([ORDERS[0], ORDERS[-1]])
_CHECK_ORDERS = np.array([1.0, 1.5, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0])


def _limits(kl, dmax):
    traces = [Trace("KL limit D<sub>1</sub> (α → 1)", _ENDS, np.full(2, kl), dash="dash")]
    if dmax is not None:
        traces.append(Trace("max divergence D<sub>∞</sub> (α → ∞)", _ENDS, np.full(2, dmax), dash="dot"))
    return traces


def gaussian_traces(sigma, sensitivity):
    d = rdp_gaussian(ORDERS, sigma, sensitivity)
    return [
        Trace("D<sub>α</sub>(N(a,σ²) ‖ N(0,σ²)) = αa²/(2σ²)", ORDERS, d),
        *_limits(rdp_gaussian(1.0, sigma, sensitivity), None),
    ]


def laplace_traces(scale):
    return [
        Trace("D<sub>α</sub>(Lap(1,b) ‖ Lap(0,b)), Mironov's closed form", ORDERS, rdp_laplace(ORDERS, scale)),
        *_limits(rdp_laplace(1.0, scale), rdp_laplace(np.inf, scale)),
    ]


def rr_traces(p):
    pmf_p, pmf_q = [p, 1.0 - p], [1.0 - p, p]
    return [
        Trace("D<sub>α</sub>(RR), closed form", ORDERS, rdp_randomized_response(ORDERS, p)),
        *_limits(rdp_randomized_response(1.0, p), rdp_randomized_response(np.inf, p)),
        Trace("direct sum Σ<sub>y</sub> P(y)<sup>α</sup> Q(y)<sup>1−α</sup> (check)", _CHECK_ORDERS,
              renyi_divergence(pmf_p, pmf_q, _CHECK_ORDERS), mode="markers"),
    ]


GAUSSIAN = Figure(
    key="renyi-gaussian",
    claims=("S0-02", "S0-04", "S2-05", "S2-06", "S4-02"),
    title="Two Gaussians: D<sub>α</sub> grows linearly in α",
    compute=gaussian_traces,
    sliders=[
        Slider.logspace("sigma", "σ (standard deviation; the noise multiplier if Δ₂ = 1)", 0.3, 10.0, 25, 1.0),
        Slider.linear("sensitivity", "a (shift of the mean)", 0.25, 2.0, 0.25, 1.0),
    ],
    x_label="order α (log scale)",
    y_label="D<sub>α</sub> (nats)",
    x_log=True,
    y_log=True,
    caption="The KL limit is a²/(2σ²); the max divergence is infinite (the loss is unbounded).",
)

LAPLACE = Figure(
    key="renyi-laplace",
    claims=("S4-01",),
    title="Laplace mechanism: D<sub>α</sub> rises from KL to Δ/b",
    compute=laplace_traces,
    sliders=[Slider.logspace("scale", "b (scale)", 0.3, 10.0, 36, 1.0)],
    x_label="order α (log scale)",
    y_label="D<sub>α</sub> (nats)",
    x_log=True,
    y_log=True,
)

RANDOMIZED_RESPONSE = Figure(
    key="renyi-rr",
    title="Randomized response: D<sub>α</sub> between KL and log(p/(1−p))",
    compute=rr_traces,
    sliders=[Slider.linear("p", "p (truth probability)", 0.51, 0.99, 0.01, 0.75, fmt=".2f")],
    x_label="order α (log scale)",
    y_label="D<sub>α</sub> (nats)",
    x_log=True,
    y_log=True,
)

FIGURES = {f.key: f for f in (GAUSSIAN, LAPLACE, RANDOMIZED_RESPONSE)}
