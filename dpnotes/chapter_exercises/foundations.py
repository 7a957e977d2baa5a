"""Exercises of the foundations chapter, with answers computed by the package.

Used in: book/00b-foundations
"""

import numpy as np

from ..composition import gaussian_sigma_exact
from ..exercises import Exercise
from ..privacy_loss import delta_gaussian
from ..properties import group_privacy_epsilon_delta

Exercise(
    "foundations-laplace-epsilon",
    # a sum of records in [−1, 2] under replace-one moves by at most 2 − (−1) = 3; Laplace scale b = 4
    answer=lambda: 3.0 / 4.0,
    hint="First the sensitivity: under replace-one a record can jump from one end of [−1, 2] to the other, "
         "so the sum moves by up to the length of the interval, not by its largest value. Then ε = Δ₁/b.",
)
Exercise(
    "foundations-rr-p",
    answer=lambda: np.exp(2.0) / (1.0 + np.exp(2.0)),
    hint="Randomized response is log(p/(1 − p))-DP and no better; solve log(p/(1 − p)) = 2 for p.",
)
Exercise(
    "foundations-gaussian-sigma",
    answer=lambda: gaussian_sigma_exact(0.25, 1e-6, sensitivity=2.0),
    hint="The exact calibration, not the classical formula: find the σ for which the Gaussian privacy profile "
         "with μ = Δ₂/σ equals δ at ε (the package's gaussian_sigma_exact); remember Δ₂ = 2.",
)
Exercise(
    "foundations-group-delta",
    answer=lambda: group_privacy_epsilon_delta(0.2, 1e-6, 5)[1],
    hint="Group privacy for a group of k: (kε, k e^{(k−1)ε} δ). Here k = 5, so the exponent is (k − 1)ε = 0.8.",
)
Exercise(
    "foundations-tradeoff-read",
    answer=lambda: delta_gaussian(0.5, 0.5),
    hint="With σ = 2 (and Δ₂ = 1), μ = 0.5. The exact value is Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) at ε = 0.5.",
)
