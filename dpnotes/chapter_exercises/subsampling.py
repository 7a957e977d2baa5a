"""Exercises of the subsampling chapter, with answers computed by the package.
"""

from math import comb

import numpy as np

from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
from ..rdp import rdp_gaussian
from ..subsampling import rdp_subsampled, rdp_subsampled_gaussian

CHAPTER = "05-subsampling"

_ALPHA_READ = 9.674511879626301  # the order of the figure's grid nearest to 10

EXERCISES = [
    Numeric(
        key="subsampling-claim24", chapter=CHAPTER, stars=1,
        answer=lambda: rdp_subsampled(2.0, 0.2, rdp_gaussian(2.0, 2.0)),
        hint="First the Gaussian's ε(2) with σ = 2; then put it into the generic bound of this chapter at α = 2.",
        slips=[
            Slip("no-log", "the logarithm of the bound is missing.", lambda: 0.2 * np.expm1(0.25)),
            Slip("exact-value", "that is the exact subsampled value; the generic bound is larger.",
                 lambda: np.log(1 + 0.04 * np.expm1(0.25))),
            Slip("missing-two", "the Gaussian's ε(2) = α/(2σ²) is 1/4 here: the factor 2 or the square on σ "
                                "is missing.",
                 lambda: np.log(1 + 0.2 * np.expm1(0.5))),
        ],
    ),
    Numeric(
        key="subsampling-exact-order2", chapter=CHAPTER, stars=2,
        answer=lambda: rdp_subsampled_gaussian(2.0, 0.2, 2.0),
        sig_figs=4,  # the missing logarithm changes the value by 0.6 %: the 4th figure tells it
        hint="Write out the binomial sum of this chapter at α = 2: three terms, j = 0, 1, 2; most of it cancels.",
        slips=[
            Slip("generic-bound", "that is the generic bound; the exact value is much smaller.",
                 lambda: np.log(1 + 0.2 * np.expm1(0.25))),
            Slip("no-log", "the logarithm is missing: ε(2) is the logarithm of the sum.",
                 lambda: 0.04 * np.expm1(0.25)),
            Slip("exponent-doubled", "the exponent in the j = 2 term is 1/σ², not 2/σ².",
                 lambda: np.log(1 + 0.04 * np.expm1(0.5))),
        ],
    ),
    Numeric(
        key="subsampling-ratio", chapter=CHAPTER, stars=2,
        answer=lambda: rdp_subsampled(2.0, 0.01, rdp_gaussian(2.0, 1.0)) / rdp_subsampled_gaussian(2.0, 0.01, 1.0),
        hint="Divide the generic bound by the exact value, both at α = 2, σ = 1, q = 0.01.",
        slips=[
            Slip("inverted", "you divided the exact value by the bound; the question asks how many times larger "
                             "the bound is.",
                 lambda: rdp_subsampled_gaussian(2.0, 0.01, 1.0) / rdp_subsampled(2.0, 0.01, rdp_gaussian(2.0, 1.0))),
            Slip("small-q-limit", "that is the small-q approximation 1/q; the question asks for the exact ratio.",
                 lambda: 100.0),
        ],
    ),
    Symbolic(
        key="subsampling-order-two", chapter=CHAPTER, stars=2,
        answer="log(1 + q**2*(exp(1/sigma**2) - 1))",
        symbols={"q": (0.001, 1.0), "sigma": (0.5, 5.0)},
        hint="At α = 2 the binomial expansion of the moment has three terms; the terms with j = 0 and j = 1 "
             "combine with the rest of the sum.",
        slips=[
            Slip("q-not-squared", "the privacy cost of subsampling at order 2 is quadratic in q.",
                 "log(1 + q*(exp(1/sigma**2) - 1))"),
            Slip("sigma-for-sigma2", "it looks as if σ appears where σ² belongs.",
                 "log(1 + q**2*(exp(1/sigma) - 1))"),
        ],
    ),
    Code(
        key="subsampling-binomial-rdp", chapter=CHAPTER, stars=3,
        function="sampled_gaussian_rdp", signature="(alpha, q, sigma)",
        reference="dpnotes.subsampling:rdp_subsampled_gaussian",
        inputs=lambda rng: {"alpha": int(rng.integers(2, 13)), "q": float(rng.uniform(0.001, 0.5)),
                            "sigma": float(rng.uniform(0.6, 5.0))},
        n_cases=40, rtol=1e-8, edge_cases=[{"alpha": 2, "q": 0.5, "sigma": 1.0}],
        hint="For an integer order, expand (1 − q + q·r(Y))^α by the binomial theorem, where r is the likelihood "
             "ratio of N(1, σ²) to N(0, σ²) and Y ∼ N(0, σ²), and take the expectation of each term: each is a "
             "Gaussian moment generating function.",
        slips=[
            Slip("no-division", "the RDP is log A_α divided by α − 1.",
                 lambda alpha, q, sigma: float(np.log(sum(comb(alpha, j) * q**j * (1 - q) ** (alpha - j)
                                                          * np.exp(j * (j - 1) / (2 * sigma**2))
                                                          for j in range(alpha + 1))))),
            Slip("sigma-for-sigma2", "it looks as if σ appears where σ² belongs.",
                 lambda alpha, q, sigma: float(np.log(sum(comb(alpha, j) * q**j * (1 - q) ** (alpha - j)
                                                          * np.exp(j * (j - 1) / (2 * sigma))
                                                          for j in range(alpha + 1))) / (alpha - 1))),
        ],
    ),
    Explore(
        key="subsampling-rdp-reading", chapter=CHAPTER, stars=1,
        figure="subsampling-rdp", sliders={"q": 0.1, "sigma": 1.0},
        answer=lambda: figure_value("subsampling-rdp", {"q": 0.1, "sigma": 1.0}, "exact sampled Gaussian", x=_ALPHA_READ),
        hint="Set both sliders as asked and read the exact curve at the order asked for (hover over the curve).",
        slips=[
            Slip("default-q", "q is still at its default; move the slider as asked.",
                 lambda: figure_value("subsampling-rdp", {"q": 0.01, "sigma": 1.0}, "exact sampled Gaussian",
                                      x=_ALPHA_READ)),
            Slip("no-subsampling", "that is the Gaussian without subsampling.",
                 lambda: figure_value("subsampling-rdp", {"q": 0.1, "sigma": 1.0}, "Gaussian without", x=_ALPHA_READ)),
        ],
    ),
]
