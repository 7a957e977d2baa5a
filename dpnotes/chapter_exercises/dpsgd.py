"""Exercises of the DP-SGD chapter, with answers computed by the package.

Used in: book/06-dpsgd
"""

import warnings

import numpy as np

from ..conversion import OrderGridWarning
from ..dpsgd import dpsgd_epsilon, steps_from_epochs
from ..exercise_kinds import Numeric, Slip

CHAPTER = "06-dpsgd"
_A, _L = 100 / (2 * 10.0**2), np.log(1e5)


def _quiet(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OrderGridWarning)
        return dpsgd_epsilon(*args, **kwargs)


EXERCISES = [
    Numeric(
        key="dpsgd-steps", chapter=CHAPTER, stars=1,
        answer=lambda: steps_from_epochs(20, 128 / 50000),
        hint="One epoch is 1/q steps with q the batch over the data set size; round the number of steps up.",
        slip_tol=1e-5,  # an integer answer: one step off is a slip, not a rounding
        slips=[
            Slip("rounded-down", "round the number of steps up: a started step is a step.", lambda: 7812.0),
            Slip("times-q", "the number of steps is the epochs divided by q, not multiplied by it.",
                 lambda: 20 * 128 / 50000),
            Slip("one-epoch", "that is one epoch; the run has twenty.", lambda: 50000 / 128),
        ],
    ),
    Numeric(
        key="dpsgd-route2", chapter=CHAPTER, stars=2,
        answer=lambda: _quiet(1.0, 10.0, 100, 1e-5, route="route2"),
        hint="Compose the Gaussian's RDP over the T steps, add the conversion term of route 2 and minimise over α "
             "by calculus.",
        rtol=1e-3,
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: _A + 2 * np.sqrt(_A * 5.0)),
            Slip("missing-steps", "a missing composition count: the RDP of one step is multiplied by T.",
                 lambda: 1 / 200 + 2 * np.sqrt(_L / 200)),
            Slip("alpha-for-alpha-minus-1", "it looks as if you wrote α where α − 1 belongs.",
                 lambda: 2 * np.sqrt(_A * _L)),
        ],
    ),
    Numeric(
        key="dpsgd-tight", chapter=CHAPTER, stars=1,
        answer=lambda: _quiet(0.01, 2.0, steps_from_epochs(10, 0.01), 1e-5, route="rdp"),
        hint="Count the steps first (epochs over q); then call dpsgd_epsilon with the route \"rdp\".",
        rtol=1e-4,
        slips=[
            Slip("epochs-as-steps", "T counts steps, not epochs.", lambda: _quiet(0.01, 2.0, 10, 1e-5, route="rdp")),
            Slip("no-subsampling", "that ignores the subsampling (q = 1).",
                 lambda: _quiet(1.0, 2.0, 1000, 1e-5, route="rdp")),
        ],
    ),
]
