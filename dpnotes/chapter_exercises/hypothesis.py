"""Exercises of the hypothesis-testing chapter, with answers computed by the package.
"""

import numpy as np
from scipy import stats
from scipy.optimize import brentq

from ..composition import gaussian_sigma_exact
from ..exercise_kinds import Code, Criterion, Explore, Numeric, Slip, Symbolic, Written
from ..privacy_loss import delta_randomized_response, epsilon_gaussian
from ..properties import moment_difference_bound, posterior_bound
from ..tradeoff import tradeoff_gaussian

CHAPTER = "04-hypothesis-testing"

_POSTERIOR = "hypothesis-posterior"
_CROSS = {"epsilon": 2.0, "prior": 0.3}


def _tail_epsilon(mu=2.0, delta=1e-5):
    """The ε at which the tail bound Pr[Z > ε] of the Gaussian privacy loss Z ∼ N(μ²/2, μ²) equals δ."""
    return mu**2 / 2 + mu * stats.norm.isf(delta)


def _first_above_bound(epsilon=2.0, prior=0.3, last_below=False):
    """The first output (bin centre) at which the figure's posterior exceeds the ε-bound on the posterior."""
    from ..figures import FIGURES

    traces = {t.name.split(" ")[0]: t for t in FIGURES[_POSTERIOR].traces(epsilon=epsilon, prior=prior)}
    post = next(t for t in FIGURES[_POSTERIOR].traces(epsilon=epsilon, prior=prior) if t.name.startswith("P[X = 1 |"))
    bound = float(traces["bound"].y[0])
    above = np.flatnonzero(np.asarray(post.y, float) > bound)
    i = int(above[0]) - (1 if last_below else 0)
    return float(post.x[i])


def _largest_epsilon(prior=0.05, target=0.2, log=np.log):
    """The largest ε for which the posterior bound π e^ε/(π e^ε + 1 − π) stays at most ``target``."""
    return float(log(target * (1 - prior) / (prior * (1 - target))))


