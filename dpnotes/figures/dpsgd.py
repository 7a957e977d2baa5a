"""Figures of the DP-SGD chapter: the noise a target ε needs; ε of each accounting route.

The calibration figure (``dpsgd-noise``) draws the σ of :func:`dpnotes.dpsgd.dpsgd_sigma` at 25
target ε's for every (q, epochs). A bisection from scratch per point would cost ~6 s a slider
position, so the figure evaluates ε(σ) once on a grid of σ (ratio 1.08 between neighbours), takes
the two neighbours that bracket each target and bisects between them five times: each point is on
the certified side (its ε is at most the target) and within 0.25 % of the smallest such σ, as
:func:`dpsgd_sigma`'s are (the tests compare them). Interpolating instead would miss the steep
steps of ε(σ) where the best order of the moments accountant's grid changes.

Every (q, σ) pair of the sliders needs the exact sampled-Gaussian RDP on the
orders (~20 ms) and route 3's constant (~0.1 s); both are cached per (q, σ),
and the two figures share one grid of (q, σ) so the static build computes each
pair once. Route 1 is evaluated on a fixed grid of per-step δ₀ (its ε₀ cached
per σ) instead of the optimised split of :func:`dpnotes.dpsgd.dpsgd_epsilon`:
every grid point is a valid split, so the plotted value is a valid bound,
within 1 % of the optimised one (tested).
"""

import warnings
from functools import lru_cache

import numpy as np

from .._logspace import amplified_epsilon
from ..conversion import epsilon_from_rdp
from ..dpsgd import ROUTE3_ORDERS, dpsgd_epsilon, rdp_route3, route_applicable, steps_from_epochs
from ..orders import DEFAULT_ORDERS
from ..privacy_loss import epsilon_gaussian
from ..subsampling import rdp_subsampled_gaussian
from ..widgets import Figure, Slider, Trace

__all__ = ["FIGURES", "route_curves", "noise_traces"]

