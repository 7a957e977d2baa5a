"""Exercises of the hypothesis-testing chapter, with answers computed by the package.
"""

import numpy as np
from scipy import stats

from ..composition import gaussian_sigma_exact
from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
from ..privacy_loss import delta_gaussian, delta_randomized_response, delta_tail_bound, privacy_loss_gaussian
from ..properties import moment_difference_bound, posterior_bound
from ..tradeoff import tradeoff_gaussian

CHAPTER = "04-hypothesis-testing"

EXERCISES = [
    Numeric(
        key="hypothesis-rr-delta", chapter=CHAPTER, stars=2,
        answer=lambda: delta_randomized_response(0.4, 0.8),
        hint="δ(ε) is the largest P(E) − e^ε Q(E) over events E; with two outcomes, try the event of each report.",
        slips=[
            Slip("minus-epsilon", "it looks as if you used e^(−ε) where e^ε belongs.",
                 lambda: 0.8 - np.exp(-0.4) * 0.2),
            Slip("total-variation", "that is δ(0), the total variation distance; the question asks for δ at ε = 0.4.",
                 lambda: 0.6),
        ],
    ),
    Numeric(
        key="hypothesis-tail-bound", chapter=CHAPTER, stars=2,
        answer=lambda: delta_tail_bound(privacy_loss_gaussian(0.5), 2.5),
        hint="Find μ from σ and Δ; the privacy loss Z of the Gaussian mechanism is normal with mean and variance "
             "given by μ (this chapter); use its survival function at ε.",
        slips=[
            Slip("exact-delta", "that is the exact δ(2.5); the question asks for the tail bound Pr[Z > ε].",
                 lambda: delta_gaussian(2.5, 2.0)),
            Slip("sigma-as-sd", "the standard deviation of Z is μ, not σ.", lambda: stats.norm.sf(0.5 / 0.5)),
            Slip("variance-as-sd", "you used the variance of Z where its standard deviation belongs.",
                 lambda: stats.norm.sf(0.5 / 4.0)),
        ],
    ),
    Numeric(
        key="hypothesis-posterior", chapter=CHAPTER, stars=1,
        answer=lambda: posterior_bound(0.1, 1.0),
        hint="Bayes' rule, with the likelihood ratio of the output under the two hypotheses at most e^ε.",
        slips=[
            Slip("prior-times-e", "that multiplies the prior by e^ε without renormalising.", lambda: 0.1 * np.e),
            Slip("smallest-posterior", "that is the smallest possible posterior: the sign of ε is flipped.",
                 lambda: 0.1 / (0.1 + 0.9 * np.e)),
        ],
    ),
    Numeric(
        key="hypothesis-moment", chapter=CHAPTER, stars=2,
        answer=lambda: moment_difference_bound(0.1, 1e-3, 2.0, 10.0),
        hint="Plug the numbers into the bound of this chapter; the bound B on |Y| is 10.",
        slips=[
            Slip("missing-delta-term", "the δ term of the bound is missing.", lambda: np.expm1(0.1) * 2.0),
            Slip("missing-two", "the factor 2 in the δ term is missing.", lambda: np.expm1(0.1) * 2.0 + 1e-3 * 10),
            Slip("e-eps-for-e-eps-minus-1", "it looks as if you used e^ε where e^ε − 1 belongs.",
                 lambda: np.exp(0.1) * 2.0 + 2 * 1e-3 * 10),
        ],
    ),
    Numeric(
        key="hypothesis-tradeoff-gaussian", chapter=CHAPTER, stars=3,
        answer=lambda: tradeoff_gaussian(0.05, 1.0 / gaussian_sigma_exact(1.0, 1e-5)),
        hint="First calibrate: the exact σ for (1, 10⁻⁵) with Δ₂ = 1, which gives μ. Then evaluate the Gaussian "
             "trade-off function G_μ at the type I error 0.05.",
        slips=[
            Slip("mu-is-sigma", "it looks as if you used μ = σ; μ is the sensitivity divided by σ.",
                 lambda: tradeoff_gaussian(0.05, gaussian_sigma_exact(1.0, 1e-5))),
            Slip("randomized-response", "that is randomized response's trade-off at the same ε, not the Gaussian's.",
                 lambda: 1 - np.e * 0.05),
            Slip("power", "that is the power 1 − β of the test, not its type II error β.",
                 lambda: 1 - tradeoff_gaussian(0.05, 1.0 / gaussian_sigma_exact(1.0, 1e-5))),
        ],
    ),
    Symbolic(
        key="hypothesis-laplace-delta", chapter=CHAPTER, stars=3,
        answer="1 - exp((epsilon - Delta/b)/2)",
        symbols={"epsilon": (0.01, 1.0), "Delta": (1.1, 3.0), "b": (0.3, 1.0)},
        hint="Find the set of outputs where the privacy loss of Laplace noise exceeds ε, then compute "
             "P(E) − e^ε Q(E) for it.",
        slips=[
            Slip("missing-half", "a factor ½ is missing: half of each Laplace law lies on each side of its centre.",
                 "1 - exp(epsilon - Delta/b)"),
            Slip("sign", "check ε = Δ/b: there δ must reach 0.", "1 - exp((Delta/b - epsilon)/2)"),
        ],
    ),
    Code(
        key="hypothesis-gaussian-tradeoff", chapter=CHAPTER, stars=2,
        function="gaussian_tradeoff", signature="(alpha, mu)",
        reference="dpnotes.tradeoff:tradeoff_gaussian", argmap={"alpha": "alpha_type1"},
        inputs=lambda rng: {"alpha": float(rng.uniform(0.001, 0.999)), "mu": float(rng.uniform(0.05, 4.0))},
        n_cases=40, edge_cases=[{"alpha": 0.5, "mu": 1.0}],
        hint="The best test of N(0, 1) against N(μ, 1) thresholds the output; find the threshold from α, then β.",
        slips=[
            Slip("plus-mu", "the second law is shifted towards the rejection region: μ is subtracted.",
                 lambda alpha, mu: float(stats.norm.cdf(stats.norm.ppf(1 - alpha) + mu))),
            Slip("alpha-not-complement", "the threshold is the (1 − α)-quantile, not the α-quantile.",
                 lambda alpha, mu: float(stats.norm.cdf(stats.norm.ppf(alpha) - mu))),
        ],
    ),
    Explore(
        key="hypothesis-posterior-reading", chapter=CHAPTER, stars=1,
        figure="hypothesis-posterior", sliders={"epsilon": 2.0, "prior": 0.3},
        answer=lambda: figure_value("hypothesis-posterior", {"epsilon": 2.0, "prior": 0.3}, "P[X = 1 | Y = y]", x=0.95),
        hint="Set both sliders as asked and read the posterior curve at the output y asked for.",
        slips=[
            Slip("default-prior", "the prior is still at its default; move the slider as asked.",
                 lambda: figure_value("hypothesis-posterior", {"epsilon": 2.0, "prior": 0.5}, "P[X = 1 | Y = y]",
                                      x=0.95)),
            Slip("bound-line", "that is the bound; the question asks for the posterior itself.",
                 lambda: figure_value("hypothesis-posterior", {"epsilon": 2.0, "prior": 0.3}, "bound")),
        ],
    ),
]
