"""Figures of the chapter "The exact answer": PLD brackets, RDP and the CLT for DP-SGD.

The PLDs here use a *coarse* grid (see :func:`figure_interval`) so that every
slider position of the static build computes quickly; the bracket drawn shows
its own width, so the coarseness is visible, never hidden.
"""

from functools import lru_cache
import warnings
import math

import numpy as np

from ..conversion import delta_from_rdp
from ..orders import DEFAULT_ORDERS
from ..pld import dpsgd_clt_mu, dpsgd_composed_plds, dpsgd_grid_interval, gaussian_delta_exact
from ..subsampling import rdp_subsampled_gaussian
from ..widgets import Figure, Slider, Trace

SIGMA_CURVE = 1.0  # σ of the privacy-curve figure
Q_HIST = 0.01  # q of the histogram figure
DELTA_FLOOR = 1e-14  # δ values below this are drawn at the floor (log axis)
N_EPS = 61
EPS_GRID = np.linspace(0.0, 12.0, N_EPS)  # one ε axis for every slider position
N_BINS = 80
Z_EDGES = np.linspace(-5.0, 5.0, N_BINS + 1)
Z_CENTRES = 0.5 * (Z_EDGES[:-1] + Z_EDGES[1:])
STEPS = (1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0)  # integer T grid
_ORDERS = np.asarray(DEFAULT_ORDERS, dtype=float)


def figure_interval(q, sigma, steps):
    """The coarse grid spacing of the figures: 4× the automatic one (bracket ≈ 16× wider)."""
    return 4.0 * dpsgd_grid_interval(q, sigma, steps)


@lru_cache(maxsize=256)
def composed(q, sigma, steps):
    """(upper, lower) PLDs of DP-SGD after ``steps`` steps, on the coarse figure grid."""
    return dpsgd_composed_plds(q, sigma, steps, interval=figure_interval(q, sigma, steps))


clt_mu = dpsgd_clt_mu


def curve_traces(q, steps):
    """δ(ε) for DP-SGD (σ = 1): PLD upper and lower bounds, RDP, and the CLT approximation."""
    sigma, steps = SIGMA_CURVE, int(round(steps))
    up, lo = composed(q, sigma, steps)
    eps = EPS_GRID
    d_up = np.asarray(up.delta(eps), dtype=float)
    d_lo = np.asarray(lo.delta(eps), dtype=float)
    orders = _ORDERS
    rdp = steps * np.asarray(rdp_subsampled_gaussian(orders, q, sigma), dtype=float)
    with warnings.catch_warnings():  # at tiny ε the best order is the grid's smallest; harmless here
        warnings.simplefilter("ignore")
        d_rdp = np.array([float(delta_from_rdp(orders, rdp, e)) for e in eps])
    d_clt = np.asarray(gaussian_delta_exact(eps, clt_mu(q, sigma, steps)), dtype=float)
    floor = lambda v: np.clip(v, DELTA_FLOOR, 1.0)  # noqa: E731
    return [
        Trace("PLD upper bound (certified)", eps, floor(d_up)),
        Trace("PLD lower bound (certified)", eps, floor(d_lo), dash="dash"),
        Trace("RDP (exact RDP + improved conversion)", eps, floor(d_rdp), dash="dot"),
        Trace("CLT: μ-GDP, μ = q√T·√(e<sup>1/σ²</sup>−1)", eps, floor(d_clt), dash="dash"),
    ]


def histogram_traces(steps, sigma):
    """The composed loss law (remove direction, upper grid), standardised by the CLT's μ.

    z = (ℓ − μ²/2)/μ with μ the CLT value, so the CLT limit is the standard normal density
    on the same fixed axis at every slider position.
    """
    q, steps = Q_HIST, int(round(steps))
    up, _ = composed(q, sigma, steps)
    g = up.grids[0]
    mu = clt_mu(q, sigma, steps)
    z = (g.losses - 0.5 * mu * mu) / mu
    mass, _ = np.histogram(z, bins=Z_EDGES, weights=g.probs)
    density = mass / np.diff(Z_EDGES)
    return [
        Trace("composed PLD, standardised loss (Z − μ²/2)/μ", Z_CENTRES, density),
        Trace("CLT limit: standard normal", Z_CENTRES, np.exp(-0.5 * Z_CENTRES**2) / math.sqrt(2 * math.pi),
              dash="dash"),
    ]


CURVE = Figure(
    key="pld-privacy-curve",
    title="DP-SGD privacy curve δ(ε) at σ = 1: PLD bracket, RDP and the central limit",
    compute=curve_traces,
    sliders=[
        Slider.logspace("q", "q (sampling rate)", 1e-3, 0.1, 7, 0.01),
        Slider("steps", "T (steps)", STEPS, 1000.0, True, ".0f"),
    ],
    x_label="ε",
    y_label="δ(ε) (log scale)",
    y_log=True,
    caption=("The two PLD curves are certified bounds on the exact curve, computed on a coarse grid "
             "(4× the default spacing, so the bracket is ~16× wider than the package default); "
             "δ below 1e-14 is drawn at 1e-14; ε is shown up to 12 (at large q·√T the curves leave "
             "the frame at the top). Below δ ≈ 1e-11 the lower bound drops to the floor: the FFT round-off "
             "estimate is subtracted from it (the limit stated in dpnotes.pld). The CLT curve is an "
             "approximation (the central limit theorem of Gaussian DP), not a bound."),
)

HISTOGRAM = Figure(
    key="pld-histogram",
    title="The privacy loss after T steps (q = 0.01) becomes Gaussian",
    compute=histogram_traces,
    sliders=[
        Slider("steps", "T (steps)", STEPS, 100.0, True, ".0f"),
        Slider.logspace("sigma", "σ (noise multiplier)", 0.6, 3.0, 6, 1.0),
    ],
    x_label="standardised privacy loss (Z − μ²/2)/μ, μ = q√T·√(e<sup>1/σ²</sup>−1)",
    y_label="density",
    caption=("Histogram of the composed PLD (upper grid, coarse spacing) in 80 bins of the standardised loss; at small T "
             "most mass sits in a spike and the grid is coarser than the bins, so the histogram is "
             "jagged. The right tail, where δ is read, is the last part to become Gaussian."),
)

FIGURES = {f.key: f for f in (CURVE, HISTOGRAM)}
