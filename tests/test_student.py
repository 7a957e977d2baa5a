"""The student copy (``make student``): no answer can be read from it, and its checker agrees.

The leak test builds the copy and searches every file in it for

- each numeric answer written to 4 or more significant figures, in the formats a person or
  a program would write it (``.4g``, ``.5g``, ``.6g``, ``.3f``, ``.4f``, ``repr``, and the
  mantissa of an ``e`` format);
- every line of every solution dropdown of the chapters;
- each reference formula (``str``, ``srepr``, LaTeX, and the spec's own text);
- each written exercise's model solution and rubric.

An answer that is a short number (at most 3 significant figures: 0.375, 29, 2) is not
searched as text: such strings occur all over a numerical package (defaults, doctests,
ranges), so finding one says nothing, and not finding one is no evidence either. What
could leak such an answer is its solution text, which is searched, or the checker's data,
which is searched structurally: the record of an exercise holds no number equal to its
answer.
"""

import json
import math
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from dpnotes.chapter_exercises import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
STUDENT_ONLY_NAMES = {"exercise_data.json"}


# student_copy: the session's copy (tests/conftest.py)


@pytest.fixture(scope="module")
def student_files(student_copy):
    texts = {}
    for path in student_copy.rglob("*"):
        if path.is_file():
            try:
                texts[path.relative_to(student_copy).as_posix()] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
    assert "dpnotes/exercise_data.json" in texts and "book/02-composition.ipynb" in texts
    # the test inputs of code and formula exercises are random numbers, searched structurally instead
    # (test_no_answer_in_the_checker_data): as text they could match an answer by coincidence
    data = json.loads(texts["dpnotes/exercise_data.json"])
    for record in data["exercises"].values():
        for field in ("cases", "points"):
            record.pop(field, None)
        for slip in record.get("slips", []):
            slip.pop("outputs", None)
    texts["dpnotes/exercise_data.json"] = json.dumps(data, ensure_ascii=False)
    return texts


@pytest.fixture(scope="module")
def student_registry(student_copy):
    from dpnotes.exercise_kinds import StudentRegistry

    return StudentRegistry.from_file(student_copy / "dpnotes" / "exercise_data.json")


def significant_digits(text):
    mantissa = re.split(r"[eE]", text.lstrip("-"))[0].replace(".", "").lstrip("0")
    return len(mantissa)


def answer_strings(x):
    """How an answer to ≥ 4 significant figures could be written; empty for a short number."""
    x = float(x)
    if x == 0 or math.isclose(float(f"{x:.3g}"), x, rel_tol=1e-12, abs_tol=0):
        return set()
    forms = {f"{x:.4g}", f"{x:.5g}", f"{x:.6g}", f"{x:.3f}", f"{x:.4f}", repr(x)}
    forms |= {f.split("e")[0] for f in list(forms) if "e" in f}
    return {f for f in forms if significant_digits(f) >= 4}


def _lines(text):
    for line in text.splitlines():
        line = line.strip().strip("`").strip()
        if len(line) >= 12 and not line.startswith(":class:"):
            yield line


def solution_lines():
    """(notebook, line) for every line of every solution dropdown in the chapters.

    Lines that also stand outside the solutions (a function's signature in an answer
    template, say) are public and left out.
    """
    out = []
    for nb_path in sorted(BOOK.glob("*.ipynb")):
        inside, hidden, public = False, [], set()
        for cell in json.loads(nb_path.read_text())["cells"]:
            src = "".join(cell["source"])
            before, after = src, ""
            if "{solution-start}" in src:  # the text after the directive's label line
                before, _, rest = src.partition("```{solution-start}")
                after, inside = rest.partition("\n")[2], True
            elif inside:
                before, after = "", src
            if inside and "{solution-end}" in after:
                after, _, tail = after.partition("{solution-end}")
                inside, before = False, before + tail
            public.update(_lines(before))
            hidden += [(nb_path.name, line) for line in _lines(after)]
        out += [(nb, line) for nb, line in hidden if line not in public]
    return out


