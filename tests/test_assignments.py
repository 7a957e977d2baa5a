"""make assignments: nbgrader versions of the chapters' exercises, graded end to end, and forging refused.

The chapter-02 notebook is taken with the four new kinds of exercise added (the cells the
lead puts into the book, :data:`NEW_CELLS`, unless the notebook already has them); the
instructor's and the students' versions are generated, then simulated submissions are
autograded by the real ``nbgrader autograde`` (through its API, with the course's
configuration: the sandbox kernel and the grader of ``tools/autograde_scoring.py``) and
their feedback generated: all answers right, all wrong, one wrong plus one close, and five
kinds of forgery (:data:`FORGERIES`), each of which must score 0 on what it forges.
"""

import os
import re
import shutil
import sys
from pathlib import Path

import nbformat
import pytest

from dpnotes.chapter_exercises import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

if os.environ.get("CI"):  # make test installs the grader: on CI a missing nbgrader is a failure, not a skip
    import nbgrader  # noqa: F401
else:
    pytest.importorskip("nbgrader", reason="the grader is installed by `make test` (requirements-grading.txt)")

import assignments  # noqa: E402  (tools/assignments.py)

STEM = "02-composition"

#: the chapter-02 cells of one exercise of each new kind, in the book's pattern (directive, answer cell,
#: solution dropdown); inserted after the chapter's last solution
NEW_CELLS = [
    ("markdown", """```{exercise} The RDP curve of a composition
:label: ex-composition-rdp-curve

$T$ Gaussian mechanisms with noise $\\sigma$ (sensitivity 1) run on the same data. Write the RDP curve
$\\varepsilon(\\alpha)$ of their composition as a formula in $\\alpha$, $\\sigma$ and $T$: a string such as
`"alpha / sigma"` (Greek letters work too) or a sympy expression.
```"""),
    ("code", """answer = None  # replace None with your formula
check("composition-rdp-curve", answer)"""),
    ("markdown", """```{solution-start} ex-composition-rdp-curve
:class: dropdown
```
One Gaussian mechanism is $(\\alpha, \\alpha/(2\\sigma^2))$-RDP for every $\\alpha$ ({prf:ref}`s4-02`); at a fixed order the
$T$ guarantees add, so the curve of the composition is $T\\alpha/(2\\sigma^2)$."""),
    ("code", """check("composition-rdp-curve", "T * alpha / (2 * sigma**2)")"""),
    ("markdown", """```{solution-end}
```

```{exercise} The hockey-stick divergence in code
:label: ex-composition-hockey-stick

Write a function `hockey_stick_delta(p, q, eps)` that returns $\\delta(\\varepsilon) = \\sup_E P(E) - e^\\varepsilon Q(E)$
for two probability mass functions `p`, `q` (numpy arrays over the same outcomes) and $\\varepsilon \\ge 0$. The checker
runs it on 42 pairs, some with $Q(y) = 0 < P(y)$, and compares it with the package.
```"""),
    ("code", """def hockey_stick_delta(p, q, eps):
    \"\"\"δ(ε) of the pair (P, Q).\"\"\"
    ...  # your code


check("composition-hockey-stick", hockey_stick_delta)"""),
    ("markdown", """```{solution-start} ex-composition-hockey-stick
:class: dropdown
```
The supremum is attained at the event $E = \\{y : P(y) > e^\\varepsilon Q(y)\\}$, so $\\delta(\\varepsilon)$ sums the
positive parts of $P(y) - e^\\varepsilon Q(y)$. An outcome with $Q(y) = 0$ contributes all of $P(y)$."""),
    ("code", """def hockey_stick_delta(p, q, eps):
    \"\"\"δ(ε) of the pair (P, Q): the positive parts of P − e^ε Q, summed.\"\"\"
    return float(np.maximum(np.asarray(p) - np.exp(eps) * np.asarray(q), 0.0).sum())


check("composition-hockey-stick", hockey_stick_delta)"""),
    ("markdown", """```{solution-end}
```

```{exercise} Reading the composition figure
:label: ex-composition-pure-ratio

In the {ref}`figure of T-fold composition <fig-composition-pure>`, set $\\varepsilon_0 \\approx 0.0316$ and
$\\delta = 10^{-9}$. At $T = 1000$ (the right end), how many times smaller is the exact $\\varepsilon$ than basic
composition's $T\\varepsilon_0$? (A reading to 2 % is right.)
```"""),
    ("code", """answer = None  # replace None with your value
check("composition-pure-ratio", answer)"""),
    ("markdown", """```{solution-start} ex-composition-pure-ratio
:class: dropdown
```
Basic composition gives $1000 \\cdot 0.0316 \\approx 31.6$; the exact curve ends near $6.15$: a ratio of about $5.1$.
At the default $\\delta = 10^{-6}$ the exact $\\varepsilon$ would be smaller still, and the ratio larger."""),
    ("code", """curves = FIGURES["composition-pure"].traces(eps0=10**-1.5, delta=1e-9)
traces = {t.name.split(":")[0]: t.y[-1] for t in curves}
check("composition-pure-ratio", traces["basic"] / traces["exact"])"""),
    ("markdown", """```{solution-end}
```

```{exercise} Why Rényi DP composes by adding
:label: ex-composition-rdp-additivity

Explain in a few sentences why the RDP guarantees of two mechanisms add at each fixed order $\\alpha$, also when the
second mechanism sees the first one's output, and why one may not add $\\varepsilon_1(\\alpha_1)$ and
$\\varepsilon_2(\\alpha_2)$ taken at two different orders.
```"""),
    ("code", """answer = ""  # write your explanation in the string
check("composition-rdp-additivity", answer)"""),
    ("markdown", """```{solution-start} ex-composition-rdp-additivity
:class: dropdown
```
""" + REGISTRY["composition-rdp-additivity"].model_solution),
    ("markdown", """```{solution-end}
```"""),
]


