"""Issue 26, item 4, for chapters 00 to 05: problems worth setting.

Every exercise of these chapters has a task; plug-in numbers and slider readings are at most 30 % of each
chapter; every chapter has at least two written exercises (a model solution and a rubric of 3 to 6 criteria)
whose solution dropdown shows that model solution; every numeric or reading prompt states its precision; a ★★★
exercise is never a plug-in or a reading; no numeric answer of these chapters equals another answer of the book
to the precision asked. The numbers the new prompts and model solutions state are recomputed here by a second
route (mpmath or scipy), never copied from the package's output.
"""

import json
import re
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest
from scipy import optimize, stats

from dpnotes.chapter_exercises import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
CHAPTERS = ("00-why-privacy", "00b-foundations", "01-renyi-gaussian", "02-composition", "03-conversion",
            "04-hypothesis-testing", "05-subsampling")
MINE = {k: s for k, s in REGISTRY.items() if s.chapter in CHAPTERS}


def _prompts(chapter):
    """label → the text of each exercise directive of a chapter."""
    found = {}
    for cell in json.loads((BOOK / f"{chapter}.ipynb").read_text())["cells"]:
        src = "".join(cell["source"])
        for key, body in re.findall(r"```\{exercise\}[^\n]*\n:label: ex-([\w-]+)\n(.*?)```", src, re.S):
            found[key] = body
    return found


def _solutions(chapter):
    """key → the markdown of each solution dropdown of a chapter."""
    found = {}
    for cell in json.loads((BOOK / f"{chapter}.ipynb").read_text())["cells"]:
        src = "".join(cell["source"])
        m = re.match(r"```\{solution-start\} ex-([\w-]+)\n:class: dropdown\n```\n", src)
        if m:
            found[m.group(1)] = src[m.end():]
    return found


def _sig3(x):
    return float(f"{float(x):.3g}")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_exercise_has_a_task_and_readings_are_at_most_30_percent(chapter):
    specs = [s for s in MINE.values() if s.chapter == chapter]
    assert specs and all(s.task for s in specs), [s.key for s in specs if not s.task]
    light = [s.key for s in specs if s.task in ("plug-in", "reading")]
    assert len(light) <= 0.3 * len(specs), (chapter, light, len(specs))


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_two_written_exercises_with_rubrics_and_their_model_solution_in_the_dropdown(chapter):
    written = [s for s in MINE.values() if s.chapter == chapter and s.kind == "written"]
    assert len(written) >= 2, chapter
    solutions = _solutions(chapter)
    for spec in written:
        assert spec.task in ("prove", "derive", "explain", "critique"), spec.key
        assert 3 <= len(spec.rubric) <= 6, spec.key
        assert solutions[spec.key].strip() == spec.model_solution.strip(), spec.key
        assert not spec.hint or spec.hint not in spec.model_solution


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_numeric_prompts_state_their_precision(chapter):
    prompts = _prompts(chapter)
    for key, spec in MINE.items():
        if spec.chapter == chapter and spec.kind in ("numeric", "explore"):
            text = " ".join(prompts[key].split())
            assert "significant figures" in text or "Give an integer." in text, key
            if "Give an integer." in text:
                assert float(spec.reference()).is_integer(), key


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_prompts_and_model_solutions_are_clean_markdown(chapter):
    """No control character (a LaTeX command eaten by a Python escape such as \\v or \\b) in any prompt or solution."""
    texts = list(_prompts(chapter).values()) + list(_solutions(chapter).values())
    texts += [s.model_solution for s in MINE.values() if s.chapter == chapter and s.kind == "written"]
    for text in texts:
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f]", text), text[:80]


def test_three_star_exercises_need_more_than_a_substitution():
    for key, spec in MINE.items():
        if spec.stars == 3:
            assert spec.task not in ("plug-in", "reading"), key


def test_no_two_answers_of_the_book_agree_to_three_figures():
    """A student who enters the answer of one exercise into another must not be told it is right."""
    values = {k: _sig3(s.reference()) for k, s in REGISTRY.items() if s.kind in ("numeric", "explore")}
    for key in (k for k in MINE if k in values):
        same = [k for k, v in values.items() if k != key and v == values[key]]
        assert not same, (key, values[key], same)


