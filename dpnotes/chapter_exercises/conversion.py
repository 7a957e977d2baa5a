"""Exercises of the conversion chapter, with answers computed by the package.
"""

import numpy as np

from ..conversion import delta_from_rdp_curve, epsilon_from_rdp, epsilon_from_zcdp
from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
from ..rdp import rdp_gaussian

CHAPTER = "03-conversion"
_LOG_INV_DELTA = np.log(1e6)


_SIGMA_READ = 3.017088168272582  # a position of the σ slider near 3


def _random_gaussian_curve(rng):
    """The RDP curve α/(2σ²) of a Gaussian mechanism on a grid of orders, and δ."""
    orders = np.array([1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0, 128.0, 256.0])
    sigma = float(rng.uniform(1.0, 5.0))
    return {"orders": orders, "rdp": orders / (2 * sigma**2), "delta": float(10 ** rng.uniform(-8, -3))}


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
    Symbolic(
        key="conversion-optimal-order-formula", chapter=CHAPTER, stars=2,
        answer="1 + sigma*sqrt(2*log(1/delta))",
        symbols={"sigma": (0.5, 10.0), "delta": (1e-10, 0.1)},
        hint="Minimise α/(2σ²) + log(1/δ)/(α − 1) over α > 1: set the derivative to zero.",
        slips=[
            Slip("missing-one", "the minimiser is an order α > 1; solve for α, not for α − 1.",
                 "sigma*sqrt(2*log(1/delta))"),
            Slip("missing-two", "a factor 2 is missing under the square root.", "1 + sigma*sqrt(log(1/delta))"),
        ],
    ),
    Code(
        key="conversion-rdp-to-dp", chapter=CHAPTER, stars=2,
        function="epsilon_from_curve", signature="(orders, rdp, delta)",
        reference="dpnotes.conversion:epsilon_from_rdp", fixed={"method": "mironov"},
        inputs=_random_gaussian_curve, n_cases=30,
        hint="Each order gives its own (ε, δ) guarantee; the accountant reports the best of them.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda orders, rdp, delta: float(np.min(rdp + np.log10(1 / delta) / (orders - 1)))),
            Slip("alpha-for-alpha-minus-1", "it looks as if you divided by α where α − 1 belongs.",
                 lambda orders, rdp, delta: float(np.min(rdp + np.log(1 / delta) / orders))),
        ],
    ),
    Explore(
        key="conversion-gaussian-reading", chapter=CHAPTER, stars=1,
        figure="conversion-gaussian", sliders={"sigma": _SIGMA_READ},
        answer=lambda: figure_value("conversion-gaussian", {"sigma": _SIGMA_READ}, "improved conversion"),
        hint="Set σ as asked and read the improved conversion at the right end (the largest δ shown).",
        slips=[
            Slip("default-sigma", "σ is still at its default; move the slider as asked.",
                 lambda: figure_value("conversion-gaussian", {"sigma": 1.0}, "improved conversion")),
            Slip("exact-curve", "that is the exact ε(δ); the question asks for the improved conversion.",
                 lambda: figure_value("conversion-gaussian", {"sigma": _SIGMA_READ}, "exact")),
        ],
    ),
]
