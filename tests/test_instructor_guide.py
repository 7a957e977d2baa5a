"""The instructor guide (book/instructor-guide.md): in the table of contents, a six-week syllabus that follows the
chapter map with two sessions and a problem set a week whose exercises exist, a prerequisite self-check with answers,
a one-day workshop that fits a day, and a bank of written exam questions with rubrics whose numbers are recomputed
here by an independent route (mpmath, or the package where the number is the package's own accounting)."""

import importlib.util
import re
from pathlib import Path

import mpmath as mp
import numpy as np
import pytest
import yaml

from dpnotes.chapter_exercises import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
PAGE = BOOK / "instructor-guide.md"
TEXT = PAGE.read_text(encoding="utf-8")
_spec = importlib.util.spec_from_file_location("chapter_map", ROOT / "tools" / "chapter_map.py")
chapter_map = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chapter_map)

EX_REF = re.compile(r"\{ref\}`(?:[^`<]*<)?(ex-[a-z0-9-]+)>?`")
DOC_REF = re.compile(r"\{doc\}`(?:[^`<]*<)?([\w-]+)>?`")
EXERCISES_LINK = re.compile(r"\]\(([\w-]+)\.ipynb#exercises\)")
KINDS = ("Prove", "Derive", "Explain", "Critique")


def _sections(text, level):
    """{title: body} for the headings of one level (``###`` or ``####``), each body up to the next heading of that
    level or a higher one."""
    marks = "#" * level
    pattern = re.compile(rf"^{marks} (.+)$", re.M)
    heads = list(pattern.finditer(text))
    out = {}
    for i, m in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        higher = re.search(rf"^#{{1,{level - 1}}} ", text[m.end():end], re.M)
        out[m.group(1).strip()] = text[m.end():m.end() + higher.start()] if higher else text[m.end():end]
    return out


def _part(title):
    """The body of the ``##`` section with this title."""
    return _sections(TEXT, 2)[title]


def _weeks():
    weeks = {t: b for t, b in _sections(_part("A six-week course"), 3).items() if t.startswith("Week ")}
    return dict(sorted(weeks.items(), key=lambda kv: int(re.match(r"Week (\d+)", kv[0]).group(1))))


def _course_path():
    _, paths = chapter_map.load()
    return next(p for p in paths if "six-week" in p["name"])


# ---------------------------------------------------------------------------------------------- placement
def test_the_guide_is_in_the_table_of_contents_and_linked_from_the_index_and_the_chapter_guide():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [c["file"] for part in toc["parts"] for c in part["chapters"]]
    assert "book/instructor-guide" in files
    assert "{doc}`instructor guide <instructor-guide>`" in (BOOK / "index.md").read_text(encoding="utf-8")
    assert _course_path().get("guide") == "instructor-guide"
    assert "<instructor-guide>`" in (BOOK / "chapter-guide.md").read_text(encoding="utf-8")


def test_the_chapter_map_refuses_a_path_whose_guide_is_missing(tmp_path, monkeypatch):
    data = yaml.safe_load(chapter_map.DATA.read_text(encoding="utf-8"))
    data["paths"][0]["guide"] = "no-such-page"
    bad = tmp_path / "chapters.yml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.setattr(chapter_map, "DATA", bad)
    with pytest.raises(ValueError, match="no-such-page"):
        chapter_map.load()


def test_the_grading_page_is_linked_not_duplicated():
    grading = _part("Grading and the student copy")
    assert "{doc}`teaching-grading`" in grading
    for detail in ("nbgrader autograde", "nbgrader generate", "release/", "source/"):  # the grading page's subject
        assert detail not in TEXT, detail


# ---------------------------------------------------------------------------------------------- the course
def test_six_weeks_follow_the_chapter_map():
    weeks = _weeks()
    steps = _course_path()["steps"]
    assert len(weeks) == len(steps) == 6
    for (title, body), step in zip(weeks.items(), steps):
        chapters = next(par for par in body.split("\n\n") if par.strip().startswith("Chapters:"))
        assert set(DOC_REF.findall(chapters)) == set(step["chapters"]), title


