"""Figures of the hypothesis-testing chapter: δ(ε) from the privacy loss, the trade-off curves of three
mechanisms at the same ε, the moment difference bound, pure DP ⇒ zCDP, the Bayesian reading.
"""

import numpy as np
from scipy import stats

from ..composition import gaussian_sigma_exact, zcdp_from_pure_dp
from ..divergence import LogDensity
from ..privacy_loss import (
    delta_expected_hinge,
    hockey_stick_divergence,
    delta_gaussian,
    delta_tail_bound,
    delta_tail_difference,
    delta_tail_integral,
    privacy_loss_gaussian,
)
from ..properties import bayesian_event_probability, moment_difference_bound, posterior_bound, pure_dp_rdp_bound
from ..rdp import rdp_laplace
from ..tradeoff import tradeoff_discrete, tradeoff_gaussian, tradeoff_laplace
from ..widgets import Figure, Slider, Trace
from .foundations import ALPHAS, region_vertices

__all__ = ["FIGURES", "clipped_gaussian_release", "discretised_gaussian_pair", "laplace_pair", "randomized_response_pair"]

EPSILONS = np.linspace(0.0, 3.0, 46)
_MARKS = EPSILONS[::5]
ORDERS = np.geomspace(1.0, 100.0, 60)
EDGES = np.linspace(-3.0, 4.0, 71)  # output bins of the discretised Gaussian pair
MOMENT_EPSILONS = np.linspace(0.0, 3.0, 41)
RELEASE_BINS = 40  # output values of the clipped, rounded Gaussian release (S2-03)


def four_delta_traces(sigma):
    """δ(ε) of the Gaussian mechanism (Δ = 1) by the closed form and by the four routes of the chapter (S2-02)."""
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


def randomized_response_pair(epsilon):
    """The report pmfs of randomized response with p = e^ε/(1 + e^ε), on the bits 1 and 0: exactly ε-DP."""
    p = 1.0 / (1.0 + np.exp(-epsilon))
    return np.array([p, 1.0 - p]), np.array([1.0 - p, p])


def tradeoff_traces(epsilon, delta):
    """Trade-off curves at the same ε: randomized response and the Laplace mechanism (ε-DP), the Gaussian
    mechanism calibrated exactly to (ε, δ), against the boundary f_{ε,δ} and the diagonal."""
    p, q = randomized_response_pair(epsilon)
    rr_x = np.array([0.0, q[0], 1.0])  # the one kink of the curve is at α_I = 1 − p
    lap_x = np.union1d(ALPHAS, [0.5 * np.exp(-epsilon), 0.5])  # the Laplace curve's two kinks
    mu = 1.0 / gaussian_sigma_exact(epsilon, delta)
    return [
        Trace("randomized response, p = e<sup>ε</sup>/(1 + e<sup>ε</sup>): the boundary f<sub>ε,0</sub>", rr_x,
              tradeoff_discrete(p, q, rr_x)),
        Trace("Laplace mechanism, b = Δ<sub>1</sub>/ε", lap_x, tradeoff_laplace(lap_x, epsilon)),
        Trace("Gaussian mechanism, σ calibrated exactly to (ε, δ)", ALPHAS, tradeoff_gaussian(ALPHAS, mu),
              color="black"),
        Trace("f<sub>ε,δ</sub>: boundary of the (ε, δ) region", *region_vertices(epsilon, delta), dash="dash"),
        Trace("1 − α<sub>I</sub>: perfect privacy", np.array([0.0, 1.0]), np.array([1.0, 0.0]), dash="dot",
              color="#999999"),
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


def clipped_gaussian_release(sigma, bound, bins=RELEASE_BINS):
    """Output values and pmfs of a bounded release: query 1 (Y) or 0 (Y′) plus N(0, σ²), clipped to [−B, B], rounded.

    The output is the centre of the bin of [−B, B] (``bins`` equal bins) holding the noisy answer; answers below
    −B or above B go to the end bins. A post-processing of the Gaussian mechanism, so (Y, Y′) is (ε, δ)-close for
    the Gaussian's δ(ε) at every ε, and the pair's own δ(ε) is smaller still. Returns ``(values, p, q)``, the pmfs of Y and Y′.
    """
    edges = np.linspace(-bound, bound, bins + 1)
    p, q = discretised_gaussian_pair(sigma, 1.0, edges)
    return 0.5 * (edges[:-1] + edges[1:]), p, q


def moment_bound_traces(sigma, bound):
    """E[Y] − E[Y′] of the bounded Gaussian release against (e^ε − 1)E|Y′| + 2δ(ε)B, δ(ε) the pair's exact δ."""
    values, p, q = clipped_gaussian_release(sigma, bound)
    gap = float(values @ p - values @ q)
    mean_abs_y = float(np.abs(values) @ q)
    # the pair's smallest δ at each ε, both ways (the proposition needs "and vice versa")
    delta = np.maximum(hockey_stick_divergence(p, q, MOMENT_EPSILONS), hockey_stick_divergence(q, p, MOMENT_EPSILONS))
    delta = np.clip(delta, 0.0, 1.0)
    total = moment_difference_bound(MOMENT_EPSILONS, delta, mean_abs_y, bound)
    j = int(np.argmin(total))
    ends = MOMENT_EPSILONS[[0, -1]]
    return [
        Trace("bound (e<sup>ε</sup> − 1)E|Y′| + 2δ(ε)B", MOMENT_EPSILONS, total),
        Trace("(e<sup>ε</sup> − 1)E|Y′|", MOMENT_EPSILONS, np.expm1(MOMENT_EPSILONS) * mean_abs_y, dash="dot"),
        Trace("2δ(ε)B", MOMENT_EPSILONS, 2.0 * delta * bound, dash="dash"),
        Trace("best ε on the grid", MOMENT_EPSILONS[[j]], total[[j]], mode="markers", color="black"),
        Trace("exact E[Y] − E[Y′]", ends, np.full(2, gap), color="black"),
    ]


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
        Trace("bound π₀/(π₀ + (1−π₀)e<sup>−ε</sup>)", ends, np.full(2, posterior_bound(prior, epsilon)),
              color="black"),
        Trace("prior π₀", ends, np.full(2, prior), dash="dot"),
    ]


