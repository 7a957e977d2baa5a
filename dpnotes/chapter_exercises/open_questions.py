"""Exercises of the chapter "Lower bounds, joint DP and open questions", answers from the package.

Used in: book/10-lower-bounds-and-open-questions
"""

from ..exercises import Exercise
from ..joint_dp import joint_dp_epsilon, noisy_count_mechanism
from ..lower_bounds import fingerprinting_terms
from ..noise_comparison import max_divergence

Exercise(
    "oq-fingerprint-mean-correlation",
    answer=lambda: fingerprinting_terms(10, "mean")["correlation"],
    hint="For f = X̄, E[(X̄ − θ)·Σ(X_i − θ) | θ] = n·Var(X̄ | θ); then average over θ ~ U[0, 1].",
)
Exercise(
    "oq-fingerprint-constant",
    answer=lambda: fingerprinting_terms(5, "half")["lhs"],
    hint="A constant f does not correlate with the data; what is E[(1/2 − θ)²] for θ uniform?",
)
Exercise(
    "oq-laplace-max-divergence",
    answer=lambda: max_divergence("laplace", variance=2.0),
    hint="Laplace noise of variance 2b² has scale b; its privacy loss is at most the shift divided by b.",
)
Exercise(
    "oq-joint-epsilon",
    answer=lambda: joint_dp_epsilon(noisy_count_mechanism(0.8), 3),
    hint="Person i's bit reaches the other people only through one randomized-response report.",
)
