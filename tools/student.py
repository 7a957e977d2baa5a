"""Write a copy of the chapters and the package with the solutions and answers removed (``make student``).

Removed from the chapters: every cell from a ``solution-start`` directive to its
``solution-end`` (inclusive), cells tagged ``solution``, and all outputs. Removed from the
package: ``dpnotes/chapter_exercises`` (every exercise's reference answer, as code), the
claims registry (``dpnotes/claims.py`` and ``dpnotes/data/claims.toml``, build-time only), and the "Examples" sections of the
docstrings (some evaluate a function at an exercise's parameters). In
their place ``dpnotes/exercise_data.json`` holds what the checker needs to verify an answer
and nothing from which an answer can be read (salted hashes of numbers and formula
fingerprints; inputs and the package function's name for code exercises; nothing for
written ones), and ``dpnotes/exercises.py`` checks against it, so a notebook's
``check("key", value)`` works unchanged. See ``dpnotes/exercise_kinds`` for the format.

Usage: python tools/student.py [output dir]      (default: student/)
"""

import ast
import json
import re
import shutil
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, not an installed one

DATA_FILE = "exercise_data.json"
#: package files a learner does not need: the exercises' reference answers, and the registry of the
#: book's claims (build-time only; its notes quote worked numbers)
NOT_SHIPPED = ("__pycache__", "*.pyc", "chapter_exercises", "claims.py", "claims.toml")

STUDENT_FRONT = '''"""Check an exercise of the book: ``check(key, value)`` returns right, close or wrong (with a hint).

Student copy: no answer is stored here. ``exercise_data.json`` (written by ``make student``)
holds only what the checker needs to verify an answer: salted hashes of rounded values and
formula fingerprints, the inputs on which a function is tested, and the name of the
package function it is compared with.
"""

from pathlib import Path

from .exercise_kinds import StudentRegistry, Verdict

__all__ = ["check", "EXERCISES", "Verdict"]

EXERCISES = StudentRegistry.from_file(Path(__file__).with_name("exercise_data.json"))


def check(key, value):
    """Check a learner's answer to exercise ``key``; returns a Verdict."""
    return EXERCISES.check(key, value)
'''


def strip_solutions(nb):
    cells, inside = [], False
    for cell in nb.cells:
        src = cell.source
        if "{solution-start}" in src:
            inside = True
            before = src.split("```{solution-start}")[0].rstrip()
            if before:  # text before the directive stays
                cells.append(nbformat.v4.new_markdown_cell(before))
        if not inside and "solution" not in cell.metadata.get("tags", []):
            cells.append(cell)
        if "{solution-end}" in src:
            inside = False
            after = src.split("{solution-end}", 1)[1].lstrip("`\n ")
            if after.strip():
                cells.append(nbformat.v4.new_markdown_cell(after))
    nb.cells = cells
    return nb


def student_pyproject(text):
    """The project file with the exercise data declared as package data."""
    pattern = re.compile(r"^(dpnotes[ \t]*=[ \t]*\[)(.*)\][ \t]*$", re.M)
    if pattern.search(text):
        return pattern.sub(lambda m: f'{m.group(1)}{m.group(2)}, "{DATA_FILE}"]', text, count=1)
    return text + f'\n[tool.setuptools.package-data]\ndpnotes = ["{DATA_FILE}"]\n'


def strip_docstring_examples(source):
    """The module's source with the "Examples" section of every docstring removed.

    Doctests are run in the project, not by learners, and a few of them evaluate a function
    at the very parameters of an exercise. The rest of each docstring (the formula, the
    parameters, the references) stays.
    """
    lines = source.splitlines(keepends=True)
    cuts = []
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if not isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) or not body:
            continue
        first = body[0]
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)):
            continue
        start, end = first.lineno - 1, first.end_lineno - 1
        for i in range(start, end):
            if lines[i].strip() == "Examples" and set(lines[i + 1].strip()) == {"-"}:
                if lines[end].strip() in ('"""', "'''"):
                    cuts.append((i, end))
                break
    for i, end in sorted(cuts, reverse=True):
        del lines[i:end]
        if i > 0 and not lines[i - 1].strip():  # the blank line that preceded the section
            del lines[i - 1]
    stripped = "".join(lines)
    ast.parse(stripped)  # still valid Python
    return stripped


def write_package(out):
    """Copy dpnotes without its chapter exercises; add the exercise data and the student front."""
    from dpnotes.chapter_exercises import REGISTRY
    from dpnotes.exercise_kinds import export

    shutil.copytree(ROOT / "dpnotes", out / "dpnotes", ignore=shutil.ignore_patterns(*NOT_SHIPPED))
    for path in (out / "dpnotes").rglob("*.py"):
        path.write_text(strip_docstring_examples(path.read_text(encoding="utf-8")), encoding="utf-8")
    (out / "dpnotes" / "exercises.py").write_text(STUDENT_FRONT, encoding="utf-8")
    data = export(REGISTRY)
    (out / "dpnotes" / DATA_FILE).write_text(json.dumps(data, ensure_ascii=False, indent=0), encoding="utf-8")
    (out / "pyproject.toml").write_text(student_pyproject((ROOT / "pyproject.toml").read_text()), encoding="utf-8")
    shutil.copy2(ROOT / "requirements.txt", out / "requirements.txt")


def main(out_dir):
    out = Path(out_dir)
    if out.exists():
        shutil.rmtree(out)
    (out / "book").mkdir(parents=True)
    for path in sorted((ROOT / "book").glob("*.ipynb")):
        nb = strip_solutions(nbformat.read(path, as_version=4))
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nbformat.write(nb, out / "book" / path.name)
    write_package(out)
    print(f"wrote {out}/ (solutions and answers removed)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ROOT / "student")
