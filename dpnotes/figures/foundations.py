"""Figures of the foundations chapter: the Gaussian trade-off curve against the (ε, δ) region,
and the privacy loss of the Laplace and Gaussian mechanisms as a function of the output.
"""

import numpy as np
from scipy.special import ndtr

from ..privacy_loss import delta_gaussian, privacy_loss_gaussian, privacy_loss_laplace
from ..tradeoff import tradeoff_epsilon_delta, tradeoff_gaussian
from ..widgets import Figure, Slider, Trace

__all__ = ["FIGURES", "region_vertices", "touching_point", "ALPHAS", "OUTPUTS", "DELTA_REF"]

#: Type I errors of the drawn curves: Φ of an even grid, so both steep ends are sampled finely.
ALPHAS = np.concatenate([[0.0], ndtr(np.linspace(-5.0, 5.0, 101)), [1.0]])
#: The fixed δ of the dashed region (a common target).
DELTA_REF = 1e-5
#: Outputs y of the privacy-loss figure.
OUTPUTS = np.linspace(-3.0, 4.0, 141)
_CORNERS = np.array([0.0, 1.0])


def region_vertices(epsilon, delta):
    """The corners of the piecewise linear boundary f_{ε,δ}: (0, 1 − δ), the kink, (1 − δ, 0), (1, 0)."""
    kink = (1.0 - delta) / (1.0 + np.exp(epsilon))
    x = np.array([0.0, kink, 1.0 - delta, 1.0])
    return x, tradeoff_epsilon_delta(x, epsilon, delta)


def touching_point(epsilon, mu):
    """Where G_μ touches the boundary f_{ε,δ(ε)}: the point of slope −e^ε, (Φ(−ε/μ − μ/2), Φ(ε/μ − μ/2))."""
    return ndtr(-epsilon / mu - mu / 2.0), ndtr(epsilon / mu - mu / 2.0)


def tradeoff_traces(sigma, epsilon):
    """G_μ (μ = 1/σ) against the (ε, δ) regions at δ = δ(ε) and at δ = 10⁻⁵."""
    mu = 1.0 / sigma
    delta = float(delta_gaussian(epsilon, mu))
    a_star, b_star = touching_point(epsilon, mu)
    return [
        Trace("G<sub>μ</sub>: Gaussian mechanism, μ = Δ<sub>2</sub>/σ", ALPHAS, tradeoff_gaussian(ALPHAS, mu),
              color="black"),
        Trace("f<sub>ε,δ(ε)</sub>: boundary at δ(ε), the smallest δ for this ε", *region_vertices(epsilon, delta)),
        Trace("f<sub>ε,δ</sub> at δ = 10<sup>−5</sup> (on this scale, also δ = 0)", *region_vertices(epsilon, DELTA_REF),
              dash="dash"),
        Trace("1 − α<sub>I</sub>: perfect privacy (P = Q)", _CORNERS, 1.0 - _CORNERS, dash="dot", color="#999999"),
        Trace("intercept 1 − δ(ε) and the touching point", np.array([0.0, a_star]), np.array([1.0 - delta, b_star]),
              mode="markers"),
    ]


def privacy_loss_traces(sigma, scale):
    """The privacy loss log(P(y)/Q(y)) of the Gaussian and the Laplace mechanism (Δ = 1) at each output y."""
    gauss = privacy_loss_gaussian(sigma).log_ratio(OUTPUTS)
    laplace = privacy_loss_laplace(scale).log_ratio(OUTPUTS)
    band = np.full(2, 1.0 / scale)
    ends = OUTPUTS[[0, -1]]
    return [
        Trace("Gaussian noise: (2y − 1)/(2σ<sup>2</sup>)", OUTPUTS, gauss, color="black"),
        Trace("Laplace noise: (|y| − |y − 1|)/b", OUTPUTS, laplace),
        Trace("+ε = Δ<sub>1</sub>/b", ends, band, dash="dash", color="#999999"),
        Trace("−ε", ends, -band, dash="dash", color="#999999"),
    ]


TRADEOFF = Figure(
    key="foundations-tradeoff",
    title="The Gaussian mechanism's trade-off curve against the (ε, δ) region",
    compute=tradeoff_traces,
    sliders=[
        Slider("sigma", "σ (noise multiplier, Δ₂ = 1)", (0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 4.0), 1.0),
        Slider.linear("epsilon", "ε", 0.0, 3.0, 0.25, 1.0, fmt=".2f"),
    ],
    x_label="type I error α<sub>I</sub>",
    y_label="type II error β<sub>II</sub>",
    y_range=(0.0, 1.0),
    caption="A mechanism is (ε, δ)-DP when its trade-off curve stays on or above the boundary of the (ε, δ) "
            "region. The dashed boundary (δ = 10⁻⁵, indistinguishable from pure ε-DP here) is crossed unless σ is "
            "large enough; the solid one, drawn at the smallest δ, δ(ε), touches the curve, and its intercept at "
            "type I error 0 is 1 − δ(ε).",
)

PRIVACY_LOSS = Figure(
    key="foundations-privacy-loss",
    title="Privacy loss of an output: bounded (Laplace), unbounded (Gaussian)",
    compute=privacy_loss_traces,
    sliders=[
        Slider("sigma", "σ (noise multiplier, Δ₂ = 1)", (0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0), 1.0),
        Slider("scale", "b (Laplace scale, Δ₁ = 1)", (0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0), 1.0),
    ],
    x_label="output y (query value 1 on S, 0 on S′)",
    y_label="privacy loss log(P(y)/Q(y))",
    y_range=(-4.0, 4.0),
    caption="P is the output law on S (query value 1), Q on the neighbour S′ (query value 0). The Laplace loss is "
            "clipped to [−1/b, 1/b], so the Laplace mechanism is (1/b)-DP; the Gaussian loss grows without bound, so "
            "no ε works with δ = 0.",
)

FIGURES = {f.key: f for f in (TRADEOFF, PRIVACY_LOSS)}
