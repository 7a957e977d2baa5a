"""Exercises of the chapter on repeated noise addition, with answers computed by the package.
"""

import sympy as sp

from ..convolution import rdp_convolution_bound, rdp_discrete_shift
from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
from ..rdp import rdp_laplace
from ..symbolic.amplification import derive_laplace_bound_asymptotic

CHAPTER = "09-repeated-noise"


def _limit_ratio():
    steps = dict(derive_laplace_bound_asymptotic())
    ratio = sp.simplify(steps["leading term as m → ∞"] / steps["Gaussian of the same variance: α/(2·Var)"])
    return float(ratio)



_RHO_READ = 4.0  # a position of the r slider


EXERCISES = [
    Numeric(
        key="convolution-gaussian-bound", chapter=CHAPTER, stars=1,
        answer=lambda: rdp_convolution_bound(4.0, 8, "gaussian", 1.0),
        hint="The released sum carries the noise of all m parties: a Gaussian of m times the variance.",
        slips=[
            Slip("one-noise", "that is one party's noise only: the sum carries all eight.", lambda: 4.0 / 2),
            Slip("variance-m-squared", "the variance of a sum of m independent noises grows like m, not m².",
                 lambda: 4.0 / (2 * 64)),
            Slip("alpha-minus-1-for-alpha", "it looks as if you wrote α − 1 where α belongs.", lambda: 3.0 / 16),
        ],
    ),
    Numeric(
        key="convolution-laplace-bound", chapter=CHAPTER, stars=2,
        answer=lambda: rdp_convolution_bound(2.0, 3, "laplace", 1.0),
        hint="Evaluate the repeated-noise bound of this chapter: the Laplace divergence of the smaller shift comes "
             "from Mironov's formula; do not forget the factor in front.",
        slips=[
            Slip("missing-factor-m", "the bound multiplies the divergence of the small shift by m.",
                 lambda: rdp_laplace(2.0, 1.0, 1 / 3)),
            Slip("full-shift", "the shift in the bound is 1/m, not 1.", lambda: 3 * rdp_laplace(2.0, 1.0, 1.0)),
        ],
    ),
    Numeric(
        key="convolution-laplace-limit", chapter=CHAPTER, stars=3,
        answer=_limit_ratio,
        hint="Compare the leading term of the bound for large m with the divergence of a Gaussian of the same variance.",
        slips=[
            Slip("inverted", "that is the Gaussian's divergence over the bound; the question asks for the bound over "
                             "the Gaussian's.", lambda: 0.5),
            Slip("laplace-variance", "the variance of Lap(0, b) is not b².", lambda: 1.0),
        ],
    ),
    Numeric(
        key="convolution-discrete-ratio", chapter=CHAPTER, stars=2,
        answer=lambda: rdp_discrete_shift(2.0, 3, "gaussian", 1.0) / (3 * rdp_discrete_shift(2.0, 1, "gaussian", 1.0)),
        hint="For the discrete Gaussian the divergence of an integer shift is the continuous one whenever αΔ is "
             "an integer.",
        slips=[
            Slip("not-divided-by-three", "the ratio divides by three times the divergence of the unit shift.",
                 lambda: 9.0),
            Slip("inverted", "that is the inverse ratio.", lambda: 1 / 3),
            Slip("linear-bound", "that assumes the linear bound the exercise tests.", lambda: 1.0),
        ],
    ),
    Symbolic(
        key="convolution-geometric-schedule", chapter=CHAPTER, stars=3,
        answer="alpha*(r - 1)*(r**m + 1)/(2*sigma**2*(r + 1)*(r**m - 1))",
        symbols={"alpha": (1.1, 64.0), "sigma": (0.3, 10.0), "r": (1.1, 3.0), "m": (2, 20, "integer")},
        hint="Normalise the increments d_i ∝ r^i (i = 0, …, m − 1) to sum 1, then sum their squares with two "
             "geometric series.",
        slips=[
            Slip("unnormalised", "the increments must sum to the whole shift, 1: normalise them first.",
                 "alpha*(r**(2*m) - 1)/(2*sigma**2*(r**2 - 1))"),
            Slip("uniform", "that is the uniform schedule; the question asks for the geometric one.",
                 "alpha/(2*m*sigma**2)"),
        ],
    ),
    Code(
        key="convolution-laplace-bound-code", chapter=CHAPTER, stars=2,
        function="laplace_bound", signature="(alpha, m, b)",
        reference="dpnotes.convolution:rdp_convolution_bound", argmap={"b": "scale", "m": "n"},
        fixed={"noise": "laplace"},
        inputs=lambda rng: {"alpha": float(rng.uniform(1.1, 30.0)), "m": int(rng.integers(1, 51)),
                            "b": float(rng.uniform(0.3, 3.0))},
        n_cases=40, rtol=1e-8, edge_cases=[{"alpha": 2.0, "m": 1, "b": 1.0}],
        hint="Split the shift into m equal parts, one per Laplace noise, and add m equal divergences in Mironov's "
             "closed form.",
        slips=[
            Slip("gaussian-formula", "that is the Gaussian's αΔ²/(2σ²) form; Laplace noise has its own closed form.",
                 lambda alpha, m, b: float(alpha / (2 * m * b**2))),
            Slip("missing-count", "a missing count: m noises each absorb a shift 1/m.",
                 lambda alpha, m, b: float(rdp_laplace(alpha, b, 1.0 / m))),
        ],
    ),
    Explore(
        key="convolution-geometric-reading", chapter=CHAPTER, stars=1,
        figure="convolution-schedule", sliders={"n": 8.0, "rho": _RHO_READ},
        answer=lambda: figure_value("convolution-schedule", {"n": 8.0, "rho": _RHO_READ},
                                    "Laplace: geometric schedule", x=1.1),
        hint="Set both sliders as asked and read the Laplace geometric-schedule curve at the smallest order.",
        slips=[
            Slip("uniform-schedule", "that is the uniform schedule (r still at 1, or the uniform curve); move r as "
                                     "asked and read the geometric curve.",
                 lambda: figure_value("convolution-schedule", {"n": 8.0, "rho": _RHO_READ}, "Laplace: uniform", x=1.1)),
        ],
    ),
]
