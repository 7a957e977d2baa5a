"""Write nbgrader assignments from the chapters' exercises (``make assignments``).

For every chapter with exercises, an nbgrader *source* notebook (the instructor's version:
prompts, solutions, hidden tests, rubrics) is written to ``<out>/source/<chapter>/``, and
nbgrader's ``generate_assignment`` writes the *release* (the students' version: no
solutions, no hidden tests) to ``<out>/release/<chapter>/``. ``<out>`` (default
``_build/assignments``) is an nbgrader course directory with its ``nbgrader_config.py``.
A source notebook that exists is kept (an instructor may have edited it); ``--force``
rewrites it from the book.

Each exercise becomes a locked prompt, an answer cell and, unless it is written, a locked
test cell worth its stars in points. Its visible part prints ``check(key, answer)`` (the
same feedback as in the book; the student copy's hashed checker answers it). Its hidden
part only *submits* the answer as data (``dpnotes.exercise_kinds.submission.submit``). The
score is computed outside the learner's reach: ``nbgrader autograde`` runs the submission in
the course's sandbox kernel (``<out>/sandbox/``: the student copy of the package, with no
reference answers, under a memory limit and nbgrader's per-cell timeout), then the grader
(``<out>/grading/dpnotes_autograde.py``, from ``tools/autograde_scoring.py``) reads the
submitted data in the nbgrader process, checks it with this package's registry (all points
if right, half if close) and writes the score and the verdict into the test cell, whose
hidden code it replaces by a comment (so the feedback shows no grading code). A written
exercise becomes a manually graded Markdown cell worth its rubric's points, with the model
solution and the rubric in the instructor's version only.

Grading needs this repository's package (with ``dpnotes.chapter_exercises``) in the
environment that runs ``nbgrader autograde``; the trust model is in ``book/teaching-grading.md``.

Usage: python tools/assignments.py [out dir] [--book DIR] [--only STEM ...] [--force] [--source-only]
                                   [--memory-mb N] [--timeout S] [--student-copy DIR]
"""

import argparse
import ast
import os
import re
import shutil
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, not an installed one
sys.path.insert(1, str(ROOT / "tools"))  # student.py, myst_plain.py

CONFIG = '''# nbgrader configuration of the dpnotes assignments (written by tools/assignments.py; rewritten by it)
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "grading"))  # dpnotes_autograde: the grader (tools/autograde_scoring.py)

c = get_config()  # noqa: F821
c.CourseDirectory.root = HERE
c.ClearSolutions.code_stub = {{"python": "# YOUR CODE HERE"}}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
# submissions run in the sandbox kernel (the student copy of the package, a memory limit), each cell
# stopped after this many seconds; the score is computed by ScoreAnswers in the nbgrader process
c.Execute.timeout = {timeout}
c.Execute.raise_on_iopub_timeout = False  # a kernel a submission broke costs that submission its points, not the run
c.SandboxExecute.kernel_dir = os.path.join(HERE, "sandbox", "kernels")
c.Autograde.autograde_preprocessors = [
    "dpnotes_autograde.SandboxExecute",
    "dpnotes_autograde.ScoreAnswers",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "dpnotes_autograde.HideGradingCode",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
'''

#: the sandbox kernel's spec: isolated Python (no site processing, so no .pth of the grading environment),
#: tools/sandbox_kernel.py with its memory (MB) and processor-time (s) limits
KERNEL_NAME = "dpnotes-sandbox"
#: what a release notebook needs, said in its header
NEEDS = ("**What this notebook needs.** Python 3.11 or newer with the student copy of the book's package "
         "`dpnotes` (your instructor hands it out; `make student` writes it): install it once with "
         "`python -m pip install ./student` (the folder of the copy), then run the cells from the top. "
         "The first code cell imports `check`; if it says `No module named 'dpnotes'`, the copy is not "
         "installed in this notebook's kernel.")

_EXERCISE = re.compile(r"```\{exercise\}[ \t]*(?P<title>[^\n]*)\n(?P<options>(?::[^\n]*\n)*)\n?(?P<body>.*?)\n?```",
                       re.S)
_STARS = {1: "★", 2: "★★", 3: "★★★"}