def chapter_with_new_exercises(book):
    """book/02-composition.ipynb with :data:`NEW_CELLS` after its last solution (unless it has them)."""
    nb = nbformat.read(ROOT / "book" / f"{STEM}.ipynb", as_version=4)
    if "ex-composition-rdp-curve" not in "".join(c.source for c in nb.cells):
        last = max(i for i, c in enumerate(nb.cells) if "{solution-end}" in c.source)
        head, _, rest = nb.cells[last].source.partition("{solution-end}\n```")
        new = [nbformat.v4.new_markdown_cell(head + "{solution-end}\n```")]
        new += [nbformat.v4.new_markdown_cell(s) if t == "markdown" else nbformat.v4.new_code_cell(s)
                for t, s in NEW_CELLS[:-1]]
        new.append(nbformat.v4.new_markdown_cell(NEW_CELLS[-1][1] + "\n" + rest))
        nb.cells[last:last + 1] = new
    book.mkdir()
    nbformat.write(nb, book / f"{STEM}.ipynb")
    return nb


def _answers(source_nb):
    """grade_id → the instructor's solution code of each answer cell."""
    out = {}
    for cell in source_nb.cells:
        meta = cell.metadata.get("nbgrader", {})
        if meta.get("solution") and cell.cell_type == "code":
            out[meta["grade_id"]] = re.search(r"### BEGIN SOLUTION\n(.*)\n### END SOLUTION", cell.source, re.S).group(1)
    return out


WRONG = {"composition-rdp-curve": 'answer = "alpha"',
         "composition-hockey-stick": "def hockey_stick_delta(p, q, eps):\n    return 0.0"}


def submit(course, release_nb, student, answers):
    nb = nbformat.from_dict(release_nb)
    for cell in nb.cells:
        gid = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if gid in answers:
            cell.source = answers[gid]
    target = course / "submitted" / student / STEM
    target.mkdir(parents=True)
    nbformat.write(nb, target / f"{STEM}.ipynb")


@pytest.fixture(scope="module")
def course(tmp_path_factory, student_copy):
    tmp = tmp_path_factory.mktemp("assignments")
    book, out = tmp / "book", tmp / "course"
    nb = chapter_with_new_exercises(book)
    # the new cells are what nbval would run: every solution passes its own check
    ns, verdicts = {}, []
    exec(compile(next(c.source for c in nb.cells if "import check" in c.source), "setup", "exec"), ns)
    ns["check"] = lambda key, value: verdicts.append(REGISTRY[key].check(value)) or verdicts[-1]
    solutions = [src for (t, src), (_, before) in zip(NEW_CELLS[1:], NEW_CELLS) if t == "code"
                 and "{solution-start}" in before]
    for src in solutions:
        exec(compile(src, "solution", "exec"), ns)
    assert [v.status for v in verdicts] == ["right", "right", "right"], verdicts
    # a short cell timeout keeps the infinite loop's cost down; the memory limit is the default
    assignments.main([str(out), "--book", str(book), "--only", STEM, "--timeout", str(TIMEOUT),
                      "--student-copy", str(student_copy)])
    return out


