"""Exercises answered on the static site (book/_ext/dpnotes_exercises.py, web/exercises/dpnotes-exercises.js).

In headless Chromium on the published site: a numeric exercise of a chapter page answered right, with a
named slip, and wrong, the verdict read from its live region, with no request leaving 127.0.0.1 and no
console error; the answer cells show no "no answer yet" output; without ``crypto.subtle`` the form says
so. A differential test runs the page's checker (``window.dpnotesCheck``) on many values of every
numeric and reading exercise and compares each verdict with :class:`StudentRegistry` reading the same
data file the page loads.
"""

import importlib.util
import json
import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from conftest import HTML, SITE, open_offline_page
from dpnotes.chapter_exercises import REGISTRY
from dpnotes.exercise_kinds import StudentRegistry
from dpnotes.exercise_kinds.tokens import decade, pow10

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("dpnotes_exercises", ROOT / "book" / "_ext" / "dpnotes_exercises.py")
ext = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ext)

AXE = HTML.parent / "test-assets" / "axe-core" / "axe.min.js"  # tools/vendor.py --test (make test-deps)
CHAPTER = "02-composition"
KEY = "composition-advanced-eps"
ON_PAGE = sorted(k for k, s in REGISTRY.items() if s.kind in ext.ON_PAGE)


# ----------------------------------------------------------------------------- the extension's pieces


def test_the_form_is_labelled_and_states_the_precision():
    form = ext.answer_form(REGISTRY[KEY])
    assert f'<label for="dpnotes-answer-{KEY}">Your answer (3 significant figures)</label>' in form
    assert f'id="dpnotes-answer-{KEY}"' in form and 'role="status" aria-live="polite"' in form
    assert " hidden>" in form  # shown by the script: without it the note says to use Jupyter
    assert "Your answer (an integer)" in ext.answer_form(REGISTRY["composition-crossover"])


def test_the_compacted_script_keeps_its_code():
    source = (ext.WEB / "dpnotes-exercises.js").read_text(encoding="utf-8")
    small = ext.compact(source)
    assert len(small) < len(source) and "/*" not in small.split("\n", 1)[0]
    strip = lambda t: re.sub(r"\s+", "", re.sub(r"^\s*/\*.*?\*/\s*$", "", t, flags=re.S | re.M))  # noqa: E731
    assert strip(small) == strip(source)


def test_the_site_data_holds_no_answer(monkeypatch):
    from dpnotes.exercise_kinds import numeric

    monkeypatch.setattr(numeric, "NUMERIC_ITERATIONS", 20)  # the records' shape, not their cost, is tested here
    data = ext.chapter_data(REGISTRY)
    assert set(data) == {REGISTRY[k].chapter for k in ON_PAGE}
    records = [r for d in data.values() for r in d["exercises"].values()]
    assert {r["kind"] for r in records} == set(ext.ON_PAGE) and all(r["answer"]["right"] for r in records)
    text = re.sub(r"\b[0-9a-f]{32,}\b", "", json.dumps(data))  # the salts and hashes: hex, no answer in them
    for key in ON_PAGE:
        ref = REGISTRY[key].reference()
        for form in {f"{ref:.4g}", f"{ref:.6g}", repr(ref)}:
            if len(form.replace(".", "").replace("-", "").lstrip("0")) >= 4:
                assert form not in text, (key, form)


# ----------------------------------------------------------------------------- in the browser


def _answer(page, key, text):
    box = page.locator(f'.dpnotes-answer[data-key="{key}"]')
    field = page.get_by_label(re.compile(r"^Your answer")).and_(box.locator("input"))
    field.fill(text)
    field.press("Enter")
    status = box.locator("[role=status]")
    page.wait_for_function("(el) => el.textContent && el.textContent !== 'checking\u2026'", arg=status.element_handle())
    return status.text_content()


@pytest.mark.browser
def test_a_numeric_exercise_answered_on_a_chapter_page(browser, site_url):
    page, foreign, errors = open_offline_page(browser, f"{site_url}/book/{CHAPTER}.html")
    try:
        box = page.locator(f'.dpnotes-answer[data-key="{KEY}"]')
        assert box.is_visible()
        assert page.locator(".dpnotes-answer").count() == sum(
            1 for s in REGISTRY.values() if s.chapter == CHAPTER and s.kind in ext.ON_PAGE)
        assert "no answer yet" not in page.inner_text("main")
        assert _answer(page, KEY, "3.97") == "\u2713 correct."
        assert _answer(page, KEY, "3.9669") == "\u2713 correct."
        slip = REGISTRY[KEY].slips[1]  # basic composition, Tε₀
        assert _answer(page, KEY, "10") == f"\u2717 not yet: {slip.message}"
        close = _answer(page, KEY, "4.0")  # 3.97 to 2 figures
        assert close.startswith("\u2248 close: your value agrees with the answer to 2 significant figures; "
                                "the exercise asks for 3.")
        assert _answer(page, KEY, "5") == f"\u2717 not yet. {REGISTRY[KEY].hint}"
        assert _answer(page, KEY, "abc") == "\u2717 expected a number, got 'abc'"
        assert box.get_attribute("data-status") == "wrong"
        # a formula exercise says how to check it instead
        assert "Check your formula by running this cell in Jupyter" in page.inner_text("main")
    finally:
        page.close()
    assert not foreign, f"requests left the machine: {foreign}"
    assert not errors, errors