# ----------------------------------------------------------------------------- the numbers, by a second route



def _Phi(x):
    return mp.ncdf(x)


def _gauss_delta(eps, mu):
    """Exact privacy profile of the Gaussian mechanism (Balle & Wang 2018), in mpmath."""
    eps, mu = mp.mpf(eps), mp.mpf(mu)
    return _Phi(-eps / mu + mu / 2) - mp.e**eps * _Phi(-eps / mu - mu / 2)


def _close(a, b, rel=1e-3):
    return abs(float(a) - float(b)) <= rel * abs(float(b))


def test_chapter_00_numbers():
    # the model card: the cap at ε = 8 and the ε that would certify 51 %
    cap = (mp.e**8 + mp.mpf("1e-5")) / (1 + mp.e**8)
    assert _close(cap, 0.99966)
    assert _close(mp.log((mp.mpf("0.51") - mp.mpf("1e-5")) / mp.mpf("0.49")), 0.0400)
    # the reading: a share of about a fifth, as the solution says
    assert 0.15 < REGISTRY["learning-membership-sigma"].reference() < 0.25


def test_chapter_00b_numbers():
    # the largest family: the simple slack k e^{0.2(k−1)} 10⁻⁶ against 5·10⁻⁵
    slack = [k * mp.e ** (mp.mpf("0.2") * (k - 1)) * mp.mpf("1e-6") for k in range(1, 30)]
    assert max(k for k, s in enumerate(slack, 1) if s <= 5e-5) == REGISTRY["foundations-group-delta"].reference() == 9
    assert _close(slack[8], 4.46e-5) and _close(slack[9], 6.05e-5, 2e-3)
    chained = [mp.mpf("1e-6") * (mp.e ** (mp.mpf("0.2") * k) - 1) / (mp.e ** mp.mpf("0.2") - 1) for k in range(1, 30)]
    assert max(k for k, s in enumerate(chained, 1) if s <= 5e-5) == 12
    # the ε of δ = 10⁻⁵ at σ = 2, by mpmath's root finder on the exact profile
    eps = mp.findroot(lambda e: _gauss_delta(e, 0.5) - mp.mpf("1e-5"), 2.0)
    assert _close(eps, REGISTRY["foundations-tradeoff-read"].reference(), 1e-9) and _close(eps, 1.993)
    assert _close(_gauss_delta(0.5, 0.5), 0.0524)
    assert _close(mp.mpf(0.125) + mp.mpf(0.5) * mp.sqrt(2) * mp.erfinv(1 - 2 * mp.mpf("1e-5")), 2.257)
    # the crossing of the two privacy losses, 1/2 + σ²/b
    assert _close(REGISTRY["foundations-gaussian-loss-end"].reference(), 0.5 + 1.25**2 / 0.8, 1e-9)
    # the classical calibration at ε = 10, δ = 10⁻⁵
    r = mp.sqrt(2 * mp.log(mp.mpf("1.25e5")))
    mu = 10 / r
    assert _close(r, 4.8448) and _close(1 / mu, 0.48448) and _close(mu, 2.0641)
    assert _close(-10 / mu + mu / 2, -3.8127) and _close(-10 / mu - mu / 2, -5.8768)
    assert _close(_gauss_delta(10, mu), 2.27e-5, 3e-3)
    assert _close(1 - _Phi(r - 10 / (2 * r)), 6.9e-5, 1e-2) and _close(r - 1 / (2 * r), 4.74)
    exact_mu = mp.findroot(lambda m: _gauss_delta(10, m) - mp.mpf("1e-5"), 2.0)
    assert _close(1 / exact_mu, 0.49989)


