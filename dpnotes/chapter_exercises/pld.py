"""Exercises of the chapter "The exact answer", with answers computed by the package.
"""

import numpy as np
from scipy import stats

from ..dpsgd import dpsgd_epsilon
from ..exercise_kinds import Code, Explore, Numeric, Slip, Symbolic, figure_value
from ..pld import dpsgd_clt_mu, dpsgd_epsilon_pld, gaussian_delta_exact, pld_randomized_response

CHAPTER = "07-exact-answer"

EXERCISES = [
    Numeric(
        key="pld-gaussian-composed", chapter=CHAPTER, stars=2,
        answer=lambda: gaussian_delta_exact(1.0, 2.0),
        hint="T Gaussian steps with the same σ compose to one Gaussian pair: find its μ, then use δ(ε) of μ-GDP.",
        slips=[
            Slip("mu-linear-in-t", "μ of a composition grows like √T, not like T.",
                 lambda: gaussian_delta_exact(1.0, 16 / 2.0)),
            Slip("one-step", "a missing composition count: that is δ of a single step.",
                 lambda: gaussian_delta_exact(1.0, 1 / 2.0)),
        ],
    ),
    Numeric(
        key="pld-rr-delta", chapter=CHAPTER, stars=1,
        answer=lambda: pld_randomized_response(0.75, interval=1e-4).delta(0.0),
        hint="At ε = 0, δ is the total variation distance between the two report distributions.",
        slips=[
            Slip("tv-without-half", "the sum of |P − Q| counts every difference twice: total variation is half "
                                    "of it.", lambda: 1.0),
            Slip("truth-probability", "that is the truth probability p, not a distance between distributions.",
                 lambda: 0.75),
        ],
    ),
    Numeric(
        key="pld-clt-mu", chapter=CHAPTER, stars=2,
        answer=lambda: dpsgd_clt_mu(0.02, 2.0, 2500),
        hint="Use the central-limit μ of this chapter for the subsampled Gaussian with q = 0.02, σ = 2, T = 2500.",
        slips=[
            Slip("missing-sigma-factor", "the factor that depends on σ is missing.", lambda: 0.02 * np.sqrt(2500)),
            Slip("t-for-sqrt-t", "μ grows like √T, not like T.", lambda: 0.02 * 2500 * np.sqrt(np.expm1(0.25))),
            Slip("q-squared", "μ is linear in q, not quadratic.",
                 lambda: 0.02**2 * np.sqrt(2500) * np.sqrt(np.expm1(0.25))),
            Slip("sigma-not-squared", "the exponent is 1/σ², not 1/σ.",
                 lambda: 0.02 * np.sqrt(2500) * np.sqrt(np.expm1(0.5))),
        ],
    ),
    Numeric(
        key="pld-dpsgd-upper", chapter=CHAPTER, stars=1,
        answer=lambda: dpsgd_epsilon_pld(0.02, 1.5, 2000, 1e-6),
        hint="Call the certified PLD route with q = 0.02, σ = 1.5, T = 2000, δ = 10⁻⁶ and take the upper end.",
        slips=[
            Slip("rdp-route", "that is the RDP route's ε; the PLD route gives a smaller certified bound.",
                 lambda: dpsgd_epsilon(0.02, 1.5, 2000, 1e-6, route="rdp")),
        ],
    ),
    Symbolic(
        key="pld-composed-variance", chapter=CHAPTER, stars=1,
        answer="T/sigma**2",
        symbols={"T": (1, 10000, "integer"), "sigma": (0.3, 10.0)},
        hint="The privacy loss of one Gaussian step is itself Gaussian; the losses of independent steps add.",
        slips=[
            Slip("mean-not-variance", "that is the mean of the composed loss; the question asks for its variance.",
                 "T/(2*sigma**2)"),
            Slip("missing-count", "a missing composition count: that is one step.", "1/sigma**2"),
        ],
    ),
    Code(
        key="pld-gaussian-delta", chapter=CHAPTER, stars=2,
        function="gdp_delta", signature="(eps, mu)",
        reference="dpnotes.pld:gaussian_delta_exact", argmap={"eps": "epsilon"},
        inputs=lambda rng: {"eps": float(rng.uniform(0.0, 5.0)), "mu": float(rng.uniform(0.1, 4.0))},
        n_cases=40, rtol=1e-7, atol=1e-12, edge_cases=[{"eps": 0.0, "mu": 1.0}],
        hint="Write δ(ε) through the tails of the privacy losses under the two laws; both losses are Gaussian.",
        slips=[
            Slip("missing-exp", "the second term carries the factor e^ε.",
                 lambda eps, mu: float(stats.norm.cdf(-eps / mu + mu / 2) - stats.norm.cdf(-eps / mu - mu / 2))),
            Slip("first-term-only", "that is P[Z > ε], an upper bound; δ(ε) subtracts the second term.",
                 lambda eps, mu: float(stats.norm.cdf(-eps / mu + mu / 2))),
        ],
    ),
    Explore(
        key="pld-curve-reading", chapter=CHAPTER, stars=2,
        figure="pld-privacy-curve", sliders={"q": 0.1, "steps": 100.0},
        answer=lambda: figure_value("pld-privacy-curve", {"q": 0.1, "steps": 100.0}, "PLD upper bound", x=6.0),
        hint="Set both sliders as asked and read the certified upper curve at ε = 6 (hover over the curve).",
        slips=[
            Slip("default-steps", "T is still at its default; move the slider as asked.",
                 lambda: figure_value("pld-privacy-curve", {"q": 0.1, "steps": 1000.0}, "PLD upper bound", x=6.0)),
            Slip("rdp-curve", "that is the RDP curve; the question asks for the certified PLD upper bound.",
                 lambda: figure_value("pld-privacy-curve", {"q": 0.1, "steps": 100.0}, "RDP", x=6.0)),
        ],
    ),
]
