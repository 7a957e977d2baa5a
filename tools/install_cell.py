"""Write the install cell of every chapter from the repository URL in ``_config.yml``.

On Colab, Binder or a fresh Jupyter the chapters need the book's package. Each chapter's first
code cell installs it when it is missing, from the repository named once, in ``_config.yml``
(``repository.url`` and ``repository.branch``): ``pip install "dpnotes @ git+<url>@<branch>"``. The
environment variable ``DPNOTES_INSTALL`` replaces that requirement (the tests install a local wheel
with it). The cell is folded in Jupyter (``source_hidden``) and left out of the static site
(``remove-cell``), where no code runs. It is plain Python: ``pip`` runs in the kernel's own interpreter.

Usage: python tools/install_cell.py [--check]   (--check: write nothing, exit 1 if a chapter is not current)
"""

import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
TAG = "install-cell"


def requirement(config=None):
    """The pip requirement of the book's package, from ``_config.yml``'s repository."""
    config = config or yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    repo = config["repository"]
    return f"dpnotes @ git+{repo['url'].rstrip('/')}@{repo.get('branch', 'main')}"


def cell_source(config=None):
    """The cell's code: plain Python (no IPython magic), so every tool that parses the chapters can read it."""
    return (
        "# On Colab, Binder or a fresh Jupyter: install the book's package if it is missing.\n"
        "import importlib.util\n"
        "import os\n"
        "import subprocess\n"
        "import sys\n"
        "\n"
        'if importlib.util.find_spec("dpnotes") is None:\n'
        f'    requirement = os.environ.get("DPNOTES_INSTALL", "{requirement(config)}")\n'
        '    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", requirement], check=True)'
    )


def install_cell(config=None):
    cell = nbformat.v4.new_code_cell(cell_source(config))
    cell.metadata = {"tags": ["remove-cell", TAG], "jupyter": {"source_hidden": True}}
    return cell


def chapters():
    return sorted(ROOT.glob("book/*.ipynb"))


def update(path, config=None):
    """Put the current install cell first among ``path``'s code cells; True if the file changed."""
    nb = nbformat.read(path, as_version=4)
    want = install_cell(config)
    cells = [c for c in nb.cells if TAG not in c.metadata.get("tags", [])]
    first_code = next((i for i, c in enumerate(cells) if c.cell_type == "code"), len(cells))
    old = [c for c in nb.cells if TAG in c.metadata.get("tags", [])]
    if len(old) == 1 and nb.cells.index(old[0]) == first_code and old[0].source == want.source \
            and old[0].metadata == want.metadata:
        return False
    if old:
        want["id"] = old[0].get("id", want.get("id"))
    cells.insert(first_code, want)
    nb.cells = cells
    nbformat.write(nb, path)
    return True


def main(argv=None):
    check = "--check" in (argv if argv is not None else sys.argv[1:])
    stale = []
    for path in chapters():
        if check:
            nb = nbformat.read(path, as_version=4)
            cells = [c for c in nb.cells if TAG in c.metadata.get("tags", [])]
            if len(cells) != 1 or cells[0].source != cell_source():
                stale.append(path.name)
        elif update(path):
            stale.append(path.name)
    if check and stale:
        print("install cell missing or stale in: " + ", ".join(stale) + " (run python tools/install_cell.py)")
        return 1
    print(("checked " if check else "updated: ") + (", ".join(stale) if stale and not check else str(len(chapters())) + " chapters"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
