"""The book as a textbook: written for readers who have never seen its sources.

Checked on the built site (what a reader gets) and on the chapter sources:

- outside the collapsed "About the source" notes, and outside the claims and findings pages,
  no chapter says "seed", and no statement title shows a bare claim ID (the ID lives in the
  statement's label and in its small ``claim-tag``);
- every chapter cites the literature, and every citation resolves to the bibliography,
  whose every entry links to the paper (DOI or arXiv) and is cited somewhere;
- every glossary term is linked from a chapter, and every Greek letter in a statement is on
  the notation page;
- figure titles, trace names and slider labels say no "seed" either.
"""

import json
import os
import re
from pathlib import Path

import pytest
import yaml

bs4 = pytest.importorskip("bs4")

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("DPNOTES_HTML", ROOT / "_build" / "html"))
BOOK = ROOT / "book"
TOC = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
DOCS = [c["file"] for part in TOC["parts"] for c in part["chapters"]]
CHAPTERS = [d for d in DOCS if (ROOT / f"{d}.ipynb").exists()]
EXEMPT = {"book/claims", "book/findings"}  # they are about the sources by design
CLAIM_ID = re.compile(r"\bS[0-4]-\d{2}\b")
SEED = re.compile(r"\bseeds?\b", re.IGNORECASE)


def _soup(doc):
    path = HTML / f"{doc}.html"
    if not path.exists():
        pytest.fail(f"build the book first (make book): {path} is missing")
    return bs4.BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def _article(doc):
    """The page's main text as a reader sees it, without the "About the source" notes."""
    soup = _soup(doc)
    main = soup.select_one("article.bd-article") or soup.body
    for hidden in main.select(".about-source, script, style, .dpnotes-data"):
        hidden.decompose()
    return main


#: on the API page "seed" is also a random generator's seed (``seed : int``); there only the source
#: documents' names ("seed 004", "the seed's proof") are refused
SOURCE_SEED = re.compile(r"\b[Ss]eeds? ?0\d\d|\b[Tt]he seed'?s?\b(?! of)")


@pytest.mark.parametrize("doc", [d for d in DOCS if d not in EXEMPT])
def test_no_page_speaks_of_seeds(doc):
    text = _article(doc).get_text(" ")
    pattern = SOURCE_SEED if doc == "book/api" else SEED
    hits = [text[max(0, m.start() - 60):m.end() + 60].replace("\n", " ") for m in pattern.finditer(text)]
    assert not hits, f"{doc}: 'seed' outside an About-the-source note: {hits[:5]}"


@pytest.mark.parametrize("doc", [d for d in DOCS if d not in EXEMPT])
def test_statement_titles_are_descriptive(doc):
    main = _article(doc)
    bad = []
    for title in main.select("div.proof p.admonition-title, div.proof .admonition-title, "
                             "div.exercise .admonition-title, h1, h2, h3"):
        text = title.get_text(" ")  # the badge included: it shows no ID either
        if CLAIM_ID.search(text):
            bad.append(text.strip())
    assert not bad, f"{doc}: a bare claim ID in a title: {bad}"


def test_claim_badges_link_to_their_row_of_the_claims_table():
    rows = {span["id"] for span in _soup("book/claims").select('span[id^="claim-"]')}
    tagged = 0
    for doc in CHAPTERS:
        for tag in _soup(doc).select(".claim-tag"):
            assert tag.get_text().strip() == "✓ checked", tag
            link = tag.find("a")
            page, _, row = link["href"].partition("#")
            assert page.endswith("claims.html") and row in rows, tag
            tagged += 1
    assert tagged >= 54, f"only {tagged} statements carry their claim tag"


@pytest.mark.parametrize("doc", CHAPTERS)
def test_every_chapter_cites_the_literature(doc):
    links = [a["href"] for a in _soup(doc).select("a[href]") if "bibliography.html#" in a["href"]]
    assert links, f"{doc} cites no work"


def _bib_entries():
    text = (BOOK / "references.bib").read_text(encoding="utf-8")
    return re.findall(r"@(\w+)\{([^,]+),(.*?)\n\}", text, flags=re.S)


def test_bibliography_entries_link_to_the_papers():
    entries = _bib_entries()
    assert len(entries) >= 25
    for _, key, body in entries:
        assert re.search(r"\bdoi\s*=|\beprint\s*=", body), f"{key}: neither a DOI nor an arXiv id"
        if "eprint" in body:
            assert re.search(r"eprint\s*=\s*\{\d{4}\.\d{4,5}\}", body), f"{key}: malformed arXiv id"
            assert "archiveprefix" in body.lower(), key


