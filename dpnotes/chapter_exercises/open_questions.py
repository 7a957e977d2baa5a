"""Exercises of the chapter "Lower bounds, joint DP and open questions", answers from the package.

Each spec says what it asks (``task``); the two written ones (the derivative identity behind the
correlation–variance dichotomy, a critique of an accuracy claim that the lower bound rules out) are
graded by hand.
"""

import numpy as np
from scipy import integrate, optimize

from ..exercise_kinds import Code, Criterion, Explore, Numeric, Slip, Symbolic, Written, figure_value
from ..joint_dp import joint_dp_epsilon, noisy_count_mechanism
from ..lower_bounds import fingerprinting_terms
from ..noise_comparison import max_divergence

CHAPTER = "10-lower-bounds-and-open-questions"
_CURVES = "noise-rdp-curves"
_GAUSS, _LAPLACE = "D<sub>α</sub>(P+1‖P), Gaussian", "D<sub>α</sub>(P+1‖P), Laplace"


def _truth_probability(target=0.5, people=3):
    """The truth probability p ∈ (1/2, 1) at which the noisy count is jointly ``target``-DP (root of the package's ε)."""
    return optimize.brentq(lambda p: joint_dp_epsilon(noisy_count_mechanism(p), people) - target, 0.5 + 1e-9,
                           1 - 1e-9, xtol=1e-14)


def _first_order_below(variance=4.0, before=0):
    """The first order of the figure's grid at which the Laplace curve lies below the Gaussian one (``before``
    grid points earlier)."""
    from ..figures import FIGURES  # the figures layer sits below the exercises

    curves = {t.name.split(" (")[0]: t for t in FIGURES[_CURVES].traces(variance=variance)}
    below = np.asarray(curves[_LAPLACE].y, float) < np.asarray(curves[_GAUSS].y, float)
    return float(np.asarray(curves[_LAPLACE].x, float)[np.argmax(below) - before])

