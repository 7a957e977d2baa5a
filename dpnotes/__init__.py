"""dpnotes: the mathematics behind the book on differential-privacy accounting.

A flat public namespace: ``from dpnotes import rdp_gaussian, epsilon_from_rdp``. Every name
below is re-exported from the module that defines it (the modules' ``__all__``;
tests/test_layers.py checks that the two agree). Layers: pure math modules (no plotting) at the
bottom; ``dpnotes.figures`` and ``dpnotes.widgets`` build on them, never the other way round.

The names are loaded lazily (PEP 562): ``import dpnotes`` reads only this registry
(:data:`_EXPORTS`, module → the names it exports), and the first use of a name imports
its module (and only what that module needs), so a script that asks for one ε does not
pay for scipy.integrate, scipy.stats, sympy or the plotting stack. Submodules are
reachable as attributes too (``dpnotes.pld``).
"""

import importlib

_EXPORTS = {
    # divergence: the numerical Rényi divergence (the independent route)
    "divergence": (
        "LogDensity", "renyi_divergence",
    ),
    # rdp: closed forms of the basic mechanisms
    "rdp": (
        "rdp_gaussian", "rdp_laplace", "rdp_randomized_response",
    ),
    # orders: the order grid
    "orders": (
        "DEFAULT_ORDERS",
    ),
    "composition": (
        "epsilon_delta_basic_composition", "epsilon_advanced_composition",
        "epsilon_delta_advanced_composition", "epsilon_heterogeneous_composition",
        "epsilon_per_query_advanced", "rdp_composition", "zcdp_composition", "zcdp_from_pure_dp",
        "laplace_scale_for_queries", "gaussian_sigma_exact", "gaussian_sigma_classical",
        "gaussian_variance_advanced_composition", "delta_prime_minimising_variance",
        "gaussian_classical_breakdown_epsilon",
    ),
    "conversion": (
        "OrderGridWarning", "epsilon_from_rdp", "delta_from_rdp", "epsilon_from_rdp_curve",
        "delta_from_rdp_curve", "epsilon_from_zcdp", "legendre_transform",
    ),
    "privacy_loss": (
        "PrivacyLoss", "privacy_loss_gaussian", "privacy_loss_laplace",
        "privacy_loss_randomized_response", "privacy_loss_discrete", "hockey_stick_divergence",
        "delta_sup_over_sets", "delta_tail_difference", "delta_expected_hinge", "delta_tail_integral",
        "delta_tail_bound", "delta_gaussian", "log_delta_gaussian", "epsilon_gaussian", "delta_laplace",
        "epsilon_laplace", "delta_randomized_response", "epsilon_randomized_response",
        "exact_epsilon_rr_composition",
    ),
    # tradeoff: trade-off functions (the hypothesis-testing reading of DP)
    "tradeoff": (
        "tradeoff_gaussian", "tradeoff_laplace", "tradeoff_discrete", "tradeoff_epsilon_delta",
    ),
    "properties": (
        "post_processing_sides", "quasi_convexity_sides", "triangle_bound", "group_privacy_bound",
        "group_privacy_epsilon_delta", "pure_dp_rdp_bound", "moment_difference_bound",
        "approximate_rdp_delta_hat", "approximate_renyi_divergence", "decompose_dp_pair",
        "randomized_response_decomposition", "bayesian_event_probability", "posterior_bound",
    ),
    "subsampling": (
        "rdp_subsampled_gaussian", "log_moment_subsampled_gaussian", "rdp_subsampled_gaussian_reverse",
        "rdp_subsampled", "rdp_subsampled_relaxed", "claim26_constant", "claim26_constant_bracket",
        "claim26_seed_sum", "conjecture1_counterexample", "ORDER_LADDER",
        "epsilon_rdp_subsampled_gaussian", "delta_rdp_subsampled_gaussian",
    ),
    "convolution": (
        "rdp_convolution_bound", "laplace_sum_logpdf", "rdp_laplace_convolution",
        "laplace_convolution_table", "rdp_discrete_shift", "discrete_shift_table",
        "rdp_discrete_convolution_shift",
    ),
    "amplification": (
        "renyi_shift_sup", "shifted_renyi_location", "shift_increments", "shift_reduction_bound",
        "optimal_shift_increments",
    ),
    "iteration": (
        "smoothness_constant", "loss_gradient", "gradient_step_contraction",
        "rdp_noisy_sgd_last_iterate", "rdp_noisy_sgd_all_iterates", "noisy_sgd_logistic_simulation",
    ),
    "learning": (
        "synthetic_classification", "erm_squared", "erm_logistic", "erm_hinge", "geometric_median",
        "location_minimiser", "minimiser_path", "replace_one_sensitivity", "logistic_losses",
        "loss_threshold_attack_accuracy", "membership_accuracy_bound", "dpsgd_logistic",
        "dpsgd_epsilon_of", "membership_experiment",
        "breast_cancer_records", "train_test_records", "running_example_accuracy",
    ),
    "lower_bounds": (
        "estimator_moments", "fingerprinting_terms", "fingerprinting_monte_carlo",
        "fingerprinting_minimum",
    ),
    "joint_dp": (
        "own_record_mechanism", "noisy_count_mechanism", "view_pmf", "privacy_profile",
        "joint_dp_epsilon", "full_output_epsilon",
    ),
    "noise_comparison": (
        "NOISE_LAWS", "noise_logpdf", "shift_rdp", "shift_rdp_grid", "max_divergence",
        "crossover_order", "best_noise_law", "epsilon_after_composition", "claim26_table",
        "smoothed_lattice_variance", "kl_smoothed_lattice_shift",
    ),
    "pld": (
        "LossGrid", "PrivacyLossDistribution", "pld_gaussian", "pld_laplace", "pld_randomized_response",
        "pld_subsampled_gaussian", "pld_from_probabilities", "pld_from_privacy_loss",
        "discretise_loss_law", "gaussian_delta_exact", "dpsgd_composed_plds", "dpsgd_delta_pld",
        "dpsgd_epsilon_pld", "dpsgd_epsilon_bracket", "dpsgd_clt_mu", "dpsgd_grid_interval",
        "EpsilonBracket",
    ),
    # dpsgd: the accounting routes of DP-SGD
    "dpsgd": (
        "AccuracyWarning", "ROUTES", "ROUTE3_ORDERS", "route_applicable", "steps_from_epochs", "epochs_from_steps",
        "rdp_route3", "dpsgd_epsilon", "dpsgd_delta", "dpsgd_epsilon_routes",
        "SIGMA_ROUTES", "dpsgd_sigma", "dpsgd_epsilon_replace_one",
    ),
    # dpsgd_training: DP-SGD itself: clipping, noise, steps
    "dpsgd_training": (
        "clip_rows", "logistic_gradients", "dp_sgd",
    ),
    # published: published ε of DP-SGD runs, recomputed (data: data/published_numbers.json)
    "published": (
        "STEP_RULES", "PublishedReproduction", "published_numbers", "published_sampling_rate",
        "published_steps", "reproduce_published", "reproduce_published_work", "reproduction_table",
        "published_epsilon_by_method", "steps_reproducing_published", "clt_noise_for_epsilon",
        "strong_composition_epsilon_abadi",
    ),
}
_SOURCE = {name: module for module, names in _EXPORTS.items() for name in names}  # name → its module

__all__ = [name for names in _EXPORTS.values() for name in names]

__version__ = "0.1.0"


def __getattr__(name):
    """A public name (imported from its module on first use, then kept here) or a submodule."""
    module = _SOURCE.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
        globals()[name] = value
        return value
    if not name.startswith("_"):
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as err:
            if err.name != f"{__name__}.{name}":
                raise
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
