"""The registry of every claim in the source documents, and where the book checks it.

Each row says where a claim is **stated** (the label of its directive in a
chapter), **derived** (a sympy derivation), **verified** (pytest node ids whose
test checks it by an independent route) and **shown** (a figure key). Empty
fields are honest: that part is not done yet. ``status`` records what the book
found: "supported", "corrected" (the source mis-states it; the book gives the
right form), "false" (a counterexample is shown) or "open".

``python -m dpnotes.claims`` writes the book page "Claims and where they are
checked" (``book/claims.md``).
"""

from dataclasses import dataclass
from pathlib import Path

__all__ = ["Claim", "CLAIMS", "claims_page"]

SEEDS = {
    "0": "note on privacy composition and amplification (seed 000)",
    "1": "amplification by repeated noise addition (seed 001)",
    "2": "privacy notes: δ, zCDP, RDP, approximate RDP, composition, decomposition (seed 002)",
    "3": "lecture notes: advanced composition, RDP, learning (seed 003)",
    "4": "blog post “Great but Manageable Expectations” (seed 004)",
}


@dataclass(frozen=True)
class Claim:
    id: str
    statement: str
    stated: str = ""  # label of the directive stating it
    derived: str = ""  # dotted path of the sympy derivation
    verified: tuple = ()  # pytest node ids
    shown: str = ""  # figure key in dpnotes.figures.FIGURES
    chapter: str = ""  # document (for the figure link)
    status: str = "unchecked"
    note: str = ""

    @property
    def seed(self):
        return self.id[1]


