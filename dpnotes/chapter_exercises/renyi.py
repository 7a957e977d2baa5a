"""Exercises of chapter 1, with answers computed by the package.
"""

import numpy as np
from scipy.optimize import brentq

from ..exercise_kinds import Code, Criterion, Explore, Numeric, Slip, Symbolic, Written, figure_value
from ..figures import FIGURES
from ..rdp import rdp_gaussian, rdp_laplace, rdp_randomized_response

CHAPTER = "01-renyi-gaussian"


def _random_pmf_pair(rng):
    """Two pmfs with full support on 2 to 8 outcomes and an order α ∈ (1.1, 10)."""
    n = int(rng.integers(2, 9))
    return {"p": rng.dirichlet(np.ones(n)) * 0.98 + 0.02 / n, "q": rng.dirichlet(np.ones(n)) * 0.98 + 0.02 / n,
            "alpha": float(rng.uniform(1.1, 10.0))}


def _equal_variance_crossover(sigma=2.0 * np.sqrt(2.0), laplace=None):
    """The order α at which D_α of Laplace noise (scale 2, shift 1) meets the Gaussian's α/(2σ²).

    σ = 2√2 gives the Gaussian the Laplace law's variance 2b² = 8; ``laplace`` replaces the Laplace curve (a slip).
    """
    curve = laplace or (lambda a: rdp_laplace(a, 2.0))
    return brentq(lambda a: curve(a) - a / (2 * sigma**2), 1.0 + 1e-9, 1e3, xtol=1e-13)


def _rr_truth_for_ten(total=1.0, reports=10, order=2.0, lie=False):
    """The truth probability p > 1/2 at which ``reports`` independent RR reports have D_order = ``total``."""
    p = brentq(lambda p: reports * rdp_randomized_response(order, p) - total, 0.5 + 1e-12, 1 - 1e-12, xtol=1e-15)
    return 1 - p if lie else p


_RR = "renyi-rr"
_RR_NAME = "D<sub>α</sub>(RR)"


def _rr_threshold(level=2.0, trace=_RR_NAME, below=False):
    """The smallest p slider position at which the figure's curve ``trace`` ends above ``level``."""
    positions = next(s.values for s in FIGURES[_RR].sliders if s.name == "p")
    ends = [(float(p), figure_value(_RR, {"p": p}, trace)) for p in positions]
    first = next(i for i, (p, d) in enumerate(ends) if d > level)
    return ends[first - 1][0] if below else ends[first][0]


