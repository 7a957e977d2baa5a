"""Exercises of the subsampling chapter, with answers computed by the package.

Used in: book/05-subsampling
"""

from ..exercises import Exercise
from ..rdp import rdp_gaussian
from ..subsampling import rdp_subsampled, rdp_subsampled_gaussian

Exercise(
    "subsampling-claim24",
    answer=lambda: rdp_subsampled(2.0, 0.1, rdp_gaussian(2.0, 1.0)),
    hint="At α = 2 the Gaussian with σ = 1 has ε(2) = α/(2σ²) = 1; put it into "
         "log(1 + q(e^{(α−1)ε(α)} − 1))/(α − 1).",
)
Exercise(
    "subsampling-exact-order2",
    answer=lambda: rdp_subsampled_gaussian(2.0, 0.1, 1.0),
    hint="For α = 2 the binomial sum has one term beyond j = 1: A₂ = 1 + q²(e^{1/σ²} − 1), "
         "and ε(2) = log A₂.",
)
Exercise(
    "subsampling-ratio",
    answer=lambda: rdp_subsampled(2.0, 0.01, rdp_gaussian(2.0, 1.0)) / rdp_subsampled_gaussian(2.0, 0.01, 1.0),
    hint="Divide the generic bound by the exact value, both at α = 2, σ = 1, q = 0.01; for small q "
         "the ratio is close to 1/q times a constant.",
    rtol=1e-4,
)
