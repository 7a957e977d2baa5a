"""The registry of every claim in the source documents, and where the book checks it.

Each row says where a claim is **stated** (the label of its directive in a
chapter), **derived** (a sympy derivation), **verified** (pytest node ids whose
test checks it by an independent route) and **shown** (a figure key). Empty
fields are honest: that part is not done yet. ``status`` records what the book
found: "supported", "corrected" (the source mis-states it; the book gives the
right form), "false" (a counterexample is shown) or "open".

``python -m dpnotes.claims`` writes the book page "Claims and where they are
checked" (``book/claims.md``).
"""

from dataclasses import dataclass
from pathlib import Path

__all__ = ["Claim", "CLAIMS", "claims_page", "findings_page"]

SOURCES = {
    "0": "the note “A Note on Privacy Composition and Amplification” (on amplification by iteration, 2020)",
    "1": "the blog post “Privacy amplification by repeated noise addition”",
    "2": "the notes “Privacy”: δ, zCDP, RDP, approximate RDP, composition, decomposition",
    "3": "the lecture notes on advanced composition, RDP and learning",
    "4": "the blog post “Great but Manageable Expectations” (Yuchen, 2019)",
}


@dataclass(frozen=True)
class Claim:
    id: str
    statement: str
    stated: str = ""  # label of the directive stating it
    derived: str = ""  # dotted path of the sympy derivation
    verified: tuple = ()  # pytest node ids
    shown: str = ""  # figure key in dpnotes.figures.FIGURES
    chapter: str = ""  # document (for the figure link)
    status: str = "unchecked"
    note: str = ""

    @property
    def seed(self):
        return self.id[1]