EXERCISES = [
    Numeric(
        key="renyi-gaussian-order", chapter=CHAPTER, stars=1, task="plug-in",
        answer=lambda: rdp_gaussian(3.0, 2.0, sensitivity=1.0),
        hint="Use the closed form of the Gaussian's Rényi divergence from this chapter, with α = 3, Δ = 1, σ = 2.",
        slips=[
            Slip("sigma-for-sigma2", "it looks as if σ appears where σ² belongs, or the 2 of the denominator is "
                                     "missing.", lambda: 3.0 / 4.0),
            Slip("alpha-minus-1-for-alpha", "it looks as if you wrote α − 1 where α belongs.", lambda: 2.0 / 8.0),
        ],
    ),
    Numeric(
        key="renyi-gaussian-sigma", chapter=CHAPTER, stars=2, task="multi-step",
        answer=lambda: np.sqrt(3.0 / (2.0 * rdp_randomized_response(3.0, 0.75))),
        hint="First the divergence of randomized response at α = 3 from its closed form; then the Gaussian's "
             "divergence decreases in σ: set it equal to that value at the same order and solve for σ.",
        slips=[
            Slip("sigma-squared", "that is σ²; the question asks for σ.",
                 lambda: 3.0 / (2.0 * rdp_randomized_response(3.0, 0.75))),
            Slip("missing-two", "the factor 2 in the denominator of the Gaussian's divergence is missing.",
                 lambda: np.sqrt(3.0 / rdp_randomized_response(3.0, 0.75))),
            Slip("max-divergence", "that matches the max divergence log(p/(1 − p)) of randomized response (α → ∞), "
                                   "not its divergence at α = 3.", lambda: np.sqrt(3.0 / (2.0 * np.log(3.0)))),
            Slip("kl-limit", "that matches the KL divergence of randomized response (α → 1), not its divergence at "
                             "α = 3.", lambda: np.sqrt(3.0 / (2.0 * rdp_randomized_response(1.0, 0.75)))),
        ],
    ),
    Numeric(
        key="renyi-laplace-order2", chapter=CHAPTER, stars=2, task="multi-step",
        answer=_equal_variance_crossover,
        hint="Give the Gaussian the variance of the Laplace law (not its scale); the Gaussian's divergence is a line "
             "in α, the Laplace one is bounded: find the order where they meet numerically (bisection).",
        slips=[
            Slip("laplace-limit", "that is where the Gaussian line meets the limit Δ/b of the Laplace curve (α → ∞), "
                                  "not the curve itself.", lambda: _equal_variance_crossover(laplace=lambda a: 0.5)),
            Slip("variance-4b2", "the variance of Lap(0, b) is 2b², so the Gaussian's σ is b√2, not 2b.",
                 lambda: _equal_variance_crossover(sigma=4.0)),
            Slip("laplace-kl", "that is where the Gaussian line meets the KL divergence of the Laplace law (α → 1), "
                               "not its curve.", lambda: 16 * rdp_laplace(1.0, 2.0)),
        ],
    ),
    Numeric(
        key="renyi-rr-composition", chapter=CHAPTER, stars=2, task="multi-step",
        answer=_rr_truth_for_ten,
        hint="The ten reports are independent: the Rényi divergence of independent releases is the sum of theirs. "
             "Write the total as a function of p and solve numerically for the root above one half.",
        slips=[
            Slip("one-report", "that gives one report the whole budget; the ten independent reports add up.",
                 lambda: _rr_truth_for_ten(reports=1)),
            Slip("lie-probability", "that is the probability of a lie, 1 − p; the question asks for the truth "
                                    "probability.", lambda: _rr_truth_for_ten(lie=True)),
            Slip("max-divergence", "that budgets the max divergence log(p/(1 − p)) (α → ∞); the question asks for "
                                   "α = 2.", lambda: np.exp(0.1) / (1 + np.exp(0.1))),
        ],
    ),
    Symbolic(
        key="renyi-laplace-kl", chapter=CHAPTER, stars=2, task="derive",
        answer="a/b + exp(-a/b) - 1",
        symbols={"a": (0.1, 3.0), "b": (0.3, 5.0)},
        hint="Write the KL divergence as an integral of the log-ratio of the two Laplace densities; it is piecewise "
             "linear in y, so split the integral at 0 and at a.",
        slips=[
            Slip("missing-minus-one", "check the value at a = 0: a divergence of a law from itself is 0.",
                 "a/b + exp(-a/b)"),
            Slip("max-divergence", "that is the max divergence D∞ (the limit α → ∞), not the KL divergence.",
                 "a/b"),
        ],
    ),
    Code(
        key="renyi-pmf-divergence", chapter=CHAPTER, stars=2, task="implement",
        function="renyi_pmf", signature="(p, q, alpha)",
        reference="dpnotes.divergence:renyi_divergence", inputs=_random_pmf_pair, n_cases=40, rtol=1e-8,
        edge_cases=[{"p": np.array([0.5, 0.5]), "q": np.array([0.5, 0.5]), "alpha": 2.0}],
        hint="Start from the definition of the Rényi divergence in this chapter; for pmfs its integral is a sum over "
             "the outcomes.",
        slips=[
            Slip("alpha-for-alpha-minus-1", "it looks as if you divided by α where α − 1 belongs.",
                 lambda p, q, alpha: float(np.log(np.sum(p**alpha * q ** (1 - alpha))) / alpha)),
            Slip("swapped", "the arguments are swapped: D_α(P‖Q) puts the power α on P.",
                 lambda p, q, alpha: float(np.log(np.sum(q**alpha * p ** (1 - alpha))) / (alpha - 1))),
        ],
    ),
    Explore(
        key="renyi-rr-large-order", chapter=CHAPTER, stars=1, task="reading",
        figure=_RR, sliders={"p": 0.89},
        answer=_rr_threshold,
        hint="Move the p slider up from 1/2 one position at a time and watch the right end of the closed-form curve.",
        slips=[
            Slip("last-below", "at that position the curve still ends below the level; the question asks for the "
                               "first position above it.", lambda: _rr_threshold(below=True)),
            Slip("kl-line", "that is where the KL line (α → 1) passes the level; the question asks about the curve at "
                            "its right end.", lambda: _rr_threshold(trace="KL limit")),
        ],
    ),
    Written(
        key="renyi-monotone-order", chapter=CHAPTER, stars=2, task="prove",
        model_solution=r"""Let $r = dP/dQ$ (the likelihood ratio; if $P$ is not absolutely continuous with respect to $Q$,
$D_\alpha = \infty$ for every $\alpha > 1$ and there is nothing to prove). For $\alpha > 1$,

$$
e^{(\alpha - 1)D_\alpha(P\|Q)} = \int p^\alpha q^{1-\alpha} = \int p\,\Big(\frac pq\Big)^{\alpha - 1} = \mathbb E_P\big[r^{\alpha - 1}\big],
$$

so $D_\alpha = \frac{1}{s}\log \mathbb E_P[r^{s}]$ with $s = \alpha - 1 > 0$: the logarithm of the $L^s(P)$ norm of $r$,
$D_\alpha = \log \|r\|_{L^s(P)}$.

*Lyapunov's inequality.* For $0 < s < t$, Jensen's inequality for the convex map $u \mapsto u^{t/s}$ on
$[0, \infty)$ gives $\big(\mathbb E_P[r^s]\big)^{t/s} \le \mathbb E_P\big[(r^s)^{t/s}\big] = \mathbb E_P[r^t]$ (also when the
right side is infinite). Taking logarithms and dividing by $t > 0$:
$\frac1s \log \mathbb E_P[r^s] \le \frac1t \log \mathbb E_P[r^t]$.

With $s = \alpha - 1$ and $t = \beta - 1$ for $1 < \alpha < \beta$ this is $D_\alpha \le D_\beta$. The limits
$\alpha \to 1$ (the KL divergence $\mathbb E_P[\log r]$, the log of the geometric mean) and $\alpha \to \infty$
($\log \operatorname{ess\,sup} r$, the max divergence) sit at the two ends of the same order. Consequence for privacy:
an $(\alpha, \varepsilon)$-RDP guarantee implies $(\alpha', \varepsilon)$-RDP at every smaller order $\alpha' < \alpha$, and
an ε-DP mechanism is $(\alpha, \varepsilon)$-RDP at every order.
""",
        rubric=[
            Criterion(1, "Rewrites e^{(α−1)D_α} as the moment E_P[r^{α−1}] of the likelihood ratio under P."),
            Criterion(2, "Proves the moment (Lyapunov) inequality from Jensen with the convex map u ↦ u^{t/s}, "
                         "including the direction of the inequality after taking logs."),
            Criterion(1, "Concludes D_α ≤ D_β for α < β and handles the case of infinite divergence."),
            Criterion(1, "States a consequence for RDP guarantees (smaller orders, or pure DP implies RDP at every "
                         "order)."),
        ],
    ),
    Written(
        key="renyi-critique-gaussian-pure", chapter=CHAPTER, stars=2, task="critique",
        model_solution=r"""*The flaw.* For the Gaussian mechanism with $\sigma = 10$ and sensitivity $1$,
$D_\alpha = \alpha/(2\sigma^2) = \alpha/200$ for every $\alpha$; it is at most $5$ for $\alpha \le 1000$ but grows
without bound, so $D_\infty = \lim_{\alpha \to \infty} D_\alpha = \infty$. A bound on a finite range of orders says
nothing about the limit: the report takes the value at the largest order it computed for the limit.

*Why no ε works.* $D_\infty(P\|Q) = \log \operatorname{ess\,sup}_y p(y)/q(y)$ is the largest privacy loss, and
$\varepsilon$-DP holds exactly when it is at most $\varepsilon$ (for both orders of the pair). The privacy loss of
$\mathcal N(1, \sigma^2)$ against $\mathcal N(0, \sigma^2)$ at the output $y$ is $(2y - 1)/(2\sigma^2)$, a line in $y$: the
event $\{y > 1/2 + \sigma^2\varepsilon\}$ has positive probability under both laws and on it the ratio of
probabilities exceeds $e^{\varepsilon}$. So the mechanism is not $\varepsilon$-DP for any finite $\varepsilon$.

*What the curve does give.* A finite-order bound controls a moment of the likelihood ratio, not its supremum. It
yields $(\varepsilon, \delta)$-DP with $\delta > 0$ (the conversions of chapter 3), e.g. the privacy loss
$Z \sim \mathcal N(\mu^2/2, \mu^2)$ with $\mu = 1/\sigma = 0.1$ exceeds $5$ with a probability
$\Pr[Z > 5] = 1 - \Phi(49.95)$ that is tiny but positive, the $\delta$ the report left out. Randomized response, by
contrast, has a bounded curve with finite limit $\log(p/(1-p))$: there the limit is a pure-DP guarantee.
""",
        rubric=[
            Criterion(1, "Notes that α/(2σ²) is unbounded in α, so D_∞ = ∞; a bound up to α = 1000 says nothing "
                         "about the limit."),
            Criterion(2, "Shows the Gaussian is not ε-DP for any ε via the unbounded privacy loss (an event where the "
                         "ratio exceeds e^ε)."),
            Criterion(1, "Says what the finite-order bound does give: (ε, δ)-DP with a positive δ."),
            Criterion(1, "Contrasts with a mechanism whose curve is bounded (randomized response or Laplace)."),
        ],
    ),
]
