"""Exercises of chapters 06–10 (issue 26, item 4): what each asks, how precisely, and every number of their
prompts and model solutions checked by a second route (mpmath, quadrature, dp-accounting).

The general checks of every exercise (reference right, slips named, hints silent, solutions passing their
own checker) are in tests/test_exercises.py; this file adds what item 4 asks of these five chapters.
"""

import json
import logging
import math
import re
import warnings
from collections import Counter
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest

from dpnotes import dpsgd_epsilon
from dpnotes.chapter_exercises import REGISTRY, convolution, dpsgd, iteration, open_questions, pld
from dpnotes.exercise_kinds import TASKS

BOOK = Path(__file__).resolve().parents[1] / "book"
MODULES = (dpsgd, pld, iteration, convolution, open_questions)
CHAPTERS = [m.CHAPTER for m in MODULES]
MINE = {spec.key: spec for m in MODULES for spec in m.EXERCISES}
NUMERIC = ("numeric", "explore")
#: the answers that are counts (steps, epochs, positions, parties): their prompts ask for an integer
COUNTS = {"dpsgd-steps", "dpsgd-tight", "pld-clt-mu", "iteration-positions", "convolution-gaussian-bound"}


def _directives(chapter):
    """{key: the text of its exercise directive} for the chapter's notebook."""
    cells = json.loads((BOOK / f"{chapter}.ipynb").read_text())["cells"]
    found = {}
    for cell in cells:
        src = "".join(cell["source"])
        for m in re.finditer(r"```\{exercise\}[^\n]*\n:label: ex-([a-z0-9-]+)\n(.*?)```", src, re.S):
            found[m.group(1)] = m.group(0)
    return found


def _three_figures(x):
    return float(f"{x:.3g}")


# ----------------------------------------------------------------------------- what the exercises ask


@pytest.mark.parametrize("module", MODULES, ids=CHAPTERS)
def test_every_exercise_says_what_it_asks_and_at_most_30_percent_are_plug_in_or_reading(module):
    tasks = Counter(spec.task for spec in module.EXERCISES)
    assert set(tasks) <= set(TASKS), tasks
    assert "" not in tasks, [s.key for s in module.EXERCISES if not s.task]
    light = tasks["plug-in"] + tasks["reading"]
    assert light <= 0.3 * len(module.EXERCISES), (module.CHAPTER, dict(tasks))


@pytest.mark.parametrize("module", MODULES, ids=CHAPTERS)
def test_two_written_exercises_with_a_rubric_per_chapter(module):
    written = [s for s in module.EXERCISES if s.kind == "written"]
    assert len(written) >= 2, module.CHAPTER
    for spec in written:
        assert spec.task in ("prove", "derive", "explain", "critique"), spec.key
        assert 3 <= len(spec.rubric) <= 6, spec.key
        assert len(spec.model_solution.split()) >= 120, f"{spec.key}: a model solution a grader can follow"


def test_three_star_exercises_are_more_than_a_call():
    for key, spec in MINE.items():
        if spec.stars == 3:
            assert spec.task not in ("plug-in", "reading"), key


def test_one_slider_reading_per_chapter_and_no_two_alike():
    """Each chapter's reading asks for something else: a threshold, an anomaly, a level crossing, a ratio, a
    crossover; none reads the value at a setting."""
    readings = [s for s in MINE.values() if s.task == "reading"]
    assert sorted(s.chapter for s in readings) == sorted(CHAPTERS)
    prompts = {c: _directives(c) for c in CHAPTERS}
    asks = {"06-dpsgd": "smallest $\\sigma$", "07-exact-answer": "first fall below",
            "08-amplification-iteration": "from which position", "09-repeated-noise": "how many\ntimes larger",
            "10-lower-bounds-and-open-questions": "first lie\nbelow"}
    for spec in readings:
        assert asks[spec.chapter] in prompts[spec.chapter][spec.key], spec.key


