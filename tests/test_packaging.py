"""The wheel users install: every data file in it, its licenses, and every import declared."""

import ast
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import wheel_smoke  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: import name → the distribution that provides it, where the two differ
DISTRIBUTION = {"sklearn": "scikit-learn", "PIL": "Pillow", "IPython": "ipywidgets"}  # ipywidgets requires IPython


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    # the one wheel builder (tools/wheel_smoke.py): from a copy of the package's files, no build/ in the checkout
    path = wheel_smoke.build_wheel(tmp_path_factory.mktemp("wheel"))
    with zipfile.ZipFile(path) as z:
        return set(z.namelist())


def _package_files():
    tracked = subprocess.run(["git", "ls-files", "dpnotes"], cwd=ROOT, check=True, capture_output=True,
                             text=True).stdout.split()
    return [f for f in tracked if (ROOT / f).is_file()]


def test_every_package_file_is_in_the_wheel(wheel):
    missing = [f for f in _package_files() if f not in wheel]
    assert not missing, f"in the package but not in the wheel: {missing}"


def test_the_wheel_carries_its_licenses(wheel):
    for name in ("LICENSE", "LICENSE-TEXT.md"):
        assert any(f.endswith(f".dist-info/licenses/{name}") or f.endswith(f".dist-info/{name}") for f in wheel), name


def _third_party_imports():
    found = {}
    for f in _package_files():
        if not f.endswith(".py"):
            continue
        for node in ast.walk(ast.parse((ROOT / f).read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                if top != "dpnotes" and top not in sys.stdlib_module_names:
                    found.setdefault(top, f)
    return found


def test_every_import_is_a_declared_dependency():
    declared = {d.split(";")[0].split("[")[0].split(">")[0].split("<")[0].split("=")[0].split("~")[0].strip().lower()
                for d in PYPROJECT["project"]["dependencies"]}
    undeclared = {top: where for top, where in _third_party_imports().items()
                  if DISTRIBUTION.get(top, top).lower() not in declared}
    assert not undeclared, f"imported but not declared in pyproject.toml: {undeclared}"


def test_every_declared_dependency_is_imported():
    imported = {DISTRIBUTION.get(top, top).lower() for top in _third_party_imports()}
    declared = [d.split(">")[0].split("<")[0].split("=")[0].strip() for d in PYPROJECT["project"]["dependencies"]]
    assert [d for d in declared if d.lower() not in imported] == []
