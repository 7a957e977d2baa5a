r"""Source S4's further questions, answered numerically: is any noise better than the Gaussian?

Among noise laws P of **equal variance** v, which has the smallest RDP curve
α ↦ D_α(P + 1 ‖ P) for a unit shift (sensitivity one)? Candidates, each scaled
to variance v: the Gaussian, Laplace, logistic and hyperbolic-secant laws,
Student's t with ν = 3 and ν = 5 degrees of freedom (heavier tails, still a
variance), and the half–half mixture of the Gaussian and the Laplace law.

What the numbers say (see the tests and book/10-lower-bounds-and-open-questions):

* at small orders the Gaussian is best *among these laws*: its KL divergence
  1/(2v) is the smallest of the candidates. Over all laws of variance v that is
  true only in the limit of small shifts, KL(P + Δ‖P) = Δ²I(P)/2 + o(Δ²) ≥
  Δ²/(2v) (Cramér–Rao: Fisher information I(P) ≥ 1/v, equality only for the
  Gaussian); for a unit shift a lattice law smoothed by a little Gaussian noise
  beats it (:func:`kl_smoothed_lattice_shift`);
* its curve α/(2v) grows without bound, whereas every law whose log-density
  has a bounded slope (Laplace, logistic, sech, Student t, the mixture) has a
  finite max divergence D_∞ — so each of them beats the Gaussian from some
  order on (:func:`crossover_order`);
* among the candidates the Laplace law has the smallest D_∞ = √(2/v); at
  very large orders it is the best of all.

The package, stage by stage (each module's docstring says more):

``laws``
    the candidate laws (:data:`NOISE_LAWS`) and their exact log-densities.
``shift``
    D_α(P + Δ ‖ P) by quadrature and on a grid of orders; the max divergence D_∞.
``comparison``
    the crossover order, the best law at each order, ε after composition;
    Claim 26's constant.
``lattice``
    the smoothed lattice law whose KL for a unit shift beats the Gaussian's.
"""

from .laws import NOISE_LAWS, noise_logpdf
from .shift import max_divergence, shift_rdp, shift_rdp_grid
from .comparison import best_noise_law, claim26_table, crossover_order, epsilon_after_composition
from .lattice import kl_smoothed_lattice_shift, smoothed_lattice_variance

__all__ = [
    "NOISE_LAWS",
    "noise_logpdf",
    "shift_rdp",
    "shift_rdp_grid",
    "max_divergence",
    "crossover_order",
    "best_noise_law",
    "epsilon_after_composition",
    "claim26_table",
    "smoothed_lattice_variance",
    "kl_smoothed_lattice_shift",
]
