"""The built site as a reader sees it, in headless Chromium (Debian's) driven by Playwright.

Every page: no request to another host, no console error, no math left as raw TeX,
a screenshot under ``_build/screenshots/``. Every static figure: every slider moved,
and the plotted data equal, at each position, what the package computes.
"""

import os
import json
import re
import shutil
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pytest

from dpnotes.figures import FIGURES
from dpnotes.widgets.static_html import PAGE_BUDGET_BYTES

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("DPNOTES_HTML", ROOT / "_build" / "html"))  # the built site
SHOTS = HTML.parent / "screenshots"
REPORT = HTML.parent / "browser-report.json"
PAGES = sorted(p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")
               if not p.relative_to(HTML).parts[0].startswith("_")) if HTML.exists() else ["(site not built)"]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
RAW_TEX = re.compile(r"\$\$|\\\(|\\\)|\\\[|\\\]|\\begin\{|\\frac\{|\\alpha\b|\\mathcal\{|\\varepsilon\b")
_report = {}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    sync = pytest.importorskip("playwright.sync_api")
    with sync.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(_report, indent=1, sort_keys=True))


def _open(browser, url):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    foreign, errors = [], []

    def route(r):
        host = urlparse(r.request.url).hostname
        if r.request.url.startswith(("data:", "blob:")) or host in {"127.0.0.1", "localhost"}:
            r.continue_()
        else:
            foreign.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("requestfailed", lambda r: errors.append(f"failed request {r.url}") if urlparse(r.url).hostname == "127.0.0.1" else None)
    page.goto(url, wait_until="networkidle")
    page.evaluate("() => (window.MathJax && MathJax.startup && MathJax.startup.promise) || null")
    page.wait_for_load_state("networkidle")
    return page, foreign, errors


_VISIBLE_TEXT = """() => {
  const body = document.body.cloneNode(true);
  body.querySelectorAll('script, style, pre, code, textarea, mjx-container, mjx-assistive-mml, .highlight, .dpnotes-data')
      .forEach(e => e.remove());
  return body.innerText;
}"""


@pytest.mark.parametrize("rel", PAGES)
def test_page_offline_clean_and_typeset(browser, site_url, rel):
    assert HTML.exists(), "build the book first (make book)"
    page, foreign, errors = _open(browser, f"{site_url}/{rel}")
    try:
        unrendered = page.evaluate(
            "() => Array.from(document.querySelectorAll('.math')).filter(e => !e.querySelector('mjx-container')).length")
        raw = RAW_TEX.findall(page.evaluate(_VISIBLE_TEXT))
        shot = SHOTS / (rel.replace("/", "__").removesuffix(".html") + ".png")
        shot.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shot), full_page=True)
        size = (HTML / rel).stat().st_size
        _report[rel] = {"foreign_requests": len(foreign), "console_errors": len(errors), "html_bytes": size}
    finally:
        page.close()
    assert not foreign, f"requests to other hosts: {foreign}"
    assert not errors, f"console errors: {errors}"
    assert unrendered == 0, f"{unrendered} math elements not typeset"
    assert not raw, f"raw TeX left on the page: {raw[:5]}"


def _widget_pages():
    out = []
    for rel in PAGES:
        path = HTML / rel
        if path.exists() and 'class="dpnotes-widget"' in path.read_text(encoding="utf-8"):
            out.append(rel)
    return out or ["(no widget pages)"]


@pytest.mark.parametrize("rel", _widget_pages())
def test_page_weight_within_budget(rel):
    text = (HTML / rel).read_text(encoding="utf-8")
    data = sum(len(m) for m in re.findall(r'class="dpnotes-data">(.*?)</script>', text, flags=re.S))
    _report.setdefault(rel, {})["widget_data_bytes"] = data
    assert data <= PAGE_BUDGET_BYTES


