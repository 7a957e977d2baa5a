"""Figures of the hypothesis-testing chapter: δ(ε) from the privacy loss, pure DP ⇒ zCDP, the Bayesian reading.

Used in: book/04-hypothesis-testing
"""

import numpy as np
from scipy import stats

from ..composition import zcdp_from_pure_dp
from ..divergence import LogDensity
from ..privacy_loss import (
    delta_expected_hinge,
    delta_gaussian,
    delta_tail_bound,
    delta_tail_difference,
    delta_tail_integral,
    privacy_loss_gaussian,
)
from ..properties import bayesian_event_probability, posterior_bound, pure_dp_rdp_bound
from ..rdp import rdp_laplace
from ..widgets import Figure, Slider, Trace

__all__ = ["FIGURES", "discretised_gaussian_pair", "laplace_pair"]

EPSILONS = np.linspace(0.0, 3.0, 46)
_MARKS = EPSILONS[::5]
ORDERS = np.geomspace(1.0, 100.0, 60)
EDGES = np.linspace(-3.0, 4.0, 71)  # output bins of the discretised Gaussian pair


def four_delta_traces(sigma):
    """δ(ε) of the Gaussian mechanism (Δ = 1) by the closed form and by the routes of S2-02."""
    loss = privacy_loss_gaussian(sigma)
    tail_diff = np.array([delta_tail_difference(loss, e) for e in EPSILONS])
    bound = np.array([delta_tail_bound(loss, e) for e in EPSILONS])
    return [
        Trace("upper bound P[Z > ε]", EPSILONS, bound, dash="dash"),
        Trace("exact δ(ε), closed form", EPSILONS, delta_gaussian(EPSILONS, 1.0 / sigma), color="black"),
        Trace("P[Z > ε] − e<sup>ε</sup>P[−Z′ > ε]", EPSILONS, tail_diff, dash="dot"),
        Trace("E[max(0, 1 − e<sup>ε−Z</sup>)] (quadrature)", _MARKS,
              np.array([delta_expected_hinge(loss, e) for e in _MARKS]), mode="markers"),
        Trace("∫<sub>ε</sub><sup>∞</sup> e<sup>ε−z</sup> P[Z > z] dz (quadrature)", _MARKS,
              np.array([delta_tail_integral(loss, e) for e in _MARKS]), mode="markers"),
    ]


def laplace_pair(scale, sensitivity=1.0):
    """Lap(Δ, b) and Lap(0, b) as exact log-densities (scipy's Laplace ``logpdf`` is log(pdf),
    which loses precision below 1e-300 and would spoil the max divergence)."""
    c = -np.log(2.0 * scale)
    return (LogDensity(lambda x: c - np.abs(np.asarray(x, float) - sensitivity) / scale),
            LogDensity(lambda x: c - np.abs(np.asarray(x, float)) / scale))


def pure_dp_traces(scale):
    """D_α of the Laplace pair against (α/8)(D∞(P‖Q) + D∞(Q‖P))² and its zCDP form ½ε²α."""
    p, q = laplace_pair(scale)
    eps = 1.0 / scale
    marks = ORDERS[::6]
    return [
        Trace("D<sub>α</sub>(Lap(1,b) ‖ Lap(0,b))", ORDERS, rdp_laplace(ORDERS, scale), color="black"),
        Trace("½ε²α (pure ε-DP ⇒ ½ε²-zCDP, ε = 1/b)", ORDERS, zcdp_from_pure_dp(eps) * ORDERS, dash="dash"),
        Trace("(α/8)(D<sub>∞</sub>(P‖Q) + D<sub>∞</sub>(Q‖P))², by quadrature", marks,
              pure_dp_rdp_bound(p, q, marks), mode="markers"),
        Trace("D<sub>∞</sub> = ε", ORDERS[[0, -1]], np.full(2, eps), dash="dot"),
    ]


def discretised_gaussian_pair(sigma=1.0, sensitivity=1.0, edges=EDGES):
    """pmfs of N(Δ, σ²) and N(0, σ²) on the bins (−∞, e₁], (e₁, e₂], …, (e_{n−1}, ∞) (a post-processing)."""
    cuts = np.concatenate([[-np.inf], edges[1:-1], [np.inf]])
    p = np.diff(stats.norm.cdf(cuts, sensitivity, sigma))
    q = np.diff(stats.norm.cdf(cuts, 0.0, sigma))
    return p / p.sum(), q / q.sum()


def posterior_traces(epsilon, prior):
    """Posterior of "X = 1" after an output of the (binned) Gaussian mechanism, with and without the event E."""
    p, q = discretised_gaussian_pair()
    centres = 0.5 * (EDGES[:-1] + EDGES[1:])
    post = prior * p / (prior * p + (1.0 - prior) * q)  # Bayes' rule
    good = post * bayesian_event_probability(p, q, epsilon)
    ends = EDGES[[0, -1]]
    return [
        Trace("P[X = 1 | Y = y]", centres, post, dash="dash"),
        Trace("P[X = 1 ∧ E = 1 | Y = y]", centres, good),
        Trace("bound p₀/(p₀ + (1−p₀)e<sup>−ε</sup>)", ends, np.full(2, posterior_bound(prior, epsilon)),
              color="black"),
        Trace("prior p₀", ends, np.full(2, prior), dash="dot"),
    ]


FOUR_DELTAS = Figure(
    key="hypothesis-four-deltas",
    title="Four expressions of δ(ε) for the Gaussian mechanism (S2-02)",
    compute=four_delta_traces,
    sliders=[Slider.logspace("sigma", "σ (noise, Δ = 1)", 0.3, 3.0, 25, 1.0)],
    x_label="ε",
    y_label="δ(ε)",
    y_range=(0.0, 1.0),
    caption="The markers are computed by quadrature over the law of Z; they sit on the closed form.",
)

PURE_DP = Figure(
    key="hypothesis-pure-dp",
    title="Pure DP bounds the whole Rényi curve: the Laplace mechanism",
    compute=pure_dp_traces,
    sliders=[Slider.logspace("scale", "b (Laplace scale, Δ = 1)", 0.5, 10.0, 27, 1.0)],
    x_label="order α (log scale)",
    y_label="D<sub>α</sub> (nats, log scale)",
    x_log=True,
    y_log=True,
)

POSTERIOR = Figure(
    key="hypothesis-posterior",
    title="The Bayesian reading (S2-11): the Gaussian mechanism, σ = 1, outputs in bins of width 0.1",
    compute=posterior_traces,
    sliders=[
        Slider("epsilon", "ε", (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0), 1.0),
        Slider("prior", "prior p₀ = P[X = 1]", (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9), 0.5, fmt=".1f"),
    ],
    x_label="output y",
    y_label="probability",
    y_range=(0.0, 1.0),
)

FIGURES = {f.key: f for f in (FOUR_DELTAS, PURE_DP, POSTERIOR)}
