"""The built site as a reader sees it, in headless Chromium (Debian's) driven by Playwright.

Every page: no request to another host, no console error, no math left as raw TeX, no
serious or critical accessibility violation (axe-core, injected into the page) in light
and in dark mode, a screenshot under ``_build/screenshots/``. Every static figure: every
slider moved, and the plotted data equal, at each position, what the package computes; at
phone width (390 px) nothing scrolls sideways and no value is cut; in dark mode it takes
the page's colours; in print it shows its slider values. The menus open on a phone and the
sidebar collapses on a desktop. Every chapter's weight and time to its first working
slider on a throttled line (10 Mbit/s, 40 ms) go into ``_build/browser-report.json``.
"""

import dataclasses
import os
import json
import re
import time
from pathlib import Path

import numpy as np
import pytest

from conftest import PAGE_TIMEOUT_MS, open_offline_page, wait_for_quiet_network
from dpnotes.figures import FIGURES
from dpnotes.widgets.static_html import PAGE_BUDGET_BYTES

#: what a page may weigh as served uncompressed, everything it loads included (HTML, scripts, styles, fonts)
SERVED_BUDGET_BYTES = 3_500_000

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("DPNOTES_HTML", ROOT / "_build" / "html"))  # the built site
SHOTS = HTML.parent / "screenshots"
REPORT = HTML.parent / "browser-report.json"
AXE = HTML.parent / "test-assets" / "axe-core" / "axe.min.js"  # tools/vendor.py --test (make test-deps)
#: a slow line: the heaviest chapter must have a working slider within READY_BUDGET_S
SLOW_LINE = {"offline": False, "latency": 40, "downloadThroughput": 10e6 / 8, "uploadThroughput": 10e6 / 8}
READY_BUDGET_S = 3.0
PHONE = {"width": 390, "height": 844}
PAGES = sorted(p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")
               if not p.relative_to(HTML).parts[0].startswith("_")) if HTML.exists() else ["(site not built)"]
RAW_TEX = re.compile(r"\$\$|\\\(|\\\)|\\\[|\\\]|\\begin\{|\\frac\{|\\alpha\b|\\mathcal\{|\\varepsilon\b")
_report = {}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser(browser):
    """The session's browser (conftest); the browser report is written once this module's tests have run."""
    yield browser
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(_report, indent=1, sort_keys=True))


