"""Write the install cell of every chapter from the repository URL in ``_config.yml``.

On Colab, Binder or a fresh Jupyter the chapters need the book's package. Each chapter's first
code cell installs it when it is missing, from the repository named once, in ``_config.yml``
(``repository.url`` and ``repository.branch``): ``pip install "dpnotes @ git+<url>@<branch>"``. The
environment variable ``DPNOTES_INSTALL`` replaces that requirement (the tests install a local wheel
with it). The cell is folded in Jupyter (``source_hidden``) and left out of the static site
(``remove-cell``), where no code runs. It is plain Python: ``pip`` runs in the kernel's own interpreter.

A deployment names the repository it was built from (``make repository URL=…``, which the Pages
workflow runs with ``https://github.com/<owner>/<name>`` before it builds): ``--repository URL``
writes URL into ``_config.yml`` and then every install cell, so a fork's site installs the fork.

Usage: python tools/install_cell.py [--check] [--repository URL]
       (--check: write nothing, exit 1 if a chapter is not current)
"""

import re
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
    return install_source("On Colab, Binder or a fresh Jupyter: install the book's package if it is missing.",
                          f'"{requirement(config)}"')


def install_source(comment, default):
    """Code that pip-installs ``DPNOTES_INSTALL`` or else ``default`` (a Python expression) when dpnotes is missing."""
    return (
        f"# {comment}\n"
        "import importlib.util\n"
        "import os\n"
        "import subprocess\n"
        "import sys\n"
        "\n"
        'if importlib.util.find_spec("dpnotes") is None:\n'
        f'    requirement = os.environ.get("DPNOTES_INSTALL", {default})\n'
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


_URL = re.compile(r"^https://[A-Za-z0-9.-]+(/[A-Za-z0-9_.-]+)+$")
_CONFIG_URL = re.compile(r"^(repository:\n(?:[ \t]+.*\n|[ \t]*#.*\n)*?[ \t]+url:[ \t]*)(\S+)", re.M)


def set_repository(url, config_path=None):
    """Write ``url`` as ``repository.url`` in ``_config.yml`` (comments and layout kept); True if it changed.

    Raises ``ValueError`` unless ``url`` is an https address of a repository (no query, no trailing slash).
    """
    if not isinstance(url, str) or not _URL.match(url):
        raise ValueError(f"repository URL must look like https://github.com/<owner>/<name> (got {url!r})")
    path = config_path or ROOT / "_config.yml"
    text = path.read_text(encoding="utf-8")
    match = _CONFIG_URL.search(text)
    if match is None:
        raise ValueError(f"{path} has no repository.url line to replace")
    if match.group(2) == url:
        return False
    path.write_text(text[:match.start(2)] + url + text[match.end(2):], encoding="utf-8")
    return True


def main(argv=None):
    argv = list(argv if argv is not None else sys.argv[1:])
    if "--repository" in argv:
        i = argv.index("--repository")
        if i + 1 >= len(argv):
            print("usage: python tools/install_cell.py --repository https://github.com/<owner>/<name>")
            return 2
        try:
            set_repository(argv[i + 1])
        except ValueError as err:
            print(err)
            return 2
        del argv[i:i + 2]
    check = "--check" in argv
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
