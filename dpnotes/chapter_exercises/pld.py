"""Exercises of the chapter "The exact answer", with answers computed by the package.

Used in: book/07-exact-answer
"""

from ..exercises import Exercise
from ..pld import dpsgd_clt_mu, dpsgd_epsilon_pld, gaussian_delta_exact, pld_randomized_response

Exercise(
    "pld-gaussian-composed",
    answer=lambda: gaussian_delta_exact(1.0, 1.0),
    hint="Four Gaussian steps with σ = 2 are one Gaussian pair at distance μ = √T/σ; use δ(ε) of μ-GDP.",
    rtol=1e-6,
)
Exercise(
    "pld-rr-delta",
    answer=lambda: pld_randomized_response(0.75, interval=1e-4).delta(0.0),
    hint="At ε = 0, δ is the total variation distance: sum the positive parts P(y) − Q(y) over the outcomes y.",
    rtol=1e-6,
)
Exercise(
    "pld-clt-mu",
    answer=lambda: dpsgd_clt_mu(0.01, 1.0, 1000),
    hint="μ = q·√T·√(e^{1/σ²} − 1).",
    rtol=1e-6,
)
Exercise(
    "pld-dpsgd-upper",
    answer=lambda: dpsgd_epsilon_pld(0.01, 1.0, 1000, 1e-5),
    hint="Call the certified PLD route with q = 0.01, σ = 1, T = 1000, δ = 1e-5.",
    rtol=1e-3,
)
