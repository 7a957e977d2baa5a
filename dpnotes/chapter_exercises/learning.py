"""Exercises of the chapter "Why privacy", with answers computed by the package.
"""

import numpy as np

from ..exercise_kinds import Code, Criterion, Explore, Numeric, Slip, Symbolic, Written, figure_value
from ..learning import dpsgd_epsilon_of, membership_accuracy_bound, replace_one_sensitivity

CHAPTER = "00-why-privacy"
MEDIAN_DATA = (0.1, 0.3, 0.35, 0.8, 0.9)


def _random_losses(rng):
    """Losses of members and non-members (2 to 12 each) and a threshold between them."""
    a = rng.exponential(0.5, int(rng.integers(2, 13)))
    b = rng.exponential(1.0, int(rng.integers(2, 13)))
    return {"loss_in": a, "loss_out": b, "threshold": float(rng.uniform(0.1, 1.5))}


_SIGMA_READ = 1.0  # a position of the σ slider (not its default, 2)
_ATTACK, _BOUND = "attack accuracy, DP-SGD", "(ε, δ)-DP bound"


def _realised_share(sigma=_SIGMA_READ, attack=_ATTACK):
    """The attack's edge over guessing as a share of the edge the (ε, δ) bound allows, at the last step."""
    fig = "learning-membership"
    return ((figure_value(fig, {"sigma": sigma}, attack) - 0.5)
            / (figure_value(fig, {"sigma": sigma}, _BOUND) - 0.5))