def numeric_leaks(texts):
    """(key, form, file) for every long numeric answer found in the texts."""
    found = []
    for key, spec in REGISTRY.items():
        if spec.kind in ("numeric", "explore"):
            for form in answer_strings(spec.reference()):
                pattern = re.compile(number_pattern(form))
                found += [(key, form, name) for name, text in texts.items() if pattern.search(text)]
    return found


def number_pattern(form):
    """A regex for ``form`` at the start of a number (not inside a word or a hex digest).

    A decimal form may run on into more digits (a longer rounding leaks too); a whole
    number may not, so that "7813" is not found inside "78130" or a salted hash.
    """
    tail = "" if re.search(r"[.eE]", form) else r"(?![\w])"
    return r"(?<![\w.])" + re.escape(form) + tail


def solution_leaks(texts):
    """(notebook, line, file) for every solution line found in the texts."""
    return [(nb, line, name) for nb, line in solution_lines() for name, text in texts.items() if line in text]


def formula_leaks(texts):
    """(key, text, file) for every reference formula, model solution or rubric line found in the texts."""
    needles = []
    for key, spec in REGISTRY.items():
        if spec.kind == "symbolic":
            ref = spec.reference()
            needles += [(key, str(ref)), (key, sp.srepr(ref)), (key, sp.latex(ref))]
            if isinstance(spec.answer, str):
                needles.append((key, spec.answer))
        if spec.kind == "written":
            needles.append((key, spec.model_solution))
            needles += [(key, s.strip()) for s in re.split(r"(?<=[.:])\s", spec.model_solution) if len(s) > 30]
            needles += [(key, c.text) for c in spec.rubric]
    assert any(k for k, _ in needles)
    return [(key, needle[:40], name) for key, needle in needles for name, text in texts.items() if needle in text]


def test_the_student_copy_ships_no_reference_code(student_copy):
    assert not (student_copy / "dpnotes" / "chapter_exercises").exists()
    assert "chapter_exercises" not in (student_copy / "dpnotes" / "exercises.py").read_text().split('"""')[-1]


def test_no_numeric_answer_in_the_student_copy(student_files):
    assert sum(len(answer_strings(s.reference())) for s in REGISTRY.values() if s.kind in ("numeric", "explore")) > 100
    assert numeric_leaks(student_files) == []


def test_no_solution_text_in_the_student_copy(student_files):
    assert len(solution_lines()) > 80
    assert solution_leaks(student_files) == []


def test_no_reference_formula_or_model_solution_in_the_student_copy(student_files):
    assert formula_leaks(student_files) == []


def test_no_answer_in_the_checker_data(student_copy):
    data = json.loads((student_copy / "dpnotes" / "exercise_data.json").read_text())["exercises"]
    assert set(data) == set(REGISTRY)

    def numbers(obj):
        if isinstance(obj, dict):
            for k, v in obj.items():
                if k != "sig_figs":  # the precision the prompt states (3 for an answer of 3.0 is no leak)
                    yield from numbers(v)
        elif isinstance(obj, list):
            for v in obj:
                yield from numbers(v)
        elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
            yield float(obj)

    for key, spec in REGISTRY.items():
        if spec.kind in ("numeric", "explore"):
            ref = spec.reference()
            assert not any(math.isclose(v, ref, rel_tol=1e-9) for v in numbers(data[key])), key
            assert data[key]["answer"] and set(data[key]) >= {"salt", "answer", "slips"}, key


