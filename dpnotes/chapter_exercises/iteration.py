"""Exercises of the chapter on amplification by iteration, with answers computed by the package.
"""

import numpy as np

from ..amplification import renyi_shift_sup, shifted_renyi_location
from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
from ..iteration import rdp_noisy_sgd_all_iterates, rdp_noisy_sgd_last_iterate, smoothness_constant

CHAPTER = "08-amplification-iteration"

EXERCISES = [
    Numeric(
        key="iteration-shifted-gaussian", chapter=CHAPTER, stars=2,
        answer=lambda: shifted_renyi_location(3.0, 1.5, 0.5, "gaussian", 1.0),
        hint="With a budget z you may move the first distribution towards the second by up to z before measuring D_α.",
        slips=[
            Slip("no-shift", "the shift budget is unused: you may move the first distribution first.",
                 lambda: 3.0 * 1.5**2 / 2),
            Slip("wrong-direction", "the shift moves the first distribution towards the second, not away from it.",
                 lambda: 3.0 * 2.0**2 / 2),
            Slip("alpha-minus-1-for-alpha", "it looks as if you wrote α − 1 where α belongs.",
                 lambda: 2.0 * 1.0**2 / 2),
        ],
    ),
    Numeric(
        key="iteration-step-size", chapter=CHAPTER, stars=2,
        answer=lambda: 2.0 / smoothness_constant(np.array([[2.0, 0.0], [0.0, 1.0]]), "squared"),
        hint="Compute the Hessian of the average squared loss, its largest eigenvalue β, then the threshold on η "
             "of the contraction theorem.",
        slips=[
            Slip("factor-two", "off by a factor 2: check the normalisation of the Hessian by n and the threshold "
                               "of the theorem.", lambda: 0.5),
            Slip("smallest-eigenvalue", "smoothness is the largest eigenvalue of the Hessian, not the smallest.",
                 lambda: 4.0),
        ],
    ),
    Numeric(
        key="iteration-last-iterate", chapter=CHAPTER, stars=2,
        answer=lambda: rdp_noisy_sgd_last_iterate(8.0, 91, 100, 1.0, 4.0),
        hint="Count the noise draws from step t to step n inclusive, and spread the shift 2ηL evenly over them.",
        slips=[
            Slip("off-by-one", "off by one: count the noise draws from step t to step n inclusive.",
                 lambda: rdp_noisy_sgd_all_iterates(8.0, 1.0, 4.0) / 9),
            Slip("all-iterates", "that is the all-iterates value: the later noise draws hide the record too.",
                 lambda: rdp_noisy_sgd_all_iterates(8.0, 1.0, 4.0)),
            Slip("sigma-for-sigma2", "it looks as if σ appears where σ² belongs.",
                 lambda: rdp_noisy_sgd_all_iterates(8.0, 1.0, 4.0) * 4.0 / 10),
        ],
    ),
    Numeric(
        key="iteration-positions", chapter=CHAPTER, stars=2,
        sig_figs=None,  # an integer answer (a count)
        answer=lambda: float(np.sum(rdp_noisy_sgd_last_iterate(2.0, np.arange(1, 61), 60, 1.0, 1.0)
                                    <= rdp_noisy_sgd_all_iterates(2.0, 1.0, 1.0) / 8)),
        hint="The ratio of the two quantities depends only on the number of steps from t to the end.",
        slips=[
            Slip("off-by-one", "off by one: the count of noise draws from t to n includes both ends.", lambda: 52.0),
            Slip("complement", "that counts the positions that do not gain eightfold.", lambda: 7.0),
        ],
    ),
    Numeric(
        key="iteration-shift-sup", chapter=CHAPTER, stars=1,
        answer=lambda: renyi_shift_sup(4.0, 0.5, "gaussian", 0.5),
        hint="The Gaussian divergence grows with the size of the shift, so the supremum is at the largest allowed shift.",
        slips=[
            Slip("sigma-for-sigma2", "it looks as if σ appears where σ² belongs.", lambda: 4 * 0.25 / (2 * 0.5)),
            Slip("shift-not-squared", "the shift enters the Gaussian divergence squared.",
                 lambda: 4 * 0.5 / (2 * 0.25)),
            Slip("alpha-minus-1-for-alpha", "it looks as if you wrote α − 1 where α belongs.",
                 lambda: 3 * 0.25 / (2 * 0.25)),
        ],
    ),
    Symbolic(
        key="iteration-uniform-schedule", chapter=CHAPTER, stars=2,
        answer="alpha/(2*m*sigma**2)",
        symbols={"alpha": (1.1, 64.0), "sigma": (0.3, 10.0), "m": (1, 200, "integer")},
        hint="Spread the unit shift over m steps in equal increments and add the Gaussian divergences of the "
             "increments.",
        slips=[
            Slip("missing-m", "that is the bound without iteration; the m increments each carry a share.",
                 "alpha/(2*sigma**2)"),
            Slip("m-squared", "there are m increments, each contributing a square of 1/m.",
                 "alpha/(2*m**2*sigma**2)"),
        ],
    ),
    Code(
        key="iteration-shift-bound", chapter=CHAPTER, stars=2,
        function="shift_bound", signature="(alpha, increments, sigma)",
        reference="dpnotes.amplification:shift_reduction_bound", argmap={"sigma": "scale"},
        inputs=lambda rng: {"alpha": float(rng.uniform(1.5, 20.0)),
                            "increments": rng.uniform(0.01, 1.0, int(rng.integers(1, 9))),
                            "sigma": float(rng.uniform(0.5, 3.0))},
        n_cases=40, edge_cases=[{"alpha": 2.0, "increments": np.array([1.0]), "sigma": 1.0}],
        hint="Each increment d_i is a shift absorbed by one Gaussian noise: add up their Rényi divergences.",
        slips=[
            Slip("sum-then-square", "square each increment, then add; not the square of the sum.",
                 lambda alpha, increments, sigma: float(alpha * np.sum(increments) ** 2 / (2 * sigma**2))),
            Slip("missing-two", "the factor 2 in the denominator of the Gaussian's divergence is missing.",
                 lambda alpha, increments, sigma: float(alpha * np.sum(increments**2) / sigma**2)),
        ],
    ),
    Explore(
        key="iteration-last-iterate-reading", chapter=CHAPTER, stars=1,
        figure="iteration-last-iterate", sliders={"n": 500.0, "sigma": 1.0},
        answer=lambda: figure_value("iteration-last-iterate", {"n": 500.0, "sigma": 1.0}, "exact for a linear loss"),
        hint="Set both sliders as asked and read the line of the exact value for a linear loss.",
        slips=[
            Slip("default-n", "n is still at its default; move the slider as asked.",
                 lambda: figure_value("iteration-last-iterate", {"n": 100.0, "sigma": 1.0}, "exact for a linear loss")),
            Slip("every-iterate", "that is the curve when every iterate is released.",
                 lambda: figure_value("iteration-last-iterate", {"n": 500.0, "sigma": 1.0}, "every iterate")),
        ],
    ),
]