EXERCISES = [
    Numeric(
        key="oq-fingerprint-mean-correlation", chapter=CHAPTER, stars=3, task="multi-step",
        answer=lambda: fingerprinting_terms(4, "mean")["lhs_mse"],
        hint="Condition on θ first: the correlation is n times a conditional variance, the MSE the conditional variance "
             "of the mean; then average both over θ ~ U[0, 1].",
        slips=[
            Slip("correlation-only", "that is the correlation term alone; the MSE form adds E[(f(X) − θ)²].",
                 lambda: 1 / 6),
            Slip("mse-only", "that is the MSE alone; the left side adds the correlation term.", lambda: 1 / 24),
            Slip("theta-half", "that evaluates at θ = 1/2 instead of averaging over θ.", lambda: 1 / 4 + 1 / 16),
            Slip("missing-n", "the correlation term is n times the conditional variance of the mean.",
                 lambda: 1 / 24 + 1 / 24),
        ],
    ),
    Numeric(
        key="oq-fingerprint-constant", chapter=CHAPTER, stars=2, task="multi-step",
        answer=lambda: integrate.quad(lambda theta: (0.25 - theta) ** 2, 0.0, 1.0, epsabs=1e-14, epsrel=1e-12)[0],
        hint="A constant f does not correlate with the data, but its squared bias does not vanish: average it over θ.",
        slips=[
            Slip("end-point", "that evaluates the squared bias at an end point instead of averaging over θ.",
                 lambda: 9 / 16),
            Slip("second-moment", "that is E[θ²]; the bias is measured from 1/4.", lambda: 1 / 3),
            Slip("half", "that is the value for the constant 1/2; here the constant is 1/4.", lambda: 1 / 12),
            Slip("zero", "the correlation term vanishes, but the bias term does not.", lambda: 0.0),
        ],
    ),
    Numeric(
        key="oq-laplace-max-divergence", chapter=CHAPTER, stars=1, task="plug-in",
        answer=lambda: max_divergence("laplace", variance=3.0),
        hint="First the scale b from the variance of Laplace noise; the privacy loss of a shift is at most the "
             "shift divided by b.",
        slips=[
            Slip("laplace-variance", "the variance of Lap(0, b) is not b².", lambda: 1 / np.sqrt(3.0)),
            Slip("variance-for-scale", "the scale b goes with the standard deviation, not the variance.",
                 lambda: 2 / 3.0),
        ],
    ),
    Numeric(
        key="oq-joint-epsilon", chapter=CHAPTER, stars=2, task="multi-step",
        answer=_truth_probability,
        hint="First find through which channel person i's bit reaches the others and what ε that channel has as a "
             "function of p; then solve for p.",
        slips=[
            Slip("composed-over-people", "person i's bit enters one report only: there is nothing to compose over "
                                         "the three people.", lambda: 1 / (1 + np.exp(-0.5 / 3))),
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: 10**0.5 / (1 + 10**0.5)),
            Slip("lie-probability", "that is the probability of a false report; the question asks for the truth "
                                    "probability.", lambda: 1 - _truth_probability()),
        ],
    ),
    Symbolic(
        key="open-logistic-max-divergence", chapter=CHAPTER, stars=2, task="derive",
        answer="pi/sqrt(3*v)",
        symbols={"v": (0.1, 20.0)},
        hint="The logistic log-density has a bounded slope; the largest slope times the unit shift is D∞.",
        slips=[
            Slip("laplace", "that is the Laplace law's value; the logistic law has its own scale.", "sqrt(2/v)"),
            Slip("variance-for-scale", "the scale goes with the standard deviation √v, not the variance v.",
                 "pi/(3*v)"),
        ],
    ),
    Code(
        key="open-laplace-logpdf", chapter=CHAPTER, stars=1, task="implement",
        function="laplace_logpdf", signature="(x, v)",
        reference="dpnotes.noise_comparison:noise_logpdf", argmap={"v": "variance"}, fixed={"law": "laplace"},
        inputs=lambda rng: {"x": rng.normal(0.0, 3.0, int(rng.integers(1, 8))), "v": float(rng.uniform(0.1, 10.0))},
        n_cases=40, edge_cases=[{"x": np.array([0.0, 1000.0]), "v": 2.0}],
        hint="A Laplace law of scale b has variance 2b²; write the density in log space so it never underflows.",
        slips=[
            Slip("scale-is-variance", "the scale b is not the variance: the variance of Lap(b) is 2b².",
                 lambda x, v: -np.abs(x) / v - np.log(2 * v)),
            Slip("missing-normaliser", "the log-density needs its normalising term.",
                 lambda x, v: -np.abs(x) / np.sqrt(v / 2)),
        ],
    ),
    Explore(
        key="open-laplace-curve-reading", chapter=CHAPTER, stars=1, task="reading",
        sig_figs=2,
        figure=_CURVES, sliders={"variance": 4.0},
        answer=_first_order_below,
        hint="Set the variance as asked and hover along the Gaussian and Laplace curves from α = 1 up: find the order "
             "at which they change places.",
        slips=[
            Slip("last-above", "that is the last order at which the Laplace curve is still above the Gaussian one; "
                               "the question asks for the first at which it is below.",
                 lambda: _first_order_below(before=1)),
            Slip("default-variance", "the variance is still at its default; move the slider as asked.",
                 lambda: _first_order_below(1.0)),
        ],
    ),
    Written(
        key="oq-dichotomy-derivative", chapter=CHAPTER, stars=2, task="prove",
        model_solution=(
            "*Reduce to the count.* Given $\\theta$, $\\sum_i (X_i - \\theta) = J - n\\theta$ with "
            "$J = \\sum_i X_i$, and $\\mathbb E[J - n\\theta \\mid \\theta] = 0$, so "
            "$\\mathbb E[(f(X) - \\theta)(J - n\\theta) \\mid \\theta] = \\mathbb E[f(X)(J - n\\theta) \\mid \\theta]$. For "
            "a randomised $f$ replace $f(x)$ by $\\bar f(x) = \\mathbb E[f(X) \\mid X = x] \\in [0, 1]$ (its internal "
            "randomness is independent of $X$ and $\\theta$), so everything below is a finite sum over "
            "$x \\in \\{0,1\\}^n$.\n\n"
            "*Differentiate the weights.* $p_\\theta(x) = \\theta^{j}(1-\\theta)^{n-j}$ with $j = j(x)$, and for "
            "$0 < \\theta < 1$, $\\frac{d}{d\\theta}p_\\theta(x) = p_\\theta(x)\\big(\\frac{j}{\\theta} - "
            "\\frac{n - j}{1 - \\theta}\\big) = p_\\theta(x)\\,\\frac{j - n\\theta}{\\theta(1 - \\theta)}$. Hence "
            "$g'(\\theta) = \\sum_x \\bar f(x)\\,\\frac{d}{d\\theta}p_\\theta(x) = "
            "\\frac{\\mathbb E[\\bar f(X)(J - n\\theta) \\mid \\theta]}{\\theta(1 - \\theta)}$, which is the identity "
            "$\\mathbb E[(f(X) - \\theta)\\sum_i (X_i - \\theta) \\mid \\theta] = \\theta(1 - \\theta)\\,g'(\\theta)$ "
            "(a polynomial identity, so it also holds at the end points by continuity).\n\n"
            "*Integrate by parts.* $g$ is a polynomial, so $\\int_0^1 \\theta(1-\\theta)g'(\\theta)\\,d\\theta = "
            "\\big[\\theta(1 - \\theta)g(\\theta)\\big]_0^1 - \\int_0^1 (1 - 2\\theta)g(\\theta)\\,d\\theta = "
            "\\int_0^1 (2\\theta - 1)g(\\theta)\\,d\\theta$; the boundary term vanishes because $\\theta(1 - \\theta)$ "
            "does and $g$ is bounded ($0 \\le g \\le 1$).\n\n"
            "*The bound.* Pointwise, $(2\\theta - 1)g + (g - \\theta)^2 = g^2 - g + \\theta^2 = (g - \\tfrac12)^2 + "
            "\\theta^2 - \\tfrac14 \\ge \\theta^2 - \\tfrac14$, and $\\int_0^1 (\\theta^2 - \\tfrac14)\\,d\\theta = \\tfrac13 - "
            "\\tfrac14 = \\tfrac1{12}$, with equality iff $g \\equiv \\tfrac12$, e.g. $f \\equiv \\tfrac12$."
        ),
        rubric=[
            Criterion(1, "Reduces the correlation term to E[f(X)(J − nθ) | θ] (the θ-part has mean 0) and handles a "
                         "randomised f by its conditional mean."),
            Criterion(1, "Differentiates the binomial weights correctly, with the factor (j − nθ)/(θ(1 − θ))."),
            Criterion(1, "Integrates by parts with the boundary term justified (θ(1 − θ) vanishes, g bounded)."),
            Criterion(1, "Completes the square pointwise and integrates to 1/12, naming the equality case."),
        ],
    ),
    Written(
        key="oq-critique-accuracy", chapter=CHAPTER, stars=2, task="critique",
        model_solution=(
            "*The claim is impossible.* A guarantee for every $\\theta$ implies the same guarantee on average over "
            "$\\theta \\sim U[0, 1]$, which is the setting of the chapter's bound. With $\\mathrm{MSE} \\le 10^{-4} "
            "\\le 1/24$, an $\\varepsilon$-DP estimator needs $n \\ge \\sqrt6/(24(e^\\varepsilon - 1)\\sqrt{\\mathrm{MSE}})$; "
            "at $\\varepsilon = 0.1$ and $\\mathrm{RMSE} = 0.01$ that is $2.449/(24 \\cdot 0.10517 \\cdot 0.01) \\approx "
            "97.0$, so at least 98 bits, not 20. With 20 bits the correlation term is at most "
            "$20 \\cdot 0.10517 \\cdot \\sqrt{10^{-4}/6} \\approx 0.0086$, so by the sharp form the squared bias would "
            "be at least $1/12 - 0.0086 \\approx 0.075$, far above the claimed MSE, which bounds it.\n\n"
            "*What the paper likely measured.* The Laplace mechanism on the mean has sensitivity $1/n$ (replace-one), "
            "so noise of scale $1/(n\\varepsilon) = 0.5$ and standard deviation $\\sqrt2 \\cdot 0.5 \\approx 0.71$: "
            "nowhere near 0.01. A small error can come from (i) measuring at $\\theta$ near 0 or 1 where clipping to "
            "$[0, 1]$ hides the noise (a worst case over $\\theta$ is not an average over a favourable few), "
            "(ii) reporting the error of the non-private mean, (iii) a noise scale computed with sensitivity $1/n$ "
            "for a data set size $n$ that was larger than the 20 bits used, or with $\\varepsilon$ per bit rather than "
            "for the whole release.\n\n"
            "*Scope.* The bound is for pure $\\varepsilon$-DP; with $\\delta > 0$ the argument gets an additive term and "
            "the paper must state $\\delta$. The paper should report the error of its actual private release, over "
            "the worst $\\theta$ or a stated prior, with $\\varepsilon$, $\\delta$ and the adjacency."
        ),
        rubric=[
            Criterion(1, "Notes that a for-every-θ claim implies the averaged one, so the chapter's bound applies."),
            Criterion(1, "Computes the bound n ≥ √6/(24(e^ε − 1)RMSE) ≈ 97 (at least 98 bits) and concludes that 20 "
                         "bits cannot suffice."),
            Criterion(1, "Compares with what the Laplace mechanism actually gives (scale 1/(nε) = 0.5, RMSE ≈ 0.7)."),
            Criterion(1, "Names a plausible cause of the claimed number (favourable θ with clipping, non-private "
                         "error, wrong n or ε) or the pure-DP scope of the bound."),
        ],
    ),
]
