"""One PDF of the book: ``make pdf`` writes ``_build/pdf/dpnotes.pdf`` from the built site.

Every page of the table of contents (``_toc.yml``, in its order) is printed by headless Chromium
(Debian's, driven by Playwright) once its figures are drawn and MathJax has typeset it. The site's
print stylesheet shows each figure statically with its slider values and hides the page chrome.
The printouts are merged with pypdf behind a title page and a table of contents with page
numbers; every page gets its number at the foot, and the PDF's outline (bookmarks) has one entry
per chapter, grouped by the parts of the table of contents.

Left out: ``book/execution`` (the build's execution report, which changes with every build) and
``book/api`` (the API reference: 125 pages of docstrings, better read on the site or with ``help()``).

Usage: python tools/book_pdf.py [--html _build/html] [--out _build/pdf/dpnotes.pdf]
"""

import argparse
import functools
import html
import http.server
import io
import re
import shutil
import socket
import sys
import threading
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from quiet_network import wait_for_quiet_network, watch_network  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: pages of the table of contents not printed: the build's execution report (not part of the book) and the
#: API reference (125 pages of docstrings, read on the site or with help())
EXCLUDED = {"book/execution", "book/api"}
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]
#: A4, with room at the foot for the page number stamped afterwards
PAPER = {"format": "A4", "margin": {"top": "16mm", "bottom": "18mm", "left": "15mm", "right": "15mm"}}
#: the site printed a little smaller than on screen, so that long code lines and display math fit the page
SCALE = 0.85
#: the printed column in CSS pixels: 210 mm less the side margins, at 96 px an inch, divided by SCALE
PRINT_WIDTH_PX = round((210 - 15 - 15) / 25.4 * 96 / SCALE)
#: on paper nothing can scroll sideways: wrap code and outputs, let wide display math show in full
PRINT_CSS = """@media print {
  pre { white-space: pre-wrap !important; overflow-wrap: anywhere; }
  div.math, mjx-container[display="true"], .cell_output .output { overflow: visible !important; }
}"""
_READY = "() => Array.from(document.querySelectorAll('.dpnotes-widget')).every(w => w.dataset.ready === '1')"
#: true once MathJax has started on a page that loads it (pages without math do not)
_TYPESET_STARTED = """() => !document.querySelector('.math') ||
    !document.querySelector('script[src*="mathjax"], script[data-mathjax]') ||
    (window.MathJax && MathJax.startup && MathJax.startup.promise)"""
#: display math and tables wider than the printed column are shrunk to fit it (on paper nothing scrolls)
_FIT_WIDTH = """() => {
  for (const el of document.querySelectorAll('mjx-container[display="true"], article table')) {
    // centred display math overflows on both sides: measure its content, not the scroll width
    const math = el.querySelector(':scope > mjx-math');
    const room = el.parentElement.clientWidth, need = math ? math.getBoundingClientRect().width : el.scrollWidth;
    if (room > 0 && need > room + 1) el.style.zoom = (room / need).toFixed(3);
  }
}"""
_MATH = re.compile(r"\\\((.*?)\\\)|\$(.*?)\$")
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def toc_entries(toc_path=ROOT / "_toc.yml"):
    """``(part caption or None, docname)`` for every page of the table of contents, in order."""
    toc = yaml.safe_load(Path(toc_path).read_text(encoding="utf-8"))
    entries = [(None, toc["root"])]
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            entries.append((part.get("caption"), chapter["file"]))
    return [(part, doc) for part, doc in entries if doc not in EXCLUDED]


def plain_title(title):
    """A page title without TeX: ``\\(q^2\\)`` becomes ``q²`` (for the outline and the contents)."""
    def untex(m):
        tex = m.group(1) if m.group(1) is not None else m.group(2)
        tex = re.sub(r"\^\{?(\d+)\}?", lambda s: s.group(1).translate(_SUPERSCRIPT), tex)
        tex = tex.replace("\\varepsilon", "ε").replace("\\delta", "δ").replace("\\alpha", "α")
        return re.sub(r"[\\{}]", "", tex)
    return " ".join(_MATH.sub(untex, title).split())