def test_bibliography_page_lists_every_entry_with_a_link():
    hrefs = [a["href"] for a in _soup("book/bibliography").select("a[href]")]
    for _, key, body in _bib_entries():
        doi = re.search(r"doi\s*=\s*\{([^}]+)\}", body)
        arxiv = re.search(r"eprint\s*=\s*\{([^}]+)\}", body)
        ident = doi.group(1) if doi else arxiv.group(1)
        assert any(ident in h for h in hrefs), f"{key}: {ident} is not a link on the bibliography page"


def test_every_bibliography_entry_is_cited():
    cited = set()
    pattern = re.compile(r"\{cite(?::[tp])?\}`([^`]+)`")
    sources = [p for p in BOOK.glob("*.ipynb")] + [p for p in BOOK.glob("*.md")]
    for path in sources:
        for keys in pattern.findall(path.read_text(encoding="utf-8")):
            cited.update(k.strip() for k in keys.split(","))
    keys = {key for _, key, _ in _bib_entries()}
    assert keys - cited == set(), f"in the bibliography but never cited: {sorted(keys - cited)}"
    assert cited - keys == set(), f"cited but not in the bibliography: {sorted(cited - keys)}"


def test_every_glossary_term_is_used():
    terms = {dt["id"] for dt in _soup("book/glossary").select("dl.glossary dt[id]")}
    assert len(terms) >= 30
    linked = set()
    for doc in DOCS:
        if doc == "book/glossary":
            continue
        for a in _soup(doc).select('a[href*="glossary.html#term-"]'):
            linked.add(a["href"].split("#", 1)[1])
    assert terms - linked == set(), f"glossary terms no chapter links to: {sorted(terms - linked)}"


_GREEK_NAMES = ("alpha|beta|gamma|delta|varepsilon|epsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|xi|pi|"
                "rho|varrho|sigma|tau|upsilon|phi|varphi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Phi|"
                "Psi|Omega")
#: a letter of a formula: a calligraphic/blackboard capital, a Greek letter, or a lone Latin letter
_LETTER = re.compile(r"\\(?:mathcal|mathbb)\s*\{?([A-Za-z])\}?|\\(" + _GREEK_NAMES + r")(?![A-Za-z])"
                     r"|(?<![\\A-Za-z])([A-Za-z])(?![A-Za-z])")
_WORDS = re.compile(r"\\(?:text|mathrm|operatorname|mathbf|textrm|begin|end)\{[^}]*\}|\\(?!mathcal\b|mathbb\b)[A-Za-z]+")
_MATH = re.compile(r"\$\$(.*?)\$\$|\$([^$]+)\$", re.S)
_STATEMENT = re.compile(r"(```|:::+)\{prf:(?:definition|theorem|lemma|proposition|corollary|property|conjecture)\}"
                        r"(.*?)\n\1(?!\S)", re.S)
_ROLES = re.compile(r"\{(?:cite(?::[tp])?|prf:ref|ref|doc|term|claim|numref)\}`[^`]*`|^:label:.*$", re.M)


def _letters(tex):
    """The letters of a formula, in order (Greek as ``\\alpha``, calligraphic as ``\\mathcal{M}``)."""
    found = []
    for m in _LETTER.finditer(_WORDS.sub(lambda w: w.group(0) if _LETTER.fullmatch(w.group(0)) else " ", tex)):
        found.append(f"\\mathcal{{{m.group(1)}}}" if m.group(1) else f"\\{m.group(2)}" if m.group(2) else m.group(3))
    return found


def _notation_rows():
    """The notation page's rows as (symbol column, meaning column)."""
    rows = []
    for line in (BOOK / "notation.md").read_text(encoding="utf-8").splitlines():
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| $") and len(cols) >= 3:
            rows.append((cols[0], cols[1]))
    return rows


def _entries(symbol_column):
    """The symbols of one row: its math spans, split at top-level commas (``$P, Q$`` lists two)."""
    out = []
    for m in _MATH.finditer(symbol_column):
        tex, depth, part = (m.group(1) or m.group(2)), 0, ""
        for ch in tex:
            depth += ch in "({[" and 1 or ch in ")}]" and -1 or 0
            if ch == "," and depth == 0:
                out.append(part.strip()), None
                part = ""
            else:
                part += ch
        out.append(part.strip())
    return [re.sub(r"\s+|\\[,;!]", "", e) for e in out if e.strip()]


def test_notation_lists_every_symbol_once_with_one_meaning():
    rows = _notation_rows()
    assert len(rows) >= 60
    seen = {}
    for symbols, meaning in rows:
        entries = _entries(symbols)
        for entry in entries:
            assert entry not in seen, f"{entry} is listed twice: {seen[entry]!r} and {meaning!r}"
            seen[entry] = meaning
        # a row of one symbol with a second meaning ("…; a mean in …", "…, or a point of …") is a collision
        # (a row of several symbols gives their meanings in turn, separated by semicolons)
        assert len(entries) > 1 or not re.search(r";\s+(?:a|an|the)\s|,\s+or\s+(?:a|an|the)\s", meaning), f"{symbols}: {meaning}"


