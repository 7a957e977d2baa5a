"""Exercises of the chapter on amplification by iteration, with answers computed by the package.

Used in: book/08-amplification-iteration
"""

import numpy as np

from ..amplification import renyi_shift_sup, shifted_renyi_location
from ..exercises import Exercise
from ..iteration import rdp_noisy_sgd_all_iterates, rdp_noisy_sgd_last_iterate, smoothness_constant

Exercise(
    "iteration-shifted-gaussian",
    answer=lambda: shifted_renyi_location(3.0, 1.5, 0.5, "gaussian", 1.0),
    hint="With a budget z you may move the first distribution towards the second by up to z before measuring D_α.",
)
Exercise(
    "iteration-step-size",
    answer=lambda: 2.0 / smoothness_constant(np.array([[2.0, 0.0], [0.0, 1.0]]), "squared"),
    hint="Compute the Hessian XᵀX/n of the squared loss, its largest eigenvalue β, then the threshold on η.",
)
Exercise(
    "iteration-last-iterate",
    answer=lambda: rdp_noisy_sgd_last_iterate(8.0, 91, 100, 1.0, 4.0),
    hint="Count the noise draws from step t to step n inclusive, and spread the shift 2ηL evenly over them.",
)
Exercise(
    "iteration-positions",
    answer=lambda: float(np.sum(rdp_noisy_sgd_last_iterate(2.0, np.arange(1, 101), 100, 1.0, 1.0)
                                <= 0.1 * rdp_noisy_sgd_all_iterates(2.0, 1.0, 1.0))),
    hint="The ratio of the two quantities depends only on the number of steps from t to the end, n − t + 1.",
)
Exercise(
    "iteration-shift-sup",
    answer=lambda: renyi_shift_sup(4.0, 0.5, "gaussian", 0.5),
    hint="The Gaussian divergence grows with the size of the shift, so the supremum is at the largest allowed shift.",
)
