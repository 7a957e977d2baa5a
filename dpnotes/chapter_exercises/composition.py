"""Exercises of the composition chapter, with answers computed by the package.

Used in: book/02-composition
"""

import numpy as np

from ..composition import (
    epsilon_advanced_composition,
    laplace_scale_for_queries,
    rdp_composition,
)
from ..exercises import Exercise
from ..rdp import rdp_gaussian


def _crossover(eps0=0.1, delta_prime=1e-5):
    """Smallest T at which the S2-08 bound is below basic composition Tε₀."""
    ks = np.arange(1, 100_000)
    adv = epsilon_advanced_composition(eps0, ks, delta_prime, form="drv")
    return float(ks[np.argmax(adv < eps0 * ks)])


Exercise(
    "composition-advanced-eps",
    answer=lambda: epsilon_advanced_composition(0.1, 100, 1e-5, form="zcdp"),
    hint="Use ε = Tε₀²/2 + ε₀√(2T log(1/δ)) with T = 100, ε₀ = 0.1, δ = 10⁻⁵ (natural logarithm).",
)
Exercise(
    "composition-crossover",
    answer=_crossover,
    hint="Compare Tε₀ with ε₀√(2T log(1/δ′)) + Tε₀(e^ε₀ − 1); solve for √T and round up to an integer.",
)
Exercise(
    "composition-rdp-gaussian",
    answer=lambda: float(rdp_composition(rdp_gaussian(10.0, 5.0), 50)[0]),
    hint="At a fixed order the RDP values add: T times α/(2σ²).",
)
Exercise(
    "composition-laplace-tight",
    answer=lambda: laplace_scale_for_queries(100, 1.0, 1e-5, rule="advanced-tight"),
    hint="Solve the quadratic Tε₀²/2 + ε₀√(2T log(1/δ)) = ε for ε₀ > 0; the scale is 1/ε₀.",
)