_ROWS = [
    # The composition note
    Claim("S0-01", "Convex loss minimisation setup; excess population loss.",
          stated="s0-01", chapter="book/00-why-privacy", status="supported",
          verified=("tests/test_learning.py::test_s0_01_squared_erm_matches_least_squares",
                    "tests/test_learning.py::test_s0_01_logistic_erm_first_order_conditions_and_restart",
                    "tests/test_learning.py::test_s0_01_hinge_erm_beats_perturbations_and_matches_subgradient_conditions")),
    Claim("S0-02", "Rényi divergence D_α; additivity over product measures; post-processing (data processing) inequality.",
          stated="s0-02", chapter="book/01-renyi-gaussian", status="supported",
          verified=("tests/test_divergence.py::test_s0_02_quadrature_matches_closed_forms",
                    "tests/test_divergence.py::test_s0_02_additivity_over_products",
                    "tests/test_divergence.py::test_s0_02_post_processing"),
          shown="renyi-gaussian"),
    Claim("S0-03", "∞-Wasserstein distance W∞.",
          stated="s0-03", chapter="book/08-amplification-iteration", status="supported",
          verified=("tests/test_figures_amplification.py::test_s0_03_w_infinity_of_shifts_is_the_shift_distance",
                    "tests/test_figures_amplification.py::test_s0_03_w_infinity_between_different_scales_grows_without_bound",),
          note="The repeated-noise post's “if U = V + x then W∞(U, V) = x” should read |x|."),
    Claim("S0-04", "(α, ε)-RDP definition.", stated="s0-04", chapter="book/01-renyi-gaussian", status="supported",
          verified=("tests/test_rdp.py::test_s0_04_gaussian_mechanism_is_rdp_for_all_neighbours",),
          shown="renyi-gaussian"),
    Claim("S0-05", "Shifted Rényi divergence D_α^(z); monotone non-increasing in z; shifting property.",
          stated="s0-05", chapter="book/08-amplification-iteration", status="corrected",
          verified=("tests/test_amplification.py::test_s0_05_shift_coupling_attains_the_value",
                    "tests/test_amplification.py::test_s0_05_monotone_in_z_and_shifting_property",
                    "tests/test_amplification.py::test_s0_05_seed000_definition_takes_inf_over_wrong_argument",
                    "tests/test_figures_amplification.py::test_s0_05_figure_monotone_in_z_and_zero_once_the_shift_is_used_up",),
          shown="iteration-shifted-divergence",
          note="The composition note takes the infimum over ν′ (the second argument) under a constraint on μ′; read literally "
               "ν′ = μ is allowed and the value is 0 for every μ, ν, z. The intended definition is the infimum over μ′ "
               "with W∞(μ, μ′) ≤ z of D_α(μ′‖ν), as in the repeated-noise post."),
    Claim("S0-06", "R_α(ζ, a) = sup_{‖x‖≤a} D_α(ζ∗x‖ζ); Gaussian: R_α = α a²/(2σ²).",
          stated="s0-06", chapter="book/08-amplification-iteration", status="supported",
          verified=("tests/test_amplification.py::test_s0_06_sup_is_at_the_largest_shift",
                    "tests/test_amplification.py::test_s0_06_gaussian_closed_form",
                    "tests/test_figures_amplification.py::test_s0_06_figure_sup_at_largest_shift",
                    "tests/test_figures_amplification.py::test_s0_06_figure_laplace_below_gaussian_for_large_shifts",),
          shown="iteration-shift-cost"),
    Claim("S0-07", "(α, ε)-RDP ⇒ (ε + ln(1/δ)/(α−1), δ)-DP for all δ ∈ (0, 1); pure ε-DP ≡ (∞, ε)-RDP.",
          stated='s0-07',
          verified=('tests/test_conversion.py::test_s0_07_s3_06_mironov_formula', 'tests/test_conversion.py::test_s0_07_pure_dp_is_infinite_order'),
          shown='conversion-gaussian',
          chapter='book/03-conversion',
          status='supported'),
    Claim("S0-08", "Naive (adaptive) RDP composition: orders fixed, ε's add.",
          stated='s0-08',
          verified=('tests/test_composition.py::test_s3_05_s0_08_rdp_additivity_for_products',),
          shown='composition-pure',
          chapter='book/02-composition',
          status='supported'),
    Claim("S0-09", "Gradient step ψ(w) = w − η∇f(w) is contractive for convex β-smooth f when η ≤ 2/β.",
          stated="s0-09", chapter="book/08-amplification-iteration", status="supported", shown="iteration-contraction",
          verified=("tests/test_iteration.py::test_s0_09_smoothness_is_top_hessian_eigenvalue",
                    "tests/test_iteration.py::test_s0_09_gradient_step_contractive_up_to_two_over_beta",
                    "tests/test_iteration.py::test_s0_09_contractivity_fails_above_two_over_beta",
                    "tests/test_figures_amplification.py::test_s0_09_figure_contraction_breaks_at_two_over_beta_for_squared_loss",
                    "tests/test_figures_amplification.py::test_s0_09_logistic_contractive_past_two_over_beta_for_large_data",)),
    Claim("S0-10", "Contractive noisy iteration and amplification by iteration: last-iterate privacy of noisy projected SGD.",
          stated="s0-10", chapter="book/08-amplification-iteration", status="supported", shown="iteration-last-iterate",
          verified=("tests/test_iteration.py::test_s0_10_bound_at_last_step_is_the_per_step_value_and_decreases",
                    "tests/test_iteration.py::test_s0_10_exact_gaussian_last_iterate_is_below_the_bound",
                    "tests/test_iteration.py::test_s0_10_bound_is_attained_without_contraction",
                    "tests/test_iteration.py::test_s0_10_simulation_helper",
                    "tests/test_figures_amplification.py::test_s0_10_figure_last_iterate_between_linear_exact_and_all_iterates",)),
    Claim("S0-11", "Remark: advanced composition assumes every intermediate output is released.",
          stated="s0-11", chapter="book/08-amplification-iteration", status="supported", shown="iteration-last-iterate",
          verified=("tests/test_figures_amplification.py::test_s0_11_every_iterate_released_costs_one_gaussian_step_at_any_position",)),
    # The repeated-noise post
    Claim("S1-01", "Theorem 1: D_α(P^{∗n} + 1 ‖ P^{∗n}) ≤ n · D_α(P + 1/n ‖ P).",
          stated="s1-01", chapter="book/09-repeated-noise", status="supported", shown="convolution-laplace",
          verified=("tests/test_convolution.py::test_s1_01_laplace_bound_is_n_times_shifted_divergence",
                    "tests/test_convolution.py::test_s1_01_theorem1_holds_for_laplace",)),
    Claim("S1-02", "Lemma 2 (shift reduction): D_α^(z)(U+ζ‖V+ζ) ≤ D_α^(z+a)(U‖V) + R_α(ζ, a).",
          stated="s1-02", chapter="book/08-amplification-iteration", status="supported",
          verified=("tests/test_amplification.py::test_s1_02_shift_reduction_lemma_with_exact_laplace_sums",
                    "tests/test_figures_amplification.py::test_s1_02_figure_bound_above_exact_at_every_split",
                    "tests/test_figures_amplification.py::test_s1_02_figure_laplace_left_side_by_independent_quadrature",),
          shown="iteration-shift-reduction"),
    Claim("S1-03", "Telescoping proof with shifts a_i = 1 − i/n; uniform is optimal for the Gaussian.",
          stated="s1-03", chapter="book/09-repeated-noise", status="supported", shown="convolution-schedule",
          derived="dpnotes.symbolic.amplification.derive_uniform_schedule_optimal",
          verified=("tests/test_amplification.py::test_s1_03_schedule_to_increments",
                    "tests/test_amplification.py::test_s1_03_uniform_increments_give_theorem1",
                    "tests/test_amplification.py::test_s1_03_optimal_schedule_is_uniform",
                    "tests/test_amplification.py::test_s1_03_any_schedule_is_no_better_than_uniform",
                    "tests/test_symbolic_amplification.py::test_s1_03_uniform_schedule_lagrange",
                    "tests/test_symbolic_amplification.py::test_s1_03_laplace_shift_divergence_is_convex",
                    "tests/test_figures_amplification.py::test_s1_03_figure_schedules_never_beat_uniform",
                    "tests/test_figures_amplification.py::test_s1_03_geometric_schedule_increments",),
          note="Uniform is optimal for Laplace noise too (the shift divergence is convex in the shift)."),
    Claim("S1-04", "Gaussian: the bound equals α/(2nσ²) and is tight, since P^{∗n} = N(0, nσ²).",
          stated="s1-04", chapter="book/09-repeated-noise", status="supported", shown="convolution-schedule",
          derived="dpnotes.symbolic.amplification.derive_gaussian_convolution_bound",
          verified=("tests/test_convolution.py::test_s1_04_gaussian_bound_tight",
                    "tests/test_symbolic_amplification.py::test_s1_04_gaussian_bound_derivation",
                    "tests/test_figures_amplification.py::test_s1_04_exercise_gaussian_bound_is_exact_sum",)),
    Claim("S1-05", "Laplace: Mironov's closed form; the bound ~ α/(2nλ²) as n → ∞; is it tight?",
          stated="s1-05", chapter="book/09-repeated-noise", status="supported", shown="convolution-laplace",
          derived="dpnotes.symbolic.amplification.derive_laplace_bound_asymptotic",
          verified=("tests/test_convolution.py::test_s1_05_laplace_sum_density_matches_bessel_form",
                    "tests/test_convolution.py::test_s1_05_laplace_sum_density_integrates_to_one_with_right_variance",
                    "tests/test_convolution.py::test_s1_05_n1_matches_mironov",
                    "tests/test_convolution.py::test_s1_05_laplace_exact_vs_mpmath_bessel",
                    "tests/test_convolution.py::test_s1_05_laplace_exact_vs_mpmath_bessel_large_n",
                    "tests/test_convolution.py::test_s1_05_laplace_exact_vs_gamma_difference_convolution",
                    "tests/test_convolution.py::test_s1_05_bound_not_tight_ratio_tends_to_two",
                    "tests/test_convolution.py::test_s1_05_bound_asymptotic_alpha_over_variance",
                    "tests/test_symbolic_amplification.py::test_s1_05_laplace_asymptotic_derivation",
                    "tests/test_figures_amplification.py::test_s1_05_figure_bound_above_exact_at_every_position",
                    "tests/test_figures_amplification.py::test_s1_05_figure_grid_matches_direct_evaluation",
                    "tests/test_figures_amplification.py::test_s1_05_figure_ratio_starts_at_one_and_approaches_two",),
          note="The source's open question answered: the bound is NOT tight. The exact D_α(Lap^{∗n}+1‖Lap^{∗n}) "
               "(numerical integral of the sum's density) equals the bound at n = 1 and tends to the Gaussian value "
               "α/(4nλ²) while the bound tends to α/(2nλ²): bound/exact → 2 (1.993 at n = 100, α = 2; up to about "
               "2.13 at large α and intermediate n)."),
    Claim("S1-06", "Discrete distributions: D_α(P+Δ‖P) ≤ Δ·D_α(P+1‖P).", status="false",
          stated="s1-06", chapter="book/09-repeated-noise", shown="convolution-discrete",
          verified=("tests/test_convolution.py::test_s1_06_discrete_gaussian_matches_closed_form",
                    "tests/test_convolution.py::test_s1_06_discrete_laplace_matches_geometric_series",
                    "tests/test_convolution.py::test_s1_06_discrete_matches_pmf_divergence",
                    "tests/test_convolution.py::test_s1_06_linear_in_shift_fails_for_discrete_gaussian",
                    "tests/test_convolution.py::test_s1_06_linear_in_shift_fails_for_discrete_laplace_at_finite_order",
                    "tests/test_convolution.py::test_s1_06_linear_in_shift_holds_at_infinite_order",
                    "tests/test_figures_amplification.py::test_s1_06_figure_shows_counterexample_at_every_position",
                    "tests/test_figures_amplification.py::test_s1_06_figure_gaussian_ratio_is_delta_when_alpha_delta_is_integer",),
          note="False at every finite order for discrete Gaussian noise (D_α(P+Δ‖P) = αΔ²/(2σ²) when αΔ ∈ ℤ, "
               "e.g. α = 2, σ = 2: D at Δ = 2 is 1.0 > 2·0.25) and for discrete Laplace noise (convex in Δ: "
               "α = 4, b = 2: 0.846 > 2·0.352); it holds only at α = ∞ (group privacy)."),
    # The privacy notes
    Claim("S2-01", "Privacy loss random variable PrivLoss(P‖Q).",
          stated='s2-01',
          verified=('tests/test_privacy_loss.py::test_s2_01_cumulants_of_privacy_loss_give_rdp', 'tests/test_privacy_loss.py::test_s2_01_gaussian_loss_law_by_sampling', 'tests/test_privacy_loss.py::test_s2_01_discrete_requires_equal_supports'),
          shown='hypothesis-four-deltas',
          chapter='book/04-hypothesis-testing',
          status='supported'),
    Claim("S2-02", "Four expressions of δ(ε): tail difference, E[max(0, 1 − e^{ε−Z})], integral of the tail, and the upper bound P[Z > ε].",
          stated='s2-02',
          verified=('tests/test_privacy_loss.py::test_s2_02_four_expressions_of_delta_agree', 'tests/test_privacy_loss.py::test_s2_02_expected_hinge_monte_carlo', 'tests/test_privacy_loss.py::test_s2_02_sup_over_sets_brute_force_all_subsets', 'tests/test_privacy_loss.py::test_s2_02_tail_bound_strict_for_gaussian'),
          shown='hypothesis-four-deltas',
          chapter='book/04-hypothesis-testing',
          status='supported'),
    Claim("S2-03", "Moment difference bound E[X] − E[Y] ≤ (e^ε − 1) E|Y| + 2δΔ.",
          stated='s2-03',
          verified=('tests/test_properties.py::test_s2_03_moment_difference_bound', 'tests/test_properties.py::test_s2_03_randomized_response_example',
                    'tests/test_figures_hypothesis.py::test_s2_03_figure_bound_above_exact_gap_at_every_position',
                    'tests/test_figures_hypothesis.py::test_s2_03_figure_release_law_by_quadrature',
                    'tests/test_figures_hypothesis.py::test_s2_03_figure_delta_is_a_post_processing_of_the_gaussian'),
          shown='hypothesis-moment-bound',
          chapter='book/04-hypothesis-testing',
          status='supported'),
    Claim("S2-04", "zCDP: pure ε-DP ⇒ ½ε²-zCDP; composition adds ρ; ½ε²k-zCDP ⇒ (ε√(2k log 1/δ) + ½ε²k, δ)-DP.",
          stated='s2-04',
          derived='dpnotes.symbolic.conversion.derive_zcdp_conversion',
          verified=('tests/test_composition.py::test_s2_04_pure_dp_implies_half_eps_squared_zcdp', 'tests/test_conversion.py::test_s2_04_zcdp_conversions', 'tests/test_conversion.py::test_s2_04_kfold_pure_dp_conversion', 'tests/test_symbolic_conversion.py::test_s2_04_zcdp_conversion_symbolic'),
          shown='composition-pure',
          chapter='book/02-composition',
          status='supported'),
    Claim("S2-05", "RDP with ε as a function of the order λ.", stated="s2-05", chapter="book/01-renyi-gaussian",
          status="supported",
          verified=("tests/test_rdp.py::test_s2_05_rdp_curves_are_functions_of_the_order",),
          shown="renyi-gaussian"),
    Claim("S2-06", "RDP properties: post-processing, non-negativity, composition, monotonicity in α, Gaussian divergence, "
                   "pure DP ⇒ (α/8)(…)², quasi-convexity, triangle-like inequality, improved conversion.",
          stated="s2-06", chapter="book/01-renyi-gaussian", status="corrected",
          verified=("tests/test_rdp.py::test_s2_06_gaussian_divergence_matches_quadrature",
                    "tests/test_rdp.py::test_s2_06_monotone_in_order",
                    "tests/test_divergence.py::test_s2_06_non_negativity",
                    "tests/test_properties.py::test_s2_06_post_processing_and_nonnegativity",
                    "tests/test_properties.py::test_s2_06_monotone_in_alpha",
                    "tests/test_properties.py::test_s2_06_gaussian_divergence_symmetric_in_means",
                    "tests/test_properties.py::test_s2_06_quasi_convexity_both_inequalities",
                    "tests/test_properties.py::test_s2_06_triangle_and_group_privacy_gaussians_tight",
                    "tests/test_properties.py::test_s2_06_triangle_inequality_pmfs",
                    "tests/test_properties.py::test_s2_06_pure_dp_implies_concentrated",
                    "tests/test_properties.py::test_s2_06_pure_dp_bound_laplace",
                    "tests/test_properties.py::test_s2_06_improved_conversion_property8",
                    "tests/test_conversion.py::test_s2_06_improved_epsilon_matches_dp_accounting",
                    "tests/test_conversion.py::test_s2_06_improved_delta_matches_dp_accounting"),
          shown="renyi-gaussian",
          note="Chapter 1 covers the Gaussian divergence, monotonicity and non-negativity; chapter 4 checks post-processing, quasi-convexity, the triangle-like inequality and pure DP ⇒ (α/8)(…)² on real pairs; chapter 3 the improved conversion (item 8). Item 7 prints the first order as “α′, (α′−1)/α”, garbled: Hölder gives α(α′−1)/(α′−α); read as the order (α′−1)/α the inequality fails (N(2,1), N(1,1), N(0,1), α = 2, α′ = 4: bound 3 < D_2 = 4)."),
    Claim("S2-07", "Approximate RDP and its five properties, incl. the conversion δ̂ = δ + e^{(λ−1)(ε̂−ε)}/λ · (1 − 1/λ)^{λ−1}.",
          stated='s2-07',
          verified=('tests/test_properties.py::test_s2_07_properties_1_and_2_via_decomposition', 'tests/test_properties.py::test_s2_07_property2_seed_typo_is_false', 'tests/test_properties.py::test_s2_07_property3_corrected_conversion', 'tests/test_properties.py::test_s2_07_seed_sign_counterexample', 'tests/test_properties.py::test_s2_07_properties_4_and_5'),
          shown='conversion-approx-rdp',
          chapter='book/03-conversion',
          status='corrected',
          note='The privacy notes print property 1 as (∞, δ)-RDP and property 2 as (λ, ½ε²δ)-RDP (they are (∞, ε) and (λ, ½ε²λ): for (0.7, 0.3) vs (0.2, 0.8) at ε = 0.5, D^δ_3 = 0.252 > ½ε²δ = 0.046), and the conversion (.5) with exponent +(λ−1)(ε̂−ε); the sign is −: for the Gaussian with μ = 1, λ = 2, ε̂ = 0 the printed δ̂ = 0.092 is below the exact δ(0) = 0.383.'),
    Claim("S2-08", "Advanced composition ε′ = ε√(2k log 1/δ′) + kε(e^ε − 1); heterogeneous form.",
          stated='s2-08',
          verified=('tests/test_composition.py::test_s2_08_s3_01_advanced_composition_is_valid', 'tests/test_composition.py::test_s2_08_formula_values', 'tests/test_composition.py::test_s2_08_heterogeneous_composition'),
          shown='composition-pure',
          chapter='book/02-composition',
          status='supported',
          note='The heterogeneous form leaves δ′ implicit; the overall δ is Σδ_j + δ′.'),
    Claim("S2-09", "Joint differential privacy (definition).",
          stated="s2-09", chapter="book/10-lower-bounds-and-open-questions", status="corrected",
          verified=("tests/test_joint_dp.py::test_s2_09_own_record_is_jointly_private_but_not_private",
                    "tests/test_joint_dp.py::test_s2_09_noisy_count_joint_epsilon_is_randomized_response",
                    "tests/test_joint_dp.py::test_s2_09_without_personal_outputs_joint_equals_full",
                    "tests/test_joint_dp.py::test_s2_09_hockey_stick_equals_supremum_over_events",
                    "tests/test_joint_dp.py::test_s2_09_joint_epsilon_with_delta_is_below_pure"),
          note="The privacy notes write the neighbouring data sets as z ∪ D₋z and z′ ∪ D₋z with the agent index i "
               "separate; the record that changes must be agent i's, the agent whose output is removed (D₋ᵢ). "
               "With that reading, a mechanism giving each agent its own bit plus a randomized-response count "
               "is jointly log 4-DP (p = 0.8) while its whole output is not ε-DP for any ε (exact enumeration)."),
    Claim("S2-10", "Correlation–variance dichotomy (≥ 1/12), a lower-bound tool.",
          stated="s2-10", chapter="book/10-lower-bounds-and-open-questions", status="corrected",
          shown="fingerprinting-tradeoff",
          verified=("tests/test_lower_bounds.py::test_s2_10_exact_terms_match_quadrature_over_p",
                    "tests/test_lower_bounds.py::test_s2_10_monte_carlo_agrees_within_confidence_interval",
                    "tests/test_lower_bounds.py::test_s2_10_dichotomy_holds_in_all_three_readings",
                    "tests/test_lower_bounds.py::test_s2_10_constant_half_attains_one_twelfth_and_is_the_minimum",
                    "tests/test_lower_bounds.py::test_s2_10_literal_reading_is_strictly_above_one_twelfth",
                    "tests/test_lower_bounds.py::test_s2_10_dp_mean_moments_against_sampling",
                    "tests/test_lower_bounds.py::test_s2_10_more_privacy_less_correlation_more_bias"),
          note="The privacy notes write f : {0,1}^d (meaning {0,1}^n) and the second term as E_P[E_X[f(X) − X̄]²]. "
               "Read as the squared bias E_P[(E_X[f(X)] − P)²] it is the sharp form: the minimum over all f is "
               "exactly 1/12, attained by f ≡ 1/2. Steinke's form with E[(f(X) − P)²] is weaker and true; the "
               "literal reading E[(f(X) − X̄)²] is true but never tight (its minimum is 0.0909 at n = 20)."),
    Claim("S2-11", "Decomposition of an (ε, δ) pair; every (ε, δ)-DP pair is a post-processing of (ε, δ) randomized response; Bayesian version.",
          stated='s2-11',
          verified=('tests/test_properties.py::test_s2_11_decomposition', 'tests/test_properties.py::test_s2_11_bayesian_version'),
          shown='hypothesis-posterior',
          chapter='book/04-hypothesis-testing',
          status='supported'),
    # The lecture notes
    Claim("S3-01", "Advanced composition for pure ε-DP: (kε²/2 + ε√(2k log 1/δ), δ)-DP.",
          stated='s3-01',
          verified=('tests/test_composition.py::test_s2_08_s3_01_advanced_composition_is_valid', 'tests/test_composition.py::test_s3_01_sublinear_growth_vs_basic', 'tests/test_composition.py::test_s3_01_zcdp_form_is_zcdp_route'),
          shown='composition-pure',
          chapter='book/02-composition',
          status='supported'),
    Claim("S3-02", "k Laplace queries under a total (ε, δ): Lap(k/ε) each (basic) vs Lap(2√(2k log 1/δ)/ε) each (advanced).",
          stated='s3-02',
          derived='dpnotes.symbolic.conversion.derive_laplace_scales',
          verified=('tests/test_composition.py::test_s3_02_laplace_scales', 'tests/test_composition.py::test_s3_02_seed_scale_fails_for_huge_budgets', 'tests/test_symbolic_conversion.py::test_s3_02_laplace_scales_symbolic'),
          shown='composition-laplace-queries',
          chapter='book/02-composition',
          status='corrected',
          note="The source's scale 2√(2k log 1/δ)/ε is valid only for ε ≤ 8 log(1/δ) and spends about half the budget (it composes to ε/2 + ε²/(16 log 1/δ)); the tight scale is about √(2k log 1/δ)/ε (k = 100, ε = 1, δ = 1e-5: 49.01 instead of 95.97)."),
    Claim("S3-03", "Advanced composition for (ε, δ) mechanisms: (kε²/2 + ε√(2k log 1/δ′), kδ + δ′).",
          stated='s3-03',
          verified=('tests/test_composition.py::test_s3_03_eps_delta_mechanisms',),
          shown='composition-delta-prime',
          chapter='book/02-composition',
          status='supported'),
    Claim("S3-04", "Gaussian mechanism under advanced composition and the choice of δ′; δ′ = δ is strictly worse.",
          stated='s3-04',
          derived='dpnotes.symbolic.conversion.derive_gaussian_delta_prime',
          verified=('tests/test_composition.py::test_s3_04_delta_prime_choices', 'tests/test_composition.py::test_s3_04_split_is_valid_by_exact_composition', 'tests/test_symbolic_conversion.py::test_s3_04_delta_prime_symbolic'),
          shown='composition-delta-prime',
          chapter='book/02-composition',
          status='corrected',
          note='The printed variance (4k/ε²) log((k+1)/δ) for δ′ = δ/(k+1) drops the calibration factor log(1.25(k+1)/δ) (k = 10, ε = 1, δ = 1e-5: 7864.6, not 556.4); the claim that this choice is strictly worse than δ′ = δ/2 holds for every k ≥ 2 (equal at k = 1).'),
    Claim("S3-05", "RDP additivity for products and k-fold composition (α, kξ).",
          stated='s3-05',
          verified=('tests/test_composition.py::test_s3_05_s0_08_rdp_additivity_for_products',),
          shown='composition-pure',
          chapter='book/02-composition',
          status='supported'),
    Claim("S3-06", "RDP has no hypothesis-testing reading by itself; convert: ε = ξ + log(1/δ)/(α−1).",
          stated='s3-06',
          verified=('tests/test_conversion.py::test_s0_07_s3_06_mironov_formula',),
          shown='conversion-gaussian',
          chapter='book/03-conversion',
          status='supported'),
    Claim("S3-07", "Moments accountant for iterative training.",
          stated="s3-07", chapter="book/06-dpsgd", status="supported", shown="dpsgd-epochs",
          verified=("tests/test_dpsgd.py::test_s3_07_moments_accountant_is_rdp_mironov_on_integer_orders",),
          note="The moments accountant (log moments λD_{λ+1}, λ ≤ 32, tail bound) is RDP at orders λ + 1 with "
               "Mironov's conversion; checked to 1e-9 against a 50-digit evaluation. It is not the tightest: the "
               "improved conversion and the PLD give smaller ε (Abadi et al.'s run: 1.258 → 1.035 → 0.947)."),
    Claim("S3-08", "Learning: ERM with squared, logistic, hinge losses and the geometric median; releasing θ* can reveal a data point.",
          stated="s3-08", chapter="book/00-why-privacy", status="supported", shown="learning-theta-record",
          verified=("tests/test_learning.py::test_s3_08_geometric_median_is_the_weiszfeld_fixed_point_and_the_minimiser",
                    "tests/test_learning.py::test_s3_08_median_of_odd_set_is_a_data_point",
                    "tests/test_learning.py::test_s3_08_median_is_minimiser_of_absolute_loss_and_mean_of_squared",
                    "tests/test_learning.py::test_s3_08_minimiser_moves_with_one_record",
                    "tests/test_learning.py::test_s3_08_replace_one_sensitivity_order_statistics",
                    "tests/test_learning.py::test_s3_08_loss_threshold_attack_on_overfit_model_beats_guessing",
                    "tests/test_learning.py::test_s3_08_membership_bound_is_the_randomized_response_optimum",
                    "tests/test_learning.py::test_s3_08_dpsgd_epsilon_matches_dp_accounting",
                    "tests/test_learning.py::test_s3_08_dpsgd_without_noise_is_gradient_descent_and_noise_protects_membership")),
    # The blog post
    Claim("S4-01", "D_λ interpolates between KL (λ → 1) and max divergence (λ → ∞).",
          stated="s4-01", chapter="book/01-renyi-gaussian", status="supported",
          verified=("tests/test_rdp.py::test_s4_01_limits_kl_and_max_divergence",),
          shown="renyi-laplace"),
    Claim("S4-02", "Example 1: Gaussian RDP λ‖μ2 − μ1‖²/(2σ²), symmetric in the two means.",
          stated="s4-02", chapter="book/01-renyi-gaussian", status="supported",
          derived="dpnotes.symbolic.gaussian.derive_rdp_gaussian",
          verified=("tests/test_rdp.py::test_s4_02_gaussian_symmetric_in_means",
                    "tests/test_symbolic_gaussian.py::test_s4_02_derivation_matches_closed_form"),
          shown="renyi-gaussian"),
    Claim("S4-03", "Claim 20: p, q are (ε, exp(−κ*(ε)))-indistinguishable (Chernoff + Legendre).",
          stated='s4-03',
          verified=('tests/test_conversion.py::test_s4_03_s4_04_chernoff_coincides_with_mironov_on_a_grid',),
          shown='conversion-gaussian',
          chapter='book/03-conversion',
          status='supported'),
    Claim("S4-04", "Claim 21: (λ, ρ)-RDP ⇒ (ε, exp((λ−1)(ρ−ε)))-DP; ⇒ (ρ + log(1/δ)/(λ−1), δ)-DP.",
          stated='s4-04',
          verified=('tests/test_conversion.py::test_s4_03_s4_04_chernoff_coincides_with_mironov_on_a_grid', 'tests/test_conversion.py::test_s4_04_claim21_round_trip'),
          shown='conversion-order',
          chapter='book/03-conversion',
          status='corrected',
          note='The middle form of Claim 21 prints (ε, −exp(κ*(ε)))-dp, a negative δ; it is exp(−κ*(ε)). The first and last forms are right.'),
    Claim("S4-05", "Example 2: Gaussian δ ≤ exp(−(εσ − 1/(2σ))²/2); optimal order λ* = ½ + εσ².",
          stated='s4-05',
          derived='dpnotes.symbolic.conversion.derive_gaussian_optimal_order',
          verified=('tests/test_conversion.py::test_s4_05_example2_optimal_order_and_delta', 'tests/test_conversion.py::test_s4_05_seed_order_is_wrong_numerically', 'tests/test_symbolic_conversion.py::test_s4_05_optimal_order_symbolic_and_seed_correction'),
          shown='conversion-order',
          chapter='book/03-conversion',
          status='corrected',
          note='The source prints the optimal order as (1 + 2ε/σ²)/2; the derivation gives ½ + εσ² (ε = 1, σ = 2: 4.5, numerically confirmed; the printed 0.75 is not an order). The δ bound is right.'),
    Claim("S4-06", "Claim 22: moment composition theorem (λ, kρ).",
          stated='s4-06',
          verified=('tests/test_composition.py::test_s4_06_moment_composition_gaussian',),
          shown='composition-pure',
          chapter='book/02-composition',
          status='supported'),
    Claim("S4-07", "Claim 23: k-fold composition is (ε, exp(−kκ*(ε/k)))-DP, using (kf)*(x) = k f*(x/k).",
          stated='s4-07',
          derived='dpnotes.symbolic.conversion.derive_legendre_scaling',
          verified=('tests/test_conversion.py::test_s4_07_claim23_kfold_composition_via_legendre_scaling', 'tests/test_symbolic_conversion.py::test_s4_07_legendre_scaling'),
          shown='conversion-gaussian',
          chapter='book/03-conversion',
          status='supported'),
    Claim("S4-08", "Example 3: composed Gaussian; σ > √k(ε⁻¹√(2 log 1/δ) + (2ε)^{−1/2}) suffices.",
          stated='s4-08',
          derived='dpnotes.symbolic.conversion.derive_composed_gaussian_sigma',
          verified=('tests/test_conversion.py::test_s4_08_example3_sigma_bound_suffices', 'tests/test_symbolic_conversion.py::test_s4_08_sigma_threshold',
                    'tests/test_figures_conversion.py::test_s4_08_figure_numbers_at_k100_eps1_delta1e5',
                    'tests/test_figures_conversion.py::test_s4_08_figure_exact_sigma_against_dp_accounting_pld',
                    'tests/test_figures_conversion.py::test_s4_08_figure_seed_above_bound_threshold_above_exact',
                    'tests/test_figures_conversion.py::test_s4_08_figure_curves_scale_with_root_k',
                    'tests/test_figures_conversion.py::test_s4_08_figure_seed_closer_to_bound_threshold_for_smaller_delta'),
          shown='conversion-sigma-threshold',
          chapter='book/03-conversion',
          status='supported',
          note="Sufficient but slightly loose: the exact threshold of the bound is √k(√(2L) + √(2L + 2ε))/(2ε), L = log 1/δ (k = 100, ε = 1, δ = 1e-5: 49.01 vs the source's 55.06; the exact privacy curve needs 37.31)."),
    Claim("S4-09", "Claim 24: subsampling at rate r: (λ, log(1 + r(e^{(λ−1)ρ} − 1))/(λ−1))-RDP and its relaxation.",
          stated="s4-09", chapter="book/05-subsampling", status="supported", shown="subsampling-rdp",
          verified=("tests/test_subsampling.py::test_s4_09_subsampling_bound_formula_and_overflow",
                    "tests/test_subsampling.py::test_s4_09_claim24_is_a_valid_bound_for_the_sampled_gaussian",
                    "tests/test_figures_dpsgd.py::test_s4_09_subsampling_figure_orders_exact_below_claim24")),
    Claim("S4-10", "Claim 25: (Σp_i)^λ/(Σq_i)^{λ−1} ≤ Σ p_i^λ/q_i^{λ−1}.",
          stated="s4-10", chapter="book/05-subsampling", status="corrected",
          verified=("tests/test_subsampling.py::test_s4_10_claim25_inequality",),
          note="Stated for non-negative integers p_i, q_i; the proof (Jensen) and its use need non-negative reals "
               "(and q_i > 0). The proof of Claim 24 also uses n for two different counts."),
    Claim("S4-11", "Example 4: subsampled Gaussian is (λ, O(rλ/σ²))-RDP by Claim 24.",
          stated="s4-11", chapter="book/05-subsampling", status="supported", shown="subsampling-scaling",
          verified=("tests/test_subsampling.py::test_s4_11_example4_scaling_r_versus_r_squared",
                    "tests/test_figures_dpsgd.py::test_s4_11_scaling_figure_slopes")),
    Claim("S4-12", "Conjecture 1: mixtures preserve pairwise divergence order.", status="false",
          stated="s4-12", chapter="book/05-subsampling",
          verified=("tests/test_subsampling.py::test_s4_12_conjecture1_counterexample_exact",
                    "tests/test_subsampling.py::test_s4_12_random_search_finds_counterexamples_often",
                    "tests/test_subsampling.py::test_s4_12_forward_direction_dominates_reverse"),
          note="False: on two points take p_i = (2/3, 1/3), q_i = (1/3, 2/3) for i = 1, 2 and (μ1, ν1) = (M, N), "
               "(μ2, ν2) = (N, M) with M = (3/4, 1/4), N = (1/4, 3/4). Pairwise D_2 = log 3/2 ≤ log 7/3, but the "
               "averages give D_2 = log 3/2 > 0 = D_2(½(M+N) ‖ ½(N+M)) (exact fractions). The special case Claim 26 "
               "needs holds for the sampled Gaussian (Mironov, Talwar & Zhang 2019)."),
    Claim("S4-13", "Claim 26: (λ, O(r²λ/σ²)) for r ≤ c1/σ, λ ≤ c2σ²; the constant C(c1, c2).",
          stated="s4-13", chapter="book/05-subsampling", status="corrected",
          verified=("tests/test_subsampling.py::test_s4_13_claim26_constant_and_the_seeds_limit",
                    "tests/test_dpsgd.py::test_s4_13_route3_constant_is_claim26_constant",
                    "tests/test_dpsgd.py::test_s4_13_route3_rdp_dominates_the_exact_rdp"),
          note="The claim holds (C is finite; e.g. C(0.5, 1) = 1.144, C(1, 2) = 34.1) and needs no Conjecture 1 for "
               "the Gaussian, but the source's proof is wrong: it concludes that the sum S_n tends to 0, impossible "
               "since S_n ≥ 1 (Jensen); in fact S_n → exp(c1²c2/2) (c1 = c2 = 1: S_10⁶ = 1.64955 vs e^½ = 1.64872). "
               "Dominated convergence fails because the binomial mass sits at j/n → 0.",
          shown="subsampling-scaling"),
    Claim("S4-14", "Claim 27 and (9.5): binomial expansion of G_λ(rμ1 + (1−r)μ0 ‖ μ0) for integer λ.",
          stated="s4-14", chapter="book/05-subsampling", status="corrected",
          verified=("tests/test_subsampling.py::test_s4_14_integer_orders_match_mpmath_quadrature",
                    "tests/test_subsampling.py::test_s4_14_integer_orders_match_50_digit_binomial",
                    "tests/test_subsampling.py::test_s4_14_order_1e4_and_large_fractional_orders"),
          note="Claim 27 sums from k = 1; the k = 0 term (1 − r)^λ G_0 is needed ((9.5) has it).",
          shown="subsampling-rdp"),
    Claim("S4-15", "Claim 28 and Abadi et al. Theorem 1: σ ≥ c2′ r√(T log 1/δ)/ε; the source's objections.",
          stated="s4-15", chapter="book/06-dpsgd", status="supported", shown="dpsgd-epochs",
          verified=("tests/test_dpsgd.py::test_s4_15_claim28_with_log_c_is_a_valid_bound",
                    "tests/test_dpsgd.py::test_s4_15_route3_regime_raises_and_is_reported",
                    "tests/test_figures_dpsgd.py::test_s4_15_route3_drawn_at_the_cap_where_it_does_not_apply"),
          note="Claim 28 holds (checked against the tight RDP route) when its Chernoff step is read with the log "
               "moment log C ≤ C; it is loose and allows only T ≈ c2εσ²/(2C) steps (6–8 in the chapter's cases). "
               "The source's objections to Abadi et al.'s Theorem 1 (the direction of ε < c1′r²T, the missing "
               "r = O(1/σ)) are stated in the chapter."),
    Claim("S4-16", "How an RDP accountant computes: log A_α for integer and fractional orders; δ from ε and ε from δ.",
          stated="s4-16", chapter="book/05-subsampling", status="supported",
          verified=("tests/test_subsampling.py::test_s4_16_fractional_orders_match_mpmath_quadrature",
                    "tests/test_subsampling.py::test_s4_16_limits_q0_q1",
                    "tests/test_dpsgd.py::test_s4_16_rdp_routes_agree_with_dp_accounting",
                    "tests/test_dpsgd.py::test_s4_16_improved_never_worse_than_mironov",
                    "tests/test_dpsgd.py::test_s4_16_epsilon_and_delta_are_inverse_along_rdp",
                    "tests/test_dpsgd.py::test_s4_16_warns_when_the_best_order_is_at_the_edge"),
          shown="subsampling-rdp"),
    Claim("S4-17", "Comparison of routes for DP-SGD: Route 1, Route 2, Route 3, against tight accounting.",
          stated="s4-17", chapter="book/06-dpsgd", status="corrected", shown="dpsgd-epochs",
          verified=("tests/test_dpsgd.py::test_s4_17_every_route_upper_bounds_the_exact_full_gaussian",
                    "tests/test_dpsgd.py::test_s4_17_every_route_is_above_the_pld_lower_bound",
                    "tests/test_dpsgd.py::test_s4_17_route1_matches_an_independent_brute_force_split",
                    "tests/test_dpsgd.py::test_s4_17_route2_is_the_unsubsampled_gaussian_moment_bound",
                    "tests/test_dpsgd.py::test_s4_17_reproduction_tensorflow_privacy_tutorial",
                    "tests/test_dpsgd.py::test_s4_17_reproduction_abadi_et_al",
                    "tests/test_figures_dpsgd.py::test_s4_17_every_route_is_above_the_tightest_curve_at_every_position"),
          note="The source's Route 2 composes k = epochs full-batch steps, a different algorithm; as an accounting of "
               "DP-SGD it must compose T = k/q steps and is then the worst route. Its guess 'Route 2 is superior "
               "to Route 1' fails for small q (Abadi et al.'s run: route 1 ε = 14.2, route 2 ε = 433). Route 3 is "
               "within 5% of the moments accountant; published ε's reproduced: TF Privacy 3.008 (3.01), Abadi et al. "
               "1.258 (1.26); tight: 2.38 and 0.947 (PLD)."),
    Claim("S4-18", "Further questions: non-Gaussian noise, usefulness of Claim 26, Part 1 vs Part 2 methods.",
          stated="s4-18", chapter="book/10-lower-bounds-and-open-questions", status="open",
          shown="noise-rdp-curves",
          verified=("tests/test_noise_comparison.py::test_s4_18_laws_have_unit_mass_zero_mean_and_the_stated_variance",
                    "tests/test_noise_comparison.py::test_s4_18_closed_forms_gaussian_and_laplace",
                    "tests/test_noise_comparison.py::test_s4_18_fast_grid_agrees_with_quadrature",
                    "tests/test_noise_comparison.py::test_s4_18_max_divergence_is_the_limit_of_d_alpha",
                    "tests/test_noise_comparison.py::test_s4_18_gaussian_minimises_kl_among_equal_variance_laws",
                    "tests/test_noise_comparison.py::test_s4_18_every_bounded_tail_law_beats_the_gaussian_from_some_order",
                    "tests/test_noise_comparison.py::test_s4_18_composition_decides_which_noise_wins",
                    "tests/test_noise_comparison.py::test_s4_18_claim26_constant_table"),
          note="The source's open questions, answered numerically (no proofs): among noises of equal variance the "
               "Gaussian has the smallest KL divergence for a unit shift, but Laplace, logistic, hyperbolic-secant, "
               "Student-t (ν = 3, 5) and a Gaussian–Laplace mixture all have finite D_∞ and fall below the Gaussian "
               "from an order between 1.32 and 2.92 (v = 1); Claim 26's C(c₁, c₂) is finite but grows fast (34 at "
               "c₁ = 1, c₂ = 2); the exact RDP of the sampled Gaussian beats Part 1's route by one to two orders of "
               "magnitude in ε. Conjecture 1 and a theoretical Part 1 vs Part 2 answer remain open."),
]

