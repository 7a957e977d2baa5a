"""Figures of the conversion chapter: from an RDP curve to (ε, δ), against the exact answer.

The reference is the Gaussian mechanism, whose exact privacy curve is known in
closed form; T-fold composition of the Gaussian with noise σ is the Gaussian
with noise σ/√T, so one slider covers both.
"""

import warnings
from functools import lru_cache

import numpy as np

from ..composition import gaussian_sigma_exact
from ..conversion import delta_from_rdp, epsilon_from_rdp, epsilon_from_zcdp
from ..orders import DEFAULT_ORDERS
from ..privacy_loss import delta_gaussian, epsilon_gaussian
from ..rdp import rdp_gaussian
from ..widgets import Figure, Slider, Trace

__all__ = ["FIGURES"]

DELTAS = np.geomspace(1e-12, 1e-2, 50)
_MARK_DELTAS = DELTAS[::7]
ORDERS = np.geomspace(1.01, 300.0, 80)
THRESHOLD_EPSILONS = np.geomspace(0.1, 10.0, 41)


def epsilon_traces(sigma):
    """ε(δ) of the Gaussian mechanism (Δ = 1, noise σ): exact and four conversions."""
    rho = rdp_gaussian(DEFAULT_ORDERS, sigma)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mironov = epsilon_from_rdp(DEFAULT_ORDERS, rho, DELTAS, method="mironov")
        chernoff = epsilon_from_rdp(DEFAULT_ORDERS, rho, _MARK_DELTAS, method="chernoff")
        improved = epsilon_from_rdp(DEFAULT_ORDERS, rho, DELTAS, method="improved")
    return [
        Trace("zCDP, Bun–Steinke: ρ + 2√(ρ log 1/δ)", DELTAS, epsilon_from_zcdp(0.5 / sigma**2, DELTAS), dash="dot"),
        Trace("Mironov: min<sub>α</sub> ε(α) + log(1/δ)/(α−1)", DELTAS, mironov, dash="dash"),
        Trace("Chernoff/Legendre: exp(−κ*(ε)) = δ", _MARK_DELTAS, chernoff, mode="markers"),
        Trace("improved conversion", DELTAS, improved),
        Trace("exact ε(δ)", DELTAS, epsilon_gaussian(DELTAS, 1.0 / sigma), color="black"),
    ]


def order_traces(sigma, epsilon):
    """log₁₀ of the δ bound at each order α for the Gaussian, and the exact δ(ε)."""
    rho = rdp_gaussian(ORDERS, sigma)
    claim21 = np.array([delta_from_rdp([a], [r], epsilon, method="mironov") for a, r in zip(ORDERS, rho)])
    improved = np.array([delta_from_rdp([a], [r], epsilon) for a, r in zip(ORDERS, rho)])
    lam = 0.5 + epsilon * sigma**2
    at_lam = delta_from_rdp([lam], [rdp_gaussian(lam, sigma)], epsilon, method="mironov")
    exact = delta_gaussian(epsilon, 1.0 / sigma)
    ends = ORDERS[[0, -1]]
    return [
        Trace("one-order bound at α: e<sup>(α−1)(ε(α)−ε)</sup>", ORDERS, np.log10(claim21), dash="dash"),
        Trace("improved conversion at order α", ORDERS, np.log10(improved)),
        Trace("α* = ½ + εσ²", np.array([lam]), np.log10(np.array([at_lam])), mode="markers", color="black"),
        Trace("exact δ(ε)", ends, np.full(2, np.log10(exact)), dash="dot", color="black"),
    ]


@lru_cache(maxsize=1)
def composed_sigma_formulas():
    """The stated sufficient σ/√T and the exact threshold of the same bound, as numpy functions of (ε, log 1/δ).

    Both come from the sympy derivation :func:`dpnotes.symbolic.conversion.derive_composed_gaussian_sigma`;
    lambdified once and cached (sympy is imported here, not when the figures load).
    """
    import sympy as sp

    from ..symbolic.conversion import L, derive_composed_gaussian_sigma, eps

    steps = dict(derive_composed_gaussian_sigma())
    stated = sp.lambdify((eps, L), steps["a simpler sufficient s"], "numpy")
    exact = sp.lambdify((eps, L), steps["exact threshold s*"], "numpy")
    return stated, exact