_READ = """(id) => {
  const w = window.dpnotesWidgets[id];
  const gd = w.plot;
  return {params: w.params(), traces: gd.data.map(t => ({x: Array.from(t.x), y: Array.from(t.y)})),
          readout: w.readout.textContent};
}"""


@pytest.mark.parametrize("rel", _widget_pages())
def test_every_slider_moves_the_plot_to_the_package_values(browser, site_url, rel):
    page, foreign, errors = _open(browser, f"{site_url}/{rel}")
    try:
        page.wait_for_function(
            "() => Array.from(document.querySelectorAll('.dpnotes-widget')).every(w => w.dataset.ready === '1')")
        ids = page.eval_on_selector_all(".dpnotes-widget", "els => els.map(e => [e.id, e.dataset.key])")
        assert ids
        moves = 0
        for wid, key in ids:
            fig = FIGURES[key]
            state = page.evaluate(_READ, wid)
            _check_against_package(fig, state)
            for j, slider in enumerate(fig.sliders):
                handle = page.locator(f"#{wid}-s{j}")
                n = len(slider.values)
                for how, target in (("End", n - 1), ("Home", 0), ("mid", n // 3)):
                    if how == "mid":
                        handle.focus()
                        handle.press("Home")
                        for _ in range(target):
                            handle.press("ArrowRight")
                    else:
                        handle.focus()
                        handle.press(how)
                    new = page.evaluate(_READ, wid)
                    assert new["params"][slider.name] == pytest.approx(slider.values[target])
                    if new["params"] != state["params"]:
                        assert any(a["y"] != b["y"] for a, b in zip(new["traces"], state["traces"])), \
                            f"{key}: slider {slider.name} moved but the plot did not change"
                    _check_against_package(fig, new)
                    assert slider.format(slider.values[target]) in new["readout"]
                    state = new
                    moves += 1
        _report.setdefault(rel, {})["slider_moves_checked"] = moves
    finally:
        page.close()
    assert not errors, errors
    assert not foreign, foreign


def _check_against_package(fig, state):
    expected = fig.traces(**state["params"])
    assert len(expected) == len(state["traces"])
    for got, want in zip(state["traces"], expected):
        np.testing.assert_allclose(got["x"], want.x, rtol=1e-6)
        np.testing.assert_allclose(got["y"], want.y, rtol=1e-6)


def _chapter_pages_with_solutions():
    out = [rel for rel in PAGES if (HTML / rel).exists() and 'class="solution' in (HTML / rel).read_text(encoding="utf-8")]
    return out or ["(no pages with solutions)"]


@pytest.mark.parametrize("rel", _chapter_pages_with_solutions())
def test_every_solution_is_closed_until_the_reader_opens_it(browser, site_url, rel):
    source = ROOT / "book" / Path(rel).with_suffix(".ipynb").name
    expected = source.read_text(encoding="utf-8").count("{solution-start}")
    page, _, _ = _open(browser, f"{site_url}/{rel}")
    try:
        state = page.evaluate("""() => Array.from(document.querySelectorAll('.solution')).map(e => ({
            id: e.id, dropdown: e.classList.contains('dropdown'),
            shown: Array.from(e.children).filter(c => !c.classList.contains('admonition-title'))
                        .reduce((h, c) => h + c.offsetHeight, 0)}))""")
        assert len(state) == expected, f"{len(state)} solutions on the page, {expected} in the notebook"
        assert all(s["dropdown"] for s in state), [s["id"] for s in state if not s["dropdown"]]
        assert all(s["shown"] == 0 for s in state), [s["id"] for s in state if s["shown"]]
        # one click opens it
        first = state[0]["id"]
        page.click(f"[id='button-{first}']")
        page.wait_for_timeout(300)
        opened = page.evaluate(f"""() => Array.from(document.getElementById({json.dumps(first)}).children)
            .filter(c => !c.classList.contains('admonition-title')).reduce((h, c) => h + c.offsetHeight, 0)""")
        assert opened > 0
    finally:
        page.close()