def test_the_leak_search_finds_planted_answers(student_files):
    # the searches are not vacuous: an answer, a solution line and a formula planted in a file are found
    assert "5.2985" in answer_strings(5.298525912188081) and "5.299" in answer_strings(5.298525912188081)
    assert answer_strings(0.375) == set() and answer_strings(29.0) == set()
    assert "7813" in answer_strings(7813.0) and "1.113" in answer_strings(1.1127704642462338e-05)
    assert re.search(number_pattern("7813"), "T = 7813 steps") and not re.search(number_pattern("7813"), "a97813f0")
    assert re.search(number_pattern("5.2985"), "(5.298526, 5.7985)") and not re.search(number_pattern("5.2985"), "15.2985")
    nb, line = solution_lines()[5]
    planted = {"a.py": "x = 3.966922  # advanced composition", "b.md": f"... {line} ...",
               "c.txt": str(REGISTRY["composition-rdp-curve"].reference())}
    assert ("composition-advanced-eps", "3.9669", "a.py") in numeric_leaks(planted)
    assert (nb, line, "b.md") in solution_leaks(planted)
    assert {f for _, _, f in formula_leaks(planted)} == {"c.txt"}


def _inputs(spec):
    if spec.kind in ("numeric", "explore"):
        ref = spec.reference()
        return [None, "abc", True, float("nan"), np.inf, ref, str(ref), np.float32(ref), ref * (1 + 3e-7), ref * 1.002,
                ref * 1.03, ref * 1.5, -ref, 0.0] + [v for _, v in spec.slip_values()]
    if spec.kind == "symbolic":
        ref = spec.reference()
        syms = list(spec.objects.values())
        return [None, 3, str(ref), ref, sp.expand(2 * ref) / 2, 2 * ref, ref * syms[0], ref + 1, "x", "sqrt(-1)",
                "__import__('os')"] + [e for _, e in spec.all_slips()]
    if spec.kind == "code":
        ref = spec.reference_function()
        mapped = lambda **kw: ref(**{spec.argmap.get(k, k): v for k, v in kw.items()})  # noqa: E731
        return [None, 1.0, mapped, lambda **kw: 1.01 * np.asarray(mapped(**kw)), lambda **kw: 1 / 0] + [
            s.produce for s in spec.slips]
    return [None, "", "A written answer.", 3]


@pytest.mark.parametrize("key", sorted(REGISTRY))
def test_the_student_checker_gives_the_instructors_verdicts(key, student_registry):
    spec = REGISTRY[key]
    for value in _inputs(spec):
        a, b = spec.check(value), student_registry.check(key, value)
        assert (a.status, a.message, a.slip) == (b.status, b.message, b.slip), (key, value)


def test_a_notebook_check_runs_unchanged_in_the_student_copy(student_copy):
    code = ("from dpnotes.exercises import check\n"
            "print(check('renyi-gaussian-order', 3 / 8)); print(check('renyi-gaussian-order', 0.75))\n"
            "import dpnotes.exercises as e; print(e.__file__)\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=student_copy, capture_output=True, text=True,
                         env={"PYTHONPATH": str(student_copy), "PATH": "/usr/bin:/bin"}, check=True)
    lines = run.stdout.splitlines()
    assert lines[0] == "✓ renyi-gaussian-order: correct."
    assert lines[1].startswith("✗ renyi-gaussian-order: not yet: it looks as if σ appears where σ²")
    assert lines[2].startswith(str(student_copy))


def test_student_copy_notebooks_keep_exercises_and_drop_solutions(student_copy):
    for nb in (student_copy / "book").glob("*.ipynb"):
        text = nb.read_text()
        assert "solution-start" not in text and "solution-end" not in text
        if nb.name[:2].isdigit():  # a chapter (not a reference page): its exercises stay
            assert "exercise" in text
        assert 'check(\\"renyi-gaussian-order\\", 3 / 8)' not in text


# ----------------------------------------------------------------------------- the copy in plain Jupyter

_LEFTOVER = re.compile(r"\{[\w:-]+\}|^:{3,}|^:[\w-]+:|^\([\w:.-]+\)=")