CLAIMS = {c.id: c for c in _ROWS}


def _doc_link(chapter, text):
    return f"{{doc}}`{text} </{chapter}>`" if chapter else text


def claims_page():
    """The MyST source of the page "Claims and where they are checked"."""
    from .figures import FIGURES

    done = sum(bool(c.stated and c.verified) for c in _ROWS)
    lines = [
        "(claims)=",
        "# Claims and where they are checked",
        "",
        "The book grew out of five informal documents on privacy accounting (listed below by title).",
        "Every mathematical claim in them has an ID. For each, this table says where",
        "the book **states** it (a link to the theorem or definition), **derives** it (a sympy",
        "derivation in the package), **verifies** it (the tests that check it by an independent",
        "route) and **shows** it (a figure with sliders, where the claim has a parameter to move: a",
        "definition, an inequality between fixed objects or a counterexample has none). The page is",
        "generated from `dpnotes/claims.py` (`python -m dpnotes.claims`).",
        "",
        f"Stated and verified so far: **{done} of {len(_ROWS)}** claims.",
        "",
    ]
    for seed, title in SOURCES.items():
        lines += [f"## Claims S{seed}: {title[0].upper()}{title[1:]}", "", "| ID | claim | stated | derived | verified by | shown | status |",
                  "|---|---|---|---|---|---|---|"]
        for c in (c for c in _ROWS if c.seed == seed):
            stated = f"{{prf:ref}}`{c.id} <{c.stated}>`" if c.stated else ""
            derived = f"`{c.derived.rsplit('.', 1)[-1]}`" if c.derived else ""
            verified = "<br>".join(f"`{v.split('::')[-1]}`" for v in c.verified)
            shown = ""
            if c.shown:
                shown = f"{{ref}}`{FIGURES[c.shown].key} <fig-{c.shown}>`"
            status = c.status + (f": {c.note}" if c.note and c.status != "supported" else "")
            statement = c.statement.replace("|", "\\|").replace("*", "\\*")
            status = status.replace("*", "\\*")
            lines.append(f"| {c.id} | {statement} | {stated} | {derived} | {verified} | {shown} | {status} |")
        lines.append("")
    return "\n".join(lines)


