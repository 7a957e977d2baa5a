r"""Rényi DP of subsampled mechanisms: the generic bound and the exact sampled Gaussian.

Two routes to the privacy of a subsampled mechanism:

* the generic bound of source S4, Claim 24, which needs nothing but the RDP
  curve ε(α) of the inner mechanism and gains a factor q (the sampling rate), and
* the exact RDP of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar
  and Zhang 2019), which gains q² for small q — the gap of source S4, Example 4
  and Claim 26.

The exact value is computed from
:math:`A_\alpha = \mathbb E_{z\sim\mathcal N(0,\sigma^2)}\big[(1-q+q\,e^{(2z-1)/(2\sigma^2)})^\alpha\big]`
— by the binomial expansion (source S4, Claim 27 / (9.5)) for integer α and by
an error-controlled trapezoidal rule for fractional α — always through
:math:`A_\alpha-1` written as a sum or integral of non-negative terms, so that
tiny values (q = 10⁻⁶, σ = 10³: ε ≈ 10⁻¹⁸) keep full relative precision.

The package, stage by stage (each module's docstring says more):

``moments``
    log A_α and log B_α of the sampled Gaussian: the binomial sum for integer
    α, the trapezoidal rule on its windows for fractional α, in log space.
``sampled_gaussian``
    :func:`rdp_subsampled_gaussian`, its reverse direction and
    :func:`log_moment_subsampled_gaussian`, with their argument checks and
    limits.
``generic``
    the generic bound of Claim 24 (:func:`rdp_subsampled`) and its
    relaxation.
``optimal_order``
    ε (δ) of T composed steps at the best order, searched on the exact
    curve (:func:`epsilon_rdp_subsampled_gaussian`): the fast default of
    the DP-SGD "rdp" route.
``claim26``
    the constant K(c₁, c₂) of Claim 26 (certified bracket), the sum in the
    seed's proof, and the counterexample to Conjecture 1.
"""

from .sampled_gaussian import (
    log_moment_subsampled_gaussian,
    rdp_subsampled_gaussian,
    rdp_subsampled_gaussian_reverse,
)
from .generic import rdp_subsampled, rdp_subsampled_relaxed
from .optimal_order import ORDER_LADDER, delta_rdp_subsampled_gaussian, epsilon_rdp_subsampled_gaussian
from .claim26 import (
    claim26_constant,
    claim26_constant_bracket,
    claim26_seed_sum,
    conjecture1_counterexample,
)

__all__ = [
    "rdp_subsampled_gaussian",
    "log_moment_subsampled_gaussian",
    "rdp_subsampled_gaussian_reverse",
    "rdp_subsampled",
    "rdp_subsampled_relaxed",
    "claim26_constant",
    "claim26_constant_bracket",
    "claim26_seed_sum",
    "conjecture1_counterexample",
    "ORDER_LADDER",
    "epsilon_rdp_subsampled_gaussian",
    "delta_rdp_subsampled_gaussian",
]
