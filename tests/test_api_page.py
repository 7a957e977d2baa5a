"""The API reference page (book/api.md, written by tools/api_page.py): current, and complete."""

import re
import sys
from pathlib import Path

import dpnotes

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import api_page  # noqa: E402


def test_the_page_is_current():
    assert api_page.PAGE.read_text(encoding="utf-8") == api_page.page_text(), \
        "book/api.md is stale: run `python tools/api_page.py` (make claims does)"


def test_every_public_name_is_documented_once():
    text = api_page.PAGE.read_text(encoding="utf-8")
    documented = re.findall(r"^\.\. (?:autofunction|autoclass):: dpnotes\.(\w+)$", text, re.M)
    documented += re.findall(r"^\.\. py:data:: (\w+)\n   :module: dpnotes$", text, re.M)
    assert sorted(documented) == sorted(dpnotes.__all__)


def test_the_page_is_in_the_table_of_contents():
    assert "- file: book/api\n" in (ROOT / "_toc.yml").read_text(encoding="utf-8")