def test_every_week_has_goals_two_sessions_and_a_problem_set():
    for n, (title, body) in enumerate(_weeks().items(), start=1):
        assert "**Learning goals.**" in body, title
        assert re.search(r"^\*\*Reading\.\*\* .*\{cite:t\}", body, re.M), f"{title}: no reading"
        sessions = _sections(body, 4)
        names = [s for s in sessions if s.startswith("Session")]
        assert len(names) == 2 and names[0].startswith(f"Session {n}A") and names[1].startswith(f"Session {n}B"), title
        for name, plan in sessions.items():
            if name.startswith("Session"):
                for part in ("*Present*", "*Drive live*", "*Activity*"):
                    assert part in plan, f"{title}, {name}: no {part}"
                live = plan[plan.index("*Drive live*"):]
                live = live[:live.index("\n- ")] if "\n- " in live else live
                assert re.search(r"\{ref\}`[^`]*<fig-[a-z0-9-]+>`", live), f"{title}, {name}: no figure to drive"
                assert "Ask" in live, f"{title}, {name}: no question for the room"
                minutes = [int(m) for m in re.findall(r"\((\d+) min\)", plan)]
                assert sum(minutes) == 90, f"{title}, {name}: {sum(minutes)} minutes, not 90"
        assert f"Problem set {n}" in sessions, title


def test_problem_sets_name_existing_exercises_of_the_week_in_several_kinds():
    steps = _course_path()["steps"]
    for n, ((title, body), step) in enumerate(zip(_weeks().items(), steps), start=1):
        problems = _sections(body, 4)[f"Problem set {n}"]
        keys = [k[len("ex-"):] for k in EX_REF.findall(problems)]
        assert len(keys) >= 5, f"{title}: {len(keys)} exercises"
        missing = [k for k in keys if k not in REGISTRY]
        assert not missing, f"{title}: no such exercises {missing}"
        assert len(set(keys)) == len(keys), title
        outside = [k for k in keys if REGISTRY[k].chapter not in step["chapters"]]
        assert not outside, f"{title}: exercises of other weeks {outside}"
        kinds = {type(REGISTRY[k]).__name__ for k in keys}
        assert {"Numeric", "Symbolic", "Code"} <= kinds, f"{title}: kinds {sorted(kinds)}"
        written = next(line for line in problems.splitlines() if "**Written:**" in line)
        links = EXERCISES_LINK.findall(problems[problems.index(written):])
        assert sorted(links) == sorted(c for c in step["chapters"] if (BOOK / f"{c}.ipynb").exists()
                                       and not c.startswith("appendix")), title


def test_every_exercise_link_resolves_to_a_chapter_with_an_exercises_section():
    for stem in set(EXERCISES_LINK.findall(TEXT)):
        nb = (BOOK / f"{stem}.ipynb").read_text(encoding="utf-8")
        assert '"## Exercises' in nb, stem
    for key in EX_REF.findall(TEXT):
        assert key[len("ex-"):] in REGISTRY, key


# ---------------------------------------------------------------------------------------------- self-check
def test_the_self_check_has_eight_to_twelve_questions_each_with_an_answer():
    check = _sections(_part("Who the course is for"), 3)["Prerequisite self-check"]
    questions = re.findall(r"^\*\*Q(\d+) \(([^)]+)\)\.\*\*", check, re.M)
    assert 8 <= len(questions) <= 12
    assert [int(q) for q, _ in questions] == list(range(1, len(questions) + 1))
    for q, _ in questions:
        assert re.search(rf":::\{{admonition\}} Answer \(Q{q}\)\n:class: dropdown\n\S", check), f"Q{q}: no answer"
    topics = " ".join(t for _, t in questions).lower()
    for topic in ("probability", "gaussian", "kl", "likelihood", "log-sum-exp", "convexity", "numpy"):
        assert topic in topics, topic


# ---------------------------------------------------------------------------------------------- workshop
def test_the_workshop_fits_a_day_with_two_hands_on_blocks():
    workshop = _part("A one-day workshop")
    rows = re.findall(r"^\| (\d\d):(\d\d)–(\d\d):(\d\d) \| ([^|]+)\|", workshop, re.M)
    assert rows
    start = [int(h) * 60 + int(m) for h, m, *_ in rows]
    end = [int(r[2]) * 60 + int(r[3]) for r in rows]
    assert start[1:] == end[:-1], "the blocks must follow each other"
    total = end[-1] - start[0]
    assert 5 * 60 <= total <= 7 * 60, f"{total} minutes"
    blocks = [r[4].strip() for r in rows]
    assert sum("Hands-on" in b for b in blocks) == 2
    assert sum(b in ("Break", "Lunch") for b in blocks) >= 2
    assert "**What to skip.**" in workshop
    for key in EX_REF.findall(workshop):
        assert key[len("ex-"):] in REGISTRY, key