def page_title(html_path):
    """The page's own title (its ``<title>`` without the book's name)."""
    text = Path(html_path).read_text(encoding="utf-8")
    title = re.search(r"<title>(.*?)</title>", text, re.S).group(1)
    return plain_title(html.unescape(title).split(" \u2014 ")[0])


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(directory):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(_Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{port}"


#: how long a page may take to load and typeset (generous: the machine may be busy with other jobs)
PAGE_TIMEOUT_MS = 300_000


def print_page(browser, url):
    """The PDF bytes of the page at ``url``, printed once its figures are drawn and its math typeset."""
    # as wide as the printed column (A4 less the margins, in CSS pixels at SCALE), so that what is
    # measured before printing is what is printed
    page = browser.new_page(viewport={"width": PRINT_WIDTH_PX, "height": 1100})
    page.set_default_timeout(PAGE_TIMEOUT_MS)
    watch_network(page)  # Playwright's "networkidle" may never fire again once withdrawn (tools/quiet_network.py)
    try:
        page.goto(url, wait_until="load")
        wait_for_quiet_network(page, timeout_ms=PAGE_TIMEOUT_MS)
        page.wait_for_function(_READY)
        # on pages with figures the widget script loads MathJax once they are drawn (book/_ext)
        page.wait_for_function(_TYPESET_STARTED)
        page.evaluate("() => (window.MathJax && MathJax.startup && MathJax.startup.promise) || null")
        wait_for_quiet_network(page, timeout_ms=PAGE_TIMEOUT_MS)
        page.add_style_tag(content=PRINT_CSS)
        page.emulate_media(media="print")
        page.evaluate(_FIT_WIDTH)
        return page.pdf(print_background=False, scale=SCALE, **PAPER)
    finally:
        page.close()


def front_matter_html(title, rows, version=""):
    """The title page and the table of contents; ``rows``: ``(part, title, first page)``."""
    lines, part_seen = [], object()
    for part, name, number in rows:
        if part != part_seen and part:
            lines.append(f'<li class="part">{html.escape(part)}</li>')
        part_seen = part
        lines.append(f'<li><span class="t">{html.escape(name)}</span><span class="n">{number}</span></li>')
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:"DejaVu Sans",sans-serif;color:#111}}
.title{{height:240mm;display:flex;flex-direction:column;justify-content:center;text-align:center;break-after:page}}
.title h1{{font-size:28pt;margin:0 0 8mm}} .title p{{font-size:13pt;margin:2mm}}
h2{{font-size:18pt}} ol{{list-style:none;padding:0;font-size:11pt}}
li{{display:flex;margin:1.6mm 0}} li .t{{flex:1;border-bottom:1px dotted #888;margin-right:2mm}}
li.part{{font-weight:bold;margin-top:5mm}}</style></head><body>
<section class="title"><h1>{html.escape(title)}</h1>
<p>An interactive book on differential-privacy accounting, printed from its web site.</p>
<p>The figures are printed at the slider values they show; the web site has them live.</p>
<p>dpnotes {html.escape(version)}</p></section>
<h2>Contents</h2><ol>{"".join(lines)}</ol></body></html>"""


def _number_overlay(width, height, number):
    """A blank page of the given size with ``number`` centred at its foot (Helvetica, 9 pt)."""
    from pypdf import PageObject
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    overlay = PageObject.create_blank_page(width=width, height=height)
    font = DictionaryObject({NameObject("/Type"): NameObject("/Font"), NameObject("/Subtype"): NameObject("/Type1"),
                             NameObject("/BaseFont"): NameObject("/Helvetica")})
    overlay[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): DictionaryObject({NameObject("/FPn"): font})})
    text = str(number)
    x = float(width) / 2 - len(text) * 0.556 * 9 / 2  # Helvetica's digits are 556/1000 em wide
    stream = DecodedStreamObject()
    stream.set_data(f"BT /FPn 9 Tf 0.3 g 1 0 0 1 {x:.2f} 28 Tm ({text}) Tj ET".encode())
    overlay[NameObject("/Contents")] = stream
    return overlay


def build_pdf(html_dir, out, log=print):
    """Print every page of the table of contents and merge them into ``out``; returns the page count."""
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader, PdfWriter

    html_dir, out = Path(html_dir), Path(out)
    if not (html_dir / "index.html").exists():
        raise FileNotFoundError(f"{html_dir / 'index.html'} is missing: build the book first (make book)")
    import dpnotes

    version = dpnotes.__version__
    entries = toc_entries()
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    server, base = _serve(html_dir)
    chapters = []  # (part, title, pdf reader)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                for part, doc in entries:
                    reader = PdfReader(io.BytesIO(print_page(browser, f"{base}/{doc}.html")))
                    title = page_title(html_dir / f"{doc}.html")
                    chapters.append((part, title, reader))
                    log(f"  {doc}: {len(reader.pages)} pages")
                # the front matter's length does not depend on the page numbers it lists
                front = browser.new_page()
                try:
                    def front_pdf(first_pages):
                        rows = [(p, t, n) for (p, t, _), n in zip(chapters, first_pages)]
                        front.set_content(front_matter_html(config["title"], rows, version))
                        return PdfReader(io.BytesIO(front.pdf(**PAPER)))
                    n_front = len(front_pdf([0] * len(chapters)).pages)
                    starts, page = [], n_front + 1
                    for _, _, reader in chapters:
                        starts.append(page)
                        page += len(reader.pages)
                    front_reader = front_pdf(starts)
                    if len(front_reader.pages) != n_front:
                        raise RuntimeError("the table of contents changed length once numbered")
                finally:
                    front.close()
            finally:
                browser.close()
    finally:
        server.shutdown()

    writer = PdfWriter()
    for p in front_reader.pages:
        writer.add_page(p)
    parents = {}
    for (part, title, reader), start in zip(chapters, starts):
        for p in reader.pages:
            writer.add_page(p)
        parent = None
        if part:
            if part not in parents:
                parents[part] = writer.add_outline_item(title=part, page_number=start - 1)
            parent = parents[part]
        writer.add_outline_item(title=title, page_number=start - 1, parent=parent)
    for number, page in enumerate(writer.pages, start=1):
        box = page.mediabox
        page.merge_page(_number_overlay(box.width, box.height, number))
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
    writer.add_metadata({"/Title": config["title"], "/Author": config.get("author", "")})
    writer.page_mode = "/UseOutlines"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as f:
        writer.write(f)
    return len(writer.pages)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--html", default=str(ROOT / "_build" / "html"), help="the built site")
    parser.add_argument("--out", default=str(ROOT / "_build" / "pdf" / "dpnotes.pdf"))
    args = parser.parse_args(argv)
    try:
        n = build_pdf(args.html, args.out)
    except FileNotFoundError as err:
        parser.error(str(err))
    print(f"wrote {args.out}: {n} pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