@lru_cache(maxsize=64)
def _exact_curve_multiplier(delta):
    """σ/√T from the exact Gaussian privacy curve at each ε of the grid (root finding in the package)."""
    return np.array([gaussian_sigma_exact(e, delta) for e in THRESHOLD_EPSILONS])


def sigma_threshold_traces(delta, k):
    """σ needed by T composed Gaussians for (ε, δ)-DP: the stated condition, its exact threshold, the exact curve."""
    stated, exact = composed_sigma_formulas()
    L = np.log(1.0 / delta)
    root_k = np.sqrt(k)
    return [
        Trace("sufficient σ of the stated condition", THRESHOLD_EPSILONS,
              root_k * stated(THRESHOLD_EPSILONS, L), dash="dash"),
        Trace("exact threshold of the same bound", THRESHOLD_EPSILONS,
              root_k * exact(THRESHOLD_EPSILONS, L)),
        Trace("exact privacy curve (analytic Gaussian)", THRESHOLD_EPSILONS,
              root_k * _exact_curve_multiplier(float(delta)), color="black"),
    ]


EPSILON = Figure(
    key="conversion-gaussian",
    claims=("S0-07", "S3-06", "S4-03", "S4-07"),
    title="From RDP to (ε, δ): the Gaussian mechanism (Δ = 1; for T compositions use σ/√T)",
    compute=epsilon_traces,
    sliders=[Slider.logspace("sigma", "σ (noise; σ/√T after T compositions)", 0.5, 10.0, 31, 1.0)],
    x_label="δ (log scale)",
    y_label="ε (log scale)",
    x_log=True,
    y_log=True,
    caption="Every conversion lies above the exact curve; Chernoff/Legendre coincides with Mironov on a grid of orders.",
)

ORDER = Figure(
    key="conversion-order",
    claims=("S4-04", "S4-05"),
    title="The one-order bound, order by order: the Gaussian's δ bound is smallest at α* = ½ + εσ²",
    compute=order_traces,
    sliders=[
        Slider("sigma", "σ (noise)", (1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0), 2.5, log=True),
        Slider("epsilon", "ε", (0.6, 0.8, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0), 1.5),
    ],
    x_label="order α (log scale)",
    y_label="log<sub>10</sub> δ",
    x_log=True,
    y_range=(-25.0, 0.5),
)

SIGMA_THRESHOLD = Figure(
    key="conversion-sigma-threshold",
    claims=("S4-08",),
    title="The noise σ that T composed Gaussian mechanisms need for (ε, δ)-DP",
    compute=sigma_threshold_traces,
    sliders=[
        Slider("delta", "δ", tuple(10.0 ** -j for j in range(12, 1, -1)), 1e-5, log=True, fmt=".0e"),
        Slider("k", "T (compositions)", (1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0), 100.0, log=True, fmt=".0f"),
    ],
    x_label="ε (log scale)",
    y_label="σ (log scale)",
    x_log=True,
    y_log=True,
    caption="Dashed: the stated sufficient condition σ > √T(√(2 log 1/δ)/ε + (2ε)^(−1/2)); solid: the smallest σ "
            "for which the bound exp(−(εs − 1/(2s))²/2), s = σ/√T, is at most δ, i.e. "
            "√T(√(2 log 1/δ) + √(2 log 1/δ + 2ε))/(2ε); black: the smallest σ for which the T-fold composition, "
            "one Gaussian with μ = √T/σ, is (ε, δ)-DP (Balle and Wang's exact curve, by root finding). All three "
            "grow like √T, so T moves the curves but not their ratios.",
)

FIGURES = {f.key: f for f in (EPSILON, ORDER, SIGMA_THRESHOLD)}