# ---------------------------------------------------------------------------------------------- exam bank
def _exam():
    return {t: b for t, b in _sections(_part("A bank of exam questions"), 3).items() if re.match(r"E\d+\. ", t)}


def test_at_least_twelve_written_exam_questions_each_with_a_model_answer_and_a_rubric():
    exam = _exam()
    assert len(exam) >= 12
    kinds = set()
    for title, body in exam.items():
        number = title.split(".")[0]
        kind = title.split(". ", 1)[1].split(":")[0]
        assert any(k in kind for k in KINDS), title
        kinds |= {k for k in KINDS if k in kind}
        assert f"(guide-exam-{number.lower()})=" in TEXT, title
        assert re.search(rf":::\{{admonition\}} Model answer and rubric \({number}\)\n:class: dropdown\n", body), title
        rubric = re.findall(r"^\| (\d+) \| (.+) \|$", body, re.M)
        assert len(rubric) >= 3, f"{title}: {len(rubric)} criteria"
        assert all(int(p) >= 1 and len(c) > 20 for p, c in rubric), title
        assert "| points | criterion |" in body, title
    assert kinds == set(KINDS), kinds
    assert sum("Critique" in t for t in exam) >= 3, "critique a claimed ε: at least three questions"


def test_exam_questions_cover_the_chapters():
    cited = set()
    for body in _exam().values():
        cited |= set(re.findall(r"\*Chapters? (\d\d[a-z]?)(?: and (\d\d[a-z]?))?\.\*", body)[0])
    cited.discard("")
    assert {"00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10"} <= cited | {c[:2] for c in cited}


# ---------------------------------------------------------------------------------------------- the numbers
def _shown(text, value):
    """The page prints ``text`` and ``value`` rounds to it (half a unit of its last digit)."""
    assert text in TEXT, f"the page does not print {text}"
    digits = text.split(".")[1] if "." in text else ""
    assert abs(float(text) - float(value)) <= 0.5 * 10.0 ** -len(digits) + 1e-15, (text, float(value))


def _phi(x):
    return mp.ncdf(x)


def _gaussian_delta(eps, mu):
    eps, mu = mp.mpf(eps), mp.mpf(mu)
    return _phi(-eps / mu + mu / 2) - mp.e**eps * _phi(-eps / mu - mu / 2)


def _rr_composition_delta(eps0, steps, eps):
    """δ(ε) of `steps` composed ε₀-randomized responses, by the binomial sum of the composed privacy loss."""
    eps0, eps = mp.mpf(eps0), mp.mpf(eps)
    p = mp.e**eps0 / (1 + mp.e**eps0)
    total = mp.mpf(0)
    for k in range(steps + 1):
        loss = eps0 * (2 * k - steps)
        if loss > eps:
            total += mp.binomial(steps, k) * p**k * (1 - p) ** (steps - k) * (1 - mp.e ** (eps - loss))
    return total


def test_self_check_numbers():
    with mp.workdps(30):
        _shown("0.0228", 1 - _phi(2))
        _shown("1000.3133", 1000 + mp.log(1 + mp.e**-1))
        _shown("1.0986", mp.log(3))


