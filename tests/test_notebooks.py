"""Chapter notebooks: marked cells carry stored outputs; outputs stay small."""

import json
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "book").glob("*.ipynb"))


def _cells(nb):
    return json.loads(nb.read_text())["cells"]


def _checked(cell):
    """A result cell nbval compares: tagged ``nbval-check-output`` (the tag keeps the marker out of sight)."""
    return cell["cell_type"] == "code" and "nbval-check-output" in cell.get("metadata", {}).get("tags", [])


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_marked_cells_have_stored_outputs(nb):
    # nbval passes a marked cell with no stored output vacuously; refuse that
    for i, cell in enumerate(_cells(nb)):
        if _checked(cell):
            assert cell.get("outputs"), f"{nb.name} cell {i} is marked but has no stored output"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_outputs_small_and_deterministic(nb):
    data = json.loads(nb.read_text())
    assert "widgets" not in data["metadata"], "widget state is stored; run tools/execute_notebooks.py"
    assert nb.stat().st_size < 150_000
    for cell in data["cells"]:
        for out in cell.get("outputs", []):
            assert "image/png" not in out.get("data", {}), "PNG outputs are rebuilt, not stored"


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_every_chapter_has_a_marked_result(nb):
    assert any(_checked(c) for c in _cells(nb))


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=lambda p: p.name)
def test_no_visible_tooling_markers(nb):
    """nbval markers are cell tags, never comments a reader sees; the import cell is folded."""
    code = [c for c in _cells(nb) if c["cell_type"] == "code"]
    for i, cell in enumerate(code):
        assert "NBVAL_" not in "".join(cell["source"]), f"{nb.name} code cell {i}: use the nbval-check-output tag"
    first = code[0]
    if "".join(first["source"]).lstrip().startswith(("import", "from")):
        assert {"hide-input", "remove-input"} & set(first.get("metadata", {}).get("tags", [])), nb.name


def test_every_chapter_is_in_the_toc():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = {c["file"] for part in toc["parts"] for c in part["chapters"]}
    for nb in NOTEBOOKS:
        assert f"book/{nb.stem}" in files, nb.name
