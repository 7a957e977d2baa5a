"""Exercises of the conversion chapter, with answers computed by the package.

Used in: book/03-conversion
"""

from ..conversion import delta_from_rdp_curve, epsilon_from_rdp, epsilon_from_zcdp
from ..exercises import Exercise
from ..rdp import rdp_gaussian

Exercise(
    "conversion-mironov",
    answer=lambda: epsilon_from_rdp([8.0], [4.0], 1e-5, method="mironov"),
    hint="Mironov's conversion at a single order: ε = ε(α) + log(1/δ)/(α − 1).",
)
Exercise(
    "conversion-optimal-order",
    answer=lambda: delta_from_rdp_curve(lambda a: rdp_gaussian(a, 2.0), 1.0, method="mironov",
                                        return_order=True)[1],
    hint="Minimise the exponent (α − 1)(α/(2σ²) − ε) over α: set its derivative to zero.",
)
Exercise(
    "conversion-example2-delta",
    answer=lambda: delta_from_rdp_curve(lambda a: rdp_gaussian(a, 2.0), 1.0, method="mironov"),
    hint="Evaluate exp(−(εσ − 1/(2σ))²/2) at ε = 1, σ = 2.",
)
Exercise(
    "conversion-zcdp",
    answer=lambda: epsilon_from_zcdp(0.1, 1e-6),
    hint="Use ε = ρ + 2√(ρ log(1/δ)) with the natural logarithm.",
)