@dataclass
class Item:
    """One exercise of a chapter as written in its notebook."""

    key: str
    title: str
    body: str
    answer_cell: str = ""
    solution_code: list = field(default_factory=list)


def plain_markdown(text, book=ROOT / "book"):
    """MyST (directives, roles, targets) turned into Markdown a plain Jupyter renders (``tools/myst_plain.py``)."""
    import myst_plain

    key = str(book)
    if key not in _CONVERTERS:
        _CONVERTERS[key] = myst_plain.PlainMarkdown.for_book(book)
    return _CONVERTERS[key](text).strip("\n")


_CONVERTERS = {}


def parse_chapter(nb):
    """(title, setup code, exercises) of a chapter notebook."""
    title, setup, items, by_key, inside = "", "", [], {}, None
    for cell in nb.cells:
        src = cell.source
        if cell.cell_type == "markdown" and not title:
            m = re.search(r"^#\s+(.+)$", src, re.M)
            title = m.group(1).strip() if m else ""
        if cell.cell_type == "code" and not setup and "import check" in src:
            setup = src
        if "{solution-start}" in src:
            label = re.search(r"\{solution-start\}\s*(\S+)", src).group(1)
            inside = by_key.get(label.removeprefix("ex-"))
        if inside is not None and cell.cell_type == "code" and "{solution" not in src:
            inside.solution_code.append(src)
        if "{solution-end}" in src:
            inside = None
        if cell.cell_type == "markdown":
            for m in _EXERCISE.finditer(src.split("{solution-start}")[-1] if "{solution-end}" not in src
                                        else src.split("{solution-end}")[-1]):
                label = re.search(r":label:\s*(\S+)", m.group("options"))
                key = label.group(1).removeprefix("ex-") if label else ""
                item = Item(key=key, title=m.group("title").strip(), body=m.group("body").strip())
                items.append(item)
                by_key[key] = item
        elif inside is None and "{solution" not in src:
            for key in re.findall(r'check\(\s*"([^"]+)"', src):
                if key in by_key and not by_key[key].answer_cell:
                    by_key[key].answer_cell = src
    return title, setup, items


def answer_target(answer_cell, key):
    """The expression the answer cell passes to ``check(key, …)`` (a variable or a function name)."""
    for node in ast.walk(ast.parse(answer_cell)):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "check" and len(node.args) == 2
                and isinstance(node.args[0], ast.Constant) and node.args[0].value == key):
            return ast.get_source_segment(answer_cell, node.args[1])
    raise ValueError(f"{key}: no check({key!r}, …) in the answer cell")


def without_check(code, key, target):
    """``code`` with each statement ``check(key, EXPR)`` turned into ``target = EXPR`` (dropped if EXPR is target)."""
    lines = code.splitlines()
    for stmt in sorted(ast.parse(code).body, key=lambda s: -s.lineno):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "check" and call.args
                and isinstance(call.args[0], ast.Constant) and call.args[0].value == key):
            expr = ast.get_source_segment(code, call.args[1]) if len(call.args) > 1 else "None"
            indent = lines[stmt.lineno - 1][: len(lines[stmt.lineno - 1]) - len(lines[stmt.lineno - 1].lstrip())]
            new = [] if expr == target else [f"{indent}{target} = {expr}"]
            lines[stmt.lineno - 1: stmt.end_lineno] = new
    return "\n".join(lines).strip("\n")


def _meta(grade_id, *, solution=False, grade=False, locked=False, points=0):
    meta = {"grade_id": grade_id, "solution": solution, "grade": grade, "locked": locked, "schema_version": 3,
            "task": False}
    if grade:
        meta["points"] = points
    return {"nbgrader": meta}


