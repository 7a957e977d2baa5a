"""Write a copy of the chapters with the solutions removed (``make student``).

Removed: every cell from a ``solution-start`` directive to its ``solution-end``
(inclusive), and cells tagged ``solution``. Output: ``student/``.
Usage: python tools/student.py [output dir]
"""

import shutil
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


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
    for name in ("dpnotes", "requirements.txt", "pyproject.toml"):
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, out / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, out / name)
    print(f"wrote {out}/ (solutions removed)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else ROOT / "student")
