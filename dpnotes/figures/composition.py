"""Figures of the composition chapter: how ε grows with the number of mechanisms T.

The exact reference for T-fold ε₀-DP is the T-fold composition of ε₀ randomized
response, the worst ε₀-DP mechanism (Kairouz, Oh & Viswanath 2015): its δ(ε) is
the hockey-stick divergence of two binomial laws
(:func:`dpnotes.privacy_loss.exact_epsilon_rr_composition`).
"""

import warnings

import numpy as np

from ..composition import (
    epsilon_advanced_composition,
    epsilon_delta_basic_composition,
    laplace_scale_for_queries,
    rdp_composition,
)
from ..conversion import epsilon_from_rdp
from ..orders import DEFAULT_ORDERS
from ..privacy_loss import exact_epsilon_rr_composition
from ..rdp import rdp_randomized_response
from ..widgets import Figure, Slider, Trace

__all__ = ["FIGURES"]

COUNTS = np.unique(np.round(np.geomspace(1, 1000, 36))).astype(float)  # T = 1 … 1000
ORDERS = np.append(DEFAULT_ORDERS, np.inf)  # α = ∞ carries the pure-DP guarantee


def pure_composition_traces(eps0, delta):
    """ε of T-fold ε₀-DP at total failure probability δ, by five routes."""
    basic = np.array([epsilon_delta_basic_composition(np.full(int(k), eps0))[0] for k in COUNTS])
    drv = epsilon_advanced_composition(eps0, COUNTS, delta, form="drv")
    zcdp = epsilon_advanced_composition(eps0, COUNTS, delta, form="zcdp")
    rr = rdp_randomized_response(ORDERS, 1.0 / (1.0 + np.exp(-eps0)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rdp = np.array([epsilon_from_rdp(ORDERS, rdp_composition(rr, int(k)), delta) for k in COUNTS])
    exact = np.array([exact_epsilon_rr_composition(eps0, k, delta) for k in COUNTS])
    return [
        Trace("basic: Tε₀", COUNTS, basic, dash="dot"),
        Trace("advanced, Dwork–Rothblum–Vadhan: ε₀√(2T log 1/δ) + Tε₀(e<sup>ε₀</sup>−1)", COUNTS, drv, dash="dash"),
        Trace("advanced via zCDP: Tε₀²/2 + ε₀√(2T log 1/δ)", COUNTS, zcdp, dash="dash"),
        Trace("RDP of randomized response, summed, improved conversion", COUNTS, rdp),
        Trace("exact: T-fold randomized response (optimal)", COUNTS, exact, color="black"),
    ]


def laplace_scale_traces(epsilon, delta):
    """Laplace scale per query for T sensitivity-1 queries under a total (ε, δ)."""
    ks = np.unique(np.round(np.geomspace(1, 10_000, 60))).astype(float)
    rules = [("basic composition: b = T/ε", "basic", "dot"),
             ("advanced, b = 2√(2T log 1/δ)/ε", "advanced", "dash"),
             ("advanced, tight ε₀: b = 1/ε₀", "advanced-tight", "solid")]
    return [Trace(name, ks, np.array([laplace_scale_for_queries(k, epsilon, delta, rule=r) for k in ks]), dash=d)
            for name, r, d in rules]



PURE = Figure(
    key="composition-pure",
    claims=("S0-08", "S2-04", "S2-08", "S3-01", "S3-05", "S4-06"),
    title="T-fold composition of ε₀-DP mechanisms: ε at total failure probability δ",
    compute=pure_composition_traces,
    sliders=[
        Slider.logspace("eps0", "ε₀ (per mechanism)", 0.01, 1.0, 17, 0.1),
        Slider.logspace("delta", "δ", 1e-10, 1e-3, 8, 1e-6),
    ],
    x_label="number of mechanisms T (log scale)",
    y_label="ε of the composition (log scale)",
    x_log=True,
    y_log=True,
    caption="The exact curve is the optimal composition theorem; every other curve is a valid upper bound.",
)

LAPLACE_QUERIES = Figure(
    key="composition-laplace-queries",
    claims=("S3-02",),
    title="Laplace noise per query for T queries under a total (ε, δ) budget",
    compute=laplace_scale_traces,
    sliders=[
        Slider.logspace("epsilon", "ε (total)", 0.1, 10.0, 21, 1.0),
        Slider.logspace("delta", "δ", 1e-10, 1e-3, 8, 1e-6),
    ],
    x_label="number of queries T (log scale)",
    y_label="Laplace scale b per query (log scale)",
    x_log=True,
    y_log=True,
    caption="The variance per query is 2b². The rule b = 2√(2T log(1/δ))/ε beats basic composition once T > 8 log(1/δ); "
            "the tight one from about T = 2 log(1/δ).",
)

FIGURES = {f.key: f for f in (PURE, LAPLACE_QUERIES)}
