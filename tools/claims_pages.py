"""Write the book's pages "Claims and where they are checked" and "Findings" from the claims registry.

The registry is data (``dpnotes/data/claims.toml``, loaded by :mod:`dpnotes.claims`) plus two
sources that say the rest where it is true:

- the tests that verify a claim carry ``@pytest.mark.claim("S4-14")`` (several IDs allowed);
  :func:`claim_markers` reads them from ``tests/*.py`` without running pytest;
- the figures that show a claim say so (``Figure(..., claims=("S4-14",))`` in
  ``dpnotes/figures``); the chapter showing a figure is the notebook that calls
  ``show(FIGURES["key"])`` (:func:`figure_chapters`).

This tool turns them into ``book/claims.md`` and ``book/findings.md`` (``make claims``, which
``make book`` runs). ``tests/test_claims_registry.py`` checks that the committed pages are
what this writes, and that the run's markers agree with :func:`claim_markers`.

Usage: python tools/claims_pages.py
"""

import ast
import json
import re
from pathlib import Path

from dpnotes.claims import CLAIMS, FINDING_STATUSES, SOURCES, STATUSES
from dpnotes.figures import FIGURES

ROOT = Path(__file__).resolve().parents[1]
ROWS = list(CLAIMS.values())


def _is_claim_mark(node):
    """Whether ``node`` is the call ``pytest.mark.claim(...)``."""
    f = node.func if isinstance(node, ast.Call) else None
    return (isinstance(f, ast.Attribute) and f.attr == "claim" and isinstance(f.value, ast.Attribute)
            and f.value.attr == "mark" and isinstance(f.value.value, ast.Name) and f.value.value.id == "pytest")


def _claim_ids(nodes, where):
    """The claim IDs of the ``pytest.mark.claim(...)`` calls among ``nodes`` (literal strings only)."""
    ids = []
    for node in nodes:
        if _is_claim_mark(node):
            if node.keywords or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args):
                raise ValueError(f"{where}: pytest.mark.claim takes claim IDs as literal strings")
            ids += [a.value for a in node.args]
    return ids


def claim_markers(tests=None):
    """Node id → claim IDs of every test marked ``@pytest.mark.claim(...)``, read from ``tests/test_*.py``.

    A static scan (no pytest run, no import): the decorators of module-level test functions
    and of test classes and their methods, and a module-level ``pytestmark`` (one mark or a
    list), which marks every test of the module. Node ids are as pytest writes them from the
    directory above ``tests``, without parameters (``tests/test_x.py::test_y``); the order is by
    file, then line.
    """
    tests = Path(tests or ROOT / "tests")
    out = {}
    for path in sorted(tests.glob("test_*.py")):
        rel = f"{tests.name}/{path.name}"
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_ids = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
                value = node.value.elts if isinstance(node.value, (ast.List, ast.Tuple)) else [node.value]
                module_ids += _claim_ids(value, rel)

        def visit(body, prefix, inherited):
            for node in body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                    ids = _claim_ids(node.decorator_list, f"{rel}::{node.name}") + inherited
                    if ids:
                        out[f"{prefix}::{node.name}"] = tuple(dict.fromkeys(ids))
                elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
                    visit(node.body, f"{prefix}::{node.name}", _claim_ids(node.decorator_list, rel) + inherited)

        visit(tree.body, rel, module_ids)
    return out


def verifying_tests(markers=None):
    """Claim ID → the node ids of the tests marked for it (:func:`claim_markers`), in file order."""
    out = {}
    for node, ids in (claim_markers() if markers is None else markers).items():
        for cid in ids:
            out.setdefault(cid, []).append(node)
    return {cid: tuple(nodes) for cid, nodes in out.items()}


def figure_chapters():
    """Figure key → the chapter (``book/<stem>``) whose code calls ``show(FIGURES["key"])``."""
    out = {}
    for nb in sorted((ROOT / "book").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
        for key in re.findall(r"""show\(FIGURES\[["']([^"']+)["']\]""", code):
            if out.setdefault(key, f"book/{nb.stem}") != f"book/{nb.stem}":
                raise ValueError(f"figure {key} is shown by two chapters: {out[key]} and book/{nb.stem}")
    return out


def shown_by():
    """Claim ID → the keys of the figures that show it (``Figure.claims``), in the registry's order."""
    out = {}
    for key, fig in FIGURES.items():
        for cid in fig.claims:
            out.setdefault(cid, []).append(key)
    return {cid: tuple(keys) for cid, keys in out.items()}


def _doc_link(chapter, text):
    return f"{{doc}}`{text} </{chapter}>`" if chapter else text


def claims_page():
    """The MyST source of the page "Claims and where they are checked"."""
    verified_by, figures_of = verifying_tests(), shown_by()
    done = sum(bool(c.stated and verified_by.get(c.id)) for c in ROWS)
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
        "generated by `tools/claims_pages.py` from the claims registry (`dpnotes/data/claims.toml`), the",
        "tests' `@pytest.mark.claim` markers and the figures' `claims`.",
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
            verified = "<br>".join(f"`{v.split('::')[-1]}`" for v in verified_by.get(c.id, ()))
            shown = "<br>".join(f"{{ref}}`{key} <fig-{key}>`" for key in figures_of.get(c.id, ()))
            status = STATUSES[c.status]["label"]
            if c.status in FINDING_STATUSES:
                status = f"[{status}](#{_anchor(c)})"
            row_id = f'<span id="claim-{c.id.lower()}"></span>{c.id}'  # the target of the chapters' badges
            lines.append(f"| {row_id} | {_cell(c.statement)} | {stated} | {derived} | {verified} | {shown} | {status} |")
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
    verified_by = verifying_tests()
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
            verified = ", ".join(f"`{v.split('::')[-1]}`" for v in verified_by.get(c.id, ())) or "none yet"
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