def _listed_letters():
    """The letters that head a symbol of the notation page (``\\delta`` for ``\\delta(\\varepsilon)``)."""
    heads = set()
    for symbols, _ in _notation_rows():
        for entry in _entries(symbols):
            letters = _letters(entry)
            if letters:
                heads.add(letters[0])
    return heads


def test_statements_use_only_symbols_on_the_notation_page():
    listed = _listed_letters()
    missing = {}
    for nb in sorted(BOOK.glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        for _, body in _STATEMENT.findall(text):
            for m in _MATH.finditer(_ROLES.sub(" ", body)):
                for letter in set(_letters(m.group(1) or m.group(2))) - listed:
                    missing.setdefault(letter, set()).add(nb.stem)
    assert not missing, f"symbols in statements missing from the notation page: {missing}"


def test_figure_labels_do_not_speak_of_seeds():
    from dpnotes.figures import FIGURES

    for key, fig in FIGURES.items():
        labels = [fig.title, fig.x_label, fig.y_label] + [s.label for s in fig.sliders]
        defaults = {s.name: s.default for s in fig.sliders}
        labels += [t.name for t in fig.compute(**defaults)]
        for label in labels:
            assert not SEED.search(str(label or "")), f"{key}: {label!r}"
            assert not CLAIM_ID.search(str(label or "")), f"{key}: a claim ID in a figure label: {label!r}"


# ---- a chapter is a lesson: question first, takeaways, and the notes on the sources at its end ----

NUMBERED = sorted(BOOK.glob("[0-9]*.ipynb"))
_H2 = re.compile(r"^##\s+(.+?)\s*$", re.M)
_CITE = re.compile(r"\{cite(?::[tp])?\}`([^`]+)`")


def _sections(nb):
    """The chapter's markdown as (H2 heading, text) pairs, in order; the part before the first H2 is ''."""
    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    out, last, heading = [], 0, ""
    for m in _H2.finditer(text):
        out.append((heading, text[last:m.start()]))
        heading, last = m.group(1), m.end()
    out.append((heading, text[last:]))
    return out


@pytest.mark.parametrize("nb", NUMBERED, ids=lambda p: p.name)
def test_chapter_opens_with_its_question(nb):
    opening = _sections(nb)[0][1]
    before_objectives = opening.split("Learning objectives")[0]
    assert "?" in before_objectives, f"{nb.name}: no question before the learning objectives"


@pytest.mark.parametrize("nb", NUMBERED, ids=lambda p: p.name)
def test_chapter_has_takeaways_then_notes_citing_the_literature(nb):
    headings = [h for h, _ in _sections(nb)]
    assert "Key takeaways" in headings, f"{nb.name}: no 'Key takeaways' section"
    assert "Notes and further reading" in headings, f"{nb.name}: no 'Notes and further reading' section"
    assert headings.index("Notes and further reading") > headings.index("Key takeaways"), nb.name
    takeaways = dict(_sections(nb))["Key takeaways"]
    items = re.findall(r"^\s*(?:[-*]|\d+\.)\s+\S", takeaways, re.M)
    assert 3 <= len(items) <= 6, f"{nb.name}: {len(items)} takeaways (3 to 6 expected)"
    notes = dict(_sections(nb))["Notes and further reading"]
    works = {k.strip() for keys in _CITE.findall(notes) for k in keys.split(",")}
    assert len(works) >= 3, f"{nb.name}: the notes cite {len(works)} works (3 or more expected)"


@pytest.mark.parametrize("nb", NUMBERED, ids=lambda p: p.name)
def test_notes_on_the_sources_only_at_the_end(nb):
    for heading, text in _sections(nb):
        if heading != "Notes and further reading":
            assert not re.search(r"about the source", text, re.I), (
                f"{nb.name}: an 'About the source' note in section {heading!r}; it belongs under "
                "'Notes and further reading'")


@pytest.mark.parametrize("nb", sorted(BOOK.glob("*.ipynb")), ids=lambda p: p.name)
def test_chapter_titles_hold_no_math(nb):
    """A chapter's title is in every page's navigation, and pages without math load no MathJax:
    math in a title would show as raw TeX there."""
    cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
    text = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
    titles = re.findall(r"^# (.+)$", text, re.M)
    assert titles and "$" not in titles[0], f"{nb.name}: math in the title {titles[0]!r}"
