r"""Privacy-loss random variables and exact privacy curves δ(ε).

For a pair (P, Q) the privacy loss is Z = log(P(Y)/Q(Y)) with Y ~ P. Its law
gives the exact privacy curve (the hockey-stick divergence, a supremum over
events E)

.. math:: \delta(\varepsilon) = \sup_E P(E) - e^\varepsilon Q(E),

which can be written in four ways (source S2, §2.1). This module provides the
privacy-loss variables of the Gaussian, Laplace and randomized-response
mechanisms (and of any two pmfs), one function per expression of δ, each
computed by its own route (sets in output space, tails of Z, an expectation
over Z, an integral of the tail), and the exact curves in closed form,
accurate in log space down to δ ≈ 1e-300.

The package, by what its modules hold (each module's docstring says more):

``curves``
    the exact curves in closed form: δ(ε) and ε(δ) of the Gaussian (also
    log δ), Laplace and randomized-response mechanisms; the hockey-stick
    divergence of two pmfs; the exact ε of k-fold randomized response.
``mixture``
    the privacy loss of a mixture (1 − q)Q + qP against Q,
    log(1 − q + q e^u), and the subsampled Gaussian's ℓ(x) and its inverse
    (public, not re-exported).
``laws``
    :class:`~dpnotes.privacy_loss.laws.LossLaw`, the law of Z behind one
    interface (interval masses under P and Q, log-density, atoms, range), its
    Gaussian, Laplace, subsampled-Gaussian and atomic laws, and the
    tail-accurate normal mass (public, not re-exported; what the PLD
    constructors discretise).
``variables``
    :class:`PrivacyLoss`, the privacy-loss variable of a pair in output space
    and as a law (``loss.law``), and its constructors per mechanism.
``expressions``
    the four expressions of δ(ε), each by its own route, and the tail bound.
"""

from .curves import (
    delta_gaussian,
    delta_laplace,
    delta_randomized_response,
    epsilon_gaussian,
    epsilon_laplace,
    epsilon_randomized_response,
    exact_epsilon_rr_composition,
    hockey_stick_divergence,
    log_delta_gaussian,
)
from .variables import (
    PrivacyLoss,
    privacy_loss_discrete,
    privacy_loss_gaussian,
    privacy_loss_laplace,
    privacy_loss_randomized_response,
)
from .expressions import (
    delta_expected_hinge,
    delta_sup_over_sets,
    delta_tail_bound,
    delta_tail_difference,
    delta_tail_integral,
)

__all__ = [
    "PrivacyLoss",
    "privacy_loss_gaussian",
    "privacy_loss_laplace",
    "privacy_loss_randomized_response",
    "privacy_loss_discrete",
    "hockey_stick_divergence",
    "delta_sup_over_sets",
    "delta_tail_difference",
    "delta_expected_hinge",
    "delta_tail_integral",
    "delta_tail_bound",
    "delta_gaussian",
    "log_delta_gaussian",
    "epsilon_gaussian",
    "delta_laplace",
    "epsilon_laplace",
    "delta_randomized_response",
    "epsilon_randomized_response",
    "exact_epsilon_rr_composition",
]
