"""Exercises of the conversion chapter, with answers computed by the package.

Used in: book/03-conversion
"""

import numpy as np

from ..conversion import delta_from_rdp_curve, epsilon_from_rdp, epsilon_from_zcdp
from ..exercise_kinds import Numeric, Slip
from ..rdp import rdp_gaussian

CHAPTER = "03-conversion"
_LOG_INV_DELTA = np.log(1e6)

EXERCISES = [
    Numeric(
        key="conversion-mironov", chapter=CHAPTER, stars=1,
        answer=lambda: epsilon_from_rdp([10.0], [3.0], 1e-6, method="mironov"),
        hint="Apply Mironov's conversion at the single order given: the RDP ε plus a term in log(1/δ) that "
             "shrinks as the order grows.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: 3.0 + 6.0 / 9.0),
            Slip("alpha-for-alpha-minus-1", "it looks as if you wrote α where α − 1 belongs.",
                 lambda: 3.0 + _LOG_INV_DELTA / 10.0),
            Slip("missing-rdp-epsilon", "the RDP ε(α) itself is missing from the conversion.",
                 lambda: _LOG_INV_DELTA / 9.0),
        ],
    ),
    Numeric(
        key="conversion-optimal-order", chapter=CHAPTER, stars=2,
        answer=lambda: delta_from_rdp_curve(lambda a: rdp_gaussian(a, 2.0), 1.0, method="mironov",
                                            return_order=True)[1],
        hint="Write log δ of the conversion as a function of α for the Gaussian curve, and set its derivative "
             "to zero.",
        slips=[
            Slip("divided-by-sigma2", "that divides by σ² where it should multiply.", lambda: (1 + 2 * 1.0 / 4.0) / 2),
            Slip("alpha-for-alpha-minus-1", "it looks as if you wrote α where α − 1 belongs (in the factor in front "
                                            "of the exponent).", lambda: 1.0 * 2.0**2),
        ],
    ),
    Numeric(
        key="conversion-example2-delta", chapter=CHAPTER, stars=2,
        answer=lambda: delta_from_rdp_curve(lambda a: rdp_gaussian(a, 2.0), 1.5, method="mironov"),
        hint="Evaluate the δ of the conversion at the optimal order (the formula of the previous exercise), now "
             "with ε = 1.5 and σ = 2.",
        slips=[
            Slip("no-half-in-exponent", "the halving in the exponent is missing.",
                 lambda: np.exp(-(1.5 * 2.0 - 1 / (2 * 2.0)) ** 2)),
            Slip("sigma-inverted", "σ and 1/σ are exchanged.", lambda: np.exp(-(1.5 / 2.0 - 2.0 / 2) ** 2 / 2)),
        ],
    ),
    Numeric(
        key="conversion-zcdp", chapter=CHAPTER, stars=1,
        answer=lambda: epsilon_from_zcdp(0.2, 1e-6),
        hint="Use the Bun–Steinke conversion of this chapter, with the natural logarithm of 1/δ.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: 0.2 + 2 * np.sqrt(0.2 * 6.0)),
            Slip("missing-two", "the factor 2 in front of the square root is missing.",
                 lambda: 0.2 + np.sqrt(0.2 * np.log(1e6))),
            Slip("missing-rho", "the ρ term in front is missing.", lambda: 2 * np.sqrt(0.2 * np.log(1e6))),
        ],
    ),
]
