"""Exercises of the chapter on repeated noise addition, with answers computed by the package.

Used in: book/09-repeated-noise
"""

import sympy as sp

from ..convolution import rdp_convolution_bound, rdp_discrete_shift
from ..exercises import Exercise
from ..symbolic.amplification import derive_laplace_bound_asymptotic


def _limit_ratio():
    steps = dict(derive_laplace_bound_asymptotic())
    ratio = sp.simplify(steps["leading term as m → ∞"] / steps["Gaussian of the same variance: α/(2·Var)"])
    return float(ratio)


Exercise(
    "convolution-gaussian-bound",
    answer=lambda: rdp_convolution_bound(4.0, 8, "gaussian", 1.0),
    hint="The repeated-noise bound with P = N(0, σ²): m times the divergence of a shift by 1/m.",
)
Exercise(
    "convolution-laplace-bound",
    answer=lambda: rdp_convolution_bound(2.0, 2, "laplace", 1.0),
    hint="Mironov's formula for Laplace noise with shift Δ = 1/m, multiplied by m.",
)
Exercise(
    "convolution-laplace-limit",
    answer=_limit_ratio,
    hint="Compare the leading term of the bound for large m with the divergence of a Gaussian of the same variance.",
)
Exercise(
    "convolution-discrete-ratio",
    answer=lambda: rdp_discrete_shift(2.0, 3, "gaussian", 1.0) / (3 * rdp_discrete_shift(2.0, 1, "gaussian", 1.0)),
    hint="For the discrete Gaussian, D_α(P+Δ‖P) = αΔ²/(2σ²) whenever αΔ is an integer.",
)
