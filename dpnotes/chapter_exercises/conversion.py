"""Exercises of the conversion chapter, with answers computed by the package.
"""

import numpy as np
from scipy.optimize import brentq

from ..conversion import delta_from_rdp_curve, epsilon_from_rdp, epsilon_from_zcdp
from ..privacy_loss import delta_gaussian
from ..exercise_kinds import Code, Criterion, Explore, Numeric, Slip, Symbolic, Written
from ..rdp import rdp_gaussian

CHAPTER = "03-conversion"
_LOG_INV_DELTA = np.log(1e6)


_SIGMA_READ = 3.017088168272582  # a position of the σ slider near 3


def _random_gaussian_curve(rng):
    """The RDP curve α/(2σ²) of a Gaussian mechanism on a grid of orders, and δ."""
    orders = np.array([1.25, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0, 128.0, 256.0])
    sigma = float(rng.uniform(1.0, 5.0))
    return {"orders": orders, "rdp": orders / (2 * sigma**2), "delta": float(10 ** rng.uniform(-8, -3))}


def _bound_over_exact(log_delta=None):
    """δ of the optimal-order bound S4-05 (σ = 2, ε = 1.5) over the exact δ(1.5) of the same Gaussian mechanism."""
    bound = np.exp(log_delta) if log_delta is not None else delta_from_rdp_curve(
        lambda a: rdp_gaussian(a, 2.0), 1.5, method="mironov")
    return float(bound / delta_gaussian(1.5, 0.5))


def _largest_rho(log_inv_delta=_LOG_INV_DELTA, two=2.0, rho_term=True):
    """The largest ρ whose zCDP conversion ρ + 2√(ρ log(1/δ)) is at most 1 (with a slip's changes)."""
    def eps(rho):
        return (rho if rho_term else 0.0) + two * np.sqrt(rho * log_inv_delta)
    return brentq(lambda rho: eps(rho) - 1.0, 1e-12, 1.0, xtol=1e-15)


def _per_decade(sigma=_SIGMA_READ, trace="exact", decades=10.0):
    """How much ε of ``trace`` grows per decade of δ, from the right end (δ = 10⁻²) to the left (δ = 10⁻¹²)."""
    from ..figures import FIGURES

    for t in FIGURES["conversion-gaussian"].traces(sigma=sigma):
        if t.name.startswith(trace):
            return float((t.y[0] - t.y[-1]) / decades)
    raise ValueError(f"no trace {trace!r}")