Q_VALUES = (0.001, 256 / 60000, 0.01, 0.02, 0.05, 0.1)
SIGMAS = (0.6, 0.8, 1.0, 1.1, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
EPOCHS = np.geomspace(0.5, 200.0, 20)
DELTA = 1e-5
SIGMA_EPOCHS = 60.0
CAP = 1e3  # ε above 10³ is drawn at 10³
_D0 = np.geomspace(1e-40, 0.5, 240)  # route 1: candidate per-step δ₀


@lru_cache(maxsize=64)
def _eps0(sigma):
    """ε₀(δ₀) of one Gaussian step on the δ₀ grid (exact, cached per σ)."""
    return np.asarray(epsilon_gaussian(_D0, 1.0 / sigma), float)


@lru_cache(maxsize=1024)
def _rdp_exact(q, sigma):
    out = rdp_subsampled_gaussian(DEFAULT_ORDERS, q, sigma)
    out.setflags(write=False)
    return out


def _route1(q, sigma, steps, delta):
    """Route 1 on the δ₀ grid: min over δ₀ with Tqδ₀ < δ of ½Tε'² + ε'√(2T log 1/(δ − Tqδ₀))."""
    steps = np.asarray(steps, float)[:, None]
    e1 = amplified_epsilon(q, _eps0(sigma))[None, :]  # in log space: ε₀ reaches ~10² at δ₀ = 1e-40, small σ
    slack = delta - steps * q * _D0[None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        val = 0.5 * steps * e1 ** 2 + e1 * np.sqrt(2.0 * steps * -np.log(slack))
    val = np.where(slack > 0, val, np.inf)
    return val.min(axis=1)


def route_curves(q, sigma, steps, delta):
    """ε of routes 1, 2, 3 (None when it does not apply), "rdp-mironov" and "rdp" at each T of ``steps``."""
    steps = np.atleast_1d(np.asarray(steps, float))
    rho = _rdp_exact(q, sigma)
    gauss = DEFAULT_ORDERS / (2.0 * sigma ** 2)
    r3 = rdp_route3(q, sigma) if route_applicable(q, sigma, "route3") else None
    out = {k: np.empty(steps.size) for k in ("route2", "rdp-mironov", "rdp")}
    out["route3"] = None if r3 is None else np.empty(steps.size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i, t in enumerate(steps):
            out["route2"][i] = epsilon_from_rdp(DEFAULT_ORDERS, t * gauss, delta, method="mironov")
            out["rdp-mironov"][i] = epsilon_from_rdp(DEFAULT_ORDERS, t * rho, delta, method="mironov")
            out["rdp"][i] = epsilon_from_rdp(DEFAULT_ORDERS, t * rho, delta)
            if r3 is not None:
                out["route3"][i] = epsilon_from_rdp(ROUTE3_ORDERS, t * r3, delta, method="mironov")
    out["route1"] = _route1(q, sigma, steps, delta)
    return out


def _traces(x, curves, mask3):
    cap = lambda y: np.minimum(y, CAP)  # noqa: E731
    # route 3 where it does not apply: drawn at the cap (the top edge), as the captions say
    y3 = np.full(x.size, CAP)
    if curves["route3"] is not None:
        y3[mask3] = cap(curves["route3"])
    return [
        Trace("route 1: per-step (ε, δ), subsampling, advanced composition", x, cap(curves["route1"]), dash="dot"),
        Trace("route 2: RDP without subsampling", x, cap(curves["route2"]), dash="dot"),
        Trace("route 3: RDP with the constant K(c₁, c₂) (σ ≥ 1, qσ ≤ 1 only)", x, y3, mode="markers"),
        Trace("exact RDP, Mironov conversion (moments accountant)", x, cap(curves["rdp-mironov"]), dash="dash"),
        Trace("exact RDP, improved conversion (tightest drawn)", x, cap(curves["rdp"]), color="black"),
    ]


def epochs_traces(q, sigma):
    steps = np.ceil(np.round(EPOCHS / q, 9))
    curves = route_curves(q, sigma, steps, DELTA)
    return _traces(EPOCHS, curves, np.ones(EPOCHS.size, bool))


def sigma_traces(q, delta):
    sig = np.array(SIGMAS)
    steps = float(np.ceil(round(SIGMA_EPOCHS / q, 9)))
    per = [route_curves(q, s, [steps], delta) for s in SIGMAS]
    mask3 = np.array([c["route3"] is not None for c in per])
    curves = {k: np.array([c[k][0] for c in per]) for k in ("route1", "route2", "rdp-mironov", "rdp")}
    curves["route3"] = np.array([c["route3"][0] for c in per if c["route3"] is not None]) if mask3.any() else None
    return _traces(sig, curves, mask3)


TARGETS = np.geomspace(0.25, 16.0, 25)  # target ε of the calibration figure
NOISE_EPOCHS = (1.0, 3.0, 10.0, 30.0, 60.0, 100.0)
NOISE_DELTAS = (1e-5, 1e-7)
NOISE_SIGMAS = np.geomspace(0.25, 80.0, 76)  # σ grid of the calibration figure (ratio 1.08)
NOISE_BISECTIONS = 5  # 1.08^(1/32) < 1.0025: each point within 0.25 % of the smallest σ


def noise_traces(q, epochs):
    """σ that DP-SGD needs for each target ε in TARGETS (exact RDP at δ = 10⁻⁵ and 10⁻⁷; moments accountant)."""
    steps = steps_from_epochs(epochs, q)

    def sigmas(route, delta):
        def eps(s):
            return dpsgd_epsilon(q, s, steps, delta, route=route)

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            grid = np.array([eps(s) for s in NOISE_SIGMAS])
            out = np.empty(TARGETS.size)
            for i, target in enumerate(TARGETS):
                # the grid neighbours with ε(lo) > target ≥ ε(hi), then bisection on log σ
                k = int(np.argmax(grid <= target))
                lo, hi = NOISE_SIGMAS[k - 1], NOISE_SIGMAS[k]
                for _ in range(NOISE_BISECTIONS):
                    mid = np.sqrt(lo * hi)
                    lo, hi = (lo, mid) if eps(mid) <= target else (mid, hi)
                out[i] = hi
        return out

    return [
        Trace("moments accountant (exact RDP, Mironov's conversion), δ = 10⁻⁵", TARGETS,
              sigmas("rdp-mironov", NOISE_DELTAS[0]), dash="dash"),
        Trace("exact RDP, improved conversion, δ = 10⁻⁷", TARGETS, sigmas("rdp", NOISE_DELTAS[1]), dash="dot"),
        Trace("exact RDP, improved conversion, δ = 10⁻⁵", TARGETS, sigmas("rdp", NOISE_DELTAS[0]), color="black"),
    ]


_Q_SLIDER = Slider("q", "q (sampling rate)", Q_VALUES, 0.01, log=True)

EPOCHS_FIG = Figure(
    key="dpsgd-epochs",
    claims=("S3-07", "S4-15", "S4-17"),
    title="DP-SGD: ε after a number of epochs, by route (δ = 10⁻⁵)",
    compute=epochs_traces,
    sliders=[_Q_SLIDER, Slider("sigma", "σ (noise multiplier)", SIGMAS, 4.0, log=True)],
    x_label="epochs (log scale); steps T = ⌈epochs/q⌉",
    y_label="ε (log scale)",
    x_log=True,
    y_log=True,
    caption="The black curve is the tightest drawn; the numerically composed privacy loss "
            "distribution (table in the text) is lower still. ε above 10³ is drawn at 10³, and so is "
            "route 3 when it does not apply (σ < 1 or qσ > 1).",
)

SIGMA_FIG = Figure(
    key="dpsgd-sigma",
    title="DP-SGD: ε after 60 epochs against the noise multiplier",
    compute=sigma_traces,
    sliders=[_Q_SLIDER, Slider("delta", "δ", (1e-9, 1e-7, 1e-5, 1e-3), 1e-5, log=True, fmt=".0e")],
    x_label="σ (noise multiplier, log scale)",
    y_label="ε (log scale)",
    x_log=True,
    y_log=True,
    caption="Steps T = ⌈60/q⌉. ε above 10³ is drawn at 10³, and so is route 3 where it does not "
            "apply (σ < 1 or qσ > 1).",
)

NOISE_FIG = Figure(
    key="dpsgd-noise",
    title="DP-SGD: the noise multiplier a target ε needs",
    compute=noise_traces,
    sliders=[Slider("q", "q (sampling rate)", Q_VALUES, 0.1, log=True),
             Slider("epochs", "epochs (T = ⌈epochs/q⌉ steps)", NOISE_EPOCHS, 30.0, log=True, fmt="g")],
    x_label="target ε (log scale)",
    y_label="σ (noise multiplier, log scale)",
    x_log=True,
    y_log=True,
    caption="Each point is the smallest σ (within 0.25 %) for which the run is (ε, δ)-DP by that "
            "accountant (dpsgd_sigma gives it to any precision). At q = 0.1 and 30 epochs the black curve passes through the book's run "
            "(σ = 2, ε ≈ 4.56).",
)

FIGURES = {f.key: f for f in (NOISE_FIG, EPOCHS_FIG, SIGMA_FIG)}