def _uncached(page):
    """The page's DevTools session with the network watched and the cache off."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    return cdp


def _open(browser, url, viewport=None, color_scheme="light", received=None, idle=False):
    """The page opened offline (conftest's ``open_offline_page``), its math typeset.

    ``idle``: also wait until the network has been idle for 500 ms after loading and after typesetting (the
    math's web fonts), as the test of a page's requests and weight does; the others wait on what they check
    and keep collecting foreign requests and errors until the page is closed."""
    def watch(page):  # bytes over the wire, each request, with the cache off
        _uncached(page).on("Network.loadingFinished", lambda e: received.append(e["encodedDataLength"]))

    page, foreign, errors = open_offline_page(browser, url, viewport=viewport, color_scheme=color_scheme,
                                              cdp=watch if received is not None else None,
                                              wait_until="networkidle" if idle else "load")
    # on pages with figures MathJax is loaded once they are drawn (see book/_ext)
    page.wait_for_function("""() => !document.querySelector('.math') ||
        (window.MathJax && MathJax.startup && MathJax.startup.promise)""")
    page.evaluate("() => (window.MathJax && MathJax.startup && MathJax.startup.promise) || null")
    if idle:  # the math's web fonts, requested once it is typeset
        wait_for_quiet_network(page)
    return page, foreign, errors


def _settled(page, condition, arg=None, timeout_ms=5_000):
    """Wait until ``condition`` (a JS function of ``arg``) holds, at most ``timeout_ms``, instead of a fixed sleep.

    Does not fail by itself: the test's assertion that follows says what did not happen."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(condition, arg=arg, timeout=timeout_ms)
    except PlaywrightTimeout:
        pass


def _artifact(kind, rel, suffix=".png"):
    """Where a test keeps a screenshot or a printout of page ``rel`` (``kind``: "", "dark", "phone", "print")."""
    path = SHOTS / kind / (rel.replace("/", "__").removesuffix(".html") + suffix)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


_READY = "() => Array.from(document.querySelectorAll('.dpnotes-widget')).every(w => w.dataset.ready === '1')"


def _axe(page):
    """Serious and critical violations of axe-core's rules on the page, one line each."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `python tools/vendor.py --test` (make test-deps does)")
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => v.nodes.map(n => v.id + ' (' + v.impact + '): ' + n.target.join(' ') + ' ' +
             ((n.any[0] || n.all[0] || n.none[0] || {}).message || '')))
        .flat()""")
    return found


_VISIBLE_TEXT = """() => {
  const body = document.body.cloneNode(true);
  body.querySelectorAll('script, style, pre, code, textarea, mjx-container, mjx-assistive-mml, .highlight, .dpnotes-data')
      .forEach(e => e.remove());
  return body.innerText;
}"""


@dataclasses.dataclass
class Opened:
    """A page opened by :func:`_open`: what it requested from other hosts, its errors, its bytes over the wire."""
    rel: str
    page: object
    foreign: list
    errors: list
    received: list


@pytest.fixture(scope="module")
def light(request, browser, site_url):
    """Page ``request.param`` opened once (light, 1280 px, the cache off, its bytes counted), for every test of
    it in turn: its offline test reads it first, untouched; its slider and solution tests then use it.
    The errors and foreign requests collected while the earlier tests ran count against the later ones."""
    received = []
    page, foreign, errors = _open(browser, f"{site_url}/{request.param}", received=received, idle=True)
    yield Opened(request.param, page, foreign, errors, received)
    page.close()


@pytest.mark.parametrize("light", PAGES, indirect=True)
def test_page_offline_clean_and_typeset(light):
    assert HTML.exists(), "build the book first (make book)"
    rel, page, foreign, errors, received = light.rel, light.page, light.foreign, light.errors, light.received
    unrendered = page.evaluate(
        "() => Array.from(document.querySelectorAll('.math')).filter(e => !e.querySelector('mjx-container')).length")
    raw = RAW_TEX.findall(page.evaluate(_VISIBLE_TEXT))
    shot = _artifact("", rel)
    page.screenshot(path=str(shot), full_page=True)
    size = (HTML / rel).stat().st_size
    violations = _axe(page)
    _report.setdefault(rel, {}).update({
        "foreign_requests": len(foreign), "console_errors": len(errors), "html_bytes": size,
        "transferred_bytes": int(sum(received)), "axe_serious_light": len(violations)})
    assert not violations, "accessibility (light mode): " + "\n".join(violations[:10])
    assert sum(received) <= SERVED_BUDGET_BYTES, f"{rel} weighs {sum(received):,} bytes as served"
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


@pytest.mark.parametrize("light", _widget_pages(), indirect=True)
def test_every_slider_moves_the_plot_to_the_package_values(light):
    rel, page, foreign, errors = light.rel, light.page, light.foreign, light.errors
    page.wait_for_function(_READY)
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


@pytest.mark.parametrize("light", _chapter_pages_with_solutions(), indirect=True)
def test_every_solution_is_closed_until_the_reader_opens_it(light):
    rel, page = light.rel, light.page
    source = ROOT / "book" / Path(rel).with_suffix(".ipynb").name
    expected = source.read_text(encoding="utf-8").count("{solution-start}")
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
    shown = """(id) => Array.from(document.getElementById(id).children)
        .filter(c => !c.classList.contains('admonition-title')).reduce((h, c) => h + c.offsetHeight, 0)"""
    _settled(page, f"(id) => ({shown})(id) > 0", first)
    opened = page.evaluate(shown, first)
    assert opened > 0


@pytest.mark.parametrize("rel", PAGES)
def test_page_accessible_in_dark_mode(browser, site_url, rel):
    page, foreign, errors = _open(browser, f"{site_url}/{rel}", color_scheme="dark")
    try:
        # the theme's script resolves its "auto" mode from the system's colour scheme after the page loads
        _settled(page, "() => document.documentElement.dataset.theme !== 'auto'")
        assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
        shot = _artifact("dark", rel)
        page.screenshot(path=str(shot))  # the first screen (the light-mode shots are full pages)
        violations = _axe(page)
        _report.setdefault(rel, {})["axe_serious_dark"] = len(violations)
    finally:
        page.close()
    assert not violations, "accessibility (dark mode): " + "\n".join(violations[:10])
    assert not errors, errors


_FIGURE_COLOURS = """() => Array.from(document.querySelectorAll('.dpnotes-widget')).map(w => {
  const gd = w.querySelector('.dpnotes-plot');
  return {key: w.dataset.key, paper: gd._fullLayout.paper_bgcolor, plot: gd._fullLayout.plot_bgcolor,
          font: gd._fullLayout.font.color, panel: getComputedStyle(w.parentElement).backgroundColor,
          text: getComputedStyle(document.documentElement).getPropertyValue('--pst-color-text-base').trim()};
})"""


def test_figures_follow_the_colour_mode_live(browser, site_url):
    rel = _widget_pages()[0]
    page, _, errors = _open(browser, f"{site_url}/{rel}", color_scheme="light")
    try:
        page.wait_for_function(_READY)
        light = page.evaluate(_FIGURE_COLOURS)
        # the theme's colour-mode button: light → dark
        page.evaluate("() => { document.documentElement.dataset.theme = 'dark'; }")
        _settled(page, f"(light) => ({_FIGURE_COLOURS})().every((s, i) => s.font !== light[i].font)", light)
        dark = page.evaluate(_FIGURE_COLOURS)
    finally:
        page.close()
    assert not errors, errors
    clear = {"rgba(0,0,0,0)", "transparent"}
    for state in light + dark:
        assert {state["paper"].replace(" ", ""), state["plot"].replace(" ", "")} <= clear, state
        assert state["panel"].replace(" ", "") in clear, state
    for a, b in zip(light, dark):
        assert a["font"] != b["font"], f"{a['key']}: the plot's text colour did not follow the mode"


def _rect_inside(inner, outer, slack=1.0):
    return (inner["left"] >= outer["left"] - slack and inner["right"] <= outer["right"] + slack
            and inner["top"] >= outer["top"] - slack and inner["bottom"] <= outer["bottom"] + slack)


_PHONE_LAYOUT = """() => {
  const box = e => { const r = e.getBoundingClientRect(); return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  return {
    pageOverflow: document.scrollingElement.scrollWidth - window.innerWidth,
    widgets: Array.from(document.querySelectorAll('.dpnotes-widget')).map(w => ({
      key: w.dataset.key,
      box: box(w),
      overflowing: Array.from(w.querySelectorAll('*')).filter(e => !(e instanceof SVGElement) && e.scrollWidth > e.clientWidth + 1)
          .map(e => e.className),
      cutValues: Array.from(w.querySelectorAll('.dpnotes-value')).filter(e => e.scrollWidth > e.clientWidth + 1 ||
          e.getBoundingClientRect().right > w.getBoundingClientRect().right + 1).map(e => e.textContent),
      svg: box(w.querySelector('.main-svg')),
      axisTitles: Array.from(w.querySelectorAll('.g-xtitle, .g-ytitle')).map(box),
      legend: box(w.querySelector('.dpnotes-legend')),
      modebar: w.querySelectorAll('.modebar').length,
      links: Array.from(w.querySelectorAll('a[href]')).map(a => a.href),
    })),
  };
}"""


@pytest.mark.parametrize("rel", _widget_pages())
def test_figures_fit_a_phone(browser, site_url, rel):
    page, _, errors = _open(browser, f"{site_url}/{rel}", viewport=PHONE)
    try:
        page.wait_for_function(_READY)
        layout = page.evaluate(_PHONE_LAYOUT)
        first = page.locator(".dpnotes-widget").first
        first.scroll_into_view_if_needed()
        shot = _artifact("phone", rel)
        first.screenshot(path=str(shot))
    finally:
        page.close()
    assert not errors, errors
    assert layout["pageOverflow"] <= 0, f"the page scrolls sideways by {layout['pageOverflow']} px"
    for w in layout["widgets"]:
        assert w["box"]["right"] <= PHONE["width"], f"{w['key']}: wider than the screen"
        assert not w["overflowing"], f"{w['key']}: scrolls sideways inside: {w['overflowing']}"
        assert not w["cutValues"], f"{w['key']}: slider values cut: {w['cutValues']}"
        for title in w["axisTitles"]:
            assert _rect_inside(title, w["svg"]), f"{w['key']}: an axis title is cut"
        assert w["legend"]["top"] >= w["svg"]["bottom"] - 1, f"{w['key']}: the legend overlaps the plot"
        assert w["modebar"] == 0, f"{w['key']}: plotly's mode bar is shown"
        assert not w["links"], f"{w['key']}: links in a figure: {w['links']}"


def test_menus_open_on_a_phone_and_the_sidebar_collapses_on_a_desktop(browser, site_url):
    rel = _widget_pages()[0]
    page, _, errors = _open(browser, f"{site_url}/{rel}", viewport=PHONE)
    try:
        for side in ("primary", "secondary"):
            page.locator(f".{side}-toggle:visible").click()
            is_open = f"""() => {{ const d = document.getElementById('pst-{side}-sidebar-modal');
                return d.open && d.getBoundingClientRect().width > 200 && d.querySelectorAll('a').length > 0; }}"""
            _settled(page, is_open)
            opened = page.evaluate(is_open)
            assert opened, f"the {side} menu does not open at 390 px"
            page.keyboard.press("Escape")
            _settled(page, f"() => !document.getElementById('pst-{side}-sidebar-modal').open")
        page.screenshot(path=str(SHOTS / "phone" / "menus-closed.png"))
    finally:
        page.close()
    page, _, errors2 = _open(browser, f"{site_url}/{rel}", viewport={"width": 1400, "height": 900})
    try:
        shown = "() => getComputedStyle(document.getElementById('pst-primary-sidebar')).visibility"
        assert page.evaluate(shown) == "visible"
        page.locator(".primary-toggle:visible").click()
        _settled(page, f"() => ({shown})() === 'hidden'")
        assert page.evaluate(shown) == "hidden", "the sidebar toggle does not collapse the sidebar at 1400 px"
        page.locator(".primary-toggle:visible").click()
        _settled(page, f"() => ({shown})() === 'visible'")
        assert page.evaluate(shown) == "visible"
    finally:
        page.close()
    assert not errors and not errors2, errors + errors2


def test_figures_print_with_their_slider_values(browser, site_url):
    rel = _widget_pages()[0]
    page, _, errors = _open(browser, f"{site_url}/{rel}")
    try:
        page.wait_for_function(_READY)
        wid, key = page.eval_on_selector(".dpnotes-widget", "e => [e.id, e.dataset.key]")
        slider = FIGURES[key].sliders[0]
        page.locator(f"#{wid}-s0").focus()
        page.keyboard.press("End")
        page.emulate_media(media="print")
        state = page.evaluate(f"""() => {{ const w = document.getElementById({json.dumps(wid)});
            const shown = e => e && getComputedStyle(e).display !== 'none' && e.getBoundingClientRect().height > 0;
            return {{controls: shown(w.querySelector('.dpnotes-controls')), readout: shown(w.querySelector('.dpnotes-readout')),
                     text: w.querySelector('.dpnotes-readout').textContent, plot: shown(w.querySelector('.main-svg')),
                     figureCode: Array.from(document.querySelectorAll('.cell_input')).filter(c => shown(c) &&
                         /^\\s*(show\\()?FIGURES\\[[^\\]]+\\]\\)?\\s*$/.test(c.innerText)).length}}; }}""")
        page.pdf(path=str(_artifact("print", rel, ".pdf")))
    finally:
        page.close()
    assert not errors, errors
    assert not state["controls"] and state["readout"] and state["plot"], state
    assert f"{slider.label} = {slider.format(slider.values[-1])}" in state["text"]
    assert state["figureCode"] == 0, "a code cell that only shows a figure is printed"


def _site_bytes():
    return sum(p.stat().st_size for p in HTML.rglob("*") if p.is_file())


def _heaviest_chapters(n=3):
    """The ``n`` figure pages that transfer the most (from their visit above), else the largest files."""
    pages = _widget_pages()
    weight = {rel: _report.get(rel, {}).get("transferred_bytes") or (HTML / rel).stat().st_size for rel in pages}
    return sorted(pages, key=weight.get, reverse=True)[:n]


def test_heaviest_chapters_are_ready_on_a_slow_line(browser, site_url):
    """Every figure of the three heaviest chapters is drawn on a throttled line (10 Mbit/s, 40 ms,
    cache off). The time it took is recorded in the browser report against ``READY_BUDGET_S``,
    never asserted: the machine is shared, and a wall clock in a pass/fail test flakes."""
    timings = {}
    for rel in _heaviest_chapters():
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(PAGE_TIMEOUT_MS)
        try:
            _uncached(page).send("Network.emulateNetworkConditions", SLOW_LINE)
            start = time.perf_counter()
            page.goto(f"{site_url}/{rel}", wait_until="commit")
            # the page parsed (an empty list of figures is trivially ready before) and every figure drawn
            page.wait_for_function(f"() => document.readyState !== 'loading' && ({_READY})()")
            timings[rel] = round(time.perf_counter() - start, 2)
            _report.setdefault(rel, {})["ready_s_10mbit_40ms"] = timings[rel]
        finally:
            page.close()
    _report["site"] = {"bytes": _site_bytes(), "ready_budget_s": READY_BUDGET_S, "ready_s_10mbit_40ms": timings,
                       "within_budget": max(timings.values()) <= READY_BUDGET_S}
    assert set(timings) == set(_heaviest_chapters())  # every figure of each page drew (else wait_for_function raised)