def test_the_versions_keep_solutions_and_hidden_tests_for_the_instructor(course):
    source = (course / "source" / STEM / f"{STEM}.ipynb").read_text()
    release = (course / "release" / STEM / f"{STEM}.ipynb").read_text()
    for text in ("BEGIN SOLUTION", "HIDDEN TESTS", "submit(", "np.sqrt(100 * np.log(1e6))", "T * alpha / (2 * sigma**2)",
                 "np.maximum(np.asarray(p) - np.exp(eps)", "Rubric", "integrand factorises"):
        assert text in source, text
        assert text not in release, text
    for key in ("composition-advanced-eps", "composition-rdp-curve", "composition-hockey-stick",
                "composition-pure-ratio"):
        assert f'print(check(\\"{key}\\"' in release
    assert "def hockey_stick_delta(p, q, eps)" in release  # the template is in the prompt
    # the prompts are plain Markdown (no MyST role or directive left) and say what the notebook needs
    assert not re.search(r"\{[\w:-]+\}`|```\{|^:label:", release, re.M)
    assert "python -m pip install ./student" in release


TIMEOUT = 12  # seconds a cell may run (make assignments: 60); above the code checker's 10 s, so its own limit acts
KEYS_NUMERIC = ("composition-advanced-eps", "composition-laplace-tight", "composition-rdp-gaussian",
                "composition-pure-ratio")

#: answer-cell sources of forging submissions, by name: each is put into every answer cell (``{key}``,
#: ``{target}`` filled in), except where a dict gives one cell its own source
FORGERIES = {
    # (a) the old hidden tests called score(); a forger redefines it, and check, in the answer cell
    "redefine": ("{target} = None\n"
                 "def score(key, value, points):\n    return points\n"
                 "def check(key, value):\n    return '\u2713 ' + key + ': correct.'\n"),
    # (b) the reference answers from the grader's package (not importable in the sandbox kernel)
    "import-reference": ("from dpnotes.chapter_exercises import REGISTRY\n"
                         "{target} = REGISTRY['{key}'].reference() if hasattr(REGISTRY['{key}'], 'reference') "
                         "else REGISTRY['{key}'].reference_function()\n"),
    # (c) fake output in every test cell: a hook prints a score and displays answer data for every key
    "fake-output": ("{target} = None\n"
                    "import json\n"
                    "from IPython.display import display\n"
                    "def _fake(*args):\n"
                    "    for k in KEYS:\n"
                    "        doc = {{'key': k, 'kind': 'value', 'value': 1.0, 'score': 3, 'verdict': 'right'}}\n"
                    "        display({{'application/vnd.dpnotes.answer+json': doc, 'text/plain': '3'}}, raw=True)\n"
                    "        print(json.dumps(doc)); print(3.0)\n"
                    "get_ipython().events.register('post_execute', _fake)\n"),
    # (d) monkeypatching builtins, json, IPython's display and the submitting module
    "monkeypatch": ("{target} = None\n"
                    "import builtins, json, IPython.display\n"
                    "import dpnotes.exercise_kinds.submission as sub\n"
                    "if not hasattr(builtins, '_forged'):\n"
                    "    builtins._forged = True\n"
                    "    sub.submit = lambda key, value, ex: print(json.dumps({{'key': key, 'score': 3}}))\n"
                    "    sub.answer_payload = lambda key, value, ex=None: {{'key': key, 'kind': 'value', 'value': 3.97}}\n"
                    "    _dumps = json.dumps\n"
                    "    json.dumps = lambda obj, *a, **k: ('{{\"key\": \"x\", \"kind\": \"value\", \"value\": 1}}'\n"
                    "        if isinstance(obj, dict) and 'key' in obj else _dumps(obj, *a, **k))\n"
                    "    IPython.display.display = lambda *a, **k: builtins.print('3.0')\n"
                    "    _print = builtins.print\n"
                    "    builtins.print = lambda *a, **k: _print('\u2713 correct. 3.0')\n"),
}


def forged_answers(keys, source):
    out = {}
    for k in keys:
        target = "hockey_stick_delta" if k == "composition-hockey-stick" else "answer"
        out[f"{k}-answer"] = "KEYS = " + repr(list(keys)) + "\n" + source.format(key=k, target=target)
    return out


