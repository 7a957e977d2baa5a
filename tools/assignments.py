"""Write nbgrader assignments from the chapters' exercises (``make assignments``).

For every chapter with exercises, an nbgrader *source* notebook (the instructor's version:
prompts, solutions, hidden tests, rubrics) is written to ``<out>/source/<chapter>/``, and
nbgrader's ``generate_assignment`` writes the *release* (the students' version: no
solutions, no hidden tests) to ``<out>/release/<chapter>/``. ``<out>`` (default
``_build/assignments``) is an nbgrader course directory with its ``nbgrader_config.py``.

Each exercise becomes a locked prompt, an answer cell and, unless it is written, a locked
test cell worth its stars in points: the visible part prints ``check(key, answer)`` (the
same feedback as in the book; the student copy's hashed checker answers it), the hidden
part returns ``score(key, answer, points)`` from the full package (all points if right,
half if close), which nbgrader reads as partial credit. A written exercise becomes a
manually graded Markdown cell worth its rubric's points, with the model solution and the
rubric in the instructor's version only.

Grading needs this repository's package (with ``dpnotes.chapter_exercises``) in the
environment that runs ``nbgrader autograde``.

Usage: python tools/assignments.py [out dir] [--book DIR] [--only STEM ...] [--source-only]
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

CONFIG = '''# nbgrader configuration of the dpnotes assignments (written by tools/assignments.py)
c = get_config()  # noqa: F821
c.CourseDirectory.root = "."
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
c.Execute.timeout = 120
'''

_EXERCISE = re.compile(r"```\{exercise\}[ \t]*(?P<title>[^\n]*)\n(?P<options>(?::[^\n]*\n)*)\n?(?P<body>.*?)\n?```",
                       re.S)
_ROLE = re.compile(r"\{(?P<role>[\w:-]+)\}`(?P<text>[^`]*)`")
_STARS = {1: "★", 2: "★★", 3: "★★★"}


@dataclass
class Item:
    """One exercise of a chapter as written in its notebook."""

    key: str
    title: str
    body: str
    answer_cell: str = ""
    solution_code: list = field(default_factory=list)


def plain_markdown(text):
    """MyST roles turned into Markdown a plain Jupyter renders."""
    def role(m):
        name, inner = m.group("role"), m.group("text")
        label = re.match(r"^(?P<shown>.*?)\s*<(?P<target>[^>]+)>$", inner, re.S)
        shown = label.group("shown") if label else inner
        if name == "prf:ref":
            return f"**{shown.upper()}** (in the book)" if re.match(r"^s\d+-\d+$", shown) else f"*{shown}* (in the book)"
        if name.startswith("cite"):
            return f"({shown})"
        if name == "math":
            return f"${shown}$"
        return shown

    return _ROLE.sub(role, text)


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
           + (f"; written answers, graded by hand: {manual:g}." if manual else "."), **{"metadata": _meta(
               "header", locked=True)}),
        code(setup, metadata=_meta("setup", locked=True)),
    ]
    for n, item in enumerate(items, 1):
        spec = registry[item.key]
        points = spec.points if spec.kind == "written" else spec.stars
        prompt = (f"## Exercise {n}: {item.title} ({_STARS[spec.stars]}, {points:g} point{'s' if points != 1 else ''})"
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
        cells.append(code(f'print(check("{item.key}", {target}))\n### BEGIN HIDDEN TESTS\n'
                          f'from dpnotes.chapter_exercises import score\n'
                          f'score("{item.key}", {target}, {points})\n### END HIDDEN TESTS',
                          metadata=_meta(f"{item.key}-test", grade=True, locked=True, points=points)))
    out = nbformat.v4.new_notebook(cells=cells)
    out.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return out


def write_course(out, book=ROOT / "book", only=None):
    """Write the config and the source notebooks; returns the assignment ids."""
    from dpnotes.chapter_exercises import REGISTRY

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "nbgrader_config.py").write_text(CONFIG)
    ids = []
    for path in sorted(Path(book).glob("*.ipynb")):
        if only and path.stem not in only:
            continue
        nb = source_notebook(nbformat.read(path, as_version=4), path.stem, REGISTRY)
        if nb is None:
            continue
        target = out / "source" / path.stem
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        nbformat.write(nb, target / f"{path.stem}.ipynb")
        ids.append(path.stem)
    return ids


def nbgrader_api(out):
    """nbgrader's API on the course directory ``out``, with the configuration written there."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    # nbgrader runs its database migrations with the `alembic` script, found on PATH: use this environment's
    scripts = sysconfig.get_path("scripts")
    if scripts not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = scripts + os.pathsep + os.environ.get("PATH", "")

    config = Config()
    config.CourseDirectory.root = str(Path(out).resolve())
    config.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE"}
    config.ClearSolutions.text_stub = "YOUR ANSWER HERE"
    config.Execute.timeout = 120
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
    parser.add_argument("--only", nargs="*", help="chapter stems to include")
    parser.add_argument("--source-only", action="store_true", help="write the instructor's versions only")
    args = parser.parse_args(argv)
    ids = write_course(args.out, args.book, args.only)
    if not args.source_only:
        release(args.out, ids)
    print(f"wrote {len(ids)} assignments to {args.out}/source (instructor) and {args.out}/release (students)")


if __name__ == "__main__":
    main()