@pytest.mark.browser
def test_the_form_works_in_dark_mode_and_on_a_phone(browser, site_url):
    page, foreign, errors = open_offline_page(browser, f"{site_url}/book/{CHAPTER}.html", color_scheme="dark",
                                              viewport={"width": 390, "height": 844})
    try:
        assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
        assert _answer(page, KEY, "3.97") == "\u2713 correct."
        colour = page.locator(f'.dpnotes-answer[data-key="{KEY}"] [role=status]').evaluate(
            "el => getComputedStyle(el).color")
        assert colour == "rgb(129, 199, 132)"  # the dark theme's green
        assert _answer(page, KEY, "4.0").startswith("\u2248 close")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        if not AXE.exists():
            pytest.fail(f"{AXE} is missing: run `python tools/vendor.py --test` (make test-deps does)")
        page.add_script_tag(path=str(AXE))
        found = page.evaluate("""async () => (await axe.run('.dpnotes-answer', {resultTypes: ['violations']}))
            .violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => v.id)""")
        assert not found, found
    finally:
        page.close()
    assert not foreign and not errors, (foreign, errors)


@pytest.mark.browser
def test_without_crypto_subtle_the_form_says_so(browser, site_url):
    page, _, errors = open_offline_page(browser, f"{site_url}/book/{CHAPTER}.html",
                                        init_script="Object.defineProperty(window.crypto, 'subtle', {value: undefined})")
    try:
        text = _answer(page, KEY, "3.97")
        assert text.startswith("! this page cannot check answers here") and "run the cell in Jupyter" in text
    finally:
        page.close()
    assert not errors, errors


@pytest.mark.browser
def test_the_page_checks_answers_opened_from_a_file(browser):
    """Opened from the disk (the site's zip unpacked): Chromium counts file:// as a secure context, and the
    chapter's data loads by a script element, so the check works there too."""
    page, foreign, errors = open_offline_page(browser, (SITE / "book" / f"{CHAPTER}.html").as_uri())
    try:
        secure = page.evaluate("() => window.isSecureContext && !!(window.crypto && crypto.subtle)")
        text = _answer(page, KEY, "3.97")
        assert text == ("\u2713 correct." if secure else text)
        assert secure or text.startswith("! this page cannot check answers here")
    finally:
        page.close()
    assert not foreign, foreign


def _values(spec):
    """Values around the answer and the slips: right, close, wrong, slips at the asked precision, odd inputs."""
    a, n = spec.reference(), spec.sig_figs
    values = [a, -a, 0.0, a * 3, "", "inf", "-inf", "nan", "1e400", "\u22121.5", " 2 "]
    if n is None:
        values += [a + 1, a - 1, a + 0.5, a + 1e-12]
    else:
        u = pow10(decade(a) - n + 1)
        values += [float(f"{a:.{n}g}"), a + u / 2, a - u / 2, a + 0.55 * u, a - 0.58 * u, a + 0.61 * u,
                   a + 4 * u, a - 5.5 * u, a + 6.1 * u, float(f"{a:.{n - 1}g}")]
    for _, v in spec.slip_values():
        values += [v, float(f"{v:.3g}"), float(f"{v:.{(n or 3) + 1}g}")]
    rng = np.random.default_rng(abs(hash(spec.key)) % 2**32)
    values += list(a * np.exp(rng.normal(0, 0.004, size=4)))
    return [v if isinstance(v, str) else float(v) for v in values]


def _site_data(chapter):
    """The chapter's exercise data as the page loads it (``_static/dpnotes-answers/<chapter>.js``)."""
    text = (SITE / "_static" / ext.DATA_DIR / f"{chapter}.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("=", text.index("]")) + 1:].rstrip().rstrip(";"))


@pytest.mark.browser
def test_the_page_gives_the_student_copys_verdicts(browser, site_url):
    # every (chapter, key, typed text) of every chapter; the page checks them all in the background
    # (crypto.subtle hashes off the page's thread) while the student copy checks the same in two threads
    students, work = {}, []
    for chapter in sorted({REGISTRY[k].chapter for k in ON_PAGE}):
        data = _site_data(chapter)
        students[chapter] = StudentRegistry(data)
        work += [(chapter, key, repr(v) if isinstance(v, float) else v)
                 for key in sorted(data["exercises"]) for v in _values(REGISTRY[key])]
    page, foreign, errors = open_offline_page(browser, f"{site_url}/book/{CHAPTER}.html")
    try:
        page.evaluate("""(work) => { window.dpnotesVerdicts = Promise.all(
            work.map(([chapter, key, text]) => window.dpnotesCheck(key, chapter, text))); }""", work)
        with ThreadPoolExecutor(2) as pool:  # PBKDF2 in hashlib releases the GIL
            expected = list(pool.map(lambda w: students[w[0]].check(w[1], w[2]), work))
        got = page.evaluate("() => window.dpnotesVerdicts")
    finally:
        page.close()
    assert len(got) == len(expected) == len(work)
    compared = 0
    for (chapter, key, text), js, expect in zip(work, got, expected):
        if not text.strip():
            continue  # the page asks to type a value; the notebook to replace None
        assert (js["status"], js["message"], js["slip"]) == (expect.status, expect.message, expect.slip), \
            (key, text, js, expect)
        compared += 1
    assert compared > 1500
    assert not foreign and not errors, (foreign, errors)
