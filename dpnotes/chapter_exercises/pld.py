"""Exercises of the chapter "The exact answer", with answers computed by the package.

Used in: book/07-exact-answer
"""

import numpy as np

from ..dpsgd import dpsgd_epsilon
from ..exercise_kinds import Numeric, Slip
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
        rtol=1e-3,
        slips=[
            Slip("rdp-route", "that is the RDP route's ε; the PLD route gives a smaller certified bound.",
                 lambda: dpsgd_epsilon(0.02, 1.5, 2000, 1e-6, route="rdp")),
        ],
    ),
]
