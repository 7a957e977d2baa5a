"""Figures of the chapter on amplification by iteration: the shifted divergence, shift costs, shift
reduction, contraction and last-iterate privacy.
"""

from functools import lru_cache

import numpy as np

from ..amplification import renyi_shift_sup, shifted_renyi_location
from ..convolution import rdp_laplace_convolution
from ..iteration import (
    gradient_step_contraction,
    rdp_noisy_sgd_all_iterates,
    rdp_noisy_sgd_last_iterate,
    smoothness_constant,
)
from ..rdp import rdp_gaussian, rdp_laplace
from ..widgets import Figure, Slider, Trace

ALPHA = 2.0  # the order drawn in the last-iterate figure
LIPSCHITZ = 1.0
STEP_FRACTIONS = np.round(np.linspace(0.05, 2.0, 40), 6)  # η in units of 2/β


SHIFTS = np.round(np.linspace(-2.0, 2.0, 81), 12)  # signed shift x of the noise (S0-06)
_SHIFT_MARKS = slice(0, None, 5)  # every 0.25
SPLITS = np.linspace(0.0, 1.0, 41)  # a/d: the share of the shift handed to the noise ζ (S1-02)


def running_sup(x, values):
    """sup of ``values`` over the grid points x′ with |x′| ≤ |x|, at every grid point x (a grid symmetric about 0)."""
    order = np.argsort(np.abs(x), kind="stable")
    sup = np.empty_like(values)
    sup[order] = np.maximum.accumulate(values[order])
    return sup


def shift_cost_traces(alpha, sigma):
    """D_α(ζ + v‖ζ) against the shift v for Gaussian and Laplace noise of equal variance, with the sup over |v′| ≤ |v|."""
    b = sigma / np.sqrt(2.0)  # Lap(b) has variance 2b² = σ²
    gauss = rdp_gaussian(alpha, sigma, np.abs(SHIFTS))
    lap = rdp_laplace(alpha, b, np.abs(SHIFTS))
    marks = SHIFTS[_SHIFT_MARKS]
    return [
        Trace("Gaussian N(0, σ²): D<sub>α</sub>(ζ + v ‖ ζ)", SHIFTS, gauss),
        Trace("Gaussian: sup over |v′| ≤ |v| on the grid", marks, running_sup(SHIFTS, gauss)[_SHIFT_MARKS],
              mode="markers"),
        Trace("αv²/(2σ²)", SHIFTS, alpha * SHIFTS**2 / (2.0 * sigma**2), dash="dot", color="black"),
        Trace("Laplace Lap(b), b = σ/√2 (same variance): D<sub>α</sub>(ζ + v ‖ ζ)", SHIFTS, lap, dash="dash"),
        Trace("Laplace: sup over |v′| ≤ |v| on the grid", marks, running_sup(SHIFTS, lap)[_SHIFT_MARKS],
              mode="markers"),
    ]


@lru_cache(maxsize=256)
def _laplace_pair_sum_divergence(alpha, d):
    """Exact D_α(Lap(0, 1)^{∗2} + d ‖ Lap(0, 1)^{∗2}) (shift d of Lap(0, 1)^{∗2} = shift 1 of Lap(0, 1/d)^{∗2})."""
    return float(rdp_laplace_convolution(alpha, 2, 1.0 / d))