def _markdown():
    """A CommonMark renderer with $…$ math, as JupyterLab and Notebook 7 render a markdown cell."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    return MarkdownIt("commonmark").enable("table").use(dollarmath_plugin, double_inline=True)


def render_problems(md, source):
    """What a plain Jupyter would show wrongly in a markdown cell: unclosed fences, MyST left as text."""
    problems, lines = [], source.splitlines()
    for tok in md.parse(source):
        if tok.type == "fence":
            start, end = tok.map
            closing = lines[end - 1].strip() if end - 1 > start else ""
            if not (closing and set(closing) == {tok.markup[0]} and len(closing) >= len(tok.markup)):
                problems.append(f"unclosed fence at line {start + 1}: {lines[start][:60]!r}")
            if tok.info.strip().startswith("{"):
                problems.append(f"directive fence {tok.info.strip()[:40]!r}")
        if tok.type == "inline":
            for child in tok.children or ():
                if child.type == "text":
                    for line in child.content.splitlines():
                        if _LEFTOVER.search(line.strip()):
                            problems.append(f"MyST left as text: {line.strip()[:70]!r}")
    return problems


def _exercises(nb_path):
    """(title, body) of each exercise directive of a book chapter."""
    out = []
    for cell in json.loads(nb_path.read_text())["cells"]:
        src = "".join(cell["source"])
        for m in re.finditer(r"^```\{exercise\}[ \t]*([^\n]*)\n((?::[^\n]*\n)*)(.*?)^```[ \t]*$", src, re.S | re.M):
            out.append((m.group(1).strip(), m.group(3)))
    return out


def test_the_render_check_finds_broken_prompts():
    md = _markdown()
    assert render_problems(md, "**Exercise: A title**\n\nCompute $\\varepsilon$ for $T = 10$.\n\n```python\nx = 1\n```") == []
    broken = {
        "``{exercise} A title\n:label: ex-a\n\nText.\n```": ("MyST left as text", "unclosed fence"),
        "```{exercise} A title\n:label: ex-a\n\nText.\n```": ("directive fence",),
        "As {cite:t}`dwork2014algorithmic` show.": ("MyST left as text",),
        ":::{prf:theorem} T\n:label: s1-01\nText.\n:::": ("MyST left as text",),
        "(sec-label)=\n## A section": ("MyST left as text",),
        "```python\nx = 1\n": ("unclosed fence",),
    }
    for source, expected in broken.items():
        found = " | ".join(render_problems(md, source))
        assert all(e in found for e in expected), (source, found)


def test_every_student_prompt_renders_in_plain_jupyter(student_copy):
    md = _markdown()
    problems, cells = [], 0
    for nb_path in sorted((student_copy / "book").glob("*.ipynb")):
        for i, cell in enumerate(json.loads(nb_path.read_text())["cells"]):
            if cell["cell_type"] == "markdown":
                cells += 1
                problems += [(nb_path.name, i, p) for p in render_problems(md, "".join(cell["source"]))]
    assert cells > 250
    assert problems == []


def test_every_exercise_keeps_its_title_and_math_in_the_student_copy(student_copy):
    md, n = _markdown(), 0
    for nb_path in sorted(BOOK.glob("*.ipynb")):
        copy = json.loads((student_copy / "book" / nb_path.name).read_text())
        text = "\n".join("".join(c["source"]) for c in copy["cells"] if c["cell_type"] == "markdown")
        rendered = md.render(text)
        for title, body in _exercises(nb_path):
            n += 1
            if "{" not in title:  # a title with a role is rewritten; its math is checked below
                assert f"**Exercise: {title}**" in text, (nb_path.name, title)
            for math in re.findall(r"(?<![\\$])\$[^$\n]+\$(?!\$)", title + "\n" + body):
                assert math in text, (nb_path.name, title, math)
                # rendered as math, not as text
                inner = math.strip("$")
                assert inner.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") in rendered
    assert n >= 80


def test_the_student_copy_says_how_to_install_and_check(student_copy):
    readme = (student_copy / "README.md").read_text()
    for text in ("python -m pip install .", "check(", "right, close or wrong", "What this copy hides"):
        assert text in readme, text
    nb = json.loads((student_copy / "book" / "02-composition.ipynb").read_text())
    install = next(c for c in nb["cells"] if "install-cell" in c["metadata"].get("tags", []))
    source = "".join(install["source"])
    assert "os.path.dirname(os.getcwd())" in source and "git+" not in source
    assert not install["metadata"].get("jupyter", {}).get("source_hidden")
