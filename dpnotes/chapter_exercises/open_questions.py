"""Exercises of the chapter "Lower bounds, joint DP and open questions", answers from the package.
"""

import numpy as np
from scipy import integrate

from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
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
    Symbolic(
        key="open-logistic-max-divergence", chapter=CHAPTER, stars=2,
        answer="pi/sqrt(3*v)",
        symbols={"v": (0.1, 20.0)},
        hint="The logistic log-density has a bounded slope; the largest slope times the unit shift is D∞.",
        slips=[
            Slip("laplace", "that is the Laplace law's value; the logistic law has its own scale.", "sqrt(2/v)"),
            Slip("variance-for-scale", "the scale goes with the standard deviation √v, not the variance v.",
                 "pi/(3*v)"),
        ],
    ),
    Code(
        key="open-laplace-logpdf", chapter=CHAPTER, stars=1,
        function="laplace_logpdf", signature="(x, v)",
        reference="dpnotes.noise_comparison:noise_logpdf", argmap={"v": "variance"}, fixed={"law": "laplace"},
        inputs=lambda rng: {"x": rng.normal(0.0, 3.0, int(rng.integers(1, 8))), "v": float(rng.uniform(0.1, 10.0))},
        n_cases=40, edge_cases=[{"x": np.array([0.0, 1000.0]), "v": 2.0}],
        hint="A Laplace law of scale b has variance 2b²; write the density in log space so it never underflows.",
        slips=[
            Slip("scale-is-variance", "the scale b is not the variance: the variance of Lap(b) is 2b².",
                 lambda x, v: -np.abs(x) / v - np.log(2 * v)),
            Slip("missing-normaliser", "the log-density needs its normalising term.",
                 lambda x, v: -np.abs(x) / np.sqrt(v / 2)),
        ],
    ),
    Explore(
        key="open-laplace-curve-reading", chapter=CHAPTER, stars=1,
        figure="noise-rdp-curves", sliders={"variance": 4.0},
        answer=lambda: figure_value("noise-rdp-curves", {"variance": 4.0}, "D<sub>α</sub>(P+1‖P), Laplace"),
        hint="Set the variance as asked and read the Laplace curve at the largest order shown.",
        slips=[
            Slip("default-variance", "the variance is still at its default; move the slider as asked.",
                 lambda: figure_value("noise-rdp-curves", {"variance": 1.0}, "D<sub>α</sub>(P+1‖P), Laplace")),
            Slip("gaussian-curve", "that is the Gaussian curve; the question asks about the Laplace law.",
                 lambda: figure_value("noise-rdp-curves", {"variance": 4.0}, "D<sub>α</sub>(P+1‖P), Gaussian")),
        ],
    ),
]
