"""The Sphinx glue (book/_ext/dpnotes_sphinx.py): the version in the footer of every built page, and
the docstrings' |x| kept as text in the API reference."""

import importlib.util
import re
from pathlib import Path

import pytest

import dpnotes
from conftest import HTML

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("dpnotes_sphinx", ROOT / "book" / "_ext" / "dpnotes_sphinx.py")
ext = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ext)


def test_every_built_page_shows_the_version_in_its_footer():
    if not (HTML / "index.html").exists():
        pytest.fail(f"{HTML} has no site: run `make book`")
    pages = [p for p in (HTML / "book").glob("*.html")]
    assert pages
    for page in pages:
        footer = re.search(r'<div class="extra_footer">(.*?)</div>', page.read_text(encoding="utf-8"), re.S)
        assert footer and f"dpnotes {dpnotes.__version__}" in footer.group(1), page.name


def test_absolute_values_are_escaped_outside_math_and_literals():
    lines = ["Decreasing in |x| and ``|y|``, and :math:`|z|`.", "", ".. math:: |a|", "   |b| + 1",
             "", ">>> abs(-1) | 0", "after |c|"]
    ext._escape_bars(None, "function", "f", None, {}, lines)
    assert lines == ["Decreasing in \\|x\\| and ``|y|``, and :math:`|z|`.", "", ".. math:: |a|", "   |b| + 1",
                     "", ">>> abs(-1) | 0", "after \\|c\\|"]
