r"""Properties of Rényi divergence and of (ε, δ) pairs, as computable quantities.

Each function returns the two (or three) sides of an inequality from source S2
— post-processing, quasi-convexity, the triangle-like (group privacy)
inequality, pure DP ⇒ concentrated DP, the moment-difference bound,
approximate RDP — or constructs the object a theorem asserts exists (the
decomposition of an (ε, δ)-indistinguishable pair, its randomized-response
form, the Bayesian event). The tests evaluate them on real pairs: Gaussians,
Laplaces, randomized response and small pmfs.

Two statements of source S2 are printed with typos, corrected here:

* approximate-RDP properties 1–2 read "(∞, δ)-RDP" and "(α, ½ε²δ)-RDP" (the
  seed writes the order α as λ); they are (∞, ε) and (α, ½ε²α);
* the conversion (.5) reads δ̂ = δ + exp((α−1)(ε̂−ε))/α·(1−1/α)^{α−1}; the
  exponent has the wrong sign — it is exp(−(α−1)(ε̂−ε)) (as in RDP property 8).
  With the printed sign the bound grows with ε̂ and is false for ε̂ < ε
  (see :func:`approximate_rdp_delta_hat`);
* the triangle-like inequality's order "D_{α', (α'−1)/α}" is garbled; the
  Hölder argument gives D_{α(α'−1)/(α'−α)} (see :func:`triangle_bound`).

The package, by what its modules hold (each module's docstring says more):

``renyi``
    properties of Rényi divergence: post-processing, quasi-convexity, the
    triangle-like inequality and group privacy, pure DP ⇒ concentrated DP.
``epsilon_delta``
    (ε, δ) statements: group privacy, the moment-difference bound, and
    approximate RDP (its conversion to (ε, δ), the divergence itself).
``decomposition``
    the decompositions of an (ε, δ)-indistinguishable pair: basic, as
    randomized response, and the Bayesian event with its posterior bound.
"""

from .renyi import (
    group_privacy_bound,
    post_processing_sides,
    pure_dp_rdp_bound,
    quasi_convexity_sides,
    triangle_bound,
)
from .decomposition import (
    Decomposition,
    RRDecomposition,
    bayesian_event_probability,
    decompose_dp_pair,
    posterior_bound,
    randomized_response_decomposition,
)
from .epsilon_delta import (
    approximate_rdp_delta_hat,
    approximate_renyi_divergence,
    group_privacy_epsilon_delta,
    moment_difference_bound,
)

__all__ = [
    "post_processing_sides",
    "quasi_convexity_sides",
    "triangle_bound",
    "group_privacy_bound",
    "group_privacy_epsilon_delta",
    "pure_dp_rdp_bound",
    "moment_difference_bound",
    "approximate_rdp_delta_hat",
    "approximate_renyi_divergence",
    "decompose_dp_pair",
    "randomized_response_decomposition",
    "bayesian_event_probability",
    "posterior_bound",
]
