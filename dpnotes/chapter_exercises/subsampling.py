"""Exercises of the subsampling chapter, with answers computed by the package.

Used in: book/05-subsampling
"""

import numpy as np

from ..exercise_kinds import Numeric, Slip
from ..rdp import rdp_gaussian
from ..subsampling import rdp_subsampled, rdp_subsampled_gaussian

CHAPTER = "05-subsampling"

EXERCISES = [
    Numeric(
        key="subsampling-claim24", chapter=CHAPTER, stars=1,
        answer=lambda: rdp_subsampled(2.0, 0.2, rdp_gaussian(2.0, 2.0)),
        hint="First the Gaussian's ε(2) with σ = 2; then put it into the generic bound of this chapter at α = 2.",
        slips=[
            Slip("no-log", "the logarithm of the bound is missing.", lambda: 0.2 * np.expm1(0.25)),
            Slip("exact-value", "that is the exact subsampled value; the generic bound is larger.",
                 lambda: np.log(1 + 0.04 * np.expm1(0.25))),
            Slip("missing-two", "the Gaussian's ε(2) = α/(2σ²) is 1/4 here: the factor 2 or the square on σ "
                                "is missing.",
                 lambda: np.log(1 + 0.2 * np.expm1(0.5))),
        ],
    ),
    Numeric(
        key="subsampling-exact-order2", chapter=CHAPTER, stars=2,
        answer=lambda: rdp_subsampled_gaussian(2.0, 0.2, 2.0),
        hint="Write out the binomial sum of this chapter at α = 2: three terms, j = 0, 1, 2; most of it cancels.",
        slips=[
            Slip("generic-bound", "that is the generic bound; the exact value is much smaller.",
                 lambda: np.log(1 + 0.2 * np.expm1(0.25))),
            Slip("no-log", "the logarithm is missing: ε(2) is the logarithm of the sum.",
                 lambda: 0.04 * np.expm1(0.25)),
            Slip("exponent-doubled", "the exponent in the j = 2 term is 1/σ², not 2/σ².",
                 lambda: np.log(1 + 0.04 * np.expm1(0.5))),
        ],
    ),
    Numeric(
        key="subsampling-ratio", chapter=CHAPTER, stars=2,
        answer=lambda: rdp_subsampled(2.0, 0.01, rdp_gaussian(2.0, 1.0)) / rdp_subsampled_gaussian(2.0, 0.01, 1.0),
        hint="Divide the generic bound by the exact value, both at α = 2, σ = 1, q = 0.01.",
        rtol=1e-4,
        slips=[
            Slip("inverted", "you divided the exact value by the bound; the question asks how many times larger "
                             "the bound is.",
                 lambda: rdp_subsampled_gaussian(2.0, 0.01, 1.0) / rdp_subsampled(2.0, 0.01, rdp_gaussian(2.0, 1.0))),
            Slip("small-q-limit", "that is the small-q approximation 1/q; the question asks for the exact ratio.",
                 lambda: 100.0),
        ],
    ),
]
