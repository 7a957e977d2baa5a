"""Exercises of the chapter on repeated noise addition, with answers computed by the package.

Each spec says what it asks (``task``); the two written ones (convexity of the Laplace divergence in
the shift, why the Laplace bound ends a factor 2 above the exact value) are graded by hand.
"""

import numpy as np
import sympy as sp

from ..convolution import rdp_convolution_bound, rdp_discrete_shift
from ..exercise_kinds import Code, Criterion, Explore, Numeric, Slip, Symbolic, Written, figure_value
from ..rdp import rdp_laplace
from ..symbolic.amplification import derive_laplace_bound_asymptotic

CHAPTER = "09-repeated-noise"


def _limit_ratio():
    steps = dict(derive_laplace_bound_asymptotic())
    ratio = sp.simplify(steps["leading term as m → ∞"] / steps["Gaussian of the same variance: α/(2·Var)"])
    return float(ratio)



_RHO_READ = 4.0  # a position of the r slider
_SCHEDULE = "convolution-schedule"


def _parties(alpha=4.0, target=0.15, power=1):
    """The fewest parties m whose Gaussian bound α/(2m^power) (σ = 1) is at most ``target``."""
    m = 1
    while m < 100_000 and alpha / (2 * m**power) > target:
        m += 1
    return float(m)


def _schedule_ratio(rho=_RHO_READ, over="Laplace: uniform"):
    """The Laplace geometric-schedule curve over the curve ``over``, at the smallest order (m = 8)."""
    settings = {"n": 8.0, "rho": rho}
    return (figure_value(_SCHEDULE, settings, "Laplace: geometric schedule", x=1.1)
            / figure_value(_SCHEDULE, settings, over, x=1.1))


