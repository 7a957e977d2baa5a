"""Exercises of the chapter "Lower bounds, joint DP and open questions", answers from the package.

Used in: book/10-lower-bounds-and-open-questions
"""

import numpy as np

from ..exercise_kinds import Numeric, Slip
from ..joint_dp import joint_dp_epsilon, noisy_count_mechanism
from ..lower_bounds import fingerprinting_terms
from ..noise_comparison import max_divergence

CHAPTER = "10-lower-bounds-and-open-questions"

EXERCISES = [
    Numeric(
        key="oq-fingerprint-mean-correlation", chapter=CHAPTER, stars=3,
        answer=lambda: fingerprinting_terms(10, "mean")["correlation"],
        hint="Condition on θ first: the term becomes n times a conditional variance; then average over θ ~ U[0, 1].",
        slips=[
            Slip("missing-n", "that is the conditional variance of the mean averaged over θ; the correlation term "
                              "has a factor n.", lambda: 1 / 60),
            Slip("theta-half", "that evaluates at θ = 1/2 instead of averaging over θ.", lambda: 0.25),
            Slip("extra-n", "one factor n too many.", lambda: 10 / 6),
        ],
    ),
    Numeric(
        key="oq-fingerprint-constant", chapter=CHAPTER, stars=2,
        answer=lambda: fingerprinting_terms(5, "half")["lhs"],
        hint="A constant f does not correlate with the data, but its squared bias does not vanish: average it over θ.",
        slips=[
            Slip("end-point", "that evaluates the squared bias at an end point instead of averaging over θ.",
                 lambda: 0.25),
            Slip("second-moment", "that is E[θ²]; the bias is measured from 1/2.", lambda: 1 / 3),
            Slip("zero", "the correlation term vanishes, but the bias term does not.", lambda: 0.0),
        ],
    ),
    Numeric(
        key="oq-laplace-max-divergence", chapter=CHAPTER, stars=1,
        answer=lambda: max_divergence("laplace", variance=2.0),
        hint="First the scale b from the variance of Laplace noise; the privacy loss of a shift is at most the "
             "shift divided by b.",
        slips=[
            Slip("laplace-variance", "the variance of Lap(0, b) is not b².", lambda: 1 / np.sqrt(2.0)),
        ],
    ),
    Numeric(
        key="oq-joint-epsilon", chapter=CHAPTER, stars=2,
        answer=lambda: joint_dp_epsilon(noisy_count_mechanism(0.8), 3),
        hint="Person i's bit reaches the other people only through one randomized-response report.",
        slips=[
            Slip("composed-over-people", "person i's bit enters one report only: there is nothing to compose over "
                                         "the three people.", lambda: 3 * np.log(4.0)),
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: np.log10(4.0)),
        ],
    ),
]
