"""Write the book's pages "Claims and where they are checked" and "Findings" from the claims registry.

The registry is data (``dpnotes/data/claims.toml``, loaded by :mod:`dpnotes.claims`); this
tool turns it into ``book/claims.md`` and ``book/findings.md`` (``make claims``, which
``make book`` runs). ``tests/test_claims_registry.py`` checks that the committed pages are
what this writes.

Usage: python tools/claims_pages.py
"""

from pathlib import Path

from dpnotes.claims import CLAIMS, FINDING_STATUSES, SOURCES, STATUSES
from dpnotes.figures import FIGURES

ROOT = Path(__file__).resolve().parents[1]
ROWS = list(CLAIMS.values())


def _doc_link(chapter, text):
    return f"{{doc}}`{text} </{chapter}>`" if chapter else text


def claims_page():
    """The MyST source of the page "Claims and where they are checked"."""
    done = sum(bool(c.stated and c.verified) for c in ROWS)
    lines = [
        "(claims)=",
        "# Claims and where they are checked",
        "",
        "The book grew out of five informal documents on privacy accounting (listed below by title).",
        "Every mathematical claim in them has an ID. For each, this table says where",
        "the book **states** it (a link to the theorem or definition), **derives** it (a sympy",
        "derivation in the package), **verifies** it (the tests that check it by an independent",
        "route) and **shows** it (a figure with sliders, where the claim has a parameter to move: a",
        "definition, an inequality between fixed objects or a counterexample has none). The page is",
        "generated from the claims registry (`dpnotes/data/claims.toml`) by `tools/claims_pages.py`.",
        "",
        f"Stated and verified so far: **{done} of {len(ROWS)}** claims.",
        "",
    ]
    for key, title in SOURCES.items():
        lines += [f"## Claims S{key}: {title[0].upper()}{title[1:]}", "", "| ID | claim | stated | derived | verified by | shown | status |",
                  "|---|---|---|---|---|---|---|"]
        for c in (c for c in ROWS if c.source == key):
            stated = f"{{prf:ref}}`{c.id} <{c.stated}>`" if c.stated else ""
            derived = f"`{c.derived.rsplit('.', 1)[-1]}`" if c.derived else ""
            verified = "<br>".join(f"`{v.split('::')[-1]}`" for v in c.verified)
            shown = ""
            if c.shown:
                shown = f"{{ref}}`{FIGURES[c.shown].key} <fig-{c.shown}>`"
            status = STATUSES[c.status]["label"]
            if c.status in FINDING_STATUSES:
                status = f"[{status}](#{_anchor(c)})"
            lines.append(f"| {c.id} | {_cell(c.statement)} | {stated} | {derived} | {verified} | {shown} | {status} |")
        lines.append("")
    return "\n".join(lines)


def _cell(text):
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("*", "\\*")


def _anchor(claim):
    return f"finding-{claim.id.lower()}"


def findings_page():
    """The MyST source of the closing page "Findings", generated from the registry.

    Every claim whose status is a finding (:data:`FINDING_STATUSES`), grouped by
    status, with the source passage it is about, what the book found, where the
    book states it and the tests that check it.
    """
    found = [c for c in ROWS if c.status in FINDING_STATUSES]
    counts = ", ".join(f"{sum(c.status == s for c in found)} {STATUSES[s]['label']}" for s in FINDING_STATUSES)
    lines = [
        "(findings)=",
        "# Findings: where the sources are wrong, loose or open",
        "",
        "Checking every claim of the source documents by an independent computation turned up the",
        "claims below. They are sorted by what kind of finding they are, from the strongest",
        "(wrong under every reasonable reading) to the mildest (a typo, or a loose but valid bound).",
        "The book says a source is *wrong* only where every reasonable reading of the passage fails;",
        "where one reading holds, the finding says which, and the book states and checks that reading.",
        "Each finding quotes the passage it is about, links to the statement in the book and names",
        "the tests that check it. The page is generated from the claims registry",
        "(`dpnotes/data/claims.toml`, by `tools/claims_pages.py`), like the {ref}`claims table <claims>`.",
        "",
        f"Findings: **{len(found)}** of {len(ROWS)} claims ({counts}).",
        "",
    ]
    for status in FINDING_STATUSES:
        group = [c for c in found if c.status == status]
        if not group:
            continue
        lines += [f"## {STATUSES[status]['title']}", "", STATUSES[status]["meaning"], ""]
        for c in group:
            where = f"{{prf:ref}}`stated as {c.id} <{c.stated}>`" if c.stated else c.id
            if c.chapter:
                where += " in " + _doc_link(c.chapter, c.chapter.rsplit("/", 1)[-1])
            verified = ", ".join(f"`{v.split('::')[-1]}`" for v in c.verified) or "none yet"
            lines += [
                f"({_anchor(c)})=",
                f"### {c.statement}",
                "",
                f"**{c.id}** · {where}",
                "",
                f"> {SOURCES[c.source][0].upper()}{SOURCES[c.source][1:]}: “{c.quote}”",
                "",
                f"**What the book found.** {c.note}",
                "",
                f"**Checked by** {verified}.",
                "",
            ]
    return "\n".join(lines)


def write_page(path=None):
    """Write ``book/claims.md`` (or ``path``) and, next to it, ``findings.md``; return both paths."""
    path = Path(path or ROOT / "book" / "claims.md")
    path.write_text(claims_page(), encoding="utf-8")
    findings = path.with_name("findings.md")
    findings.write_text(findings_page(), encoding="utf-8")
    return path, findings


if __name__ == "__main__":
    for written in write_page():
        print(f"wrote {written}")