def source_notebook(nb, stem, registry):
    """The instructor's (nbgrader source) notebook of one chapter, or ``None`` without exercises."""
    title, setup, items = parse_chapter(nb)
    items = [i for i in items if i.key in registry]
    if not items:
        return None
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    auto = sum(registry[i.key].stars for i in items if registry[i.key].kind != "written")
    manual = sum(registry[i.key].points for i in items if registry[i.key].kind == "written")
    cells = [
        md(f"# Assignment: {title or stem}\n\nExercises of the chapter *{title or stem}* (`book/{stem}.ipynb`). "
           "Write each answer in the cell below its question and run the check cell after it: it says right, "
           "close or wrong, and names a common slip when it sees one. Hidden tests grade the same answers; an "
           f"exercise is worth its stars in points (close earns half). Automatic points: {auto:g}"
           + (f"; written answers, graded by hand: {manual:g}." if manual else ".") + "\n\n" + NEEDS,
           **{"metadata": _meta(
               "header", locked=True)}),
        code(setup, metadata=_meta("setup", locked=True)),
    ]
    for n, item in enumerate(items, 1):
        spec = registry[item.key]
        points = spec.points if spec.kind == "written" else spec.stars
        title = re.sub(r"\s*★+\s*$", "", plain_markdown(item.title))
        prompt = (f"## Exercise {n}: {title} ({_STARS[spec.stars]}, {points:g} point{'s' if points != 1 else ''})"
                  f"\n\n{plain_markdown(item.body)}")
        target = answer_target(item.answer_cell, item.key) if item.answer_cell else "answer"
        template = without_check(item.answer_cell, item.key, target) if item.answer_cell else ""
        solution = "\n\n".join(without_check(c, item.key, target) for c in item.solution_code).strip()
        if spec.kind == "code":
            prompt += f"\n\nComplete this function in the cell below:\n\n```python\n{template}\n```"
        if spec.kind == "explore":
            prompt += f"\n\nThe figure (`{spec.figure}`) is in the chapter; in Jupyter its sliders are live."
        cells.append(md(prompt, metadata=_meta(f"{item.key}-prompt", locked=True)))
        if spec.kind == "written":
            cells.append(md("### BEGIN SOLUTION\n**Model solution.** " + spec.model_solution + "\n\n**Rubric.**\n\n"
                            + spec.rubric_markdown() + "\n### END SOLUTION",
                            metadata=_meta(item.key, solution=True, grade=True, points=points)))
            continue
        if not solution:
            print(f"warning: {item.key} has no solution code in book/{stem}.ipynb", file=sys.stderr)
        head = "" if spec.kind == "code" else template + "\n"
        cells.append(code(f"{head}### BEGIN SOLUTION\n{solution}\n### END SOLUTION",
                          metadata=_meta(f"{item.key}-answer", solution=True)))
        cells.append(code(f'### BEGIN HIDDEN TESTS\n'
                          f'from dpnotes.exercise_kinds.submission import submit\n'
                          f'from dpnotes.exercises import EXERCISES\n'
                          f'submit("{item.key}", {target}, EXERCISES)\n### END HIDDEN TESTS\n'
                          f'print(check("{item.key}", {target}))',
                          metadata=_meta(f"{item.key}-test", grade=True, locked=True, points=points)))
    out = nbformat.v4.new_notebook(cells=cells)
    out.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return out


def write_sandbox(out, memory_mb=2048, cpu_seconds=900, student_copy=None):
    """The grading kernel of the course: ``<out>/sandbox/`` (student copy of the package, kernel spec, launcher)
    and the grader ``<out>/grading/dpnotes_autograde.py``; rewritten every time (nothing in them is edited).

    ``student_copy``: a folder written by ``make student`` whose package is used instead of writing one.
    """
    import json

    import student  # tools/student.py

    out = Path(out).resolve()
    sandbox = out / "sandbox"
    if sandbox.exists():
        shutil.rmtree(sandbox)
    sandbox.mkdir(parents=True)
    if student_copy:
        if not (Path(student_copy) / "dpnotes" / "exercise_data.json").exists():
            raise ValueError(f"--student-copy: {student_copy} holds no student copy of the package (make student)")
        shutil.copytree(Path(student_copy) / "dpnotes", sandbox / "dpnotes",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    else:
        student.write_package(sandbox)
    shutil.copy2(ROOT / "tools" / "sandbox_kernel.py", sandbox / "kernel.py")
    site_packages = list(dict.fromkeys(sysconfig.get_path(name) for name in ("purelib", "platlib")))
    (sandbox / "site-packages.json").write_text(json.dumps(site_packages))
    spec = sandbox / "kernels" / KERNEL_NAME
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-I", "-S", "{resource_dir}/../../kernel.py", str(memory_mb), str(cpu_seconds),
                 "-f", "{connection_file}"],
        "display_name": "dpnotes sandbox (student copy, limited)", "language": "python",
        "env": {"MALLOC_ARENA_MAX": "2"},
    }, indent=1))
    grading = out / "grading"
    grading.mkdir(exist_ok=True)
    shutil.copy2(ROOT / "tools" / "autograde_scoring.py", grading / "dpnotes_autograde.py")
    return sandbox


