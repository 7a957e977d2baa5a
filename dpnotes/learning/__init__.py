"""Empirical risk minimisation, what its minimiser reveals, and DP-SGD as the remedy.

The learning problem of sources S0 and S3: given records x₁, …, xₙ and a loss
ℓ(θ, x), release θ* = argmin_θ Σᵢ ℓ(θ, xᵢ) (ERM).  This module solves ERM for
the squared, logistic and hinge losses and the geometric median on small
synthetic data (scipy does the optimisation), measures how far θ* moves when
one record is replaced, runs a loss-threshold membership-inference attack on
an unprotected fit, and trains the same model with DP-SGD (per-example
clipping, Poisson subsampling, Gaussian noise) with its accounted ε.

The package, stage by stage (each module's docstring says more):

``data``
    the running example: a real data set bundled with scikit-learn (nothing downloaded).
``erm``
    the synthetic data set and ERM: squared, logistic and hinge losses, the
    geometric median.
``minimiser``
    what the minimiser reveals: the 1-D location ERM (median, mean), its path as
    one record moves, its replace-one sensitivity.
``dpsgd``
    logistic regression trained by DP-SGD, and its accounted ε.
``membership``
    membership inference: the loss-threshold attack, the accuracy bound of
    (ε, δ)-DP, the experiment with and without DP-SGD.
"""

from .data import breast_cancer_records, train_test_records
from .erm import erm_hinge, erm_logistic, erm_squared, geometric_median, synthetic_classification
from .minimiser import location_minimiser, minimiser_path, replace_one_sensitivity
from .dpsgd import dpsgd_epsilon_of, dpsgd_logistic, running_example_accuracy
from .membership import (
    logistic_losses,
    loss_threshold_attack_accuracy,
    membership_accuracy_bound,
    membership_experiment,
)

__all__ = [
    "breast_cancer_records",
    "train_test_records",
    "synthetic_classification",
    "erm_squared",
    "erm_logistic",
    "erm_hinge",
    "geometric_median",
    "location_minimiser",
    "minimiser_path",
    "replace_one_sensitivity",
    "logistic_losses",
    "loss_threshold_attack_accuracy",
    "membership_accuracy_bound",
    "dpsgd_logistic",
    "dpsgd_epsilon_of",
    "running_example_accuracy",
    "membership_experiment",
]
