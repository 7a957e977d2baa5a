r"""Privacy loss distributions on a grid, composed numerically by FFT.

A mechanism with output laws P (on a dataset) and Q (on a neighbour) has the
privacy loss Z = log(dP/dQ)(Y), Y ~ P, and

.. math:: \delta(\varepsilon) = \mathbb E\big[\max(0, 1 - e^{\varepsilon - Z})\big]
          + P(Z = \infty)

(source S2, S2-02, second line). For independent composition the losses add,
so the distribution of the composed loss is the convolution of the
per-step distributions. This module puts each loss distribution on a uniform
grid ℓ_i = ``shift`` + i·h of loss values, h the grid spacing (a
:class:`LossGrid`), convolves grids with the FFT and
reads δ(ε) and ε(δ) off the result.

Every grid is a *bound*: a pessimistic grid has δ̂(ε) ≥ δ(ε) for every ε and an
optimistic grid δ̌(ε) ≤ δ(ε). Both properties survive composition, because
δ_{A∘B}(ε) = E_B[δ_A(ε − Z_B)] is monotone in δ_A and in the law of Z_B.
Two discretisations are offered:

``method="dots"`` (default)
    Upper: each bin (ℓ_j, ℓ_{j+1}] of the true loss is split between its two
    end points so that both its P-mass and its Q-mass are kept (the
    "connect-the-dots" construction of Doroshenko et al., 2022): δ̂ equals δ
    at every grid point and is its chord in between. Lower: the outputs with
    loss in a bin around each grid point are merged (a post-processing, which
    can only lower δ); the merged loss of bin j lies within O(h³) of ℓ_j
    because the bin edges are placed to balance the bin (to first order, in
    three passes that each correct what the previous one left, near a support
    edge and where an edge shift is clipped), and every merged loss
    is rounded down to ℓ_j + r*, r* ≤ 0 a common residual (merged loss − ℓ_j)
    chosen to give away the least mean loss; a bin whose residual is below r*
    goes to the grid point (or points) below, so every mass sits at or below
    its merged loss. The grid of the lower bound is therefore shifted by r*
    (tiny, exactly computed). Where the loss has one finite support edge (the
    subsampled Gaussian's log(1 − q)) the grid is offset so that a grid point
    is the merged loss of the bin at the edge: on the grid through 0 that
    heavy bin's residual is anywhere in (−h/2, h/2) and would set r*, a bias of
    order h per step. Any partition of the outputs by their loss is a
    post-processing (Koskela, Jälkö & Honkela 2020; Doroshenko et al. 2022),
    and lowering a loss only lowers δ, so the offset and r* change the
    accuracy only, never the validity.
``method="round"``
    Round every loss up (pessimistic) or down (optimistic) to the grid
    ("privacy buckets"). Simple, but after T steps the two bounds are T·h apart
    in ε (each rounding moves the composed loss by about T·h/2), so a useful
    bracket for T = 10⁵ needs h ≈ 10⁻⁸. The dots/merge pair errs by O(T·h²).

Mass in the tails is never lost from an upper bound: mass above the grid goes
to the atom at +∞, mass below it to the lowest grid point; the lower bound
drops it.

Round-off. An FFT convolution errs by about u·‖a‖₂‖b‖₁ (u = 2⁻⁵³) in *every*
entry, so entries far below the largest are noise; after 10³–10⁵ steps that
noise sums to ~1e-11, not small against δ = 1e-10. Two things make the bounds
hold and stay tight there:

* every convolution carries a bound on the ℓ₂ norm of its error, from the
  standard error bound of the FFT (Higham 2002, Thm 24.2); bounds compose by
  Young's inequality ‖e∗b‖₂ ≤ ‖e‖₂‖b‖₁ and are read out on the entries above ε
  by Cauchy–Schwarz (:class:`LossGrid`). The bound is added to δ̂ and
  subtracted from δ̌, so both bounds are certified up to that analysis (the
  tests check it against exact summation);
* the FFTs are *exponentially tilted*: a_i e^{λℓ_i} convolves to (a∗b)_k e^{λℓ_k},
  so the tilted FFT, untilted, errs by ∝ e^{−λℓ}: relatively small in the upper
  tail where δ(ε) lives. The error is also carried in the tilted norm
  ‖e_i e^{λℓ_i}‖₂, which composes multiplicatively, and read out with weights
  e^{−λℓ_i}, so it is ≈ u × (the Chernoff bound on P(Z > ε)). λ is the Chernoff
  tilt of the target (:meth:`PrivacyLossDistribution.chernoff_tilt`); the plain
  FFT is computed too and serves the bulk.

Measured (tests): at δ = 1e-10 the bracket is 4e-5–6e-4 relative wide at
(q = 0.01, σ = 1, T = 10⁴), (q = 256/60000, σ = 1.1, T = 10⁵), (q = 1e-4,
σ = 0.5, T = 10³) and (q = 1, σ = 0.5, T = 1), and the upper end is within
1.2e-4 of dp-accounting. Without the tilt the round-off bound at (q = 0.01,
σ = 1, T = 10⁴) is ~1e-8 and the bracket 50 % wide; an *estimate* of the
round-off from the clipped negative noise (used before) still left it
0.5–3 % wide.

Self-composition T times is done either by repeated squaring, each
convolution cut to its bulk by exact tail sums (:meth:`LossGrid.self_compose`,
the default of :meth:`PrivacyLossDistribution.self_compose`), or in the Fourier
domain (``algorithm="power"``, :meth:`LossGrid.power`): one transform of the
step, raised to the T-th power by binary powering on a window chosen by
Chernoff bounds, whose outside mass (aliasing) is carried as an error like the
round-off. The DP-SGD front ends use the latter when a width is asked for,
with the grid spacing chosen up front for that width (:mod:`.dpsgd`).

The source (source S2, S2-01) calls the privacy loss "undefined" when the
supports of the two laws differ; it is better defined with an atom at +∞
holding P(dQ = 0), which enters δ(ε) additively for every ε (see
:func:`pld_from_probabilities`).

The package, stage by stage (each module's docstring says more):

``grid``
    :class:`LossGrid`, one direction on a grid; FFT convolution with its
    round-off bounds and the exponential tilt.
``discretise``
    a loss law (:mod:`dpnotes.privacy_loss.laws`) onto a grid:
    connect-the-dots, merging, rounding (Gauss–Legendre quadrature inside a
    bin).
``distribution``
    :class:`PrivacyLossDistribution`, the grids of both directions, and the
    choice of the FFT tilt.
``constructors``
    :func:`pld_gaussian` and the other constructors, with their argument
    checks, :func:`pld_from_privacy_loss`; :func:`gaussian_delta_exact`.
``dpsgd``
    the DP-SGD front ends (:func:`dpsgd_epsilon_bracket` and others).
"""

from .grid import LossGrid
from .distribution import PrivacyLossDistribution
from .discretise import discretise_loss_law
from .constructors import (
    gaussian_delta_exact,
    pld_from_privacy_loss,
    pld_from_probabilities,
    pld_gaussian,
    pld_laplace,
    pld_randomized_response,
    pld_subsampled_gaussian,
)
from .dpsgd import (
    EpsilonBracket,
    dpsgd_clt_mu,
    dpsgd_composed_plds,
    dpsgd_delta_pld,
    dpsgd_epsilon_bracket,
    dpsgd_epsilon_pld,
    dpsgd_grid_interval,
)

__all__ = [
    "LossGrid",
    "PrivacyLossDistribution",
    "pld_gaussian",
    "pld_laplace",
    "pld_randomized_response",
    "pld_subsampled_gaussian",
    "pld_from_probabilities",
    "pld_from_privacy_loss",
    "discretise_loss_law",
    "gaussian_delta_exact",
    "dpsgd_delta_pld",
    "dpsgd_epsilon_pld",
    "dpsgd_epsilon_bracket",
    "dpsgd_clt_mu",
    "dpsgd_composed_plds",
    "dpsgd_grid_interval",
    "EpsilonBracket",
]
