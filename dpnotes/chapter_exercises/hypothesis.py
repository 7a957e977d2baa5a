"""Exercises of the hypothesis-testing chapter, with answers computed by the package.

Used in: book/04-hypothesis-testing
"""

from ..exercises import Exercise
from ..privacy_loss import delta_randomized_response, delta_tail_bound, privacy_loss_gaussian
from ..properties import moment_difference_bound, posterior_bound

Exercise(
    "hypothesis-rr-delta",
    answer=lambda: delta_randomized_response(0.5, 0.75),
    hint="The best set is the outcome where P exceeds e^ε Q; δ = P(S) − e^ε Q(S) there.",
)
Exercise(
    "hypothesis-tail-bound",
    answer=lambda: delta_tail_bound(privacy_loss_gaussian(1.0), 1.0),
    hint="For σ = Δ = 1 the privacy loss Z is normal with mean ½ and variance 1; use its survival function.",
)
Exercise(
    "hypothesis-posterior",
    answer=lambda: posterior_bound(0.1, 1.0),
    hint="Bayes' rule with a likelihood ratio of at most e^ε: p₀/(p₀ + (1 − p₀)e^{−ε}).",
)
Exercise(
    "hypothesis-moment",
    answer=lambda: moment_difference_bound(0.1, 1e-3, 2.0, 10.0),
    hint="Plug into (e^ε − 1)·E|Y| + 2δΔ.",
)
