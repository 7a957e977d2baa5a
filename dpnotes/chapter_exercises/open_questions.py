"""Exercises of the chapter "Lower bounds, joint DP and open questions", answers from the package.

Used in: book/10-lower-bounds-and-open-questions
"""

import numpy as np
from scipy import integrate

from ..exercise_kinds import Numeric, Slip
from ..joint_dp import joint_dp_epsilon, noisy_count_mechanism
from ..lower_bounds import fingerprinting_terms
from ..noise_comparison import max_divergence

CHAPTER = "10-lower-bounds-and-open-questions"

EXERCISES = [
    Numeric(
        key="oq-fingerprint-mean-correlation", chapter=CHAPTER, stars=3,
        answer=lambda: fingerprinting_terms(5, "mean")["lhs_mse"],
        hint="Condition on θ first: the correlation is n times a conditional variance, the MSE the conditional variance "
             "of the mean; then average both over θ ~ U[0, 1].",
        slips=[
            Slip("correlation-only", "that is the correlation term alone; the MSE form adds E[(f(X) − θ)²].",
                 lambda: 1 / 6),
            Slip("mse-only", "that is the MSE alone; the left side adds the correlation term.", lambda: 1 / 30),
            Slip("theta-half", "that evaluates at θ = 1/2 instead of averaging over θ.", lambda: 1 / 4 + 1 / 20),
            Slip("missing-n", "the correlation term is n times the conditional variance of the mean.",
                 lambda: 1 / 30 + 1 / 30),
        ],
    ),
    Numeric(
        key="oq-fingerprint-constant", chapter=CHAPTER, stars=2,
        answer=lambda: integrate.quad(lambda theta: (0.25 - theta) ** 2, 0.0, 1.0, epsabs=1e-14, epsrel=1e-12)[0],
        hint="A constant f does not correlate with the data, but its squared bias does not vanish: average it over θ.",
        slips=[
            Slip("end-point", "that evaluates the squared bias at an end point instead of averaging over θ.",
                 lambda: 9 / 16),
            Slip("second-moment", "that is E[θ²]; the bias is measured from 1/4.", lambda: 1 / 3),
            Slip("half", "that is the value for the constant 1/2; here the constant is 1/4.", lambda: 1 / 12),
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
        answer=lambda: joint_dp_epsilon(noisy_count_mechanism(0.9), 3),
        hint="Person i's bit reaches the other people only through one randomized-response report.",
        slips=[
            Slip("composed-over-people", "person i's bit enters one report only: there is nothing to compose over "
                                         "the three people.", lambda: 3 * np.log(9.0)),
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: np.log10(9.0)),
        ],
    ),
]