EXERCISES = [
    Numeric(
        key="hypothesis-rr-delta", chapter=CHAPTER, stars=2, task="plug-in",
        answer=lambda: delta_randomized_response(0.4, 0.8),
        hint="δ(ε) is the largest P(E) − e^ε Q(E) over events E; with two outcomes, try the event of each report.",
        slips=[
            Slip("minus-epsilon", "it looks as if you used e^(−ε) where e^ε belongs.",
                 lambda: 0.8 - np.exp(-0.4) * 0.2),
            Slip("total-variation", "that is δ(0), the total variation distance; the question asks for δ at ε = 0.4.",
                 lambda: 0.6),
        ],
    ),
    Numeric(
        key="hypothesis-tail-bound", chapter=CHAPTER, stars=2, task="multi-step",
        answer=lambda: _tail_epsilon(delta=1e-7) - epsilon_gaussian(1e-7, 2.0),
        hint="Find μ from σ and Δ. The tail bound Pr[Z > ε] is a normal survival function: invert it at δ. The exact "
             "δ(ε) of the Gaussian mechanism has no closed-form inverse: solve it numerically. Subtract.",
        slips=[
            Slip("tail-epsilon", "that is the ε of the tail bound alone; the question asks how much larger it is than "
                                 "the exact ε.", lambda: _tail_epsilon(delta=1e-7)),
            Slip("exact-epsilon", "that is the exact ε alone; the question asks for the difference.",
                 lambda: epsilon_gaussian(1e-7, 2.0)),
            Slip("ratio", "that is the ratio of the two; the question asks for their difference.",
                 lambda: _tail_epsilon(delta=1e-7) / epsilon_gaussian(1e-7, 2.0)),
            Slip("sigma-as-sd", "the standard deviation of Z is μ, not σ.",
                 lambda: 2.0 + 0.5 * stats.norm.isf(1e-7) - epsilon_gaussian(1e-7, 2.0)),
        ],
    ),
    Numeric(
        key="hypothesis-posterior", chapter=CHAPTER, stars=2, task="multi-step",
        answer=lambda: float(brentq(lambda e: posterior_bound(0.05, e) - 0.2, 0.0, 10.0, xtol=1e-14)),
        hint="Bayes' rule, with the likelihood ratio of the output under the two hypotheses at most e^ε; the largest "
             "posterior grows with ε: set it equal to the cap and solve for ε.",
        slips=[
            Slip("prior-times-e", "that multiplies the prior by e^ε without renormalising.",
                 lambda: np.log(0.2 / 0.05)),
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: _largest_epsilon(log=np.log10)),
            Slip("odds-inverted", "the posterior odds are the prior odds times e^ε, not divided by it.",
                 lambda: -_largest_epsilon()),
        ],
    ),
    Numeric(
        key="hypothesis-moment", chapter=CHAPTER, stars=2, task="plug-in",
        answer=lambda: moment_difference_bound(0.1, 1e-3, 2.0, 10.0),
        hint="Plug the numbers into the bound of this chapter; the bound B on |Y| is 10.",
        slips=[
            Slip("missing-delta-term", "the δ term of the bound is missing.", lambda: np.expm1(0.1) * 2.0),
            Slip("missing-two", "the factor 2 in the δ term is missing.", lambda: np.expm1(0.1) * 2.0 + 1e-3 * 10),
            Slip("e-eps-for-e-eps-minus-1", "it looks as if you used e^ε where e^ε − 1 belongs.",
                 lambda: np.exp(0.1) * 2.0 + 2 * 1e-3 * 10),
        ],
    ),
    Numeric(
        key="hypothesis-tradeoff-gaussian", chapter=CHAPTER, stars=3, task="multi-step",
        answer=lambda: tradeoff_gaussian(0.05, 1.0 / gaussian_sigma_exact(1.0, 1e-5)),
        hint="First calibrate: the exact σ for (1, 10⁻⁵) with Δ₂ = 1, which gives μ. Then evaluate the Gaussian "
             "trade-off function G_μ at the type I error 0.05.",
        slips=[
            Slip("mu-is-sigma", "it looks as if you used μ = σ; μ is the sensitivity divided by σ.",
                 lambda: tradeoff_gaussian(0.05, gaussian_sigma_exact(1.0, 1e-5))),
            Slip("randomized-response", "that is randomized response's trade-off at the same ε, not the Gaussian's.",
                 lambda: 1 - np.e * 0.05),
            Slip("power", "that is the power 1 − β of the test, not its type II error β.",
                 lambda: 1 - tradeoff_gaussian(0.05, 1.0 / gaussian_sigma_exact(1.0, 1e-5))),
        ],
    ),
    Symbolic(
        key="hypothesis-laplace-delta", chapter=CHAPTER, stars=3, task="derive",
        answer="1 - exp((epsilon - Delta/b)/2)",
        symbols={"epsilon": (0.01, 1.0), "Delta": (1.1, 3.0), "b": (0.3, 1.0)},
        hint="Find the set of outputs where the privacy loss of Laplace noise exceeds ε, then compute "
             "P(E) − e^ε Q(E) for it.",
        slips=[
            Slip("missing-half", "a factor ½ is missing: half of each Laplace law lies on each side of its centre.",
                 "1 - exp(epsilon - Delta/b)"),
            Slip("sign", "check ε = Δ/b: there δ must reach 0.", "1 - exp((Delta/b - epsilon)/2)"),
        ],
    ),
    Code(
        key="hypothesis-gaussian-tradeoff", chapter=CHAPTER, stars=2, task="implement",
        function="gaussian_tradeoff", signature="(alpha, mu)",
        reference="dpnotes.tradeoff:tradeoff_gaussian", argmap={"alpha": "alpha_type1"},
        inputs=lambda rng: {"alpha": float(rng.uniform(0.001, 0.999)), "mu": float(rng.uniform(0.05, 4.0))},
        n_cases=40, edge_cases=[{"alpha": 0.5, "mu": 1.0}],
        hint="The best test of N(0, 1) against N(μ, 1) thresholds the output; find the threshold from α, then β.",
        slips=[
            Slip("plus-mu", "the second law is shifted towards the rejection region: μ is subtracted.",
                 lambda alpha, mu: float(stats.norm.cdf(stats.norm.ppf(1 - alpha) + mu))),
            Slip("alpha-not-complement", "the threshold is the (1 − α)-quantile, not the α-quantile.",
                 lambda alpha, mu: float(stats.norm.cdf(stats.norm.ppf(alpha) - mu))),
        ],
    ),
    Explore(
        key="hypothesis-posterior-reading", chapter=CHAPTER, stars=1, task="reading",
        figure=_POSTERIOR, sliders=_CROSS,
        answer=_first_above_bound,
        hint="Set both sliders as asked and follow the dashed posterior from left to right: where does it first pass "
             "the horizontal bound?",
        slips=[
            Slip("default-epsilon", "ε is still at its default; move the ε slider as asked.",
                 lambda: _first_above_bound(epsilon=1.0)),
            Slip("last-below", "at that output the posterior is still below the bound; the question asks for the "
                               "first output above it.", lambda: _first_above_bound(last_below=True)),
        ],
    ),
    Written(
        key="hypothesis-rr-least-private", chapter=CHAPTER, stars=2, task="prove",
        model_solution=r"""Let $p > 1/2$ and $e^{\varepsilon} = p/(1 - p)$. Under the true bit $1$ the report is $1$ with probability
$p$ ($P$), under the bit $0$ with probability $1 - p$ ($Q$). A test of $H_0$: "$Y \sim P$" rejects with probability
$\phi(y) \in [0, 1]$ on the report $y$; its errors are
$\alpha_{\mathrm I} = p\,\phi(1) + (1 - p)\,\phi(0)$ and $\beta_{\mathrm{II}} = 1 - (1 - p)\,\phi(1) - p\,\phi(0)$.

*The trade-off function.* By the Neyman–Pearson lemma ({prf:ref}`thm-neyman-pearson`) the best test at a given
$\alpha_{\mathrm I}$ rejects first on the report with the smallest ratio $P(y)/Q(y)$, that is $y = 0$ (ratio
$(1 - p)/p = e^{-\varepsilon}$), randomising at the boundary.
- For $\alpha_{\mathrm I} \le 1 - p$: $\phi(0) = \alpha_{\mathrm I}/(1 - p)$, $\phi(1) = 0$, so
  $\beta_{\mathrm{II}} = 1 - p\,\alpha_{\mathrm I}/(1 - p) = 1 - e^{\varepsilon}\alpha_{\mathrm I}$.
- For $\alpha_{\mathrm I} \ge 1 - p$: $\phi(0) = 1$, $\phi(1) = (\alpha_{\mathrm I} - 1 + p)/p$, so
  $\beta_{\mathrm{II}} = 1 - p - (1 - p)(\alpha_{\mathrm I} - 1 + p)/p = \frac{1 - p}{p}(1 - \alpha_{\mathrm I})
  = e^{-\varepsilon}(1 - \alpha_{\mathrm I})$.

The two lines meet at $\alpha_{\mathrm I} = 1 - p$ (both give $1 - p$), and on each side the active line is the larger
one, so $T_{RR}(\alpha_{\mathrm I}) = \max\{0,\ 1 - e^{\varepsilon}\alpha_{\mathrm I},\ e^{-\varepsilon}(1 - \alpha_{\mathrm I})\}
= f_{\varepsilon, 0}(\alpha_{\mathrm I})$, the $(\varepsilon, 0)$ boundary.

*Least private.* By {prf:ref}`thm-dp-tradeoff` every $\varepsilon$-DP mechanism has, for every pair of neighbours, a
trade-off function $T \ge f_{\varepsilon, 0}$ pointwise: no test against it does better than against randomized
response. Randomized response attains the boundary, so among $\varepsilon$-DP mechanisms it is the easiest to test:
any statement proved about tests against randomized response at $\varepsilon$ holds for every $\varepsilon$-DP mechanism.
""",
        rubric=[
            Criterion(1, "Writes both errors of a randomised test on the two reports."),
            Criterion(2, "Uses Neyman–Pearson (reject first on the report 0) and derives both pieces 1 − e^ε α and "
                         "e^{−ε}(1 − α), with the breakpoint α = 1 − p."),
            Criterion(1, "Identifies the result with the (ε, 0) boundary max{0, 1 − e^ε α, e^{−ε}(1 − α)}."),
            Criterion(1, "Concludes with the DP trade-off theorem that every ε-DP mechanism is at least as hard to "
                         "test (randomized response is the least private)."),
        ],
    ),
    Written(
        key="hypothesis-critique-audit", chapter=CHAPTER, stars=3, task="critique",
        model_solution=r"""*What the inequality allows.* If the training run is $(\varepsilon, \delta)$-DP, every test has
$\mathrm{TPR} \le e^{\varepsilon}\,\mathrm{FPR} + \delta$ ({prf:ref}`thm-dp-tradeoff`, with "member" as the rejection of
"non-member"), so a test with true rates $(\mathrm{TPR}, \mathrm{FPR})$ certifies
$\varepsilon \ge \log\big((\mathrm{TPR} - \delta)/\mathrm{FPR}\big)$. With the point estimates,
$\log\big((0.05 - 10^{-5})/0.01\big) \approx 1.609$.

*Flaw 1: estimates are not rates.* $50/1000$ and $10/1000$ are noisy estimates; with ten false positives the FPR
could easily be twice as large. A valid audit uses confidence bounds: with Clopper–Pearson intervals at 97.5 % each
(95 % jointly by a union bound), $\mathrm{TPR} \ge 0.0373$ and $\mathrm{FPR} \le 0.0183$, which certify only
$\varepsilon \ge \log\big((0.0373 - 10^{-5})/0.0183\big) \approx 0.71$ at 95 % confidence, less than half the claim.

*Flaw 2: the direction of the conclusion.* An audit gives a *lower* bound on the $\varepsilon$ the run satisfies;
it cannot show that the accountant's $\varepsilon = 8$ is loose by $8 - 1.6$. A stronger attack, a worse-case target
record (a canary), or an attacker who sees the intermediate models could certify much more. "The true $\varepsilon$
is at least $1.6$" (at best $0.71$ with confidence) is consistent with a true $\varepsilon$ of $8$.

*Flaw 3: what is averaged.* The DP inequality holds for every pair of neighbouring data sets; rates averaged over
1000 different members (each its own pair) test an average, which still satisfies the inequality but is far from the
worst case, so the bound is weak, not wrong. Independence of the 2000 trials is also needed for the binomial
intervals: if all members come from one trained model the trials are not independent draws of the mechanism.

*A correct statement.* "Our attack certifies $\varepsilon \ge 0.71$ at 95 % confidence; the accountant's
$\varepsilon = 8$ is an upper bound; the gap measures our attack as much as the accountant."
""",
        rubric=[
            Criterion(1, "States the DP inequality TPR ≤ e^ε FPR + δ and the point-estimate bound log((0.05 − δ)/0.01) "
                         "≈ 1.61."),
            Criterion(2, "Replaces the point estimates by confidence bounds (e.g. Clopper–Pearson) and recomputes a "
                         "lower bound (about 0.7 at 95 %)."),
            Criterion(1, "Says an audit is a lower bound and cannot show the accountant's ε is loose."),
            Criterion(1, "Notes the average-over-records / non-independent-trials issue or the need for worst-case "
                         "canaries."),
        ],
    ),
]
