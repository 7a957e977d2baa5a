r"""Privacy amplification by repeated noise addition: sums of i.i.d. noise.

If m parties each add an independent copy of a noise P to a statistic of
sensitivity 1, the released value carries the noise P^{∗m}. Source S1 bounds
its Rényi divergence by the shift-reduction argument (Theorem 1):

.. math:: D_\alpha(P^{*m} + 1 \,\|\, P^{*m}) \le m\, D_\alpha(P + 1/m \,\|\, P).

This module evaluates that bound, the EXACT divergence for Laplace sums
(numerically, from the closed-form density of the sum) to answer the post's
question "is the Laplace bound tight?" (it is not: the ratio tends to 2), and
the post's discrete substitute D_α(P+Δ‖P) ≤ Δ·D_α(P+1‖P) in its two readings:
for a single noise it is false at every finite order for discrete Gaussian and
discrete Laplace noise once Δ ≥ 2 (true only for α = ∞); for the sum of m ≥ Δ
noises, D_α(P^{∗m}+Δ‖P^{∗m}) ≤ Δ·D_α(P+1‖P) holds for every law on ℤ
(:func:`rdp_discrete_convolution_shift`).

The package, stage by stage (each module's docstring says more):

``continuous``
    noise with a density: the Theorem 1 bound (:func:`rdp_convolution_bound`)
    and the exact Laplace sums (:func:`laplace_sum_logpdf`,
    :func:`rdp_laplace_convolution`, :func:`laplace_convolution_table`).
``discrete``
    discrete Gaussian and discrete Laplace noise on ℤ: one noise shifted by Δ
    (:func:`rdp_discrete_shift`, :func:`discrete_shift_table`) and the sum of
    m noises (:func:`rdp_discrete_convolution_shift`).
"""

from .continuous import (
    laplace_convolution_table,
    laplace_sum_logpdf,
    rdp_convolution_bound,
    rdp_laplace_convolution,
)
from .discrete import discrete_shift_table, rdp_discrete_convolution_shift, rdp_discrete_shift

__all__ = [
    "rdp_convolution_bound",
    "laplace_sum_logpdf",
    "rdp_laplace_convolution",
    "laplace_convolution_table",
    "rdp_discrete_shift",
    "discrete_shift_table",
    "rdp_discrete_convolution_shift",
]