# ----------------------------------------------------------------------------- precision and distinct answers


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_every_numeric_prompt_states_its_precision(chapter):
    prompts = _directives(chapter)
    assert set(prompts) == {k for k, s in MINE.items() if s.chapter == chapter}
    for key, text in prompts.items():
        spec = MINE[key]
        if spec.kind not in NUMERIC:
            continue
        flat = " ".join(text.split())
        if key in COUNTS:
            assert float(spec.reference()).is_integer() and "Give an integer." in flat, key
        else:
            assert re.search(r"to [23] significant figures\.", flat), key


def test_no_other_exercise_of_the_book_has_the_same_answer():
    """At three significant figures, no numeric answer of these chapters is the answer of another exercise."""
    answers = {k: _three_figures(s.reference()) for k, s in REGISTRY.items() if s.kind in NUMERIC}
    for key, spec in MINE.items():
        if spec.kind in NUMERIC:
            twins = [k for k, v in answers.items() if k != key and v == answers[key]]
            assert not twins, (key, answers[key], twins)


@pytest.mark.parametrize("key", sorted(k for k, s in MINE.items() if s.kind in NUMERIC))
def test_the_answer_rounded_as_the_prompt_asks_is_within_the_stated_precision(key):
    """Rounding to the stated figures moves the answer by at most half a unit of the last figure."""
    spec = MINE[key]
    ref = float(spec.reference())
    flat = " ".join(_directives(spec.chapter)[key].split())
    figures = 2 if "to 2 significant figures" in flat else 3
    if key in COUNTS:
        assert ref == round(ref)
    else:
        rounded = float(f"{ref:.{figures}g}")
        assert abs(rounded - ref) <= 0.5 * 10 ** (math.floor(math.log10(abs(ref))) - figures + 1)


@pytest.mark.parametrize("key", sorted(k for k, s in MINE.items() if s.kind == "written"))
def test_written_exercises_have_an_answer_cell_and_their_model_solution_in_a_dropdown(key):
    spec = MINE[key]
    cells = json.loads((BOOK / f"{spec.chapter}.ipynb").read_text())["cells"]
    sources = ["".join(c["source"]) for c in cells]
    i = next(i for i, s in enumerate(sources) if f":label: ex-{key}\n" in s)
    assert sources[i + 1] == f'answer = """ """  # write your answer in the string\ncheck("{key}", answer)'
    assert sources[i + 2].startswith(f"```{{solution-start}} ex-{key}\n:class: dropdown\n```\n")
    assert spec.model_solution in sources[i + 2]
    assert sources[i + 3].startswith("```{solution-end}")


# ----------------------------------------------------------------------------- second routes for the numbers


def _dp_accounting_rdp_epsilon(q, sigma, steps, delta):
    from dp_accounting import dp_event
    from dp_accounting.rdp import RdpAccountant

    acc = RdpAccountant()
    acc.compose(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), int(steps))
    return acc.get_epsilon(delta)


def _dp_accounting_pld(q, sigma, steps):
    from dp_accounting import dp_event
    from dp_accounting.pld import PLDAccountant

    acc = PLDAccountant(value_discretization_interval=1e-4)
    acc.compose(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), int(steps))
    return acc


def _mp_gdp_delta(eps, mu):
    eps, mu = mp.mpf(eps), mp.mpf(mu)
    return mp.ncdf(-eps / mu + mu / 2) - mp.e**eps * mp.ncdf(-eps / mu - mu / 2)


def _mp_bisect(f, lo, hi, steps=200):
    """The root of a monotone f on [lo, hi] by bisection in mpmath (f(lo) and f(hi) of opposite signs)."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    sign = f(lo) > 0
    for _ in range(steps):
        mid = (lo + hi) / 2
        if (f(mid) > 0) == sign:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _mp_gdp_epsilon(mu, delta):
    return _mp_bisect(lambda e: _mp_gdp_delta(e, mu) - delta, 0, 60)


def test_dpsgd_epoch_budget_against_dp_accounting():
    """dpsgd-tight: 20 epochs (2000 steps) stay within ε = 1, 21 do not, also by dp-accounting's RDP accountant."""
    assert REGISTRY["dpsgd-tight"].reference() == 20
    assert _dp_accounting_rdp_epsilon(0.01, 2.0, 2000, 1e-5) <= 1.0 < _dp_accounting_rdp_epsilon(0.01, 2.0, 2100, 1e-5)