def _grade(course, students):
    from nbgrader.api import Gradebook

    api = assignments.nbgrader_api(course)
    for student in students:
        result = api.autograde(STEM, student)
        assert result["success"], result.get("log")
        result = api.generate_feedback(STEM, student)
        assert result["success"], result.get("log")
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        out = {}
        for s in students:
            sub = gb.find_submission(STEM, s)
            nb = sub.notebooks[0]
            out[s] = {"code": sub.code_score, "max": sub.max_code_score, "manual": sub.needs_manual_grade,
                      "written_max": sub.max_written_score,
                      "cells": {g.name.removesuffix("-test"): g.score for g in nb.grades if g.name.endswith("-test")}}
        return out


def feedback_html(course, student):
    return (course / "feedback" / student / STEM / f"{STEM}.html").read_text()


@pytest.fixture(scope="module")
def graded(course):
    source_nb = nbformat.read(course / "source" / STEM / f"{STEM}.ipynb", as_version=4)
    release_nb = nbformat.read(course / "release" / STEM / f"{STEM}.ipynb", as_version=4)
    right = _answers(source_nb)
    keys = [gid.removesuffix("-answer") for gid in right]
    written = {"composition-rdp-additivity": "The divergences add because the integrand factorises."}
    wrong = {f"{k}-answer": WRONG.get(k, "answer = 123.0") for k in keys}
    partial = {**right, "composition-laplace-tight-answer": "answer = 1.0",
               "composition-rdp-gaussian-answer": "answer = 0.853"}  # wrong (all its stars), close (half of its stars)
    # (e) an infinite loop and a memory bomb (each in its own answer cell), a function that never returns;
    # every other answer right
    limits = {**right,
              "composition-advanced-eps-answer": "while True:\n    pass",
              # 3 GB of address space (np.zeros: mapped, never touched, so harmless without a limit), then the right
              # answer: only the sandbox's 2 GB limit makes this item score 0
              "composition-laplace-tight-answer": "hog = np.zeros(3 * 2 ** 30, dtype=np.uint8)\n"
                                                  + right["composition-laplace-tight-answer"],
              "composition-hockey-stick-answer": "def hockey_stick_delta(p, q, eps):\n    while True:\n        pass"}
    # every numeric answer given as a literal rounded to the precision its prompt asks for (an integer as it is)
    rounded = {k: float(f"{REGISTRY[k].reference():.{REGISTRY[k].sig_figs or 17}g}")
               for k in keys if REGISTRY[k].kind in ("numeric", "explore")}
    three_figures = {**right, **{f"{k}-answer": f"answer = {v!r}" for k, v in rounded.items()}}
    submissions = {"right": right, "wrong": wrong, "partial": partial, "limits": limits, "rounded": three_figures}
    submissions |= {f"forge-{name}": forged_answers(keys, src) for name, src in FORGERIES.items()}
    for student, answers in submissions.items():
        submit(course, release_nb, student, {**answers, **written})
    return keys, _grade(course, list(submissions)), rounded


@pytest.mark.filterwarnings("ignore:Object of type .* not in session")  # nbgrader's own database session
def test_nbgrader_grades_right_wrong_and_partial_submissions(graded):
    keys, scores, _ = graded
    auto_points = sum(REGISTRY[k].stars for k in keys)
    assert len(keys) == 7 and auto_points == 12  # four numeric exercises, a formula, a function, a figure
    assert scores["right"]["max"] == auto_points
    assert scores["right"]["code"] == auto_points
    assert scores["wrong"]["code"] == 0
    assert scores["partial"]["code"] == (auto_points - REGISTRY["composition-laplace-tight"].stars
                                         - REGISTRY["composition-rdp-gaussian"].stars / 2)
    assert all(s["manual"] for s in scores.values())  # the written answer, worth its rubric
    assert scores["right"]["written_max"] == sum(s.points for s in REGISTRY.values()  # the written answers
                                                 if s.chapter == STEM and s.kind == "written")


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_a_forged_submission_scores_nothing(graded, forgery):
    _, scores, _ = graded
    s = scores[f"forge-{forgery}"]
    assert s["max"] == 12 and s["code"] == 0, s["cells"]


def test_answers_to_three_significant_figures_score_what_the_package_gives(graded):
    """nbgrader's score is the package checker's: every answer right at the precision its prompt states earns full
    marks."""
    keys, scores, rounded = graded
    expected = sum(REGISTRY.score(k, v, REGISTRY[k].stars) for k, v in rounded.items())
    expected += sum(REGISTRY[k].stars for k in keys if k not in rounded)
    assert scores["rounded"]["code"] == pytest.approx(expected)
    assert all(REGISTRY[k].check(v).status == "right" for k, v in rounded.items())
    assert scores["rounded"]["code"] == 12


