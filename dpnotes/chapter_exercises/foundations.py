"""Exercises of the foundations chapter, with answers computed by the package.
"""

import numpy as np
from scipy import stats

from ..composition import gaussian_sigma_classical, gaussian_sigma_exact
from ..exercise_kinds import Code, Criterion, Explore, Numeric, Slip, Symbolic, Written
from ..figures import FIGURES
from ..privacy_loss import delta_gaussian, epsilon_gaussian
from ..properties import group_privacy_epsilon_delta

CHAPTER = "00b-foundations"


def _random_tradeoff_point(rng):
    """A type-I error α ∈ [0, 1], ε ∈ [0, 3] and δ ∈ [0, 0.2]."""
    return {"alpha": float(rng.uniform()), "eps": float(rng.uniform(0, 3)), "delta": float(rng.uniform(0, 0.2))}


_LOSS = "foundations-privacy-loss"
_CROSS = {"sigma": 1.25, "scale": 0.8}


def _loss_crossing(sigma=1.25, scale=0.8, above=True):
    """The output y (above 1/2, or below it) where the figure's Gaussian privacy loss meets the Laplace one.

    Read off the figure's own traces: the first sign change of their difference beyond y = 1/2 (or the last one
    before it), linearly interpolated between grid points (both losses are linear there).
    """
    traces = {t.name.split(" noise")[0]: t for t in FIGURES[_LOSS].traces(sigma=sigma, scale=scale)}
    y = np.asarray(traces["Gaussian"].x, float)
    d = np.asarray(traces["Gaussian"].y, float) - np.asarray(traces["Laplace"].y, float)
    if not above:
        y, d = -(y[::-1] - 1.0), -d[::-1]  # mirror about 1/2: the loss difference is odd about it
    for i in np.flatnonzero(y[:-1] > 0.5 + 1e-9):
        if d[i] < 0 <= d[i + 1]:
            cross = float(y[i] - d[i] * (y[i + 1] - y[i]) / (d[i + 1] - d[i]))
            return cross if above else 1.0 - cross
    raise ValueError("the two losses do not cross beyond y = 1/2 on the figure")


def _largest_group():
    """The answer of foundations-group-delta, from the package's group bound."""
    k = np.arange(1, 200)
    return float(k[group_privacy_epsilon_delta(0.2, 1e-6, k)[1] <= 5e-5][-1])


def _largest_family(target=5e-5, exponent_shift=1, factor=True):
    """Largest k with k^[factor] e^{(k − shift)ε} δ ≤ target, for ε = 0.2, δ = 10⁻⁶ (the simple group bound)."""
    k = np.arange(1, 200)
    slack = (k if factor else 1) * np.exp((k - exponent_shift) * 0.2) * 1e-6
    return float(k[slack <= target][-1])