def test_dpsgd_critique_numbers_against_dp_accounting():
    """dpsgd-critique-report: 14 063 steps; ε ≈ 0.684 for T = 60 and ≈ 2.60 for the true T."""
    steps = math.ceil(60 * 60000 / 256)
    assert steps == 14063
    assert _dp_accounting_rdp_epsilon(256 / 60000, 1.1, 60, 1e-5) == pytest.approx(0.684, rel=5e-3)
    assert _dp_accounting_rdp_epsilon(256 / 60000, 1.1, steps, 1e-5) == pytest.approx(2.60, rel=5e-3)
    text = REGISTRY["dpsgd-critique-report"].model_solution
    assert "14\\,063" in text and "0.684" in text and "2.60" in text and "3.01" in text
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mironov = dpsgd_epsilon(256 / 60000, 1.1, steps, 1e-5, route="rdp-mironov")
    assert mironov == pytest.approx(3.01, abs=5e-3)


def test_sampled_gaussian_moment_of_the_proof_is_the_package_curve_and_monotone():
    """dpsgd-sigma-monotone: the binomial sum of the prompt (mpmath) is the package's RDP at integer orders, and
    it falls with σ and rises with q, as the model solution proves."""
    from dpnotes.subsampling.sampled_gaussian import rdp_subsampled_gaussian

    def eps1(alpha, q, sigma):
        q, sigma = mp.mpf(q), mp.mpf(sigma)
        a = mp.fsum(mp.binomial(alpha, k) * (1 - q) ** (alpha - k) * q**k * mp.e ** (k * (k - 1) / (2 * sigma**2))
                    for k in range(alpha + 1))
        return mp.log(a) / (alpha - 1)

    for alpha in (2, 3, 8, 32):
        for q in (0.01, 0.1, 0.5):
            grid = [eps1(alpha, q, s) for s in (0.5, 0.8, 1.0, 2.0, 5.0)]
            assert all(a >= b for a, b in zip(grid, grid[1:]))
            ours = float(rdp_subsampled_gaussian(float(alpha), q, 1.0))
            assert ours == pytest.approx(float(eps1(alpha, q, 1.0)), rel=1e-9)
        rates = [eps1(alpha, q, 1.0) for q in (0.0, 0.01, 0.1, 0.3, 0.7, 1.0)]
        assert all(a <= b for a, b in zip(rates, rates[1:]))


def test_clt_step_budget_by_mpmath():
    """pld-clt-mu: μ* with δ_μ(1) = 10⁻⁵, then T = ⌊(μ*/(q√(e^{1/σ²} − 1)))²⌋ = 632."""
    mu_star = _mp_bisect(lambda m: _mp_gdp_delta(1, m) - mp.mpf("1e-5"), "0.05", 1)
    steps = mp.floor((mu_star / (mp.mpf("0.02") * mp.sqrt(mp.e ** mp.mpf("0.25") - 1))) ** 2)
    assert REGISTRY["pld-clt-mu"].reference() == int(steps) == 632


def test_same_epsilon_other_delta_against_dp_accounting():
    """pld-dpsgd-upper: the PLD δ at the RDP route's ε, by dp-accounting's PLD accountant (fine grid)."""
    logging.disable(logging.WARNING)
    try:
        eps = dpsgd_epsilon(0.02, 1.5, 2000, 1e-6, route="rdp")
        assert eps == pytest.approx(_dp_accounting_rdp_epsilon(0.02, 1.5, 2000, 1e-6), rel=2e-3)
        reference = _dp_accounting_pld(0.02, 1.5, 2000).get_delta(eps)
    finally:
        logging.disable(logging.NOTSET)
    assert REGISTRY["pld-dpsgd-upper"].reference() == pytest.approx(reference, rel=0.03)
    assert reference < 1e-6 / 4  # "about five times smaller"


