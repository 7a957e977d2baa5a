"""The map of which chapters use each module (tools/module_chapters.py): current, and the only such record."""

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("module_chapters", ROOT / "tools" / "module_chapters.py")
module_chapters = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(module_chapters)

def test_the_readme_map_is_up_to_date():
    text = module_chapters.README.read_text(encoding="utf-8")
    assert text == module_chapters.readme_text(text), "run `python tools/module_chapters.py` (make claims does)"


def test_no_docstring_keeps_a_hand_written_used_in_line():
    """The README map is generated from the chapters; a "Used in:" line in a docstring would drift from it."""
    carrying = {p.relative_to(ROOT).as_posix() for p in sorted((ROOT / "dpnotes").rglob("*.py"))
                if re.search(r"^\s*Used in:", p.read_text(encoding="utf-8"), re.M)}
    assert not carrying, sorted(carrying)


def test_known_uses_are_found():
    # chapter 2 imports exact_epsilon_rr_composition through dpnotes.privacy_loss's re-exports; it is defined
    # in dpnotes.privacy_loss.curves
    uses = module_chapters.module_chapters()
    assert "book/02-composition" in uses["dpnotes.privacy_loss.curves"]
    assert uses["dpnotes.figures.composition"] == ["book/02-composition"]  # its figures are shown there only
    assert uses["dpnotes.chapter_exercises.renyi"] == ["book/01-renyi-gaussian"]  # its exercises' chapter
    assert "dpnotes.privacy_loss" not in uses  # names resolve to the module defining them


def test_a_chapter_uses_what_it_imports_shows_and_calls(tmp_path):
    source = ["import dpnotes.rdp\n", "%matplotlib inline\n", "from dpnotes import renyi_divergence, DEFAULT_ORDERS\n",
              "from dpnotes.symbolic import gaussian\n", "from dpnotes.figures import FIGURES\n",
              "show(FIGURES[\"renyi-laplace\"])\n"]
    nb = tmp_path / "x.ipynb"
    nb.write_text(json.dumps({"cells": [{"cell_type": "code", "source": source},
                                        {"cell_type": "markdown", "source": ["from dpnotes.tradeoff import x"]}]}))
    assert module_chapters.chapter_modules(nb) == {
        "dpnotes.rdp", "dpnotes.divergence", "dpnotes", "dpnotes.symbolic.gaussian", "dpnotes.figures",
        "dpnotes.figures.renyi"}


def test_the_readme_needs_its_markers():
    with pytest.raises(ValueError, match="marker"):
        module_chapters.readme_text("no markers here")