EXERCISES = [
    Numeric(
        key="learning-median-sensitivity", chapter=CHAPTER, stars=1, task="multi-step",
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
        key="learning-mean-sensitivity", chapter=CHAPTER, stars=1, task="multi-step",
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
        key="learning-membership-bound", chapter=CHAPTER, stars=2, task="multi-step",
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
        key="learning-dpsgd-epsilon", chapter=CHAPTER, stars=1, task="plug-in",
        answer=lambda: dpsgd_epsilon_of(0.01, 1.1, 1000, 1e-5),
        hint="Call the accountant with the sampling rate, the noise multiplier, the number of steps and δ, "
             "in the order of its signature.",
        slips=[
            Slip("one-step", "a missing composition count: the accountant must compose all T steps.",
                 lambda: dpsgd_epsilon_of(0.01, 1.1, 1, 1e-5)),
        ],
    ),
    Symbolic(
        key="learning-mean-range", chapter=CHAPTER, stars=1, task="derive",
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
        key="learning-threshold-attack", chapter=CHAPTER, stars=2, task="implement",
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
        key="learning-membership-sigma", chapter=CHAPTER, stars=1, task="reading",
        figure="learning-membership", sliders={"sigma": _SIGMA_READ},
        answer=_realised_share,
        hint="Move the σ slider as asked; at the last step read the DP-SGD attack's accuracy and the bound, and "
             "measure both from the guessing line.",
        slips=[
            Slip("default-sigma", "σ is still at its default; move the slider as asked.",
                 lambda: _realised_share(sigma=2.0)),
            Slip("no-noise-curve", "that is the attack without noise; the question asks about DP-SGD.",
                 lambda: _realised_share(attack="attack accuracy, no noise")),
            Slip("inverted", "that is the bound's edge over the attack's; the question asks what share of the "
                             "allowed edge the attack realises.", lambda: 1 / _realised_share()),
            Slip("not-from-guessing", "measure both accuracies from the guessing line 1/2, not from 0.",
                 lambda: figure_value("learning-membership", {"sigma": _SIGMA_READ}, _ATTACK)
                 / figure_value("learning-membership", {"sigma": _SIGMA_READ}, _BOUND)),
        ],
    ),
    Written(
        key="learning-critique-model-card", chapter=CHAPTER, stars=2, task="critique",
        model_solution=r"""The card draws a guarantee from an experiment and reads a guarantee that says little as one that
says much. Three flaws.

1. *What $\varepsilon = 8$ certifies.* The membership bound of this chapter caps the balanced accuracy of **every**
   attack at $(e^\varepsilon + \delta)/(1 + e^\varepsilon)$. At $\varepsilon = 8$, $\delta = 10^{-5}$ this is
   $(e^8 + 10^{-5})/(1 + e^8) \approx 0.99966$: the guarantee does not rule out an attack that is right
   about membership almost every time. It certifies nothing near 51 %.
2. *What the attack shows.* One attack's accuracy is a *lower* bound on what an adversary can do, never an upper
   bound: a stronger attack (per-example thresholds, shadow models, many queries) may do better, and a balanced
   accuracy averaged over all records hides the few outliers that a model memorises. "Our attack reached 51 %"
   says the attack is weak, not that the model is private.
3. *What a 51 % certificate would need.* For the bound to certify 51 % one needs
   $(e^\varepsilon + \delta)/(1 + e^\varepsilon) \le 0.51$, i.e.
   $e^\varepsilon \le (0.51 - \delta)/0.49$, so $\varepsilon \le \log\big((0.51 - 10^{-5})/0.49\big) \approx 0.0400$,
   two hundred times smaller than the reported $\varepsilon$.

A correct card says: "$(8, 10^{-5})$-DP; this guarantee alone bounds any membership attack's balanced accuracy only
by $0.9997$; our loss-threshold attack reached 51 %, which is a lower bound on the leakage, not a certificate."
""",
        rubric=[
            Criterion(1, "Computes the cap (e^ε + δ)/(1 + e^ε) ≈ 0.9997 at ε = 8 and says it certifies almost "
                         "nothing."),
            Criterion(1, "Says one attack's accuracy is a lower bound on leakage (a stronger attack may exist), not "
                         "a guarantee."),
            Criterion(1, "Notes that an average over records can hide memorised outliers (the guarantee is worst "
                         "case, the experiment is average case)."),
            Criterion(1, "Finds the ε that would certify 51 % (about 0.04) or an equivalent quantitative "
                         "comparison."),
        ],
    ),
    Written(
        key="learning-local-sensitivity", chapter=CHAPTER, stars=3, task="prove",
        model_solution=r"""Take $n = 5$ records in $[0, 1]$ and the mechanism
$M(x) = \mathrm{med}(x) + \mathrm{Lap}\big(0, \mathrm{LS}(x)/\varepsilon\big)$, where the local sensitivity
$\mathrm{LS}(x)$ is the largest change of the median when one record of *this* data set is replaced (noise of
scale $0$ means no noise).

*Two neighbours.* Let $x = (0, 0, 0, 0, 1)$ and $x' = (0, 0, 0, 1, 1)$; they differ in the fourth record. Sorted,
the median of $x$ is its third record. Replacing one record of $x$ leaves at least three zeros, so the median stays
$0$: $\mathrm{LS}(x) = 0$, and $M(x) = 0$ with probability $1$. In $x'$, replacing a $0$ by $1$ gives
$(0, 0, 1, 1, 1)$ with median $1$, so $\mathrm{LS}(x') = 1$ and $M(x')$ has the continuous law
$\mathrm{Lap}(0, 1/\varepsilon)$.

*No $(\varepsilon', \delta)$ holds.* For the event $E = \{0\}$, $\Pr[M(x) \in E] = 1$ and $\Pr[M(x') \in E] = 0$.
Differential privacy would need $1 \le e^{\varepsilon'} \cdot 0 + \delta$, i.e. $\delta \ge 1$: the mechanism is
not $(\varepsilon', \delta)$-DP for any $\varepsilon'$ and any $\delta < 1$.

*Why.* The noise scale is itself a function of the data, released through the output: its sensitivity is not
bounded by the noise. A DP guarantee must hold for every pair of neighbours, so the noise must be calibrated to the
*global* sensitivity (the supremum of the local one over all data sets, $1$ for the median on $[0, 1]$), or to an
upper bound of the local one that itself changes slowly between neighbours.
""",
        rubric=[
            Criterion(1, "Gives two explicit neighbouring data sets whose local sensitivities differ, one of them 0."),
            Criterion(1, "Computes both local sensitivities correctly."),
            Criterion(2, "Exhibits an event with probability 1 under one and 0 under the other, and concludes no "
                         "(ε, δ) with δ < 1 holds."),
            Criterion(1, "Explains the cause: the noise scale depends on the data, so the guarantee needs the global "
                         "(or a smooth) sensitivity."),
        ],
    ),
]
