"""Exercises of chapter 1, with answers computed by the package.
"""

import numpy as np

from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
from ..rdp import rdp_gaussian, rdp_laplace, rdp_randomized_response

CHAPTER = "01-renyi-gaussian"


def _random_pmf_pair(rng):
    """Two pmfs with full support on 2 to 8 outcomes and an order α ∈ (1.1, 10)."""
    n = int(rng.integers(2, 9))
    return {"p": rng.dirichlet(np.ones(n)) * 0.98 + 0.02 / n, "q": rng.dirichlet(np.ones(n)) * 0.98 + 0.02 / n,
            "alpha": float(rng.uniform(1.1, 10.0))}


EXERCISES = [
    Numeric(
        key="renyi-gaussian-order", chapter=CHAPTER, stars=1,
        answer=lambda: rdp_gaussian(3.0, 2.0, sensitivity=1.0),
        hint="Use the closed form of the Gaussian's Rényi divergence from this chapter, with α = 3, Δ = 1, σ = 2.",
        slips=[
            Slip("sigma-for-sigma2", "it looks as if σ appears where σ² belongs, or the 2 of the denominator is "
                                     "missing.", lambda: 3.0 / 4.0),
            Slip("alpha-minus-1-for-alpha", "it looks as if you wrote α − 1 where α belongs.", lambda: 2.0 / 8.0),
        ],
    ),
    Numeric(
        key="renyi-gaussian-sigma", chapter=CHAPTER, stars=1,
        answer=lambda: np.sqrt(10.0 / (2.0 * 1.0)),
        hint="The Gaussian's Rényi divergence decreases in σ: set it equal to the target ε at α = 10 and solve for σ.",
        slips=[
            Slip("sigma-squared", "that is σ²; the question asks for σ.", lambda: 5.0),
            Slip("missing-two", "the factor 2 in the denominator of the Gaussian's divergence is missing.",
                 lambda: np.sqrt(10.0)),
            Slip("alpha-minus-1-for-alpha", "it looks as if you wrote α − 1 where α belongs.", lambda: np.sqrt(4.5)),
        ],
    ),
    Numeric(
        key="renyi-laplace-order2", chapter=CHAPTER, stars=1,
        answer=lambda: rdp_laplace(2.0, 2.0),
        hint="Evaluate the Laplace formula of this chapter at α = 2, with scale 2 and shift 1.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: np.log10(2 / 3 * np.exp(0.5) + np.exp(-1) / 3)),
            Slip("max-divergence", "that is the limit α → ∞ (the largest log-ratio); the question asks for α = 2.",
                 lambda: 0.5),
            Slip("swapped-exponents", "the two exponentials are attached to the wrong weights.",
                 lambda: np.log(2 / 3 * np.exp(-1) + np.exp(0.5) / 3)),
        ],
    ),
    Numeric(
        key="renyi-rr-composition", chapter=CHAPTER, stars=1,
        answer=lambda: 10 * rdp_randomized_response(2.0, 0.9),
        hint="The ten reports are independent: the Rényi divergence of independent releases is the sum of theirs.",
        slips=[
            Slip("one-report", "that is the divergence of one report; the ten independent reports add up.",
                 lambda: rdp_randomized_response(2.0, 0.9)),
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: 10 * np.log10(0.9**2 / 0.1 + 0.1**2 / 0.9)),
            Slip("max-divergence", "that is ten times the max divergence (α → ∞); the question asks for α = 2.",
                 lambda: 10 * np.log(9.0)),
        ],
    ),
    Symbolic(
        key="renyi-laplace-kl", chapter=CHAPTER, stars=2,
        answer="a/b + exp(-a/b) - 1",
        symbols={"a": (0.1, 3.0), "b": (0.3, 5.0)},
        hint="Write the KL divergence as an integral of the log-ratio of the two Laplace densities; it is piecewise "
             "linear in y, so split the integral at 0 and at a.",
        slips=[
            Slip("missing-minus-one", "check the value at a = 0: a divergence of a law from itself is 0.",
                 "a/b + exp(-a/b)"),
            Slip("max-divergence", "that is the max divergence D∞ (the limit α → ∞), not the KL divergence.",
                 "a/b"),
        ],
    ),
    Code(
        key="renyi-pmf-divergence", chapter=CHAPTER, stars=2,
        function="renyi_pmf", signature="(p, q, alpha)",
        reference="dpnotes.divergence:renyi_divergence", inputs=_random_pmf_pair, n_cases=40, rtol=1e-8,
        edge_cases=[{"p": np.array([0.5, 0.5]), "q": np.array([0.5, 0.5]), "alpha": 2.0}],
        hint="Start from the definition of the Rényi divergence in this chapter; for pmfs its integral is a sum over "
             "the outcomes.",
        slips=[
            Slip("alpha-for-alpha-minus-1", "it looks as if you divided by α where α − 1 belongs.",
                 lambda p, q, alpha: float(np.log(np.sum(p**alpha * q ** (1 - alpha))) / alpha)),
            Slip("swapped", "the arguments are swapped: D_α(P‖Q) puts the power α on P.",
                 lambda p, q, alpha: float(np.log(np.sum(q**alpha * p ** (1 - alpha))) / (alpha - 1))),
        ],
    ),
    Explore(
        key="renyi-rr-large-order", chapter=CHAPTER, stars=1,
        figure="renyi-rr", sliders={"p": 0.9},
        answer=lambda: figure_value("renyi-rr", {"p": 0.9}, "D<sub>α</sub>(RR)"),
        hint="Move the p slider as asked and read the closed-form curve at the largest order shown.",
        slips=[
            Slip("default-p", "p is still at its default; move the slider as asked.",
                 lambda: figure_value("renyi-rr", {"p": 0.75}, "D<sub>α</sub>(RR)")),
            Slip("kl-line", "that is the KL line (α → 1); the question asks for the curve at its right end.",
                 lambda: figure_value("renyi-rr", {"p": 0.9}, "KL limit")),
        ],
    ),
]
