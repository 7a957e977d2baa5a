"""Shared test fixtures: the built site served on 127.0.0.1, the figures' static data, and a record of outcomes and claim markers."""

import os
import functools
import http.server
import shutil
import socket
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import quiet_network  # noqa: E402  (tools/: also used by the book's PDF, tools/book_pdf.py)

# CI replays the same examples on every run (a red CI then means a change broke something);
# local runs keep drawing new examples, which is how latent bugs are found
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("DPNOTES_HTML", ROOT / "_build" / "html"))  # the built site
#: the site as published (tools/publish.py, run by make test), which the browser tests read under SUBPATH
SITE = Path(os.environ.get("DPNOTES_SITE", ROOT / "_build" / "publish"))
SUBPATH = "/dpnotes"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"  # Debian's, driven by Playwright
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}

#: nodeid -> outcome of every test run in this session (used by the claims-registry test)
OUTCOMES = {}
#: nodeid -> claim IDs of its ``@pytest.mark.claim`` markers, for every test collected in this session
#: (the claims-registry test checks them against the static scan of tools/claims_pages.py)
CLAIM_MARKS = {}


def pytest_runtest_logreport(report):
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        OUTCOMES[report.nodeid] = report.outcome


def pytest_collection_modifyitems(config, items):
    for item in items:
        ids = [cid for mark in item.iter_markers("claim") for cid in mark.args]
        if ids:
            CLAIM_MARKS[item.nodeid] = tuple(ids)
    # the registry test reads the outcomes of the others, so it runs last
    last = [i for i in items if "test_claims_registry" in i.nodeid and "ran" in i.name]
    rest = [i for i in items if i not in last]
    items[:] = rest + last


@pytest.fixture(scope="session")
def student_copy(tmp_path_factory):
    """The student copy (``make student``: tools/student.py), written once per session.

    tests/test_student.py searches it for leaks and renders its prompts; tests/test_assignments.py
    grades in a sandbox built from its package (``--student-copy``), which saves writing it twice.
    """
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("student")
    subprocess.run([sys.executable, str(ROOT / "tools" / "student.py"), str(out)], check=True, capture_output=True)
    return out


@pytest.fixture(scope="session")
def figure_payload():
    """``payload(key)``: a figure's static data at every slider position, computed once per session.

    The widget tests and the figure-table tests check the same full grid; computing it once
    keeps ``make test`` short.
    """
    from dpnotes.figures import FIGURES
    from dpnotes.widgets.static_html import payload

    return functools.cache(lambda key: payload(FIGURES[key]))


@pytest.fixture(scope="session")
def site_url():
    """The published site served on 127.0.0.1 under the sub-path ``/dpnotes/``, as a host would serve it."""
    if not (SITE / "index.html").exists():
        pytest.fail(f"{SITE} has no site: run `make test` (it builds and publishes the book), or "
                    "`python tools/publish.py --base-url http://127.0.0.1/dpnotes/` after `make book`")
    handler = functools.partial(_SubpathHandler, directory=str(SITE))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}{SUBPATH}"
    server.shutdown()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _SubpathHandler(_QuietHandler):
    """Serves the site only under ``SUBPATH``: a link that escapes the sub-path gets a 404."""

    def translate_path(self, path):
        if path == SUBPATH or path.startswith(SUBPATH + "/"):
            return super().translate_path(path[len(SUBPATH):] or "/")
        return str(SITE / "__outside_the_subpath__")


#: how long a page may take to load or to reach a state a test waits for: generous, because the machine may be
#: busy with other jobs (a wait that runs out fails the test; how fast a page is belongs to the browser report)
PAGE_TIMEOUT_MS = 300_000


@pytest.fixture(scope="session")
def browser():
    """Headless Chromium, launched once for every browser test of the session."""
    sync = pytest.importorskip("playwright.sync_api")
    with sync.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def wait_for_quiet_network(page, quiet_ms=500, timeout_ms=PAGE_TIMEOUT_MS):
    """Playwright's "networkidle", counted from the page's request events (:mod:`quiet_network` in tools/: Playwright
    withdraws the state when the page goes busy again and may never fire it again). Fails naming the requests still
    in flight."""
    try:
        quiet_network.wait_for_quiet_network(page, quiet_ms, timeout_ms)
    except TimeoutError as err:
        pytest.fail(str(err))


def open_offline_page(browser, url, *, viewport=None, color_scheme="light", init_script=None, cdp=None,
                      wait_until="networkidle"):
    """A new page of ``browser`` at ``url`` (loaded up to ``wait_until``) that may reach only this machine.

    Every request to another host is aborted and recorded; console errors, uncaught page errors and failed
    requests to 127.0.0.1 are recorded too. ``data:`` and ``blob:`` URLs load, and ``file:`` ones when
    ``url`` is itself a file (the site's zip unpacked). ``init_script`` runs before the page's own scripts;
    ``cdp(page)`` is called before the page is requested (to watch its network). ``"networkidle"`` is waited
    for by :func:`wait_for_quiet_network`.

    Returns ``(page, foreign, errors)``: the page, the foreign URLs it asked for, and the errors, the last
    two lists growing while the page is used.
    """
    page = browser.new_page(viewport=viewport or {"width": 1280, "height": 900}, color_scheme=color_scheme)
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    foreign, errors = [], []
    local = ("data:", "blob:", "file:") if url.startswith("file:") else ("data:", "blob:")
    if cdp is not None:
        cdp(page)

    def route(r):
        if r.request.url.startswith(local) or urlparse(r.request.url).hostname in LOCAL_HOSTS:
            r.continue_()
        else:
            foreign.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("requestfailed",
            lambda r: errors.append(f"failed request {r.url}") if urlparse(r.url).hostname == "127.0.0.1" else None)
    if init_script:
        page.add_init_script(init_script)
    quiet_network.watch_network(page)
    page.goto(url, wait_until="load" if wait_until == "networkidle" else wait_until)
    if wait_until == "networkidle":  # counted here (see wait_for_quiet_network)
        wait_for_quiet_network(page)
    return page, foreign, errors