EXERCISES = [
    Numeric(
        key="convolution-gaussian-bound", chapter=CHAPTER, stars=2, task="multi-step",
        answer=lambda: float(next(m for m in range(1, 1000) if rdp_convolution_bound(5.0, m, "gaussian", 1.0) <= 0.15)),
        hint="The released sum carries the noise of all m parties; write its divergence as a function of m, compare "
             "it with the target and round to a whole number of parties.",
        sig_figs=None,  # an integer answer: one party off is a slip, not a rounding
        slips=[
            Slip("rounded-down", "round up: with one party fewer the divergence is still above the target.",
                 lambda: _parties(5.0) - 1),
            Slip("variance-m-squared", "the variance of a sum of m independent noises grows like m, not m².",
                 lambda: _parties(5.0, power=2)),
            Slip("alpha-minus-1-for-alpha", "it looks as if you wrote α − 1 where α belongs.", lambda: _parties(4.0)),
        ],
    ),
    Numeric(
        key="convolution-laplace-bound", chapter=CHAPTER, stars=2, task="plug-in",
        answer=lambda: rdp_convolution_bound(2.0, 3, "laplace", 1.0),
        hint="Evaluate the repeated-noise bound of this chapter: the Laplace divergence of the smaller shift comes "
             "from Mironov's formula; do not forget the factor in front.",
        slips=[
            Slip("missing-factor-m", "the bound multiplies the divergence of the small shift by m.",
                 lambda: rdp_laplace(2.0, 1.0, 1 / 3)),
            Slip("full-shift", "the shift in the bound is 1/m, not 1.", lambda: 3 * rdp_laplace(2.0, 1.0, 1.0)),
        ],
    ),
    Numeric(
        key="convolution-laplace-limit", chapter=CHAPTER, stars=3, task="multi-step",
        answer=_limit_ratio,
        hint="Compare the leading term of the bound for large m with the divergence of a Gaussian of the same variance.",
        slips=[
            Slip("inverted", "that is the Gaussian's divergence over the bound; the question asks for the bound over "
                             "the Gaussian's.", lambda: 0.5),
            Slip("laplace-variance", "the variance of Lap(0, b) is not b².", lambda: 1.0),
        ],
    ),
    Numeric(
        key="convolution-discrete-ratio", chapter=CHAPTER, stars=2, task="multi-step",
        answer=lambda: rdp_discrete_shift(2.0, 3, "gaussian", 1.0) / (3 * rdp_discrete_shift(2.0, 1, "gaussian", 1.0)),
        hint="For the discrete Gaussian the divergence of an integer shift is the continuous one whenever αΔ is "
             "an integer.",
        slips=[
            Slip("not-divided-by-three", "the ratio divides by three times the divergence of the unit shift.",
                 lambda: 9.0),
            Slip("inverted", "that is the inverse ratio.", lambda: 1 / 3),
            Slip("linear-bound", "that assumes the linear bound the exercise tests.", lambda: 1.0),
        ],
    ),
    Symbolic(
        key="convolution-geometric-schedule", chapter=CHAPTER, stars=3, task="derive",
        answer="alpha*(r - 1)*(r**m + 1)/(2*sigma**2*(r + 1)*(r**m - 1))",
        symbols={"alpha": (1.1, 64.0), "sigma": (0.3, 10.0), "r": (1.1, 3.0), "m": (2, 20, "integer")},
        hint="Normalise the increments d_i ∝ r^i (i = 0, …, m − 1) to sum 1, then sum their squares with two "
             "geometric series.",
        slips=[
            Slip("unnormalised", "the increments must sum to the whole shift, 1: normalise them first.",
                 "alpha*(r**(2*m) - 1)/(2*sigma**2*(r**2 - 1))"),
            Slip("uniform", "that is the uniform schedule; the question asks for the geometric one.",
                 "alpha/(2*m*sigma**2)"),
        ],
    ),
    Code(
        key="convolution-laplace-bound-code", chapter=CHAPTER, stars=2, task="implement",
        function="laplace_bound", signature="(alpha, m, b)",
        reference="dpnotes.convolution:rdp_convolution_bound", argmap={"b": "scale", "m": "n"},
        fixed={"noise": "laplace"},
        inputs=lambda rng: {"alpha": float(rng.uniform(1.1, 30.0)), "m": int(rng.integers(1, 51)),
                            "b": float(rng.uniform(0.3, 3.0))},
        n_cases=40, rtol=1e-8, edge_cases=[{"alpha": 2.0, "m": 1, "b": 1.0}],
        hint="Split the shift into m equal parts, one per Laplace noise, and add m equal divergences in Mironov's "
             "closed form.",
        slips=[
            Slip("gaussian-formula", "that is the Gaussian's αΔ²/(2σ²) form; Laplace noise has its own closed form.",
                 lambda alpha, m, b: float(alpha / (2 * m * b**2))),
            Slip("missing-count", "a missing count: m noises each absorb a shift 1/m.",
                 lambda alpha, m, b: float(rdp_laplace(alpha, b, 1.0 / m))),
        ],
    ),
    Explore(
        key="convolution-geometric-reading", chapter=CHAPTER, stars=1, task="reading",
        sig_figs=2,
        figure=_SCHEDULE, sliders={"n": 8.0, "rho": _RHO_READ},
        answer=_schedule_ratio,
        hint="Set both sliders as asked and read two Laplace curves at the smallest order; divide.",
        slips=[
            Slip("over-exact", "that divides by the exact Laplace curve; the question compares the two schedules.",
                 lambda: _schedule_ratio(over="Laplace: exact")),
            Slip("inverted", "that is uniform over geometric; the question asks how many times larger the geometric "
                             "schedule's bound is.", lambda: 1 / _schedule_ratio()),
            Slip("default-r", "r is still at its default; move the slider as asked.", lambda: _schedule_ratio(2.0)),
        ],
    ),
    Written(
        key="convolution-laplace-convex", chapter=CHAPTER, stars=2, task="prove",
        model_solution=(
            "*Convexity.* For $\\alpha > 1$ and $d \\ge 0$, Mironov's formula reads "
            "$g(d) = D_\\alpha(\\mathrm{Lap}(0, b) + d\\,\\|\\,\\mathrm{Lap}(0, b)) = \\frac{1}{\\alpha - 1}\\log\\big(A e^{ud} + "
            "B e^{-vd}\\big)$ with $A = \\frac{\\alpha}{2\\alpha - 1} > 0$, $B = \\frac{\\alpha - 1}{2\\alpha - 1} > 0$, "
            "$u = (\\alpha - 1)/b$, $v = \\alpha/b$. The function $h(d) = \\log(Ae^{ud} + Be^{-vd})$ is a log-sum-exp of "
            "affine functions of $d$, hence convex; directly, with weights $w = Ae^{ud}/(Ae^{ud} + Be^{-vd}) \\in (0, 1)$, "
            "$h'' = w(1 - w)(u + v)^2 \\ge 0$ (the variance of a two-point law on $\\{u, -v\\}$). Multiplying by "
            "$1/(\\alpha - 1) > 0$ keeps convexity. At $\\alpha = \\infty$, $g(d) = d/b$ is linear, hence convex; "
            "at $\\alpha = 1$ the KL divergence $d/b + e^{-d/b} - 1$ has second derivative $e^{-d/b}/b^2 > 0$. Since "
            "$g$ is even in $d$ (the law is symmetric), $g$ is convex on all of $\\mathbb R$ as $g(d) = g(|d|)$ with $g$ "
            "non-decreasing on $d \\ge 0$ ($h'(0) = (Au - Bv)/(A + B) = 0$ and $h'' \\ge 0$).\n\n"
            "*The even split.* For $d_i \\ge 0$ with $\\sum_i d_i = 1$, Jensen's inequality for convex $g$ gives "
            "$\\sum_i g(d_i) \\ge m\\,g(\\tfrac1m \\sum_i d_i) = m\\,g(1/m)$: no split beats the even one, which is "
            "the bound of the repeated-noise theorem.\n\n"
            "*Per unit of shift.* $g(0) = 0$ and $g$ convex give, for $0 < d < d'$, "
            "$g(d) = g\\big(\\tfrac{d}{d'}d' + (1 - \\tfrac{d}{d'})\\cdot 0\\big) \\le \\tfrac{d}{d'}g(d')$, i.e. "
            "$g(d)/d \\le g(d')/d'$: the cost per unit of shift grows with the shift. So $m\\,g(1/m) = g(1/m)/(1/m)$ "
            "is non-increasing in $m$: every added noise can only lower the bound."
        ),
        rubric=[
            Criterion(1, "Writes the divergence as (1/(α − 1)) log(A e^{ud} + B e^{−vd}) with positive A, B and shows "
                         "convexity (log-sum-exp of affine functions, or the second derivative as a variance)."),
            Criterion(1, "Keeps the sign right (α − 1 > 0) and covers the symmetric extension or the endpoint orders."),
            Criterion(1, "Applies Jensen to show that the even split minimises the sum of the pieces' divergences."),
            Criterion(1, "Uses g(0) = 0 and convexity to show g(d)/d non-decreasing, and draws the consequence for "
                         "m·g(1/m)."),
        ],
    ),
    Written(
        key="convolution-factor-two", chapter=CHAPTER, stars=3, task="explain",
        model_solution=(
            "*Small shifts.* For a smooth location family, $D_\\alpha(P + d\\,\\|\\,P) = \\tfrac{\\alpha}{2}\\,I(P)\\,d^2 "
            "+ O(d^3)$, where $I(P) = \\mathbb{E}[(\\log p)'(Y)^2]$ is the Fisher information for location (expand "
            "$\\int p(y - d)^\\alpha p(y)^{1 - \\alpha}$ to second order in $d$). The bound evaluates this at $d = 1/m$, "
            "$m$ times: $m\\cdot\\tfrac{\\alpha}{2}I(P)/m^2 = \\alpha I(P)/(2m)$.\n\n"
            "*The exact value.* $P^{*m}$ has variance $m\\,\\mathrm{Var}(P)$ and, by the central limit theorem, is nearly "
            "Gaussian, so its divergence at shift 1 tends to $\\alpha/(2m\\,\\mathrm{Var}(P))$.\n\n"
            "*The ratio* of bound to exact value therefore tends to $I(P)\\,\\mathrm{Var}(P)$. By the Cramér–Rao "
            "inequality this is at least 1, with equality only for the Gaussian. For $\\mathrm{Lap}(0, b)$: "
            "$(\\log p)' = -\\mathrm{sign}(y)/b$, so $I = 1/b^2$, and $\\mathrm{Var} = 2b^2$: the ratio is 2. (Mironov's "
            "formula agrees: its expansion is $\\alpha d^2/(2b^2)$.) For logistic noise of scale $s$, "
            "$I = 1/(3s^2)$ and $\\mathrm{Var} = \\pi^2 s^2/3$, so the ratio would be $\\pi^2/9 \\approx 1.097$.\n\n"
            "*Why the bound loses.* Its proof releases the whole vector $(Y_1 + \\tfrac1m, \\dots, Y_m + \\tfrac1m)$ and "
            "then post-processes it into the sum. The vector's divergence is $m\\cdot\\tfrac{\\alpha}{2}I(P)/m^2 = "
            "\\alpha I(P)/(2m)$; the sum's tends to $\\alpha/(2m\\,\\mathrm{Var}(P))$. For Gaussian noise the sum is a "
            "sufficient statistic for a common shift, so post-processing loses nothing and the bound is exact; for any "
            "other law the individual summands tell more about the shift than their sum does, by the factor "
            "$I\\,\\mathrm{Var} > 1$, and the bound charges for that information although the sum never releases it."
        ),
        rubric=[
            Criterion(1, "Expands the divergence of a small shift as (α/2)·I(P)·d² and gets the bound's limit α I/(2m)."),
            Criterion(1, "Gets the exact limit α/(2m Var) from the central limit theorem."),
            Criterion(1, "Identifies the ratio I·Var, computes it for Laplace (2), and relates it to Cramér–Rao (≥ 1, "
                         "= 1 for the Gaussian only)."),
            Criterion(1, "Explains the loss through the proof: the vector of summands versus its sum (sufficiency "
                         "for the Gaussian)."),
        ],
    ),
]
