"""Exercises of the DP-SGD chapter, with answers computed by the package.

Used in: book/06-dpsgd
"""

import warnings

from ..conversion import OrderGridWarning
from ..dpsgd import dpsgd_epsilon, steps_from_epochs
from ..exercises import Exercise


def _quiet(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OrderGridWarning)
        return dpsgd_epsilon(*args, **kwargs)


Exercise(
    "dpsgd-steps",
    answer=lambda: steps_from_epochs(20, 128 / 50000),
    hint="One epoch is 1/q steps; round the number of steps up.",
)
Exercise(
    "dpsgd-route2",
    answer=lambda: _quiet(1.0, 10.0, 100, 1e-5, route="route2"),
    hint="With T steps of the full Gaussian, Tα/(2σ²) + log(1/δ)/(α − 1) is smallest at "
         "α = 1 + √(2σ² log(1/δ)/T); the answer uses the book's grid of orders.",
    rtol=1e-3,
)
Exercise(
    "dpsgd-tight",
    answer=lambda: _quiet(0.01, 2.0, steps_from_epochs(10, 0.01), 1e-5, route="rdp"),
    hint="Use dpsgd_epsilon with route='rdp' and steps_from_epochs.",
    rtol=1e-4,
)
