"""Figures of the chapter "Why privacy": θ* as one record moves, and membership leakage vs σ.
"""

import functools

import numpy as np

from ..learning import (
    dpsgd_epsilon_of,
    membership_accuracy_bound,
    membership_experiment,
    minimiser_path,
)
from ..widgets import Figure, Slider, Trace

POSITIONS = np.linspace(-3.0, 3.0, 41)  # where the moved record is placed
DELTA = 1e-5
STEPS = 200
Q = 0.1


@functools.lru_cache(maxsize=64)
def _sample(n):
    return np.sort(np.random.default_rng(2026).standard_normal(int(n)).clip(-2.5, 2.5))


def theta_record_traces(n, rank):
    data = _sample(int(n))
    i = int(round(rank * (int(n) - 1)))
    others = np.delete(data, i)
    return [
        Trace("θ* for the absolute loss (median)", POSITIONS, minimiser_path(data, i, POSITIONS)),
        Trace("θ* for the squared loss (mean)", POSITIONS, minimiser_path(data, i, POSITIONS, "mean"), dash="dash"),
        Trace("the moved record itself (θ* = record)", POSITIONS[[0, -1]], POSITIONS[[0, -1]], dash="dot"),
        Trace("the other records", others, np.full(others.size, -3.0), mode="markers"),
    ]


def membership_traces(sigma):
    cps, acc0 = membership_experiment(0.0, steps=STEPS, q=Q)
    _, acc = membership_experiment(float(sigma), steps=STEPS, q=Q)
    eps = dpsgd_epsilon_of(Q, float(sigma), cps, DELTA)
    return [
        Trace("attack accuracy, no noise (σ = 0)", cps, acc0, dash="dash"),
        Trace("attack accuracy, DP-SGD with this σ", cps, acc),
        Trace("(ε, δ)-DP bound on any attack, (e<sup>ε</sup>+δ)/(1+e<sup>ε</sup>)", cps,
              membership_accuracy_bound(eps, DELTA), dash="dot"),
        Trace("guessing (1/2)", cps[[0, -1]], np.full(2, 0.5), dash="dot"),
    ]


THETA_RECORD = Figure(
    key="learning-theta-record",
    claims=("S3-08",),
    title="Releasing θ* releases a record: the minimiser as one record moves",
    compute=theta_record_traces,
    sliders=[
        Slider.linear("n", "n (records)", 3, 22, 1, 9),
        Slider.linear("rank", "which record moves (rank / (n − 1))", 0.0, 1.0, 0.25, 0.5, fmt=".2f"),
    ],
    x_label="position of the moved record",
    y_label="θ*",
    y_range=(-3.1, 3.1),
    caption="For odd n the median equals the moved record while it is the middle one (it lies on the dotted "
            "diagonal), and otherwise equals another record; the mean moves by 1/n of the record's move. "
            "Markers at the bottom: the other records.",
)

MEMBERSHIP = Figure(
    key="learning-membership",
    title="Membership inference against logistic regression, without and with DP-SGD",
    compute=membership_traces,
    sliders=[Slider.logspace("sigma", "σ (noise multiplier)", 0.5, 8.0, 9, 2.0)],
    x_label="training steps T (sampling rate q = 0.1, clipping norm C = 1)",
    y_label="attack accuracy",
    y_range=(0.45, 1.02),
    caption="Loss-threshold attack, averaged over 16 training sets with fixed random draws (50 members, "
            "50 non-members, 100 features). "
            "The bound uses the ε accounted after each number of steps, at δ = 10⁻⁵.",
)

FIGURES = {f.key: f for f in (THETA_RECORD, MEMBERSHIP)}