def test_chapter_01_numbers():
    # Gaussian σ matching randomized response (p = 0.75) at order 3
    d3 = mp.log(mp.mpf("0.75") ** 3 / mp.mpf("0.25") ** 2 + mp.mpf("0.25") ** 3 / mp.mpf("0.75") ** 2) / 2
    assert _close(d3, 0.95682) and _close(mp.e ** (2 * d3), 6.7778)
    assert _close(mp.sqrt(3 / (2 * d3)), REGISTRY["renyi-gaussian-sigma"].reference(), 1e-9)
    assert _close(mp.sqrt(3 / (2 * d3)), 1.252) and _close(mp.sqrt(3 / (2 * mp.log(3))), 1.168)

    # Laplace (b = 2) against the Gaussian of the same variance (σ² = 8): the crossing order, by mpmath
    def lap(a, t=mp.mpf("0.5")):
        return mp.log(a / (2 * a - 1) * mp.e ** ((a - 1) * t) + (a - 1) / (2 * a - 1) * mp.e ** (-a * t)) / (a - 1)

    assert _close(lap(2), 0.2003) and _close(mp.e ** lap(2), 1.22177)
    cross = mp.findroot(lambda a: lap(a) - a / 16, (5, 7), solver="anderson")
    assert _close(cross, REGISTRY["renyi-laplace-order2"].reference(), 1e-9) and _close(cross, 6.10, 2e-3)
    # ten reports at D₂ = 1, and one report at the same cost
    p = mp.findroot(lambda p: 10 * mp.log(p**2 / (1 - p) + (1 - p) ** 2 / p) - 1, (0.55, 0.65), solver="anderson")
    assert _close(p, REGISTRY["renyi-rr-composition"].reference(), 1e-9) and _close(p, 0.5800)
    assert _close(mp.findroot(lambda p: mp.log(p**2 / (1 - p) + (1 - p) ** 2 / p) - 1, (0.7, 0.85), solver="anderson"), 0.774)
    # the threshold reading: log(p/(1 − p)) passes 2 between the positions 0.88 and 0.89
    assert _close(mp.e**2 / (1 + mp.e**2), 0.8808)
    assert REGISTRY["renyi-rr-large-order"].reference() == 0.89
    # the Gaussian tail the pure-DP report left out: Pr[Z > 5] for Z ~ N(μ²/2, μ²), μ = 0.1
    assert _close((5 - mp.mpf("0.01") / 2) / mp.mpf("0.1"), 49.95)


def test_chapter_02_numbers():
    # fifty Gaussian mechanisms (σ = 6) as one: σ′ = 6/√50
    assert _close(mp.mpf(50) * 10 / 72, 6.944) and _close(6 / mp.sqrt(50), 0.849)
    assert _close(6 / mp.sqrt(50), REGISTRY["composition-rdp-gaussian"].reference(), 1e-9)
    # the √T critique: T = 10⁴, ε₀ = 0.01, δ′ = 10⁻⁵
    T, e0, L = 10_000, mp.mpf("0.01"), mp.log(mp.mpf(10) ** 5)
    assert _close(mp.sqrt(2 * L), 4.80, 2e-3)
    root, drift = e0 * mp.sqrt(2 * T * L), T * e0 * mp.expm1(e0)
    assert _close(root, 4.799) and _close(drift, 1.005) and _close(root + drift, 5.80, 2e-3)
    assert _close(T * e0**2 / 2 + root, 5.30, 2e-3)


