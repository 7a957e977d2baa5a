"""Figures of the chapter on amplification by iteration: contraction and last-iterate privacy.

Used in: book/08-amplification-iteration
"""

from functools import lru_cache

import numpy as np

from ..iteration import (
    gradient_step_contraction,
    rdp_noisy_sgd_all_iterates,
    rdp_noisy_sgd_last_iterate,
    smoothness_constant,
)
from ..widgets import Figure, Slider, Trace

ALPHA = 2.0  # the order drawn in the last-iterate figure
LIPSCHITZ = 1.0
STEP_FRACTIONS = np.round(np.linspace(0.05, 2.0, 40), 6)  # η in units of 2/β


def positions(n, count=30):
    """``count`` distinct step positions t ∈ [1, n] (n ≥ 50), dense near the end of the run where the bound moves.

    The number of later steps k = n − t + 1 runs over a geometric grid from 1 to n, rounded and made
    strictly increasing; the count is the same for every n, so every slider position draws as many markers.
    """
    k = np.round(np.geomspace(1, n, count)).astype(int)
    for j in range(1, count):
        k[j] = max(k[j], k[j - 1] + 1)
    k[-1] = n
    return np.sort(n + 1 - k)


def last_iterate_traces(n, sigma):
    """Last-iterate RDP bound of the example used at step t, against releasing every iterate."""
    n = int(round(n))
    t = positions(n)
    last = rdp_noisy_sgd_last_iterate(ALPHA, t, n, LIPSCHITZ, sigma)
    all_iterates = rdp_noisy_sgd_all_iterates(ALPHA, LIPSCHITZ, sigma)
    frac = t / n  # position as a fraction of the pass, so every n fills the axis
    ends = np.array([1.0 / n, 1.0])
    return [
        Trace("last iterate only (amplification by iteration)", frac, last, mode="markers"),
        Trace("every iterate released (composition)", ends, np.full(2, all_iterates), dash="dash"),
        Trace("exact for a linear loss (steps are translations)", ends,
              np.full(2, all_iterates / n), dash="dot"),
    ]


@lru_cache(maxsize=1)
def contraction_data(m=60, seed=3):
    """A fixed anisotropic 2-D data set (features, regression targets, ±1 labels)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, 2)) * np.array([1.0, 0.35])
    w_true = np.array([1.0, -2.0])
    y_reg = X @ w_true + 0.1 * rng.normal(size=m)
    y_cls = np.where(X @ w_true + 0.3 * rng.normal(size=m) >= 0.0, 1.0, -1.0)
    return X, y_reg, y_cls


@lru_cache(maxsize=64)
def _contraction_curves(scale):
    X0, y_reg, y_cls = contraction_data()
    X = scale * X0
    curves = {}
    for loss, y in (("squared", scale * y_reg), ("logistic", y_cls)):
        beta = smoothness_constant(X, loss)
        curves[loss] = np.array([
            gradient_step_contraction(X, y, f * 2.0 / beta, loss, n_pairs=300, seed=0) for f in STEP_FRACTIONS
        ])
    eig = np.linalg.eigvalsh(X.T @ X / X.shape[0])
    eta = STEP_FRACTIONS * 2.0 / eig[-1]
    curves["squared_exact"] = np.max(np.abs(1.0 - eta[:, None] * eig[None, :]), axis=1)
    return curves


def contraction_traces(scale):
    """Observed Lipschitz ratio of one gradient step against η/(2/β), squared and logistic loss."""
    c = _contraction_curves(float(scale))
    return [
        Trace("squared loss: exact Lipschitz constant max|1 − ηλ<sub>i</sub>|", STEP_FRACTIONS, c["squared_exact"]),
        Trace("squared loss: largest sampled ratio", STEP_FRACTIONS, c["squared"], mode="markers"),
        Trace("logistic loss: largest sampled ratio", STEP_FRACTIONS, c["logistic"], mode="markers"),
        Trace("1 (contractive below)", STEP_FRACTIONS[[0, -1]], np.ones(2), dash="dot"),
    ]


LAST_ITERATE = Figure(
    key="iteration-last-iterate",
    title="Noisy SGD: privacy of the example used at step t, last iterate only",
    compute=last_iterate_traces,
    sliders=[
        Slider("n", "n (number of steps)", (50.0, 100.0, 200.0, 500.0, 1000.0), 100.0, log=True, fmt=".0f"),
        Slider.logspace("sigma", "σ (noise multiplier)", 0.5, 8.0, 13, 2.0),
    ],
    x_label="position t/n of the example in the pass",
    y_label="RDP ε at α = 2 (L = 1)",
    y_log=True,
    caption="Markers: the bound 2αL²/(σ²(n − t + 1)) of amplification by iteration. Dashed: 2αL²/σ², the price when "
            "every iterate is released (the setting of composition theorems). Dotted: the exact last-iterate "
            "value 2αL²/(nσ²) when every step is a translation, where the bound is attained at t = 1.",
)

CONTRACTION = Figure(
    key="iteration-contraction",
    title="Is the gradient step w ↦ w − η∇f(w) contractive?",
    compute=contraction_traces,
    sliders=[Slider.logspace("scale", "data scale s (features multiplied by s)", 0.25, 4.0, 13, 1.0)],
    x_label="step size η in units of 2/β",
    y_label="sup ‖ψ(w) − ψ(v)‖ / ‖w − v‖",
    caption="β is the smoothness constant of each loss on the data (squared: λ<sub>max</sub>(XᵀX/m); logistic: "
            "λ<sub>max</sub>/4). Ratios are the largest over 300 random pairs in the ball of radius 3. The squared "
            "loss stops being contractive exactly at η = 2/β at every scale; the logistic loss's curvature is below "
            "its bound away from the origin, so it stays contractive somewhat past 2/β, more so for larger data.",
)

FIGURES = {f.key: f for f in (LAST_ITERATE, CONTRACTION)}
