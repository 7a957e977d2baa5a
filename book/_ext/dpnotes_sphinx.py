"""Sphinx glue for the dpnotes book.

- Sets ``DPNOTES_RENDER=static`` before any notebook runs, so every kernel the
  build starts (kernels inherit the builder's environment) renders figures as
  precomputed static widgets; see ``dpnotes/widgets/display.py``.
- Defines the role ``{claim}`S4-09``: the small tag that keeps a source claim's
  ID beside a statement's descriptive title, linking to the claims table.
- Gives each page every script once: jupyter-book registers sphinx-thebe's
  inline configuration twice, and the second ``const`` declaration is a console
  error in the browser.
"""

import os
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes

_CLAIM_ID = re.compile(r"^S[0-4]-\d{2}$")
STATIC = Path(__file__).resolve().parent / "static"


def claim_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{claim}`S4-09``: a small tag with the claim's ID, linking to the claims table."""
    if not _CLAIM_ID.match(text):
        msg = inliner.reporter.error(f"claim role: {text!r} is not a claim ID like S4-09", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    env = inliner.document.settings.env
    # the std domain replaces the link's content with its own node, so the tag wraps the link
    ref = addnodes.pending_xref("", nodes.inline(text, text), refdomain="std", reftype="doc",
                                reftarget="/book/claims", refexplicit=True, refwarn=True, refdoc=env.docname)
    ref["classes"].append("claim-tag-link")
    tag = nodes.inline("", "", ref, classes=["claim-tag"])
    tag["title"] = f"claim {text} of the source documents: see the claims table"
    return [tag], []


def _dedupe_scripts(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, unique = set(), []
    for script in scripts:
        # inline scripts carry filename None or "": the body identifies them
        key = (getattr(script, "filename", None) or "", getattr(script, "attributes", {}).get("body", ""))
        if key not in seen:
            seen.add(key)
            unique.append(script)
    context["script_files"] = unique


def _add_static(app):
    app.config.html_static_path.append(str(STATIC))


def setup(app):
    os.environ["DPNOTES_RENDER"] = "static"
    app.add_role("claim", claim_role)
    app.connect("builder-inited", _add_static)
    app.add_css_file("dpnotes-book.css")
    app.connect("html-page-context", _dedupe_scripts, priority=900)  # after the others add theirs
    return {"parallel_read_safe": True, "parallel_write_safe": True}