EXERCISES = [
    Numeric(
        key="conversion-mironov", chapter=CHAPTER, stars=1, task="plug-in",
        answer=lambda: epsilon_from_rdp([10.0], [3.0], 1e-6, method="mironov"),
        hint="Apply Mironov's conversion at the single order given: the RDP ε plus a term in log(1/δ) that "
             "shrinks as the order grows.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: 3.0 + 6.0 / 9.0),
            Slip("alpha-for-alpha-minus-1", "it looks as if you wrote α where α − 1 belongs.",
                 lambda: 3.0 + _LOG_INV_DELTA / 10.0),
            Slip("missing-rdp-epsilon", "the RDP ε(α) itself is missing from the conversion.",
                 lambda: _LOG_INV_DELTA / 9.0),
        ],
    ),
    Numeric(
        key="conversion-optimal-order", chapter=CHAPTER, stars=2, task="multi-step",
        answer=lambda: delta_from_rdp_curve(lambda a: rdp_gaussian(a, 2.0), 1.0, method="mironov",
                                            return_order=True)[1],
        hint="Write log δ of the conversion as a function of α for the Gaussian curve, and set its derivative "
             "to zero.",
        slips=[
            Slip("divided-by-sigma2", "that divides by σ² where it should multiply.", lambda: (1 + 2 * 1.0 / 4.0) / 2),
            Slip("alpha-for-alpha-minus-1", "it looks as if you wrote α where α − 1 belongs (in the factor in front "
                                            "of the exponent).", lambda: 1.0 * 2.0**2),
        ],
    ),
    Numeric(
        key="conversion-example2-delta", chapter=CHAPTER, stars=2, task="multi-step",
        answer=_bound_over_exact,
        hint="Two routes to δ at the same ε: the bound at the optimal order (the formula of the previous exercise, "
             "with ε = 1.5 and σ = 2), and the exact privacy profile of the Gaussian mechanism with μ the sensitivity "
             "over σ. Divide the first by the second.",
        slips=[
            Slip("inverted", "that is the exact δ over the bound; the question asks how many times larger the bound is.",
                 lambda: 1 / _bound_over_exact()),
            Slip("no-half-in-exponent", "the halving in the exponent of the bound is missing.",
                 lambda: _bound_over_exact(log_delta=-(1.5 * 2.0 - 1 / (2 * 2.0)) ** 2)),
            Slip("order-two", "that uses the order α = 2, not the optimal order.",
                 lambda: _bound_over_exact(log_delta=(2 / (2 * 2.0**2) - 1.5))),
        ],
    ),
    Numeric(
        key="conversion-zcdp", chapter=CHAPTER, stars=2, task="multi-step",
        answer=lambda: brentq(lambda rho: epsilon_from_zcdp(rho, 1e-6) - 1.0, 1e-12, 1.0, xtol=1e-15),
        hint="The Bun–Steinke ε grows with ρ; set it equal to 1 and solve: it is a quadratic in √ρ (natural "
             "logarithm of 1/δ).",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda: _largest_rho(log_inv_delta=6.0)),
            Slip("missing-two", "the factor 2 in front of the square root is missing.", lambda: _largest_rho(two=1.0)),
            Slip("missing-rho", "the ρ term in front is missing.", lambda: _largest_rho(rho_term=False)),
            Slip("root-rho", "that is √ρ; the question asks for ρ.", lambda: np.sqrt(_largest_rho())),
        ],
    ),
    Symbolic(
        key="conversion-optimal-order-formula", chapter=CHAPTER, stars=2, task="derive",
        answer="1 + sigma*sqrt(2*log(1/delta))",
        symbols={"sigma": (0.5, 10.0), "delta": (1e-10, 0.1)},
        hint="Minimise α/(2σ²) + log(1/δ)/(α − 1) over α > 1: set the derivative to zero.",
        slips=[
            Slip("missing-one", "the minimiser is an order α > 1; solve for α, not for α − 1.",
                 "sigma*sqrt(2*log(1/delta))"),
            Slip("missing-two", "a factor 2 is missing under the square root.", "1 + sigma*sqrt(log(1/delta))"),
        ],
    ),
    Code(
        key="conversion-rdp-to-dp", chapter=CHAPTER, stars=2, task="implement",
        function="epsilon_from_curve", signature="(orders, rdp, delta)",
        reference="dpnotes.conversion:epsilon_from_rdp", fixed={"method": "mironov"},
        inputs=_random_gaussian_curve, n_cases=30,
        hint="Each order gives its own (ε, δ) guarantee; the accountant reports the best of them.",
        slips=[
            Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                 lambda orders, rdp, delta: float(np.min(rdp + np.log10(1 / delta) / (orders - 1)))),
            Slip("alpha-for-alpha-minus-1", "it looks as if you divided by α where α − 1 belongs.",
                 lambda orders, rdp, delta: float(np.min(rdp + np.log(1 / delta) / orders))),
        ],
    ),
    Explore(
        key="conversion-gaussian-reading", chapter=CHAPTER, stars=1, task="reading",
        figure="conversion-gaussian", sliders={"sigma": _SIGMA_READ},
        answer=_per_decade,
        hint="Set σ as asked and read the exact curve at both ends of the δ axis; the axis spans ten decades.",
        slips=[
            Slip("default-sigma", "σ is still at its default; move the slider as asked.",
                 lambda: _per_decade(sigma=1.0)),
            Slip("whole-range", "that is the growth over the whole axis; the question asks for it per decade.",
                 lambda: _per_decade(decades=1.0)),
            Slip("zcdp-curve", "that is the zCDP curve; the question asks about the exact ε(δ).",
                 lambda: _per_decade(trace="zCDP")),
        ],
    ),
    Written(
        key="conversion-explain-ordering", chapter=CHAPTER, stars=2, task="explain",
        model_solution=r"""For the Gaussian mechanism with $\sigma = 1$ (sensitivity 1) at $\delta = 10^{-5}$ the four numbers are
about $5.299$ (zCDP), $5.299$ (Mironov, minimised over a fine grid of orders), $4.728$ (improved conversion) and
$4.377$ (exact).

*zCDP = Mironov.* The Gaussian mechanism is $\rho$-zCDP with $\rho = 1/(2\sigma^2)$: its RDP curve is the line
$\rho\alpha$, exactly. Mironov's conversion minimised over every order $\alpha > 1$,
$\min_\alpha \rho\alpha + \log(1/\delta)/(\alpha - 1)$, is attained at $\alpha^* = 1 + \sqrt{\log(1/\delta)/\rho} \approx 5.80$ and
equals $\rho + 2\sqrt{\rho\log(1/\delta)}$: the Bun–Steinke formula *is* Mironov's conversion of this line. On a grid of
orders the minimum can only be larger (the figure's dashed curve touches from above).

*Improved < Mironov.* The improved conversion bounds the same event by the same Markov-type step but keeps the factor
$\frac1\alpha(1 - \frac1\alpha)^{\alpha - 1} < \frac1\alpha$ in front of $\delta$'s exponential. At every order this subtracts
$\log\frac{\alpha}{\alpha - 1} + \frac{\log\alpha}{\alpha - 1}$ from $\varepsilon$: about $0.556$ at $\alpha^* \approx 5.80$, and
$0.570$ at its own best order, hence $5.299 - 0.570 \approx 4.728$.

*Every conversion > exact.* Any conversion from an RDP curve is valid for *every* pair of laws with that curve, so
it must cover the worst such pair; the Gaussian pair is one particular pair, and its exact profile
({prf:ref}`thm-gaussian-exact`) uses the whole law of its privacy loss, not one moment. The remaining gap,
$4.728 - 4.377 \approx 0.35$, is the price of summarising a law by its Rényi moments; even the optimal one-order
conversion of this chapter stays above the exact curve.
""",
        rubric=[
            Criterion(1, "Identifies the Gaussian's RDP curve as the zCDP line ρα with ρ = 1/(2σ²)."),
            Criterion(1, "Shows Mironov's conversion minimised over all orders equals ρ + 2√(ρ log(1/δ)) (optimal "
                         "order 1 + √(log(1/δ)/ρ)), and that a grid can only be above it."),
            Criterion(1, "Explains the improved conversion's saving log(α/(α−1)) + log(α)/(α−1) at every order, "
                         "with its size here (about 0.56)."),
            Criterion(1, "Explains why every conversion stays above the exact ε (worst case over all pairs with the "
                         "curve; one moment vs the whole privacy-loss law)."),
            Criterion(1, "Gives the four numbers (about 5.30, 5.30, 4.73, 4.38) or their gaps correctly."),
        ],
    ),
    Written(
        key="conversion-critique-combined-runs", chapter=CHAPTER, stars=3, task="critique",
        model_solution=r"""*The claim is wrong in $\delta$ and loose in $\varepsilon$.*

1. *$\delta$.* Basic composition of two $(\varepsilon_i, \delta_i)$ guarantees gives
   $(\varepsilon_1 + \varepsilon_2, \delta_1 + \delta_2) = (4, 2 \cdot 10^{-5})$; the $\delta$'s add. "$(4, 10^{-5})$" is
   not implied by what the two runs report.
2. *$\varepsilon$.* The reported numbers are conversions; composition should be done on the RDP curves, before
   converting. Each run is $\rho$-zCDP with $\rho + 2\sqrt{\rho\log(10^5)} = 2$, a quadratic in $\sqrt\rho$:
   $\sqrt\rho = \sqrt{\log 10^5 + 2} - \sqrt{\log 10^5} \approx 3.6760 - 3.3931 = 0.2829$, so $\rho \approx 0.0800$. The
   two runs together are $2\rho \approx 0.1601$-zCDP (RDP adds at each order), which converts to
   $\varepsilon = 2\rho + 2\sqrt{2\rho\log 10^5} \approx 0.160 + 2.715 \approx 2.88$ at $\delta = 10^{-5}$.

So the correct statement, $(2.88, 10^{-5})$, is *better* than the paper's claim in $\varepsilon$, and the paper's
$(4, 10^{-5})$ is unsupported as written: it is neither the basic composition of the reports (that needs
$\delta = 2 \cdot 10^{-5}$) nor the RDP composition (which gives a smaller $\varepsilon$). Keep the curves, add them
order by order, convert once at the end.
""",
        rubric=[
            Criterion(1, "Notes that basic composition of (ε, δ) pairs adds the δ's: (4, 2·10⁻⁵), not (4, 10⁻⁵)."),
            Criterion(1, "Says conversion should come after composition (add the RDP curves order by order)."),
            Criterion(2, "Recovers ρ ≈ 0.080 from ε = 2 at δ = 10⁻⁵ by solving the quadratic in √ρ."),
            Criterion(1, "Converts 2ρ ≈ 0.160 to ε ≈ 2.88 at δ = 10⁻⁵ and compares with the claim."),
        ],
    ),
]