TRADEOFF = Figure(
    key="hypothesis-tradeoff",
    title="Type I against type II errors: three mechanisms at the same ε",
    compute=tradeoff_traces,
    sliders=[
        Slider.linear("epsilon", "ε", 0.25, 3.0, 0.25, 1.0, fmt=".2f"),
        Slider("delta", "δ (Gaussian calibration and dashed boundary)", (1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1), 1e-5,
               log=True, fmt=".0e"),
    ],
    x_label="type I error α<sub>I</sub>",
    y_label="type II error β<sub>II</sub>",
    y_range=(0.0, 1.0),
    caption="Each curve is the smallest type II error of any test at each type I error (attained by likelihood-ratio "
            "tests). Randomized response and the Laplace mechanism are ε-DP: on or above the ε-DP boundary, which is "
            "randomized response's own curve. The Gaussian mechanism calibrated to (ε, δ) stays above the dashed (ε, δ) "
            "boundary and touches it; it falls below the ε-DP boundary only in thin slivers next to the axes, too thin "
            "to see for small δ (raise δ to see them), and is far from both boundaries in between."
)

FOUR_DELTAS = Figure(
    key="hypothesis-four-deltas",
    claims=("S2-01", "S2-02"),
    title="Four expressions of δ(ε) for the Gaussian mechanism",
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

MOMENT_BOUND = Figure(
    key="hypothesis-moment-bound",
    claims=("S2-03",),
    title="The moment difference bound for a clipped, rounded Gaussian release",
    compute=moment_bound_traces,
    sliders=[
        Slider.logspace("sigma", "σ (noise, query sensitivity 1)", 0.25, 4.0, 13, 1.0),
        Slider.linear("bound", "B (outputs clipped to [−B, B])", 0.5, 3.0, 0.25, 1.5, fmt=".2f"),
    ],
    x_label="ε (the pair is (ε, δ(ε))-close for every ε)",
    y_label="difference of expectations",
    y_range=(0.0, 3.0),
    caption="Y and Y′ are the release on two neighbouring data sets (query 1 and 0, noise N(0, σ²), clipped to "
            "[−B, B] and rounded to the centres of 40 bins). δ(ε) is the pair's exact smallest δ, both ways, from "
            "the hockey-stick divergence of the two pmfs. Every ε gives a valid bound; curves above 3 leave the plot.",
)

POSTERIOR = Figure(
    key="hypothesis-posterior",
    claims=("S2-11",),
    title="The Bayesian reading: the Gaussian mechanism, σ = 1, outputs in bins of width 0.1",
    compute=posterior_traces,
    sliders=[
        Slider("epsilon", "ε", (0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0), 1.0),
        Slider("prior", "prior π₀ = P[X = 1]", (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9), 0.5, fmt=".1f"),
    ],
    x_label="output y",
    y_label="probability",
    y_range=(0.0, 1.0),
)

FIGURES = {f.key: f for f in (FOUR_DELTAS, TRADEOFF, MOMENT_BOUND, PURE_DP, POSTERIOR)}
