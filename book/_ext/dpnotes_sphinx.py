"""Sphinx glue for the dpnotes book.

- Points ``PYTHONSTARTUP`` at ``static_kernel.py`` before any notebook runs: every
  kernel the build starts (kernels inherit the builder's environment; IPython runs
  that file at start-up) then displays figures as precomputed static widgets, by
  ``dpnotes.widgets.display.register_static_display``. The package itself reads no
  environment variable for this; outside the build, figures are live.
- Defines the role ``{claim}`S4-09``: a small "✓ checked" badge beside a statement's
  descriptive title, linking to the claim's row in the claims table (the ID stays in the source).
- Gives each page every script once: jupyter-book registers sphinx-thebe's
  inline configuration twice, and the second ``const`` declaration is a console
  error in the browser.
- Resolves a docstring's reference to a function by its module path (``dpnotes.pld.constructors.
  pld_gaussian``) to the public name the API reference documents (``dpnotes.pld_gaussian``).
- Shows ``dpnotes.__version__`` in every page's footer.
- Escapes the ``|x|`` of the docstrings (not a substitution) for the API reference.
- Loads plotly.js and the widget script only on pages that hold a figure.
- Adds ``dpnotes-book.js``, which makes the theme's menu buttons work (see there).
- Ships only what pages use: after the build, removes the theme's source maps, its
  1.5 MB icon script (the theme's stylesheet already draws the same icons from its
  web font) and the rules of the icons no page shows, the translations of the
  theme's own labels, and Sphinx's search index from every page but the search page
  (the theme loads it everywhere for search-as-you-type, which is off).
"""

import importlib.util
import os
import re
import shutil
from pathlib import Path

from docutils import nodes
from sphinx import addnodes

_CLAIM_ID = re.compile(r"^S[0-4]-\d{2}$")
ROOT = Path(__file__).resolve().parents[2]
STATIC = Path(__file__).resolve().parent / "static"
#: Run by every kernel the build starts: figures display in the static mode.
STATIC_KERNEL_STARTUP = Path(__file__).resolve().parent / "static_kernel.py"