_FINDING_TITLES = {
    "false": "Refuted: a counterexample is shown",
    "corrected": "Mis-stated in the source: the book gives the right form",
    "open": "Open in the source: what the book found",
}


def findings_page():
    """The MyST source of the closing page "Findings": every claim whose status is
    "false", "corrected" or "open", with its evidence, generated from the registry."""
    found = [c for c in _ROWS if c.status in _FINDING_TITLES]
    lines = [
        "(findings)=",
        "# Findings: what the book corrected, refuted or left open",
        "",
        "Checking every claim of the source documents by an independent computation turned up the",
        "claims below: some are false (the book shows a counterexample), some are mis-stated (the book",
        "states and checks the right form), and some are questions the sources leave open (the book",
        "answers what a computer can). Each row links to the statement in the book and names the tests",
        "that check it. The page is generated from the claims registry `dpnotes/claims.py`",
        "(`python -m dpnotes.claims`), like the {ref}`claims table <claims>`.",
        "",
        f"Findings: **{len(found)}** of {len(_ROWS)} claims "
        + ", ".join(f"{sum(c.status == s for c in found)} {s}" for s in _FINDING_TITLES) + ".",
        "",
    ]
    for status, title in _FINDING_TITLES.items():
        group = [c for c in found if c.status == status]
        if not group:
            continue
        lines += [f"## {title}", "", "| ID | claim | the evidence | stated | verified by |", "|---|---|---|---|---|"]
        for c in group:
            stated = f"{{prf:ref}}`{c.id} <{c.stated}>`" if c.stated else ""
            if c.chapter:
                stated += (" in " if stated else "") + _doc_link(c.chapter, c.chapter.rsplit("/", 1)[-1])
            verified = "<br>".join(f"`{v.split('::')[-1]}`" for v in c.verified)
            statement = c.statement.replace("|", "\\|").replace("*", "\\*")
            note = c.note.replace("|", "\\|").replace("*", "\\*")
            lines.append(f"| {c.id} | {statement} | {note} | {stated} | {verified} |")
        lines.append("")
    return "\n".join(lines)


def write_page(path=None):
    """Write ``book/claims.md`` (or ``path``) and, next to it, ``findings.md``; return both paths."""
    path = Path(path or Path(__file__).resolve().parents[1] / "book" / "claims.md")
    path.write_text(claims_page(), encoding="utf-8")
    findings = path.with_name("findings.md")
    findings.write_text(findings_page(), encoding="utf-8")
    return path, findings


if __name__ == "__main__":
    for written in write_page():
        print(f"wrote {written}")
