"""Exercises of the chapter "Why privacy", with answers computed by the package.

Used in: book/00-why-privacy
"""


from ..exercises import Exercise
from ..learning import dpsgd_epsilon_of, membership_accuracy_bound, replace_one_sensitivity

MEDIAN_DATA = (0.1, 0.3, 0.35, 0.8, 0.9)

Exercise(
    "learning-median-sensitivity",
    answer=lambda: replace_one_sensitivity(MEDIAN_DATA, 0.0, 1.0),
    hint="Replacing one record can move the median of five sorted points only to a neighbouring order "
         "statistic: compare the two gaps next to the middle point.",
)
Exercise(
    "learning-mean-sensitivity",
    answer=lambda: replace_one_sensitivity(MEDIAN_DATA, 0.0, 1.0, "mean"),
    hint="The mean moves by (change of one record)/n; which record can change the most inside [0, 1]?",
)
Exercise(
    "learning-membership-bound",
    answer=lambda: membership_accuracy_bound(1.0, 0.0),
    hint="With δ = 0 a test's true- and false-positive rates satisfy TPR ≤ e^ε·FPR and TNR ≤ e^ε·FNR; "
         "maximise (TPR + TNR)/2.",
)
Exercise(
    "learning-dpsgd-epsilon",
    answer=lambda: dpsgd_epsilon_of(0.01, 1.1, 1000, 1e-5),
    hint="Compose the RDP of the sampled Gaussian over 1000 steps and convert at δ = 10⁻⁵ "
         "(dpsgd_epsilon_of does all three steps).",
    rtol=1e-4,
)