def test_clt_critique_numbers():
    """pld-critique-clt: μ ≈ 1.466 and ε ≈ 6.86 (mpmath); the certified ε ≈ 7.52 lies above 6.86 (dp-accounting)."""
    mu = mp.mpf("0.05") * mp.sqrt(500) * mp.sqrt(mp.e - 1)
    assert float(mu) == pytest.approx(1.466, abs=5e-4)
    assert float(_mp_gdp_epsilon(mu, mp.mpf("1e-5"))) == pytest.approx(6.86, abs=5e-3)
    logging.disable(logging.WARNING)
    try:
        certified = _dp_accounting_pld(0.05, 1.0, 500).get_epsilon(1e-5)
    finally:
        logging.disable(logging.NOTSET)
    assert certified == pytest.approx(7.5236, rel=2e-3) and certified > 6.86
    assert _dp_accounting_rdp_epsilon(0.05, 1.0, 500, 1e-5) == pytest.approx(8.30, rel=3e-3)


def test_shift_budget_by_quadrature():
    """iteration-shifted-gaussian: at z = 1.5 − 1/√3 the remaining shift has D₃ = 0.5 (Rényi integral by mpmath)."""
    z = REGISTRY["iteration-shifted-gaussian"].reference()
    left = mp.mpf("1.5") - z

    def renyi(alpha, shift):
        integrand = lambda x: mp.npdf(x, shift, 1) ** alpha * mp.npdf(x, 0, 1) ** (1 - alpha)
        return mp.log(mp.quad(integrand, [-mp.inf, 0, shift, mp.inf])) / (alpha - 1)

    assert float(renyi(3, left)) == pytest.approx(0.5, rel=1e-10)
    assert float(renyi(4, mp.mpf("0.5") / mp.mpf("0.6"))) == pytest.approx(REGISTRY["iteration-shift-sup"].reference(),
                                                                         rel=1e-10)


def test_step_size_by_eigenvalues():
    x = np.array([[3.0, 0.0], [0.0, 1.0]])
    beta = max(np.linalg.eigvalsh(x.T @ x / 2))
    assert REGISTRY["iteration-step-size"].reference() == pytest.approx(2 / beta, rel=1e-12) == pytest.approx(4 / 9)


def test_checkpoint_critique_numbers():
    """iteration-critique-checkpoints: first record 0.001, last 1, best with checkpoints every 100 steps 0.01."""
    from dpnotes.iteration import rdp_noisy_sgd_all_iterates, rdp_noisy_sgd_last_iterate

    assert rdp_noisy_sgd_last_iterate(8.0, 1, 1000, 1.0, 4.0) == pytest.approx(2 * 8 / (16 * 1000)) == pytest.approx(0.001)
    assert rdp_noisy_sgd_last_iterate(8.0, 1000, 1000, 1.0, 4.0) == pytest.approx(1.0)
    assert rdp_noisy_sgd_last_iterate(8.0, 1, 100, 1.0, 4.0) == pytest.approx(0.01)
    assert rdp_noisy_sgd_all_iterates(8.0, 1.0, 4.0) == pytest.approx(1.0)
    assert 10 > 2 / 0.25


def test_parties_by_quadrature():
    """convolution-gaussian-bound: the Rényi divergence of N(1, m) against N(0, m) at α = 5 (mpmath) first drops
    to 0.15 at m = 17."""
    def renyi(m):
        s = mp.sqrt(m)
        integrand = lambda x: mp.npdf(x, 1, s) ** 5 * mp.npdf(x, 0, s) ** -4
        return mp.log(mp.quad(integrand, [-mp.inf, 0, 1, mp.inf])) / 4

    assert renyi(16) > 0.15 >= renyi(17)
    assert REGISTRY["convolution-gaussian-bound"].reference() == 17


