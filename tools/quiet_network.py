"""Wait for a Playwright page's network to be quiet, counted from the page's own request events.

Playwright's ``"networkidle"`` is withdrawn when the page goes busy again and need not fire again, so a
wait for it can run out although the page is done: a clean-clone run under load waited 300 s for it after
a chapter's math was typeset (tests), and the PDF of the book failed the same way (``tools/book_pdf.py``).
Here each page's requests in flight are counted from ``request`` / ``requestfinished`` / ``requestfailed``.
Used by ``tools/book_pdf.py`` and ``tests/conftest.py``.
"""

import time
import weakref

#: each watched page's requests in flight, and when that set last changed
_NETWORK = weakref.WeakKeyDictionary()


def watch_network(page):
    """Start counting ``page``'s requests in flight (call before the page is requested)."""
    state = _NETWORK[page] = {"inflight": set(), "changed": time.monotonic()}

    def started(request):
        state["inflight"].add(request)
        state["changed"] = time.monotonic()

    def ended(request):
        state["inflight"].discard(request)
        state["changed"] = time.monotonic()

    page.on("request", started)
    page.on("requestfinished", ended)
    page.on("requestfailed", ended)


def wait_for_quiet_network(page, quiet_ms=500, timeout_ms=300_000):
    """Wait until none of ``page``'s requests (watched by :func:`watch_network`) has been in flight for
    ``quiet_ms``; ``TimeoutError`` naming the requests still in flight after ``timeout_ms``."""
    state = _NETWORK[page]
    deadline = time.monotonic() + timeout_ms / 1000
    while state["inflight"] or time.monotonic() - state["changed"] < quiet_ms / 1000:
        if time.monotonic() > deadline:
            raise TimeoutError(f"requests still in flight after {timeout_ms / 1000:.0f} s: "
                               f"{sorted(r.url for r in state['inflight'])[:5]}")
        page.wait_for_timeout(50)  # lets Playwright deliver the page's events
