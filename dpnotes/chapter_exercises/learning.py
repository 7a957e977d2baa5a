"""Exercises of the chapter "Why privacy", with answers computed by the package.
"""

import numpy as np

from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
from ..learning import dpsgd_epsilon_of, membership_accuracy_bound, replace_one_sensitivity

CHAPTER = "00-why-privacy"
MEDIAN_DATA = (0.1, 0.3, 0.35, 0.8, 0.9)


def _random_losses(rng):
    """Losses of members and non-members (2 to 12 each) and a threshold between them."""
    a = rng.exponential(0.5, int(rng.integers(2, 13)))
    b = rng.exponential(1.0, int(rng.integers(2, 13)))
    return {"loss_in": a, "loss_out": b, "threshold": float(rng.uniform(0.1, 1.5))}


_SIGMA_READ = 0.5  # the σ slider's smallest position

EXERCISES = [
    Numeric(
        key="learning-median-sensitivity", chapter=CHAPTER, stars=1,
        answer=lambda: replace_one_sensitivity(MEDIAN_DATA, 0.0, 1.0),
        hint="Replacing one record can move the median of five sorted points only to a neighbouring order "
             "statistic: compare the two gaps next to the middle point.",
        slips=[
            Slip("lower-gap", "that is the gap to the lower neighbour; a replaced record can also push the median up.",
                 lambda: 0.35 - 0.3),
            Slip("to-the-extreme", "the median cannot jump to the largest record: it moves only to a neighbouring "
                                   "order statistic.", lambda: 0.9 - 0.35),
            Slip("worst-case-over-data", "that is the worst case over all data sets in [0, 1]; the question fixes "
                                         "these five records.", lambda: 1.0),
        ],
    ),
    Numeric(
        key="learning-mean-sensitivity", chapter=CHAPTER, stars=1,
        answer=lambda: replace_one_sensitivity(MEDIAN_DATA, 0.0, 1.0, "mean"),
        hint="The mean moves by the change of one record divided by n; which record can change the most inside [0, 1]?",
        slips=[
            Slip("not-divided-by-n", "that is how far one record can move; the mean divides that change by n.",
                 lambda: 0.9),
            Slip("worst-case-over-data", "that is the worst case over all data sets in [0, 1]; on these records, "
                                         "which one can move farthest?", lambda: 1.0 / 5),
        ],
    ),
    Numeric(
        key="learning-membership-bound", chapter=CHAPTER, stars=2,
        answer=lambda: membership_accuracy_bound(1.0, 0.0),
        hint="With δ = 0, the true- and false-positive rates of any test are tied by the factor e^ε in both "
             "directions (for the test and for its complement); maximise the balanced accuracy under both constraints.",
        slips=[
            Slip("advantage", "that is the advantage TPR − FPR, not the balanced accuracy (TPR + TNR)/2.",
                 lambda: np.expm1(1.0) / (np.e + 1.0)),
            Slip("error-rate", "that is the smallest error rate of the best test, not its accuracy.",
                 lambda: 1.0 / (1.0 + np.e)),
        ],
    ),
    Numeric(
        key="learning-dpsgd-epsilon", chapter=CHAPTER, stars=1,
        answer=lambda: dpsgd_epsilon_of(0.01, 1.1, 1000, 1e-5),
        hint="Call the accountant with the sampling rate, the noise multiplier, the number of steps and δ, "
             "in the order of its signature.",
        slips=[
            Slip("one-step", "a missing composition count: the accountant must compose all T steps.",
                 lambda: dpsgd_epsilon_of(0.01, 1.1, 1, 1e-5)),
        ],
    ),
    Symbolic(
        key="learning-mean-range", chapter=CHAPTER, stars=1,
        answer="(b - a)/n",
        symbols={"a": (0.01, 1.0), "b": (1.5, 5.0), "n": (2, 500, "integer")},
        hint="Replace one record by another value of [a, b] and see how far the mean can move.",
        slips=[
            Slip("missing-range", "the records lie in [a, b], not in [0, 1]: the width of the range belongs in it.",
                 "1/n"),
            Slip("n-minus-one", "the mean divides by the number of records n, and one of them changes.",
                 "(b - a)/(n - 1)"),
        ],
    ),
    Code(
        key="learning-threshold-attack", chapter=CHAPTER, stars=2,
        function="attack_accuracy", signature="(loss_in, loss_out, threshold)",
        reference="dpnotes.learning:loss_threshold_attack_accuracy",
        inputs=_random_losses, n_cases=30,
        edge_cases=[{"loss_in": np.array([0.1, 0.2]), "loss_out": np.array([0.3, 0.4]), "threshold": 0.25}],
        hint="The attack says 'member' when a record's loss is below the threshold; score both groups.",
        slips=[
            Slip("members-only", "that is the accuracy on the members alone; the balanced accuracy also scores the "
                                 "non-members.", lambda loss_in, loss_out, threshold: float(np.mean(loss_in < threshold))),
            Slip("reversed", "the attack says 'member' for a small loss (a memorised record), not a large one.",
                 lambda loss_in, loss_out, threshold: 0.5 * float(np.mean(loss_in >= threshold)
                                                                  + np.mean(loss_out < threshold))),
        ],
    ),
    Explore(
        key="learning-membership-sigma", chapter=CHAPTER, stars=1,
        figure="learning-membership", sliders={"sigma": _SIGMA_READ},
        answer=lambda: figure_value("learning-membership", {"sigma": _SIGMA_READ}, "attack accuracy, DP-SGD"),
        hint="Move the σ slider as asked and read the DP-SGD curve at its right end.",
        slips=[
            Slip("default-sigma", "σ is still at its default; move the slider as asked.",
                 lambda: figure_value("learning-membership", {"sigma": 2.0}, "attack accuracy, DP-SGD")),
            Slip("no-noise-curve", "that is the curve without noise; the question asks about DP-SGD.",
                 lambda: figure_value("learning-membership", {"sigma": _SIGMA_READ}, "attack accuracy, no noise")),
        ],
    ),
]