def shift_reduction_traces(alpha, d):
    """The shift-reduction lemma with z = 0, U = ζ₀ + d, V = ζ₀, ζ an independent copy of ζ₀: right side against the split a."""
    a = d * SPLITS
    traces = []
    best_a, best_v = [], []
    for noise, name in (("gaussian", "Gaussian N(0, 1)"), ("laplace", "Laplace Lap(0, 1)")):
        # D_α^{(a)}(U‖V) ≤ D_α(ζ₀ + (d − a)₊‖ζ₀) (shift coupling), R_α(ζ, a) at |x| = a
        rhs = shifted_renyi_location(alpha, d, a, noise) + renyi_shift_sup(alpha, a, noise)
        if noise == "gaussian":  # U + ζ = N(d, 2), V + ζ = N(0, 2)
            lhs = float(rdp_gaussian(alpha, np.sqrt(2.0), d))
        else:
            lhs = _laplace_pair_sum_divergence(float(alpha), float(d))
        j = int(np.argmin(rhs))
        best_a.append(a[j])
        best_v.append(rhs[j])
        dash = "solid" if noise == "gaussian" else "dash"
        traces.append(Trace(f"{name}: right side D<sub>α</sub><sup>(a)</sup>(U‖V) + R<sub>α</sub>(ζ, a)", a, rhs,
                            dash=dash))
        traces.append(Trace(f"{name}: exact left side D<sub>α</sub>(U + ζ ‖ V + ζ)", a[[0, -1]], np.full(2, lhs),
                            dash="dot"))
    traces.append(Trace("best split a on the grid", np.array(best_a), np.array(best_v), mode="markers",
                        color="black"))
    return traces


BUDGETS = np.round(np.linspace(0.0, 2.5, 51), 12)  # the W∞ budget z (S0-05)


def shifted_divergence_traces(alpha, x):
    """Upper bounds on D_α^(z)(ζ + v‖ζ) against the budget z (best shift), with v the slider ``x``."""
    return [
        Trace("Gaussian N(0, 1): D<sub>α</sub>(ζ + (v − z)<sub>+</sub> ‖ ζ)", BUDGETS,
              shifted_renyi_location(alpha, x, BUDGETS, "gaussian", 1.0)),
        Trace("Laplace Lap(0, 1): D<sub>α</sub>(ζ + (v − z)<sub>+</sub> ‖ ζ)", BUDGETS,
              shifted_renyi_location(alpha, x, BUDGETS, "laplace", 1.0), dash="dash"),
        Trace("z = |v|: the shift is used up", np.full(2, x), np.array([0.0, 4.0]), dash="dot", color="grey"),
    ]


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
    """Last-iterate RDP bound of the record used at step t, against releasing every iterate."""
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
        Trace("squared loss: exact Lipschitz constant max<sub>i</sub>|1 − ηλ<sub>i</sub>(XᵀX/n)|", STEP_FRACTIONS,
              c["squared_exact"]),
        Trace("squared loss: largest sampled ratio", STEP_FRACTIONS, c["squared"], mode="markers"),
        Trace("logistic loss: largest sampled ratio", STEP_FRACTIONS, c["logistic"], mode="markers"),
        Trace("1 (contractive below)", STEP_FRACTIONS[[0, -1]], np.ones(2), dash="dot"),
    ]


LAST_ITERATE = Figure(
    key="iteration-last-iterate",
    claims=("S0-10", "S0-11"),
    title="Noisy SGD: privacy of the record used at step t, last iterate only",
    compute=last_iterate_traces,
    sliders=[
        Slider("n", "n (records, one step each)", (50.0, 100.0, 200.0, 500.0, 1000.0), 100.0, log=True, fmt=".0f"),
        Slider.logspace("sigma", "σ (noise multiplier)", 0.5, 8.0, 13, 2.0),
    ],
    x_label="position t/n of the record in the pass",
    y_label="RDP ε at α = 2 (L = 1)",
    y_log=True,
    caption="Markers: the bound 2α/(σ²(n − t + 1)) of amplification by iteration (noise σL). Dashed: 2α/σ², the price when "
            "every iterate is released (the setting of composition theorems). Dotted: the exact last-iterate "
            "value 2α/(nσ²) when every step is a translation, where the bound is attained at t = 1.",
)

