"""Sphinx glue for the dpnotes book.

- Sets ``DPNOTES_RENDER=static`` before any notebook runs, so every kernel the
  build starts (kernels inherit the builder's environment) renders figures as
  precomputed static widgets; see ``dpnotes/widgets/display.py``.
- Gives each page every script once: jupyter-book registers sphinx-thebe's
  inline configuration twice, and the second ``const`` declaration is a console
  error in the browser.
"""

import os


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


def setup(app):
    os.environ["DPNOTES_RENDER"] = "static"
    app.connect("html-page-context", _dedupe_scripts, priority=900)  # after the others add theirs
    return {"parallel_read_safe": True, "parallel_write_safe": True}