_ROWS = [
    # Seed 000
    Claim("S0-01", "Convex loss minimisation setup; excess population loss."),
    Claim("S0-02", "Rényi divergence D_α; additivity over product measures; post-processing (data processing) inequality.",
          stated="s0-02", chapter="book/01-renyi-gaussian", status="supported",
          verified=("tests/test_divergence.py::test_s0_02_quadrature_matches_closed_forms",
                    "tests/test_divergence.py::test_s0_02_additivity_over_products",
                    "tests/test_divergence.py::test_s0_02_post_processing")),
    Claim("S0-03", "∞-Wasserstein distance W∞."),
    Claim("S0-04", "(α, ε)-RDP definition.", stated="s0-04", chapter="book/01-renyi-gaussian", status="supported",
          verified=("tests/test_rdp.py::test_s0_04_gaussian_mechanism_is_rdp_for_all_neighbours",)),
    Claim("S0-05", "Shifted Rényi divergence D_α^(z); monotone non-increasing in z; shifting property.",
          status="corrected",
          note="Seed 000 takes the infimum over ν′ (the second argument); the intended definition is the "
               "infimum over μ′ with W∞(μ, μ′) ≤ z of D_α(μ′‖ν), as in seed 001."),
    Claim("S0-06", "R_α(ζ, a) = sup_{‖x‖≤a} D_α(ζ∗x‖ζ); Gaussian: R_α = α a²/(2σ²)."),
    Claim("S0-07", "(α, ε)-RDP ⇒ (ε + ln(1/δ)/(α−1), δ)-DP for all δ ∈ (0, 1); pure ε-DP ≡ (∞, ε)-RDP."),
    Claim("S0-08", "Naive (adaptive) RDP composition: orders fixed, ε's add."),
    Claim("S0-09", "Gradient step ψ(w) = w − η∇f(w) is contractive for convex β-smooth f when η ≤ 2/β."),
    Claim("S0-10", "Contractive noisy iteration and amplification by iteration: last-iterate privacy of noisy projected SGD."),
    Claim("S0-11", "Remark: advanced composition assumes every intermediate output is released."),
    # Seed 001
    Claim("S1-01", "Theorem 1: D_α(P^{∗n} + 1 ‖ P^{∗n}) ≤ n · D_α(P + 1/n ‖ P)."),
    Claim("S1-02", "Lemma 2 (shift reduction): D_α^(z)(U+ζ‖V+ζ) ≤ D_α^(z+a)(U‖V) + R_α(ζ, a)."),
    Claim("S1-03", "Telescoping proof with shifts a_i = 1 − i/n; uniform is optimal for the Gaussian."),
    Claim("S1-04", "Gaussian: the bound equals α/(2nσ²) and is tight, since P^{∗n} = N(0, nσ²)."),
    Claim("S1-05", "Laplace: Mironov's closed form; the bound ~ α/(2nλ²) as n → ∞; is it tight?", status="open",
          note="The seed leaves tightness open; the book answers it numerically."),
    Claim("S1-06", "Discrete distributions: D_α(P+Δ‖P) ≤ Δ·D_α(P+1‖P).", status="false",
          note="Fails for Gaussian-like P at Δ ≥ 2, where the divergence grows like Δ²."),
    # Seed 002
    Claim("S2-01", "Privacy loss random variable PrivLoss(P‖Q)."),
    Claim("S2-02", "Four expressions of δ(ε): tail difference, E[max(0, 1 − e^{ε−Z})], integral of the tail, and the upper bound P[Z > ε]."),
    Claim("S2-03", "Moment difference bound E[X] − E[Y] ≤ (e^ε − 1) E|Y| + 2δΔ."),
    Claim("S2-04", "zCDP: pure ε-DP ⇒ ½ε²-zCDP; composition adds ρ; ½ε²k-zCDP ⇒ (ε√(2k log 1/δ) + ½ε²k, δ)-DP."),
    Claim("S2-05", "RDP with ε as a function of the order λ.", stated="s2-05", chapter="book/01-renyi-gaussian",
          status="supported",
          verified=("tests/test_rdp.py::test_s2_05_rdp_curves_are_functions_of_the_order",),
          shown="renyi-gaussian"),
    Claim("S2-06", "RDP properties: post-processing, non-negativity, composition, monotonicity in α, Gaussian divergence, "
                   "pure DP ⇒ (α/8)(…)², quasi-convexity, triangle-like inequality, improved conversion.",
          stated="s2-06", chapter="book/01-renyi-gaussian", status="supported",
          verified=("tests/test_rdp.py::test_s2_06_gaussian_divergence_matches_quadrature",
                    "tests/test_rdp.py::test_s2_06_monotone_in_order",
                    "tests/test_divergence.py::test_s2_06_non_negativity"),
          shown="renyi-gaussian",
          note="Chapter 1 covers the Gaussian divergence, monotonicity and non-negativity; the other items "
               "belong to the composition and conversion chapters."),
    Claim("S2-07", "Approximate RDP and its five properties, incl. the conversion δ̂ = δ + e^{(λ−1)(ε̂−ε)}/λ · (1 − 1/λ)^{λ−1}."),
    Claim("S2-08", "Advanced composition ε′ = ε√(2k log 1/δ′) + kε(e^ε − 1); heterogeneous form."),
    Claim("S2-09", "Joint differential privacy (definition)."),
    Claim("S2-10", "Correlation–variance dichotomy (≥ 1/12), a lower-bound tool."),
    Claim("S2-11", "Decomposition of an (ε, δ) pair; every (ε, δ)-DP pair is a post-processing of (ε, δ) randomized response; Bayesian version."),
    # Seed 003
    Claim("S3-01", "Advanced composition for pure ε-DP: (kε²/2 + ε√(2k log 1/δ), δ)-DP."),
    Claim("S3-02", "k Laplace queries under a total (ε, δ): Lap(k/ε) each (basic) vs Lap(2√(2k log 1/δ)/ε) each (advanced)."),
    Claim("S3-03", "Advanced composition for (ε, δ) mechanisms: (kε²/2 + ε√(2k log 1/δ′), kδ + δ′)."),
    Claim("S3-04", "Gaussian mechanism under advanced composition and the choice of δ′; δ′ = δ is strictly worse."),
    Claim("S3-05", "RDP additivity for products and k-fold composition (α, kξ)."),
    Claim("S3-06", "RDP has no hypothesis-testing reading by itself; convert: ε = ξ + log(1/δ)/(α−1)."),
    Claim("S3-07", "Moments accountant for iterative training."),
    Claim("S3-08", "Learning: ERM with squared, logistic, hinge losses and the geometric median; releasing θ* can reveal a data point."),
    # Seed 004
    Claim("S4-01", "D_λ interpolates between KL (λ → 1) and max divergence (λ → ∞).",
          stated="s4-01", chapter="book/01-renyi-gaussian", status="supported",
          verified=("tests/test_rdp.py::test_s4_01_limits_kl_and_max_divergence",),
          shown="renyi-laplace"),
    Claim("S4-02", "Example 1: Gaussian RDP λ‖μ2 − μ1‖²/(2σ²), symmetric in the two means.",
          stated="s4-02", chapter="book/01-renyi-gaussian", status="supported",
          derived="dpnotes.symbolic.gaussian.derive_rdp_gaussian",
          verified=("tests/test_rdp.py::test_s4_02_gaussian_symmetric_in_means",
                    "tests/test_symbolic_gaussian.py::test_s4_02_derivation_matches_closed_form"),
          shown="renyi-gaussian"),
    Claim("S4-03", "Claim 20: p, q are (ε, exp(−κ*(ε)))-indistinguishable (Chernoff + Legendre)."),
    Claim("S4-04", "Claim 21: (λ, ρ)-RDP ⇒ (ε, exp((λ−1)(ρ−ε)))-DP; ⇒ (ρ + log(1/δ)/(λ−1), δ)-DP."),
    Claim("S4-05", "Example 2: Gaussian δ ≤ exp(−(εσ − 1/(2σ))²/2); optimal order λ* = ½ + εσ².", status="corrected",
          note="The seed prints the optimal order as (1 + 2ε/σ²)/2; the derivation gives ½ + εσ²."),
    Claim("S4-06", "Claim 22: moment composition theorem (λ, kρ)."),
    Claim("S4-07", "Claim 23: k-fold composition is (ε, exp(−kκ*(ε/k)))-DP, using (kf)*(x) = k f*(x/k)."),
    Claim("S4-08", "Example 3: composed Gaussian; σ > √k(ε⁻¹√(2 log 1/δ) + (2ε)^{−1/2}) suffices."),
    Claim("S4-09", "Claim 24: subsampling at rate r: (λ, log(1 + r(e^{(λ−1)ρ} − 1))/(λ−1))-RDP and its relaxation."),
    Claim("S4-10", "Claim 25: (Σp_i)^λ/(Σq_i)^{λ−1} ≤ Σ p_i^λ/q_i^{λ−1}."),
    Claim("S4-11", "Example 4: subsampled Gaussian is (λ, O(rλ/σ²))-RDP by Claim 24."),
    Claim("S4-12", "Conjecture 1: mixtures preserve pairwise divergence order.", status="false",
          note="False in general: the book exhibits a counterexample."),
    Claim("S4-13", "Claim 26: (λ, O(r²λ/σ²)) for r ≤ c1/σ, λ ≤ c2σ²; the constant C(c1, c2)."),
    Claim("S4-14", "Claim 27 and (9.5): binomial expansion of G_λ(rμ1 + (1−r)μ0 ‖ μ0) for integer λ."),
    Claim("S4-15", "Claim 28 and Abadi et al. Theorem 1: σ ≥ c2′ r√(T log 1/δ)/ε; the seed's objections."),
    Claim("S4-16", "How an RDP accountant computes: log A_α for integer and fractional orders; δ from ε and ε from δ."),
    Claim("S4-17", "Comparison of routes for DP-SGD: Route 1, Route 2, Route 3, against tight accounting."),
    Claim("S4-18", "Further questions: non-Gaussian noise, usefulness of Claim 26, Part 1 vs Part 2 methods."),
]