def _verified_claims(env):
    """Claim ID → the number of tests that verify it (the tests' ``pytest.mark.claim`` markers,
    read statically by ``tools/claims_pages.py``), computed once per build."""
    if not hasattr(env, "dpnotes_verified_claims"):
        spec = importlib.util.spec_from_file_location("claims_pages", ROOT / "tools" / "claims_pages.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        env.dpnotes_verified_claims = {cid: len(tests) for cid, tests in module.verifying_tests().items()}
    return env.dpnotes_verified_claims


def claim_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{claim}`S4-09``: a small "✓ checked" badge linking to the claim's row in the claims table.

    The ID stays in the source (and in the badge's tooltip) so the claims and findings pages can
    link to the statement; the reader sees only that the statement is checked by the test suite.
    """
    if not _CLAIM_ID.match(text):
        msg = inliner.reporter.error(f"claim role: {text!r} is not a claim ID like S4-09", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    env = inliner.document.settings.env
    tests = _verified_claims(env).get(text, 0)
    label = "✓ checked" if tests else "see the claims table"
    uri = env.app.builder.get_relative_uri(env.docname, "book/claims") + f"#claim-{text.lower()}"
    ref = nodes.reference("", label, refuri=uri, internal=True, classes=["claim-tag-link"])
    tag = nodes.inline("", "", ref, classes=["claim-tag"])
    what = f"verified by {tests} test{'s' * (tests != 1)}" if tests else "not yet verified"
    ref["reftitle"] = f"{what}: see its row in the claims table"
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
    scripts[:] = unique  # in place: the builder adds later scripts to this list


def _page_scripts(app, pagename, templatename, context, doctree):
    """plotly.js and the widget script on pages with a figure, and MathJax after the figures.

    On a slow line the 1.2 MB of MathJax and of plotly.js share the bandwidth; the widget
    script starts MathJax once the figures are drawn, so sliders work about a second sooner
    while the math is typeset no later than the total bytes allow.
    """
    if 'class="dpnotes-widget"' not in context.get("body", ""):
        return
    scripts = context.get("script_files", [])
    path = f"_static/{app.config.mathjax_path}"  # as the builder records it
    mathjax = [js for js in scripts if getattr(js, "filename", None) == path]
    for js in mathjax:
        scripts.remove(js)
    extra = {"data-mathjax": app.config.mathjax_path} if mathjax else {}
    app.add_js_file("plotly/plotly-basic.min.js", loading_method="defer")
    app.add_js_file("dpnotes/dpnotes-widget.js", loading_method="defer", **extra)


def _public_reference(app, env, node, contnode):
    """A docstring's ``:func:`dpnotes.pld.constructors.pld_gaussian``` (or a bare ``pld_gaussian``)
    links to the API reference's entry of the public name ``dpnotes.pld_gaussian``, where
    book/api.md documents every name of ``dpnotes.__all__``."""
    if node.get("refdomain") != "py":
        return None
    import dpnotes

    target = node.get("reftarget", "")
    name = target.rsplit(".", 1)[-1]
    if not (target == name or target.startswith("dpnotes.")) or name not in dpnotes.__all__:
        return None
    if f"dpnotes.{name}" == target:
        return None  # already the public name: resolved by the domain itself, or missing
    return env.domains["py"].resolve_xref(env, node["refdoc"], app.builder, node["reftype"],
                                          f"dpnotes.{name}", node, contnode)


_LITERAL = re.compile(r"(`+[^`]*`+)")


def _escape_bars(app, what, name, obj, options, lines):
    """The docstrings write |x| for an absolute value, which reStructuredText reads as a substitution:
    escape every ``|`` outside math, literals and doctests (the API reference, book/api.md)."""
    math_indent = None
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if math_indent is not None:
            if not stripped or indent > math_indent:
                continue
            math_indent = None
        if stripped.startswith(".. math::"):
            math_indent = indent
            continue
        if stripped.startswith((">>>", "...")):
            continue
        parts = _LITERAL.split(line)
        lines[i] = "".join(p if j % 2 else p.replace("|", r"\|") for j, p in enumerate(parts))


def _nitpick_pairs(app, config):
    """``nitpick_ignore`` from _config.yml arrives as lists; Sphinx looks up ``(type, target)`` tuples."""
    config.nitpick_ignore = [tuple(pair) for pair in config.nitpick_ignore]


def _version_footer(app, config):
    """The footer names the package's version (``dpnotes.__version__``), after _config.yml's extra_footer."""
    import dpnotes

    options = dict(config.html_theme_options or {})
    footer = options.get("extra_footer", "")
    version = f'<span class="dpnotes-version">dpnotes {dpnotes.__version__}</span>'
    options["extra_footer"] = f"{footer} · {version}" if footer else version
    config.html_theme_options = options


def _add_static(app):
    app.config.html_static_path.append(str(STATIC))


_ICON_SCRIPT = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
_SEARCH_SCRIPTS = re.compile(
    r'\s*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|searchindex\.js)"></script>')
_UNUSED = ("**/*.map", "scripts/fontawesome.js*", "vendor/fontawesome/webfonts/*.ttf", "locales")
_ICON_RULE = re.compile(r'((?:\.fa-[a-z0-9-]+:before,?)+)\{content:"[^"]*"\}')
_ICON_NAME = re.compile(r"fa-[a-z0-9-]+")


def _prune_icon_rules(css_path, used):
    """Drop the theme stylesheet's ``.fa-name:before{content:…}`` rules for icons not in ``used``."""
    if not css_path.exists():
        return
    css = css_path.read_text(encoding="utf-8")
    keep = lambda m: m.group(0) if used & set(_ICON_NAME.findall(m.group(1))) else ""
    css_path.write_text(_ICON_RULE.sub(keep, css), encoding="utf-8")


def _prune(app, exception):
    """Remove what no page requests: the source maps, the icon script and the rules of unused
    icons, the fonts' TTF copies, the theme's translations, and the search scripts on every page
    but the search page."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    used = set()
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        pruned = _ICON_SCRIPT.sub("", text)
        if page.relative_to(out).as_posix() != "search.html":
            pruned = _SEARCH_SCRIPTS.sub("", pruned)
        used |= set(_ICON_NAME.findall(pruned))
        if pruned != text:
            page.write_text(pruned, encoding="utf-8")
    static = out / "_static"
    for script in static.rglob("*.js"):
        used |= set(_ICON_NAME.findall(script.read_text(encoding="utf-8", errors="ignore")))
    _prune_icon_rules(static / "styles" / "pydata-sphinx-theme.css", used)
    for pattern in _UNUSED:
        for path in static.glob(pattern):
            shutil.rmtree(path) if path.is_dir() else path.unlink()


def setup(app):
    os.environ["PYTHONSTARTUP"] = str(STATIC_KERNEL_STARTUP)
    app.add_role("claim", claim_role)
    app.connect("builder-inited", _add_static)
    app.add_css_file("dpnotes-book.css")
    app.add_js_file("dpnotes-book.js", loading_method="defer")
    app.connect("html-page-context", _page_scripts, priority=800)  # after mathjax adds its script
    app.connect("build-finished", _prune)
    app.connect("missing-reference", _public_reference)
    app.connect("config-inited", _nitpick_pairs)
    app.connect("config-inited", _version_footer)
    app.connect("autodoc-process-docstring", _escape_bars)
    app.connect("html-page-context", _dedupe_scripts, priority=900)  # after the others add theirs
    return {"parallel_read_safe": True, "parallel_write_safe": True}
