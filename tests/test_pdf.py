"""The book as one PDF (``make pdf``, tools/book_pdf.py; ``make test`` builds it before the tests).

Every chapter's title is in the PDF's text and in its outline, at the page the contents name;
every page carries its number; no math is left as raw TeX; the published site holds the PDF and
its home page links it. The titles are read from the chapters' sources, not from the tool.
"""

import json
import os
import re
import unicodedata
from pathlib import Path

import pytest
import yaml

from conftest import SITE

pypdf = pytest.importorskip("pypdf")

ROOT = Path(__file__).resolve().parents[1]
PDF = Path(os.environ.get("DPNOTES_PDF", ROOT / "_build" / "pdf" / "dpnotes.pdf"))
RAW_TEX = ("\\frac", "$$", "\\begin{", "\\varepsilon", "\\(", "\\mathcal")
#: pages of the table of contents the PDF leaves out (tools/book_pdf.py says why)
LEFT_OUT = {"book/execution", "book/api"}


def _norm(text):
    """Ligatures undone (Chromium's PDFs set "ﬁ"), spaces collapsed, lower case."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).lower()


def _source_title(doc):
    """The first level-1 heading of a chapter's source (.ipynb or .md), up to its first math."""
    path = ROOT / f"{doc}.ipynb"
    if path.exists():
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        lines = [line for c in cells if c["cell_type"] == "markdown" for line in "".join(c["source"]).splitlines()]
    else:
        lines = (ROOT / f"{doc}.md").read_text(encoding="utf-8").splitlines()
    title = next(line[2:] for line in lines if line.startswith("# "))
    return re.split(r"\$|\\\(", title)[0].strip()


def _chapters():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    docs = [toc["root"]] + [c["file"] for part in toc["parts"] for c in part["chapters"]]
    return [d for d in docs if d not in LEFT_OUT]


@pytest.fixture(scope="module")
def pdf():
    if not PDF.exists():
        pytest.fail(f"{PDF} is missing: run `make pdf` (make test builds it before the tests)")
    reader = pypdf.PdfReader(PDF)
    return reader, [page.extract_text() for page in reader.pages]


def _outline(reader):
    flat = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                flat.append((_norm(item.title), reader.get_destination_page_number(item)))
    walk(reader.outline)
    return flat


def test_every_chapter_is_in_the_text_and_the_outline_in_order(pdf):
    reader, texts = pdf
    outline = _outline(reader)
    starts = []
    for doc in _chapters():
        title = _norm(_source_title(doc))
        hits = [page for name, page in outline if name.startswith(title)]
        assert hits, f"{doc}: {title!r} is not in the outline {[n for n, _ in outline]}"
        page = hits[-1]  # a part may carry the same name as its first chapter
        assert title in _norm(texts[page]), f"{doc}: its title is not on the page its bookmark opens ({page + 1})"
        starts.append(page)
    assert starts == sorted(starts) and len(set(starts)) == len(starts), "chapters out of the table of contents' order"
    contents = _norm(texts[1])
    assert contents.startswith("contents"), "the second page is not the table of contents"
    for page in starts:  # the contents list each chapter's first page (1-based)
        assert re.search(rf"\b{page + 1}\b", contents), f"the contents do not list page {page + 1}"


def test_page_count_is_plausible_and_every_page_is_numbered(pdf):
    reader, texts = pdf
    chapters = len(_chapters())
    assert chapters + 2 <= len(reader.pages) <= 60 * chapters, len(reader.pages)
    for number, text in enumerate(texts, start=1):
        lines = text.strip().splitlines()
        assert lines and lines[-1].strip() == str(number), f"page {number} does not end with its number: {lines[-1:]}"


def test_no_raw_tex_and_figures_printed_with_their_slider_values(pdf):
    _, texts = pdf
    for number, text in enumerate(texts, start=1):
        for tex in RAW_TEX:
            assert tex not in text, f"raw TeX {tex!r} on page {number}: {text[:300]!r}"
    # a printed figure shows its slider values as "label = value" (the site's print stylesheet)
    from dpnotes.figures import FIGURES
    labels = {s.label for fig in FIGURES.values() for s in fig.sliders}
    whole = _norm(" ".join(texts))
    shown = {label for label in labels if _norm(f"{label} =") in whole}
    assert shown == labels, f"sliders whose value is printed nowhere: {sorted(labels - shown)}"


def test_the_published_site_links_the_pdf():
    if not (SITE / "index.html").exists():
        pytest.fail(f"{SITE} is missing: make test publishes the book before testing it")
    assert (SITE / "dpnotes.pdf").read_bytes() == PDF.read_bytes()
    home = (SITE / "book" / "index.html").read_text(encoding="utf-8")
    assert 'href="../dpnotes.pdf"' in home