def test_chapter_03_numbers():
    # the optimal-order bound over the exact δ at σ = 2, ε = 1.5
    bound = mp.e ** (-mp.mpf("2.75") ** 2 / 2)
    exact = _gauss_delta(1.5, 0.5)
    assert _close(bound, 0.02279) and _close(exact, 0.00039372) and _close(_Phi(-2.75), 0.0029798)
    assert _close(_Phi(-3.25), 0.00057703) and _close(bound / exact, 57.9)
    assert _close(bound / exact, REGISTRY["conversion-example2-delta"].reference(), 1e-6)
    # the largest ρ for (1, 10⁻⁶): (√(L + 1) − √L)²
    L = mp.log(mp.mpf(10) ** 6)
    rho = (mp.sqrt(L + 1) - mp.sqrt(L)) ** 2
    assert _close(rho + 2 * mp.sqrt(rho * L), 1, 1e-12) and _close(rho, 0.017469)
    assert _close(rho, REGISTRY["conversion-zcdp"].reference(), 1e-9) and _close(1 / mp.sqrt(2 * rho), 5.35)
    # four conversions of σ = 1 at δ = 10⁻⁵: zCDP in closed form, improved over a fine grid, exact by root finding
    L5 = mp.log(mp.mpf(10) ** 5)
    assert _close(mp.mpf(0.5) + 2 * mp.sqrt(L5 / 2), 5.299) and _close(1 + mp.sqrt(2 * L5), 5.80, 2e-3)
    a = 1 + mp.sqrt(2 * L5)
    assert _close(mp.log(a / (a - 1)) + mp.log(a) / (a - 1), 0.556)
    orders = np.linspace(1.01, 100, 200_000)
    improved = np.min(orders / 2 + np.log((orders - 1) / orders) - (np.log(1e-5) + np.log(orders)) / (orders - 1))
    assert _close(improved, 4.728) and _close(mp.mpf(0.5) + 2 * mp.sqrt(L5 / 2) - improved, 0.570, 2e-3)
    assert _close(mp.findroot(lambda e: _gauss_delta(e, 1) - mp.mpf("1e-5"), 4.4), 4.377)
    # two runs at (2, 10⁻⁵) each: ρ from the quadratic, then 2ρ converted
    r = (mp.sqrt(L5 + 2) - mp.sqrt(L5)) ** 2
    assert _close(mp.sqrt(L5 + 2), 3.6760) and _close(mp.sqrt(L5), 3.3931) and _close(mp.sqrt(r), 0.2829)
    assert _close(r, 0.0800, 2e-3) and _close(2 * r, 0.1601, 2e-3)
    assert _close(2 * mp.sqrt(2 * r * L5), 2.715) and _close(2 * r + 2 * mp.sqrt(2 * r * L5), 2.88, 2e-3)
    # the exact curve of the reading, at σ ≈ 3.02: ends 0.529 and 2.240
    mu = 1 / mp.mpf(3.017088168272582)
    lo = mp.findroot(lambda e: _gauss_delta(e, mu) - mp.mpf("1e-2"), 0.5)
    hi = mp.findroot(lambda e: _gauss_delta(e, mu) - mp.mpf("1e-12"), 2.2)
    assert _close(lo, 0.529) and _close(hi, 2.240) and _close((hi - lo) / 10, 0.171)


def test_chapter_04_numbers():
    # the tail bound's ε and the exact ε at δ = 10⁻⁷, μ = 2
    z = mp.sqrt(2) * mp.erfinv(1 - 2 * mp.mpf("1e-7"))
    assert _close(z, 5.19934) and _close(2 + 2 * z, 12.3987)
    exact = mp.findroot(lambda e: _gauss_delta(e, 2) - mp.mpf("1e-7"), 12)
    assert _close(exact, 11.9079) and _close(2 + 2 * z - exact, 0.491)
    assert _close(2 + 2 * z - exact, REGISTRY["hypothesis-tail-bound"].reference(), 1e-7)
    # the largest ε for a posterior cap: odds 1/19 → 1/4
    assert _close(mp.log(mp.mpf(19) / 4), REGISTRY["hypothesis-posterior"].reference(), 1e-12)
    assert _close(mp.log(4.75), 1.558)
    # the posterior figure: the bound at ε = 2, prior 0.3, and the crossing where the likelihood ratio passes e²
    assert _close(mp.mpf("0.3") / (mp.mpf("0.3") + mp.mpf("0.7") * mp.e**-2), 0.760)
    assert REGISTRY["hypothesis-posterior-reading"].reference() == pytest.approx(2.55)
    # randomized response's trade-off: the two lines meet at α = 1 − p with value 1 − p
    for p in (0.6, 0.75, 0.9):
        e = mp.log(p / (1 - p))
        assert _close(1 - mp.e**e * (1 - p), 1 - p, 1e-12) and _close(mp.e**-e * p, 1 - p, 1e-12)
    # the audit: point estimate and Clopper–Pearson bounds (97.5 % each), by mpmath's incomplete beta
    assert _close(mp.log((mp.mpf("0.05") - mp.mpf("1e-5")) / mp.mpf("0.01")), 1.609)
    tpr_lo = mp.findroot(lambda t: mp.betainc(50, 951, 0, t, regularized=True) - mp.mpf("0.025"), (0.03, 0.045), solver="anderson")
    fpr_hi = mp.findroot(lambda t: mp.betainc(11, 990, 0, t, regularized=True) - mp.mpf("0.975"), (0.015, 0.022), solver="anderson")
    assert _close(tpr_lo, 0.0373) and _close(fpr_hi, 0.0183)
    assert _close(tpr_lo, stats.beta.ppf(0.025, 50, 951), 1e-6) and _close(fpr_hi, stats.beta.ppf(0.975, 11, 990), 1e-6)
    assert _close(mp.log((tpr_lo - mp.mpf("1e-5")) / fpr_hi), 0.712)