CONTRACTION = Figure(
    key="iteration-contraction",
    claims=("S0-09",),
    title="Is a gradient step θ ↦ θ − η∇(average loss) contractive?",
    compute=contraction_traces,
    sliders=[Slider.logspace("scale", "data scale (factor on the features)", 0.25, 4.0, 13, 1.0)],
    x_label="step size η in units of 2/β",
    y_label="sup ‖ψ(θ) − ψ(θ′)‖ / ‖θ − θ′‖",
    caption="β is the smoothness constant of each loss on the data (squared: λ_max(XᵀX/n), the largest "
            "eigenvalue; logistic: λ_max/4); the λ_i are the eigenvalues of XᵀX/n. Ratios are the largest over "
            "300 random pairs in the ball of radius 3. The squared loss stops being contractive exactly at η = 2/β "
            "at every scale; the logistic loss's curvature is below its bound away from the origin, so it stays "
            "contractive somewhat past 2/β, more so for larger data.",
)

SHIFTED_DIVERGENCE = Figure(
    key="iteration-shifted-divergence",
    claims=("S0-05",),
    title="The shifted Rényi divergence: moving the first argument by at most z",
    compute=shifted_divergence_traces,
    sliders=[
        Slider.logspace("alpha", "α (order)", 1.5, 32.0, 12, 3.0),
        Slider.linear("x", "v (shift of ζ + v)", 0.25, 2.5, 0.25, 1.5, fmt=".2f"),
    ],
    x_label="budget z (how far the first argument may move, in W∞)",
    y_label="Rényi divergence (nats)",
    y_range=(0.0, 4.0),
    caption="Lines: the package's bound on D_α^(z)(ζ + v ‖ ζ), the divergence left after moving ζ + v towards ζ by "
            "min(z, |v|) (exact at z = 0 and for z ≥ |v|, where it is 0). Both fall with z (monotonicity) and reach 0 "
            "at z = |v| (grey). "
            "Values above 4 nats leave the plot.",
)

SHIFT_COST = Figure(
    key="iteration-shift-cost",
    claims=("S0-06",),
    title="How well noise hides a shift: D<sub>α</sub>(ζ + v ‖ ζ) and R<sub>α</sub>(ζ, a)",
    compute=shift_cost_traces,
    sliders=[
        Slider.logspace("alpha", "α (order)", 1.5, 32.0, 12, 2.0),
        Slider.logspace("sigma", "σ (noise; Laplace b = σ/√2)", 0.5, 2.0, 9, 1.0),
    ],
    x_label="shift v",
    y_label="Rényi divergence (nats)",
    y_range=(0.0, 4.0),
    caption="Lines: the divergence of the shifted noise from the noise, computed by the package (Gaussian: "
            "rdp_gaussian; Laplace: Mironov's closed form). Markers: the largest value over the grid points v′ with "
            "|v′| ≤ |v|, i.e. R_α(ζ, a) at a = |v|; they sit on the lines, so the supremum is attained at |v| = a. "
            "Dotted: the closed form αv²/(2σ²). Curves above 4 nats leave the plot.",
)

SHIFT_REDUCTION = Figure(
    key="iteration-shift-reduction",
    claims=("S1-02",),
    title="Shift reduction with U = ζ₀ + d, V = ζ₀, ζ an independent copy of ζ₀, z = 0",
    compute=shift_reduction_traces,
    sliders=[
        Slider.logspace("alpha", "α (order)", 1.5, 16.0, 12, 4.0),
        Slider.linear("d", "d (distance between U and V)", 0.25, 2.0, 0.25, 1.0, fmt=".2f"),
    ],
    x_label="shift a handed to the noise ζ (from 0 to d)",
    y_label="Rényi divergence (nats, log scale)",
    y_log=True,
    caption="The right side uses the shift coupling's value D_α(ζ₀ + (d − a)₊ ‖ ζ₀), an upper bound on "
            "D_α^(a)(U‖V), and R_α(ζ, a) = D_α(ζ + a ‖ ζ). Left sides: Gaussian αd²/(2·2) (U + ζ = N(d, 2)); Laplace "
            "the exact divergence of the shifted sum of two Laplace noises (numerical integral). Every split a gives "
            "a valid bound; the best one (markers) is a = d/2 here, where the Gaussian bound is exact.",
)

FIGURES = {f.key: f for f in (SHIFTED_DIVERGENCE, SHIFT_COST, SHIFT_REDUCTION, LAST_ITERATE, CONTRACTION)}
