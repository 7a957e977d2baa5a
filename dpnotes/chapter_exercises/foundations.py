"""Exercises of the foundations chapter, with answers computed by the package.
"""

import numpy as np
from scipy import stats

from ..composition import gaussian_sigma_classical, gaussian_sigma_exact
from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
from ..privacy_loss import delta_gaussian
from ..properties import group_privacy_epsilon_delta

CHAPTER = "00b-foundations"


def _random_tradeoff_point(rng):
    """A type-I error α ∈ [0, 1], ε ∈ [0, 3] and δ ∈ [0, 0.2]."""
    return {"alpha": float(rng.uniform()), "eps": float(rng.uniform(0, 3)), "delta": float(rng.uniform(0, 0.2))}


EXERCISES = [
    Numeric(
        key="foundations-laplace-epsilon", chapter=CHAPTER, stars=2,
        # a sum of records in [−1, 2] under replace-one moves by at most 2 − (−1) = 3; Laplace scale b = 4
        answer=lambda: 3.0 / 4.0,
        hint="First the sensitivity: under replace-one a record can jump from one end of [−1, 2] to the other. "
             "Then bound the ratio of the two Laplace densities at any output.",
        slips=[
            Slip("add-remove-relation", "the wrong neighbouring relation: that sensitivity (the largest |x|) is the one "
                                        "for add/remove; under replace-one a record can jump across the whole "
                                        "interval.", lambda: 2.0 / 4.0),
            Slip("unit-sensitivity", "the sensitivity is not 1: records range over [−1, 2].", lambda: 1.0 / 4.0),
            Slip("inverted", "ε is the sensitivity divided by the Laplace scale, not the other way round.",
                 lambda: 4.0 / 3.0),
        ],
    ),
    Numeric(
        key="foundations-rr-p", chapter=CHAPTER, stars=1,
        answer=lambda: np.exp(2.0) / (1.0 + np.exp(2.0)),
        hint="Randomized response with truth probability p is exactly as private as its largest log-ratio of "
             "report probabilities; set that log-ratio to 2 and solve for p.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: 100.0 / 101.0),
            Slip("one-minus-p", "that is the probability of a lie, 1 − p; the question asks for the truth "
                                "probability.", lambda: 1.0 / (1.0 + np.exp(2.0))),
        ],
    ),
    Numeric(
        key="foundations-gaussian-sigma", chapter=CHAPTER, stars=2,
        answer=lambda: gaussian_sigma_exact(0.25, 1e-6, sensitivity=2.0),
        hint="The exact calibration, not the classical formula: find the σ for which the Gaussian privacy profile "
             "at ε meets δ (the package's gaussian_sigma_exact does it), with the query's ℓ₂ sensitivity.",
        slips=[
            Slip("classical", "that is the classical calibration; the exercise asks for the exact (smallest) σ.",
                 lambda: gaussian_sigma_classical(0.25, 1e-6, sensitivity=2.0)),
            Slip("unit-sensitivity", "it looks as if you used sensitivity 1; this query's ℓ₂ sensitivity is 2.",
                 lambda: gaussian_sigma_exact(0.25, 1e-6, sensitivity=1.0)),
        ],
    ),
    Numeric(
        key="foundations-group-delta", chapter=CHAPTER, stars=2,
        answer=lambda: group_privacy_epsilon_delta(0.2, 1e-6, 5)[1],
        hint="Apply the simpler form of the group-privacy theorem with a group of k records: δ picks up the "
             "factor k and an exponential factor in ε.",
        slips=[
            Slip("no-exponential", "the exponential factor of the group-privacy theorem is missing.",
                 lambda: 5 * 1e-6),
            Slip("exponent-k", "the exponent has one ε too many: it counts the other members of the group.",
                 lambda: 5 * np.exp(1.0) * 1e-6),
            Slip("no-factor-k", "the factor k in front is missing.", lambda: np.exp(0.8) * 1e-6),
        ],
    ),
    Numeric(
        key="foundations-tradeoff-read", chapter=CHAPTER, stars=2,
        answer=lambda: delta_gaussian(0.5, 0.5),
        hint="With σ = 2 and Δ₂ = 1, μ is the sensitivity over σ; then use the exact δ(ε) of the Gaussian mechanism "
             "from this chapter (both Φ terms).",
        slips=[
            Slip("mu-is-sigma", "it looks as if you used μ = σ; μ is the sensitivity divided by σ.",
                 lambda: delta_gaussian(0.5, 2.0)),
            Slip("one-term", "the second term of the exact δ(ε) (the one with e^ε) is missing.",
                 lambda: stats.norm.cdf(-0.75)),
        ],
    ),
    Symbolic(
        key="foundations-rr-loss", chapter=CHAPTER, stars=1,
        answer="log(p/(1 - p))",
        symbols={"p": (0.51, 0.99)},
        hint="Randomized response reports the true bit with probability p: compare the probabilities of the same "
             "output under the two inputs.",
        slips=[
            Slip("inverted", "that is the loss of the other output (or of the swapped pair): it has the other sign.",
                 "log((1 - p)/p)"),
            Slip("no-log", "the privacy loss is the logarithm of the likelihood ratio.", "p/(1 - p)"),
        ],
    ),
    Code(
        key="foundations-tradeoff-boundary", chapter=CHAPTER, stars=2,
        function="tradeoff_boundary", signature="(alpha, eps, delta)",
        reference="dpnotes.tradeoff:tradeoff_epsilon_delta", argmap={"alpha": "alpha_type1", "eps": "epsilon"},
        inputs=_random_tradeoff_point, n_cases=40,
        edge_cases=[{"alpha": 0.0, "eps": 1.0, "delta": 0.0}, {"alpha": 1.0, "eps": 0.5, "delta": 0.1}],
        hint="An (ε, δ)-DP test has two constraints, one for each error; the boundary is the larger of what they "
             "allow, and never negative.",
        slips=[
            Slip("one-constraint", "only one of the two constraints is used: swap the roles of the two errors too.",
                 lambda alpha, eps, delta: max(0.0, 1.0 - delta - np.exp(eps) * alpha)),
            Slip("no-delta", "δ is missing: it loosens both constraints.",
                 lambda alpha, eps, delta: max(0.0, 1.0 - np.exp(eps) * alpha, np.exp(-eps) * (1.0 - alpha))),
        ],
    ),
    Explore(
        key="foundations-gaussian-loss-end", chapter=CHAPTER, stars=1,
        figure="foundations-privacy-loss", sliders={"sigma": 1.25},
        answer=lambda: figure_value("foundations-privacy-loss", {"sigma": 1.25}, "Gaussian noise"),
        hint="Move the σ slider as asked and read the Gaussian curve at the right end of the plot.",
        slips=[
            Slip("default-sigma", "σ is still at its default; move the slider as asked.",
                 lambda: figure_value("foundations-privacy-loss", {"sigma": 1.0}, "Gaussian noise")),
            Slip("laplace-curve", "that is the Laplace curve; the question asks about Gaussian noise.",
                 lambda: figure_value("foundations-privacy-loss", {"sigma": 1.25}, "Laplace noise")),
        ],
    ),
]