def test_chapter_05_numbers():
    # the largest q for an exact ε(2) of 0.05 at σ = 2, and the generic bound's
    e4 = mp.expm1(mp.mpf("0.25"))
    assert _close(e4, 0.284025) and _close(mp.expm1(mp.mpf("0.05")), 0.051271)
    q = mp.sqrt(mp.expm1(mp.mpf("0.05")) / e4)
    assert _close(q, 0.4249) and _close(q, REGISTRY["subsampling-exact-order2"].reference(), 1e-9)
    assert _close(mp.expm1(mp.mpf("0.05")) / e4, 0.18052)
    # the power of q at α ≈ 9.67, σ = 1: the figure's reading equals the package's exact RDP at that order, and it
    # lies between the powers at the integer orders 9 and 10, recomputed from the binomial sum in mpmath
    from dpnotes.subsampling import rdp_subsampled_gaussian

    order = 9.674511879626301
    ratio = rdp_subsampled_gaussian(order, 0.1, 1.0) / rdp_subsampled_gaussian(order, 0.01, 1.0)
    assert _close(np.log10(ratio), REGISTRY["subsampling-rdp-reading"].reference(), 1e-6) and _close(ratio, 206, 2e-3)

    def binomial(alpha, q, sigma):  # integer orders, in mpmath: log A_α/(α − 1)
        a = sum(mp.binomial(alpha, j) * q**j * (1 - q) ** (alpha - j) * mp.e ** (j * (j - 1) / (2 * sigma**2))
                for j in range(alpha + 1))
        return mp.log(a) / (alpha - 1)

    lo = [mp.log10(binomial(a, mp.mpf("0.1"), 1) / binomial(a, mp.mpf("0.01"), 1)) for a in (9, 10)]
    assert min(lo) < REGISTRY["subsampling-rdp-reading"].reference() < max(lo)  # between the integer orders
    assert _close(binomial(10, mp.mpf("0.1"), 1), rdp_subsampled_gaussian(10.0, 0.1, 1.0), 1e-9)
    # the shuffling critique: q, T, no amplification over 10 epochs, and the Poisson accountant
    from dpnotes.learning import dpsgd_epsilon_of

    assert _close(mp.mpf(256) / 60_000, 0.00427) and int(mp.ceil(mp.mpf(10 * 60_000) / 256)) == 2344
    rho = mp.mpf(10) / (2 * mp.mpf("1.1") ** 2)
    assert _close(rho, 4.13) and _close(rho + 2 * mp.sqrt(rho * mp.log(mp.mpf(10) ** 5)), 17.9, 2e-3)
    assert _close(4 * rho + 2 * mp.sqrt(4 * rho * mp.log(mp.mpf(10) ** 5)), 44.1, 2e-3)  # replace-one: sensitivity 2
    assert _close(dpsgd_epsilon_of(256 / 60_000, 1.1, 2344, 1e-5), 1.10, 5e-3)
    # amplification for pure DP: the product identity of the model solution
    for q, e in ((0.1, 0.5), (0.3, 2.0), (0.9, 5.0)):
        q, e = mp.mpf(q), mp.mpf(e)
        lhs = (1 + q * mp.expm1(e)) * (1 - q * (1 - mp.e**-e))
        assert _close(lhs, 1 + q * (1 - q) * (mp.e**e + mp.e**-e - 2), 1e-12) and lhs >= 1
