"""Write a copy of the chapters and the package with the solutions and answers removed (``make student``).

Removed from the chapters: every cell from a ``solution-start`` directive to its
``solution-end`` (inclusive), cells tagged ``solution``, and all outputs. The markdown is
rewritten from MyST into the plain Markdown JupyterLab and Notebook 7 render
(``tools/myst_plain.py``: an exercise becomes a bold title line and its text, a theorem its
kind and title, an admonition a block quote, a citation "Author (year)"; ``$…$`` math stays),
and the install cell installs this copy (the folder above ``book/``) when ``dpnotes`` is missing.
The copy carries a ``README.md`` (what it is, how to install it, how to check an answer). Removed from the
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

import install_cell
import myst_plain

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, not an installed one
sys.path.insert(1, str(ROOT / "tools"))  # myst_plain, install_cell

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


_SOLUTION_START = re.compile(r"^(`{3,}|:{3,})\{solution-start\}", re.M)
#: a solution-end directive: its opening line, any options, its closing fence (and nothing after it)
_SOLUTION_END = re.compile(r"^(?P<fence>`{3,}|:{3,})\{solution-end\}[^\n]*\n(?:[ \t]*:[\w-]+:[^\n]*\n)*"
                           r"[ \t]*(?P=fence)[ \t]*(?:\n|$)", re.M)

#: the install cell of the copy: this copy, from the folder above the notebooks, when dpnotes is missing
INSTALL_SOURCE = install_cell.install_source(
    "Installs this student copy of the book's package (the folder above this notebook) if dpnotes is missing.",
    "os.path.dirname(os.getcwd())")

README = """# dpnotes: the student copy

The chapters of the book *{title}* as Jupyter notebooks (`book/`), and the book's Python
package `dpnotes` without the answers: the exercises' reference solutions, the solution
dropdowns and the stored outputs are removed. `check("key", answer)` still tells you whether an
answer is right, close or wrong, and names a common slip, by comparing it with salted hashes
(`dpnotes/exercise_data.json`), never with a stored answer.

## Install

Python 3.11 or newer. From this folder:

```bash
python -m pip install .
```

(or `python -m pip install ./student` from the folder above it). Each notebook's first code cell
runs that line for you when `dpnotes` is missing. Then open the chapters in JupyterLab or
Notebook 7 (`python -m pip install jupyterlab`, `jupyter lab book`) and run each notebook from
the top.

## Check an answer

Each exercise is a bold **Exercise** paragraph followed by a code cell:

```python
answer = None  # replace None with your value
check("composition-advanced-eps", answer)
```

Replace `None` with your number (to the precision the exercise asks), formula (a string
in the exercise's symbols, such as `"2*alpha*sqrt(T)/sigma"`) or function, and run the cell. A written answer goes in the string
of its cell; `check` only records that there is one: it is graded by hand.

## What this copy hides and what it does not

Hidden: every exercise's answer and solution, the reference formulas, the model solutions and
rubrics of written exercises. Not hidden: the prompts, the hints, the inputs on which a function
you write is tested and the name of the package function it is compared with (you may read
that function: the point is to write your own), and the package itself. Links to other chapters
open the notebook here; a page that is not a notebook (the glossary, the notation) is named as
*Title* (in the book).
"""


def solution_free_cells(nb):
    """The notebook's cells with every solution dropdown removed (and cells tagged ``solution``)."""
    cells, inside = [], False
    for cell in nb.cells:
        src = cell.source
        start = _SOLUTION_START.search(src)
        if start:
            inside = True
            before = src[: start.start()].rstrip()
            if before:  # text before the directive stays
                cells.append(nbformat.v4.new_markdown_cell(before))
        if not inside and "solution" not in cell.metadata.get("tags", []):
            cells.append(cell)
        end = _SOLUTION_END.search(src, start.end() if start else 0) if inside else None
        if end:
            inside = False
            after = src[end.end():].strip("\n")
            if after.strip():
                cells.append(nbformat.v4.new_markdown_cell(after))
    return cells


def strip_solutions(nb):
    nb.cells = solution_free_cells(nb)
    return nb


def plain_notebook(nb, convert):
    """The notebook's markdown rewritten by ``convert`` (MyST → plain Markdown); the install cell for the copy."""
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = convert(cell.source)
        elif "install-cell" in cell.metadata.get("tags", []):
            cell.source = INSTALL_SOURCE
            cell.metadata.get("jupyter", {}).pop("source_hidden", None)
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
    import yaml

    out = Path(out_dir)
    if out.exists():
        shutil.rmtree(out)
    (out / "book").mkdir(parents=True)
    chapters = sorted((ROOT / "book").glob("*.ipynb"))
    convert = myst_plain.PlainMarkdown.for_book(ROOT / "book", copied=[p.name for p in chapters])
    for path in chapters:
        nb = plain_notebook(strip_solutions(nbformat.read(path, as_version=4)), convert)
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nbformat.write(nb, out / "book" / path.name)
    title = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["title"]
    (out / "README.md").write_text(README.format(title=title), encoding="utf-8")
    write_package(out)
    print(f"wrote {out}/ (solutions and answers removed)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ROOT / "student")
