"""Exercises of the hypothesis-testing chapter, with answers computed by the package.

Used in: book/04-hypothesis-testing
"""

from ..composition import gaussian_sigma_exact
from ..exercises import Exercise
from ..privacy_loss import delta_randomized_response, delta_tail_bound, privacy_loss_gaussian
from ..properties import moment_difference_bound, posterior_bound
from ..tradeoff import tradeoff_gaussian

Exercise(
    "hypothesis-rr-delta",
    answer=lambda: delta_randomized_response(0.4, 0.8),
    hint="The best event is the report where P exceeds e^ε Q (the truthful one); δ = P(E) − e^ε Q(E) there.",
)
Exercise(
    "hypothesis-tail-bound",
    answer=lambda: delta_tail_bound(privacy_loss_gaussian(0.5), 2.5),
    hint="For σ = 0.5 and Δ = 1, μ = 2 and the privacy loss Z is normal with mean μ²/2 and variance μ²; "
         "use its survival function at ε.",
)
Exercise(
    "hypothesis-posterior",
    answer=lambda: posterior_bound(0.1, 1.0),
    hint="Bayes' rule with a likelihood ratio of at most e^ε: π₀/(π₀ + (1 − π₀)e^{−ε}).",
)
Exercise(
    "hypothesis-moment",
    answer=lambda: moment_difference_bound(0.1, 1e-3, 2.0, 10.0),
    hint="Plug into (e^ε − 1)·E|Y| + 2δB with B = 10.",
)
Exercise(
    "hypothesis-tradeoff-gaussian",
    answer=lambda: tradeoff_gaussian(0.05, 1.0 / gaussian_sigma_exact(1.0, 1e-5)),
    hint="First calibrate: the exact σ for (1, 10⁻⁵) with Δ₂ = 1, so μ = 1/σ. Then the Gaussian trade-off function "
         "G_μ(α_I) = Φ(Φ⁻¹(1 − α_I) − μ) at α_I = 0.05.",
)
