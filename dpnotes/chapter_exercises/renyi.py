"""Exercises of chapter 1, with answers computed by the package.

Used in: book/01-renyi-gaussian
"""

import numpy as np

from ..exercises import Exercise
from ..rdp import rdp_gaussian, rdp_laplace, rdp_randomized_response

Exercise(
    "renyi-gaussian-order",
    answer=lambda: rdp_gaussian(3.0, 2.0, sensitivity=1.0),
    hint="Use D_α = αΔ²/(2σ²) with α = 3, Δ = 1, σ = 2.",
)
Exercise(
    "renyi-gaussian-sigma",
    answer=lambda: np.sqrt(10.0 / (2.0 * 1.0)),
    hint="Solve αΔ²/(2σ²) ≤ ε for σ with α = 10, ε = 1, Δ = 1.",
)
Exercise(
    "renyi-laplace-order2",
    answer=lambda: rdp_laplace(2.0, 1.0),
    hint="Mironov's formula at α = 2: log(⅔·e + ⅓·e^{−2}).",
)
Exercise(
    "renyi-rr-limit",
    answer=lambda: rdp_randomized_response(np.inf, 0.9),
    hint="As α → ∞ the divergence tends to the largest log-ratio of the two pmfs.",
)