def test_exam_numbers_by_mpmath():
    with mp.workdps(30):
        L5, L6 = mp.log(mp.mpf(10) ** 5), mp.log(mp.mpf(10) ** 6)
        _shown("0.7311", mp.e / (1 + mp.e))                                              # E1
        _shown("0.5556", mp.mpf(10) / 18)                                                # E2
        _shown("5.2985", mp.mpf("0.5") + mp.mpf("0.1") * mp.sqrt(200 * L5))              # E3 (zCDP form)
        _shown("5.2985", mp.mpf("0.5") + mp.sqrt(2 * L5))                                # E5 (best order, σ = 1)
        _shown("5.80", 1 + mp.sqrt(2 * L5))
        eps0, T = mp.mpf("0.05"), 1000                                                   # E4
        _shown("9.56", T * eps0**2 / 2 + eps0 * mp.sqrt(2 * T * L6))
        _shown("8.31", eps0 * mp.sqrt(2 * T * L6))
        _shown("10.87", eps0 * mp.sqrt(2 * T * L6) + T * eps0 * mp.expm1(eps0))
        _shown("0.172", mp.exp(-(mp.mpf("0.5") * mp.mpf("0.25") - 2) ** 2 / 2))      # E6
        _shown("0.942", _gaussian_delta("0.5", 4))
        _shown("0.00683", _gaussian_delta(1, "0.5"))                                     # E7
        _shown("0.0401", 1 - _phi((1 - mp.mpf("0.125")) / mp.mpf("0.5")))
        q, s2 = mp.mpf("0.05"), mp.mpf(4)                                                # E8
        exact, generic = mp.log1p(q**2 * mp.expm1(1 / s2)), mp.log1p(q * mp.expm1(1 / s2))
        _shown("7.098", exact * 1e4)
        _shown("0.01410", generic)
        _shown("19.9", generic / exact)
        c0, c1 = mp.mpf(1) / 8, mp.mpf("0.5") * mp.mpf("0.01") * mp.expm1(mp.mpf("0.25"))  # E9
        _shown("79", 300 * c0 + 2 * mp.sqrt(300 * c0 * L5))
        _shown("4.86", 300 * c1 + 2 * mp.sqrt(300 * c1 * L5))
        _shown("0.0325", mp.log1p(mp.mpf("0.01") * mp.expm1(mp.mpf("1.46"))))          # E11
        _shown("2.2", mp.log1p(mp.mpf("0.01") * mp.expm1(mp.mpf("1.46"))) / mp.mpf("0.0146"))
        _shown("0.9231", mp.mpf("0.1") * mp.sqrt(300) * mp.sqrt(mp.expm1(mp.mpf("0.25"))))  # E12
        a, t = mp.mpf(8), mp.mpf(1) / 10                                                 # E14: the bound
        _shown("0.357", 10 / (a - 1) * mp.log(a / (2 * a - 1) * mp.e ** ((a - 1) * t)
                                              + (a - 1) / (2 * a - 1) * mp.e ** (-a * t)))
        _shown("97.0", mp.sqrt(6) / (24 * mp.expm1(mp.mpf("0.1")) * mp.mpf("0.01")))      # E15


def test_the_optimal_composition_of_e4_by_the_binomial_sum():
    """8.28: the ε at which the composed randomized response's δ crosses 10⁻⁶ (Kairouz et al.'s worst case)."""
    with mp.workdps(25):
        assert _rr_composition_delta("0.05", 1000, "8.275") > mp.mpf("1e-6")
        assert _rr_composition_delta("0.05", 1000, "8.285") < mp.mpf("1e-6")
    _shown("8.28", 8.28)


def test_exam_numbers_from_the_accountants():
    """Numbers that are the package's own accounting of a run (the chapters' tests check the accountants)."""
    from dpnotes import epsilon_from_rdp, rdp_laplace_convolution, rdp_subsampled_gaussian
    from dpnotes.dpsgd import dpsgd_epsilon, steps_from_epochs

    q = 256 / 60000                                                                      # E10
    steps = steps_from_epochs(60, q)
    assert steps == 14063 and "14{,}063" in TEXT
    _shown("3.008", dpsgd_epsilon(q, 1.1, steps, 1e-5, route="rdp-mironov"))
    _shown("2.60", dpsgd_epsilon(q, 1.1, steps, 1e-5, route="rdp"))
    _shown("0.180", rdp_laplace_convolution(8.0, 10, 1.0))                               # E14: the exact value
    _shown("5.15", dpsgd_epsilon(0.1, 2.0, 300, 1e-5, route="rdp-mironov"))              # workshop, hands-on 1
    orders = np.arange(2.0, 65.0)
    eps, order = epsilon_from_rdp(orders, 300 * rdp_subsampled_gaussian(orders, 0.1, 2.0), 1e-5, method="mironov",
                                  return_order=True)
    _shown("5.18", eps)
    assert order == 6.0 and "5.18 (at order 6)" in TEXT