def write_course(out, book=ROOT / "book", only=None, force=False, timeout=60):
    """Write the config and the source notebooks that are missing (all of them with ``force``); returns
    the assignment ids and the ids whose source was kept as it was."""
    from dpnotes.chapter_exercises import REGISTRY

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "nbgrader_config.py").write_text(CONFIG.format(timeout=int(timeout)))
    ids, kept = [], []
    stems = [p.stem for p in sorted(Path(book).glob("*.ipynb"))]
    unknown = sorted(set(only or ()) - set(stems))
    if unknown:
        raise ValueError(f"--only: no chapter {unknown} in {book} (chapters: {stems})")
    for path in sorted(Path(book).glob("*.ipynb")):
        if only and path.stem not in only:
            continue
        target = out / "source" / path.stem
        if (target / f"{path.stem}.ipynb").exists() and not force:
            ids.append(path.stem)
            kept.append(path.stem)
            continue
        nb = source_notebook(nbformat.read(path, as_version=4), path.stem, REGISTRY)
        if nb is None:
            continue
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        nbformat.write(nb, target / f"{path.stem}.ipynb")
        ids.append(path.stem)
    return ids, kept


def course_config(out):
    """The configuration in ``<out>/nbgrader_config.py`` (what the ``nbgrader`` command reads there)."""
    from traitlets.config.loader import PyFileConfigLoader

    return PyFileConfigLoader("nbgrader_config.py", path=str(Path(out).resolve())).load_config()


def nbgrader_api(out):
    """nbgrader's API on the course directory ``out``, with the configuration written there."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory

    # nbgrader runs its database migrations with the `alembic` script, found on PATH: use this environment's
    scripts = sysconfig.get_path("scripts")
    if scripts not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = scripts + os.pathsep + os.environ.get("PATH", "")
    grading = str(Path(out).resolve() / "grading")
    if grading not in sys.path:
        sys.path.insert(0, grading)
    config = course_config(out)
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def release(out, ids):
    """nbgrader generate_assignment for each id (the students' versions)."""
    api = nbgrader_api(out)
    for assignment in ids:
        result = api.generate_assignment(assignment, force=True, create=True)
        if not result["success"]:
            raise RuntimeError(f"nbgrader could not generate {assignment}:\n{result.get('error') or result.get('log')}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", default=str(ROOT / "_build" / "assignments"))
    parser.add_argument("--book", default=str(ROOT / "book"), help="folder of chapter notebooks")
    parser.add_argument("--only", nargs="*", help="chapter stems to include (e.g. 02-composition 05-subsampling)")
    parser.add_argument("--force", action="store_true",
                        help="rewrite the source notebooks from the book (by default an existing one is kept)")
    parser.add_argument("--source-only", action="store_true", help="write the instructor's versions only")
    parser.add_argument("--memory-mb", type=int, default=2048, help="memory limit of the grading kernel (MB)")
    parser.add_argument("--timeout", type=int, default=60, help="seconds a cell of a submission may run")
    parser.add_argument("--student-copy", help="use the package of this student copy (make student) in the sandbox")
    args = parser.parse_args(argv)
    ids, kept = write_course(args.out, args.book, args.only, args.force, args.timeout)
    write_sandbox(args.out, args.memory_mb, student_copy=args.student_copy)
    if not args.source_only:
        release(args.out, ids)
    for stem in kept:
        print(f"kept {args.out}/source/{stem} as it is (--force rewrites it from the book)")
    print(f"wrote {len(ids)} assignments to {args.out}/source (instructor) and {args.out}/release (students)")


if __name__ == "__main__":
    main()