CLAIMS = {c.id: c for c in _ROWS}


def _doc_link(chapter, text):
    return f"{{doc}}`{text} </{chapter}>`" if chapter else text


def claims_page():
    """The MyST source of the page "Claims and where they are checked"."""
    from .figures import FIGURES

    done = sum(bool(c.stated and c.verified) for c in _ROWS)
    lines = [
        "(claims)=",
        "# Claims and where they are checked",
        "",
        "Every mathematical claim of the source documents has an ID. For each, this table says where",
        "the book **states** it (a link to the theorem or definition), **derives** it (a sympy",
        "derivation in the package), **verifies** it (the tests that check it by an independent",
        "route) and **shows** it (a figure with sliders). An empty cell means that part is not done",
        "yet. The page is generated from `dpnotes/claims.py` (`python -m dpnotes.claims`).",
        "",
        f"Stated and verified so far: **{done} of {len(_ROWS)}** claims.",
        "",
    ]
    for seed, title in SEEDS.items():
        lines += [f"## Seed 00{seed}: {title}", "", "| ID | claim | stated | derived | verified by | shown | status |",
                  "|---|---|---|---|---|---|---|"]
        for c in (c for c in _ROWS if c.seed == seed):
            stated = f"{{prf:ref}}`{c.id} <{c.stated}>`" if c.stated else ""
            derived = f"`{c.derived.rsplit('.', 1)[-1]}`" if c.derived else ""
            verified = "<br>".join(f"`{v.split('::')[-1]}`" for v in c.verified)
            shown = ""
            if c.shown:
                shown = f"{{ref}}`{FIGURES[c.shown].key} <fig-{c.shown}>`"
            status = c.status + (f": {c.note}" if c.note and c.status != "supported" else "")
            statement = c.statement.replace("|", "\\|").replace("*", "\\*")
            status = status.replace("*", "\\*")
            lines.append(f"| {c.id} | {statement} | {stated} | {derived} | {verified} | {shown} | {status} |")
        lines.append("")
    return "\n".join(lines)


def write_page(path=None):
    path = Path(path or Path(__file__).resolve().parents[1] / "book" / "claims.md")
    path.write_text(claims_page(), encoding="utf-8")
    return path


if __name__ == "__main__":
    print(f"wrote {write_page()}")
