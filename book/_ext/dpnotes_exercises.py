"""Exercises on the static site: numeric and reading exercises answered on the page.

For every chapter cell that calls ``check("key", answer)`` (the answer cell of an exercise, outside
its solution dropdown), this extension

- removes the cell's stored output (the red "✗ … no answer yet" that a reader of the site cannot
  run; the notebooks keep it);
- for a numeric or reading exercise, adds a form (a labelled text field, a Check button and a live
  region for the verdict), hidden until ``web/exercises/dpnotes-exercises.js`` shows it; the script
  checks the answer in the browser against the chapter's hashed records, the same data the student
  copy ships (:func:`dpnotes.exercise_kinds.export`), written at the end of the build into
  ``_static/dpnotes-answers/<chapter>.js`` and loaded on the first check;
- for a formula, code or written exercise, adds a line saying how to check it: in Jupyter (the
  page's launch buttons, or the notebook downloaded).

The script and its stylesheet load only on pages with a form. No answer is in the page or the data:
only salted, stretched hashes of the grid cells around it (see :mod:`dpnotes.exercise_kinds.tokens`).
"""

import html
import json
import re
from pathlib import Path

from docutils import nodes

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web" / "exercises"
DATA_DIR = "dpnotes-answers"
_CHECK = re.compile(r'check\("([a-z0-9-]+)",')
#: kinds the page checks itself
ON_PAGE = ("numeric", "explore")
_HOW = {
    "symbolic": "Check your formula by running this cell in Jupyter (the launch buttons at the top, or the "
                "downloaded notebook).",
    "code": "Check your function by running this cell in Jupyter (the launch buttons at the top, or the "
            "downloaded notebook).",
    "written": "Run this cell in Jupyter to record your answer (the launch buttons at the top); it is graded by hand "
               "with the rubric under the solution.",
}


def _registry():
    from dpnotes.chapter_exercises import REGISTRY  # the build imports the package anyway

    return REGISTRY


def _cell_source(cell):
    for child in cell.findall(nodes.literal_block):
        return child.astext()
    return ""


def _in_solution(node):
    parent = node.parent
    while parent is not None:
        if any("solution" in c for c in parent.get("classes", [])):
            return True
        parent = parent.parent
    return False


def answer_cells(doctree):
    """(cell node, key) for every answer cell of the document: a notebook cell calling ``check("key", …)``
    outside a solution."""
    found = []
    for cell in doctree.findall(nodes.container):
        if "cell" not in cell.get("classes", []):
            continue
        match = _CHECK.search(_cell_source(cell))
        if match and not _in_solution(cell):
            found.append((cell, match.group(1)))
    return found


def answer_form(spec):
    """The HTML of the form for a numeric or reading exercise (shown by the script)."""
    key = html.escape(spec.key)
    what = ("an integer" if spec.sig_figs is None
            else f"{spec.sig_figs} significant figure{'s' * (spec.sig_figs != 1)}")
    return (f'<div class="dpnotes-answer" data-key="{key}" data-chapter="{html.escape(spec.chapter)}" hidden>'
            f'<label for="dpnotes-answer-{key}">Your answer ({what})</label>'
            f'<span class="dpnotes-answer-row"><input id="dpnotes-answer-{key}" type="text" inputmode="decimal" '
            f'autocomplete="off" spellcheck="false"><button type="button">Check</button></span>'
            f'<p class="dpnotes-verdict" role="status" aria-live="polite"></p></div>'
            f'<p class="dpnotes-answer-note">Or run the cell in Jupyter (the launch buttons at the top).</p>')


def _forms(app, doctree, docname):
    registry = _registry()
    for cell, key in answer_cells(doctree):
        spec = registry.get(key)
        if spec is None:
            continue
        for child in list(cell.children):
            if "cell_output" in child.get("classes", []):
                cell.remove(child)
        if spec.kind in ON_PAGE:
            cell += nodes.raw("", answer_form(spec), format="html")
        else:
            cell += nodes.raw("", f'<p class="dpnotes-answer-note">{html.escape(_HOW[spec.kind])}</p>',
                              format="html")


def _page_assets(app, pagename, templatename, context, doctree):
    if 'class="dpnotes-answer"' in context.get("body", ""):
        app.add_css_file("dpnotes-exercises.css")
        app.add_js_file("dpnotes-exercises.js", loading_method="defer")


_COMMENT = re.compile(r"^\s*/\*.*?\*/\s*$", re.S | re.M)


def compact(text):
    """The script or stylesheet without its comment blocks and indentation (what the site serves)."""
    text = _COMMENT.sub("", text)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip()) + "\n"


def chapter_data(registry):
    """chapter → the student copy's records of its numeric and reading exercises (fresh salts)."""
    from dpnotes.exercise_kinds import Registry, export

    specs = [s for s in registry.values() if s.kind in ON_PAGE]
    records = export(Registry(specs))["exercises"]
    out = {}
    for spec in specs:
        out.setdefault(spec.chapter, {"format": None, "exercises": {}})["exercises"][spec.key] = records[spec.key]
    from dpnotes.exercise_kinds.student import FORMAT

    for data in out.values():
        data["format"] = FORMAT
    return out


def _write_assets(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    static = Path(app.outdir) / "_static"
    for name in ("dpnotes-exercises.js", "dpnotes-exercises.css"):
        (static / name).write_text(compact((WEB / name).read_text(encoding="utf-8")), encoding="utf-8")
    folder = static / DATA_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for chapter, data in chapter_data(_registry()).items():
        payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        (folder / f"{chapter}.js").write_text(
            "(window.dpnotesExerciseData=window.dpnotesExerciseData||{})"
            f"[{json.dumps(chapter)}]={payload};\n", encoding="utf-8")


def setup(app):
    app.connect("doctree-resolved", _forms)
    app.connect("html-page-context", _page_assets)
    app.connect("build-finished", _write_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