def test_a_loop_or_a_memory_bomb_scores_zero_for_its_item_only(graded):
    keys, scores, _ = graded
    cells = scores["limits"]["cells"]
    stopped = {"composition-advanced-eps", "composition-laplace-tight", "composition-hockey-stick"}
    assert {k for k, v in cells.items() if v == 0} == stopped, cells
    assert scores["limits"]["code"] == 12 - sum(REGISTRY[k].stars for k in stopped)


def test_the_feedback_shows_no_grading_code_and_no_reference(graded, course):
    _, scores, _ = graded
    for student in [s for s in scores if s != "right"]:
        html = feedback_html(course, student)
        for text in ("HIDDEN TESTS", "submit(", "chapter_exercises import", "EXERCISES)", "score(",
                     "np.sqrt(100 * np.log(1e6))", "application/vnd.dpnotes.answer"):
            if text in (course / "submitted" / student / STEM / f"{STEM}.ipynb").read_text():
                continue  # a forger's own code, shown back to them
            assert text not in html, (student, text)
        shown = re.sub(r"<style.*?</style>", "", html, flags=re.S)  # the page's text, not its stylesheet
        for key in KEYS_NUMERIC:
            ref = REGISTRY[key].reference()
            for form in {f"{ref:.4g}", f"{ref:.5g}", f"{ref:.6g}", repr(ref)}:
                if len(form.split("e")[0].replace(".", "").replace("-", "").lstrip("0")) >= 4:  # short ones occur anywhere
                    assert not re.search(r"(?<![\w.])" + re.escape(form), shown), (student, key, form)
    html = feedback_html(course, "partial")
    assert "Graded outside this notebook" in html and "composition-rdp-gaussian: close" in html
    # the forgeries' verdicts, as the grader wrote them
    assert "composition-advanced-eps: no answer yet" in feedback_html(course, "forge-redefine")
    assert "more than one answer was submitted" in feedback_html(course, "forge-fake-output")
    assert "no answer was submitted" in feedback_html(course, "forge-monkeypatch")
    assert "took longer than the time limit" in feedback_html(course, "limits")


def test_the_grading_kernel_cannot_import_the_reference_answers(course):
    """The sandbox kernel's sys.path: the student copy first, no path to this checkout's package."""
    import json
    import subprocess

    spec = json.loads((course / "sandbox" / "kernels" / assignments.KERNEL_NAME / "kernel.json").read_text())
    assert spec["argv"][1:3] == ["-I", "-S"]
    probe = ("import sys, os, sysconfig, resource\n"
             f"sys.path.insert(0, {str(course / 'sandbox')!r})\n"
             "import kernel, json\n"
             f"site = json.load(open({str(course / 'sandbox' / 'site-packages.json')!r}))\n"
             "sys.path[:] = kernel.sandbox_path(os.path.dirname(kernel.__file__), sys.path + site)\n"
             "import dpnotes, dpnotes.exercises\n"
             "print(dpnotes.__file__)\n"
             "try:\n    import dpnotes.chapter_exercises\nexcept ImportError:\n    print('refused')\n")
    run = subprocess.run([spec["argv"][0], "-I", "-S", "-c", probe], capture_output=True, text=True, check=True)
    first, second = run.stdout.splitlines()
    assert first.startswith(str(course / "sandbox")) and second == "refused"


def test_a_rebuild_keeps_the_instructors_edits_unless_forced(course):
    """``make assignments`` again keeps an edited source notebook; ``FORCE=1`` (``--force``) rewrites it."""
    path = course / "source" / STEM / f"{STEM}.ipynb"
    edited = path.read_text().replace("Exercise 1:", "Exercise 1 (edited by the instructor):")
    path.write_text(edited)
    book = course.parent / "book"
    ids, kept = assignments.write_course(course, book, only=[STEM], timeout=TIMEOUT)
    assert ids == [STEM] and kept == [STEM] and path.read_text() == edited
    ids, kept = assignments.write_course(course, book, only=[STEM], force=True, timeout=TIMEOUT)
    assert kept == [] and "edited by the instructor" not in path.read_text() and "Exercise 1:" in path.read_text()
    with pytest.raises(ValueError, match="no chapter"):
        assignments.write_course(course, book, only=["99-nothing"])