EXERCISES = [
    Numeric(
        key="foundations-laplace-epsilon", chapter=CHAPTER, stars=2, task="multi-step",
        # a sum of records in [−1, 2] under replace-one moves by at most 2 − (−1) = 3; Laplace scale b = 4
        answer=lambda: 3.0 / 4.0,
        hint="First the sensitivity: under replace-one a record can jump from one end of [−1, 2] to the other. "
             "Then bound the ratio of the two Laplace densities at any output.",
        slips=[
            Slip("add-remove-relation", "the wrong neighbouring relation: that sensitivity (the largest |x|) is the one "
                                        "for add/remove; under replace-one a record can jump across the whole "
                                        "interval.", lambda: 2.0 / 4.0),
            Slip("unit-sensitivity", "the sensitivity is not 1: records range over [−1, 2].", lambda: 1.0 / 4.0),
            Slip("inverted", "ε is the sensitivity divided by the Laplace scale, not the other way round.",
                 lambda: 4.0 / 3.0),
        ],
    ),
    Numeric(
        key="foundations-rr-p", chapter=CHAPTER, stars=1, task="plug-in",
        answer=lambda: np.exp(2.0) / (1.0 + np.exp(2.0)),
        hint="Randomized response with truth probability p is exactly as private as its largest log-ratio of "
             "report probabilities; set that log-ratio to 2 and solve for p.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: 100.0 / 101.0),
            Slip("one-minus-p", "that is the probability of a lie, 1 − p; the question asks for the truth "
                                "probability.", lambda: 1.0 / (1.0 + np.exp(2.0))),
        ],
    ),
    Numeric(
        key="foundations-gaussian-sigma", chapter=CHAPTER, stars=2, task="plug-in",
        answer=lambda: gaussian_sigma_exact(0.25, 1e-6, sensitivity=2.0),
        hint="The exact calibration, not the classical formula: find the σ for which the Gaussian privacy profile "
             "at ε meets δ (the package's gaussian_sigma_exact does it), with the query's ℓ₂ sensitivity.",
        slips=[
            Slip("classical", "that is the classical calibration; the exercise asks for the exact (smallest) σ.",
                 lambda: gaussian_sigma_classical(0.25, 1e-6, sensitivity=2.0)),
            Slip("unit-sensitivity", "it looks as if you used sensitivity 1; this query's ℓ₂ sensitivity is 2.",
                 lambda: gaussian_sigma_exact(0.25, 1e-6, sensitivity=1.0)),
        ],
    ),
    Numeric(
        key="foundations-group-delta", chapter=CHAPTER, stars=2, task="multi-step",
        sig_figs=None,
        answer=_largest_group,
        hint="Write the slack of the simpler form of the group-privacy theorem as a function of the group size k; it "
             "grows with k, so try sizes in turn until it passes the target.",
        slips=[
            Slip("rounded-up", "that is the first size at which the slack is too large; the question asks for the "
                               "largest size that still meets the target.", lambda: _largest_group() + 1),
            Slip("exponent-k", "the exponent has one ε too many: it counts the other members of the group.",
                 lambda: _largest_family(exponent_shift=0)),
            Slip("no-exponential", "the exponential factor of the group-privacy theorem is missing.",
                 lambda: float(np.floor(5e-5 / 1e-6))),
            Slip("no-factor-k", "the factor k in front is missing.", lambda: _largest_family(factor=False)),
        ],
    ),
    Numeric(
        key="foundations-tradeoff-read", chapter=CHAPTER, stars=2, task="multi-step",
        answer=lambda: epsilon_gaussian(1e-5, 0.5),
        hint="With σ = 2 and Δ₂ = 1, μ is the sensitivity over σ. The exact δ(ε) of this chapter decreases in ε: "
             "solve δ(ε) = 10⁻⁵ for ε numerically (bisection or a root finder), keeping both Φ terms.",
        slips=[
            Slip("mu-is-sigma", "it looks as if you used μ = σ; μ is the sensitivity divided by σ.",
                 lambda: epsilon_gaussian(1e-5, 2.0)),
            Slip("tail-bound", "that inverts the tail bound Pr[Z > ε], which drops the second Φ term; the exact "
                               "profile gives a smaller ε.", lambda: 0.125 + 0.5 * stats.norm.isf(1e-5)),
            Slip("classical-formula", "that inverts the classical calibration, which only holds for ε < 1 and is "
                                      "not the exact profile.", lambda: np.sqrt(2 * np.log(1.25e5)) / 2.0),
        ],
    ),
    Symbolic(
        key="foundations-rr-loss", chapter=CHAPTER, stars=1, task="derive",
        answer="log(p/(1 - p))",
        symbols={"p": (0.51, 0.99)},
        hint="Randomized response reports the true bit with probability p: compare the probabilities of the same "
             "output under the two inputs.",
        slips=[
            Slip("inverted", "that is the loss of the other output (or of the swapped pair): it has the other sign.",
                 "log((1 - p)/p)"),
            Slip("no-log", "the privacy loss is the logarithm of the likelihood ratio.", "p/(1 - p)"),
        ],
    ),
    Code(
        key="foundations-tradeoff-boundary", chapter=CHAPTER, stars=2, task="implement",
        function="tradeoff_boundary", signature="(alpha, eps, delta)",
        reference="dpnotes.tradeoff:tradeoff_epsilon_delta", argmap={"alpha": "alpha_type1", "eps": "epsilon"},
        inputs=_random_tradeoff_point, n_cases=40,
        edge_cases=[{"alpha": 0.0, "eps": 1.0, "delta": 0.0}, {"alpha": 1.0, "eps": 0.5, "delta": 0.1}],
        hint="An (ε, δ)-DP test has two constraints, one for each error; the boundary is the larger of what they "
             "allow, and never negative.",
        slips=[
            Slip("one-constraint", "only one of the two constraints is used: swap the roles of the two errors too.",
                 lambda alpha, eps, delta: max(0.0, 1.0 - delta - np.exp(eps) * alpha)),
            Slip("no-delta", "δ is missing: it loosens both constraints.",
                 lambda alpha, eps, delta: max(0.0, 1.0 - np.exp(eps) * alpha, np.exp(-eps) * (1.0 - alpha))),
        ],
    ),
    Explore(
        key="foundations-gaussian-loss-end", chapter=CHAPTER, stars=1, task="reading",
        figure=_LOSS, sliders=_CROSS,
        answer=_loss_crossing,
        hint="Set both sliders as asked; to the right of the centre of the plot the Laplace loss levels off, and the Gaussian line keeps "
             "rising: find the output where it overtakes the Laplace curve (hover over both).",
        slips=[
            Slip("default-sigma", "σ is still at its default; move the slider as asked.",
                 lambda: _loss_crossing(sigma=1.0)),
            Slip("default-scale", "b is still at its default; move the Laplace slider as asked.",
                 lambda: _loss_crossing(scale=1.0)),
            Slip("lower-crossing", "that is the crossing below y = 1/2, where the Gaussian loss falls under the "
                                   "Laplace floor; the question asks for the one above.",
                 lambda: _loss_crossing(above=False)),
        ],
    ),
    Written(
        key="foundations-replace-from-add-remove", chapter=CHAPTER, stars=2, task="prove",
        model_solution=r"""*The bound.* Let $S$ and $S'$ be replace-one neighbours: $S'$ is $S$ with the record $x$ replaced by
$x'$. By {prf:ref}`prop-replace-two-steps`, $S'' = S \setminus \{x\}$ is an add/remove neighbour of both. For every
event $E$, applying the add/remove guarantee twice (the chain $S, S'', S'$ of {prf:ref}`thm-group-privacy` with
$k = 2$),

$$
\Pr[\mathcal M(S) \in E] \le e^{\varepsilon}\Pr[\mathcal M(S'') \in E] + \delta
\le e^{\varepsilon}\big(e^{\varepsilon}\Pr[\mathcal M(S') \in E] + \delta\big) + \delta
= e^{2\varepsilon}\Pr[\mathcal M(S') \in E] + (1 + e^{\varepsilon})\delta .
$$

The same holds with $S$ and $S'$ exchanged, so $\mathcal M$ is
$(2\varepsilon, (1 + e^\varepsilon)\delta)$-DP under replace-one.

*The factor 2 can be tight.* Release a histogram of the records over $m \ge 2$ bins with independent
$\mathrm{Lap}(0, 1/\varepsilon)$ noise on each count. Adding or removing a record changes one count by $1$ (an
$\ell_1$ sensitivity of $1$), so by {prf:ref}`thm-laplace-dp` the mechanism is $\varepsilon$-DP under add/remove.
Replacing a record of bin $1$ by one of bin $2$ changes the counts $(c_1, c_2)$ into $(c_1 - 1, c_2 + 1)$. The
ratio of the output densities is
$\exp\big(\varepsilon(|y_1 - c_1 + 1| - |y_1 - c_1|) + \varepsilon(|y_2 - c_2 - 1| - |y_2 - c_2|)\big)$, which
equals $e^{2\varepsilon}$ on the set $\{y_1 \ge c_1,\ y_2 \le c_2\}$, an event of positive probability. On that
event the ratio of probabilities is $e^{2\varepsilon}$, so no $\varepsilon' < 2\varepsilon$ works with
$\delta = 0$: the factor 2 is attained.
""",
        rubric=[
            Criterion(1, "Writes the replacement as a removal followed by an addition (an intermediate data set "
                         "neighbouring both)."),
            Criterion(2, "Chains the two (ε, δ) inequalities correctly, getting e^{2ε} and the slack (1 + e^ε)δ, and "
                         "notes the symmetric direction."),
            Criterion(1, "Gives a mechanism for which the factor 2 is attained (e.g. a Laplace histogram, whose "
                         "replace-one ℓ₁ sensitivity is 2)."),
            Criterion(1, "Shows the density ratio e^{2ε} on an event of positive probability, so no smaller ε works."),
        ],
    ),
    Written(
        key="foundations-classical-large-epsilon", chapter=CHAPTER, stars=3, task="critique",
        model_solution=r"""*It fails.* With $\delta = 10^{-5}$, $r = \sqrt{2\log(1.25/\delta)} = \sqrt{2\log(1.25 \cdot 10^5)}
\approx 4.8448$, so the library's noise multiplier is $\sigma = r/10 \approx 0.48448$ and $\mu = 1/\sigma \approx 2.0641$.
The exact profile ({prf:ref}`thm-gaussian-exact`) at $\varepsilon = 10$ is

$$
\delta(10) = \Phi\Big(-\frac{10}{\mu} + \frac{\mu}{2}\Big) - e^{10}\,\Phi\Big(-\frac{10}{\mu} - \frac{\mu}{2}\Big)
\approx \Phi(-3.8127) - e^{10}\,\Phi(-5.8768) \approx 2.27 \times 10^{-5},
$$

more than twice the promised $10^{-5}$: the mechanism is not $(10, 10^{-5})$-DP. The smallest noise multiplier
that is, found by solving $\delta(10) = 10^{-5}$ for $\mu$, is $\sigma \approx 0.49989$, about 3 % more noise.

*Where the proof breaks.* The proof of {prf:ref}`thm-gaussian-classical` bounds $\delta(\varepsilon)$ by
$1 - \Phi(r - \varepsilon/(2r))$ and then uses $\varepsilon < 1$ to replace $r - \varepsilon/(2r)$ by
$\tau = r - 1/(2r)$. For $\varepsilon = 10$ the argument of $\Phi$ is $r - 10/(2r) \approx 3.81$, not at least
$\tau \approx 4.74$, and the tail bound itself is about $6.9 \times 10^{-5}$. As $\varepsilon$ grows with $r$ fixed,
the mean $\mu^2/2 = \varepsilon^2/(2r^2)$ of the privacy loss grows quadratically, faster than the threshold
$\varepsilon$; the formula's $1/\varepsilon$ scaling stops being enough.

*The fix.* Calibrate by the exact profile (`gaussian_sigma_exact`), which is valid for every $\varepsilon$, or refuse
$\varepsilon \ge 1$ as the theorem's hypothesis demands.
""",
        rubric=[
            Criterion(1, "Computes the library's σ ≈ 0.484 (or μ ≈ 2.06) for ε = 10, δ = 10⁻⁵."),
            Criterion(2, "Evaluates the exact profile at ε = 10 (about 2.3 × 10⁻⁵ > 10⁻⁵) and concludes the claim "
                         "is false."),
            Criterion(1, "Names the failing step: the proof uses ε < 1 to bound r − ε/(2r) from below."),
            Criterion(1, "Proposes the fix (exact calibration, σ ≈ 0.500, or refusing ε ≥ 1)."),
        ],
    ),
]