@pytest.mark.parametrize("alpha", [1.5, 2.0, 4.0, 8.0])
def test_laplace_divergence_is_convex_in_the_shift_by_quadrature(alpha):
    """convolution-laplace-convex: second differences of D_α(Lap(d, 1)‖Lap(0, 1)) computed by quadrature, not from
    Mironov's formula, are positive, g(d)/d rises, and the quadrature agrees with the formula."""
    a = mp.mpf(alpha)

    def renyi(d):
        lap = lambda x, m: mp.exp(-abs(x - m)) / 2
        return mp.log(mp.quad(lambda x: lap(x, d) ** a * lap(x, 0) ** (1 - a), [-mp.inf, 0, d, mp.inf])) / (a - 1)

    ds = [mp.mpf(k) / 4 for k in range(1, 9)]
    g = [renyi(d) for d in ds]
    assert all(g[i - 1] - 2 * g[i] + g[i + 1] > 0 for i in range(1, len(g) - 1))
    assert all(g[i] / ds[i] < g[i + 1] / ds[i + 1] for i in range(len(g) - 1))
    mironov = mp.log(a / (2 * a - 1) * mp.e ** ((a - 1) * ds[3]) + (a - 1) / (2 * a - 1) * mp.e ** (-a * ds[3])) / (a - 1)
    assert float(g[3]) == pytest.approx(float(mironov), rel=1e-10)


def test_fisher_information_times_variance():
    """convolution-factor-two: I·Var is 2 for Laplace and π²/9 ≈ 1.097 for logistic noise (quadrature), 1 for the
    Gaussian."""
    def info_times_var(logpdf, support):
        density = lambda x: mp.e ** logpdf(x)
        score = lambda x: mp.diff(logpdf, x)
        info = mp.quad(lambda x: score(x) ** 2 * density(x), support)
        var = mp.quad(lambda x: x**2 * density(x), support)
        return info * var

    gauss = lambda x: -x**2 / 2 - mp.log(mp.sqrt(2 * mp.pi))
    logistic = lambda x: -x - 2 * mp.log(1 + mp.e ** (-x))
    laplace_half = lambda x: -x - mp.log(2)  # on x > 0; the score is ±1 and the law symmetric
    assert float(info_times_var(gauss, [-mp.inf, 0, mp.inf])) == pytest.approx(1.0, rel=1e-8)
    assert float(info_times_var(logistic, [-mp.inf, 0, mp.inf])) == pytest.approx(math.pi**2 / 9, rel=1e-8)
    assert float(4 * info_times_var(laplace_half, [0, mp.inf])) == pytest.approx(2.0, rel=1e-8)
    assert "1.097" in REGISTRY["convolution-factor-two"].model_solution


def test_fingerprint_sample_mean_exactly():
    """oq-fingerprint-mean-correlation: 1/6 + 1/24 = 5/24 at n = 4 by exact integration (mpmath)."""
    n = 4
    corr = mp.quad(lambda t: t * (1 - t), [0, 1])
    mse = mp.quad(lambda t: t * (1 - t) / n, [0, 1])
    assert REGISTRY["oq-fingerprint-mean-correlation"].reference() == pytest.approx(float(corr + mse), rel=1e-12)
    assert float(corr + mse) == pytest.approx(5 / 24, rel=1e-12)


def test_joint_truth_probability():
    """oq-joint-epsilon: log(p/(1 − p)) = 0.5 at p = 1/(1 + e^{−1/2})."""
    assert REGISTRY["oq-joint-epsilon"].reference() == pytest.approx(float(1 / (1 + mp.e ** mp.mpf(-0.5))), rel=1e-12)


def test_accuracy_critique_numbers():
    """oq-critique-accuracy: n ≥ √6/(24(e^ε − 1)·RMSE) ≈ 97.0; the correlation budget of 20 bits ≈ 0.0086."""
    eps, rmse = mp.mpf("0.1"), mp.mpf("0.01")
    bound = mp.sqrt(6) / (24 * mp.expm1(eps) * rmse)
    assert float(bound) == pytest.approx(97.0, abs=0.05) and mp.ceil(bound) == 98
    corr = 20 * mp.expm1(eps) * mp.sqrt(rmse**2 / 6)
    assert float(corr) == pytest.approx(0.0086, abs=5e-5)
    assert float(mp.mpf(1) / 12 - corr) == pytest.approx(0.075, abs=5e-4)
    assert math.sqrt(2) * 1 / (20 * 0.1) == pytest.approx(0.71, abs=5e-3)
