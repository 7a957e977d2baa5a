"""Exercises of chapter 1, with answers computed by the package.

Used in: book/01-renyi-gaussian
"""

import numpy as np

from ..exercise_kinds import Numeric, Slip
from ..rdp import rdp_gaussian, rdp_laplace, rdp_randomized_response

CHAPTER = "01-renyi-gaussian"

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
        key="renyi-rr-limit", chapter=CHAPTER, stars=1,
        answer=lambda: rdp_randomized_response(np.inf, 0.9),
        hint="As α → ∞ the divergence tends to the largest log-ratio of the two probability mass functions.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: np.log10(9.0)),
            Slip("no-log", "the limit is the logarithm of the largest ratio, not the ratio itself.", lambda: 9.0),
        ],
    ),
]
