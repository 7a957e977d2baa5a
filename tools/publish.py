"""Turn the built site into a deployable one: ``make publish`` (``BASE_URL=https://…/dpnotes/``).

Copies ``_build/html`` to ``_build/publish`` and adds what a host and a search engine expect:

- on every page a canonical link and social preview tags (Open Graph title, description, URL);
- ``sitemap.xml`` and ``robots.txt`` pointing at it;
- ``404.html``, self-contained (a host serves it at any depth, so it loads nothing relative);
- ``.nojekyll`` (GitHub Pages would otherwise drop the ``_static`` folder);
- ``dpnotes-site.zip``, the whole site for offline reading (linked from the home page);
- a ``.gz`` copy of every text file, for hosts that serve precompressed files;
- the book as one PDF (``dpnotes.pdf``, from ``make pdf``), linked from the home page, when it was built.

The site's own links are relative, so it works under any sub-path; the base URL is used only where
an absolute address is required (canonical links, the sitemap, social tags).

Usage: python tools/publish.py --base-url https://example.org/dpnotes/ [--src _build/html] [--out _build/publish]
"""

import argparse
import gzip
import html
import re
import shutil
import sys
import zipfile
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
ZIP_NAME = "dpnotes-site.zip"
PDF_NAME = "dpnotes.pdf"
#: pages a search engine has no use for
UNLISTED = {"search.html", "genindex.html", "404.html"}
COMPRESSED = {".html", ".js", ".css", ".svg", ".json", ".xml", ".txt", ".map", ".woff"}
_HEAD_END = re.compile(r"</head>", re.I)
_TITLE = re.compile(r"<title>(.*?)</title>", re.S | re.I)
_PARA = re.compile(r"<p>(.*?)</p>", re.S)
_TAG = re.compile(r"<[^>]+>")


def check_base_url(url):
    """The base URL with one trailing slash; ValueError unless it is an absolute http(s) URL."""
    parsed = urlparse(url or "")
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ValueError(f"base URL must be an absolute http(s) URL such as https://example.org/dpnotes/ (got {url!r})")
    return url.rstrip("/") + "/"


def _description(page):
    """The page's first paragraph as plain text, at most 200 characters."""
    for para in _PARA.findall(page):
        text = " ".join(html.unescape(_TAG.sub("", para)).split())
        if len(text) > 40:
            return text if len(text) <= 200 else text[:197].rsplit(" ", 1)[0] + "…"
    return "An interactive book on differential-privacy accounting."


def head_tags(page, url):
    """Canonical link and social preview tags for a page published at ``url``."""
    title = _TITLE.search(page)
    title = " ".join(html.unescape(_TAG.sub("", title.group(1))).split()) if title else "dpnotes"
    attr = lambda s: html.escape(s, quote=True)
    return "\n".join([
        f'<link rel="canonical" href="{attr(url)}">',
        f'<meta property="og:title" content="{attr(title)}">',
        f'<meta property="og:description" content="{attr(_description(page))}">',
        f'<meta property="og:url" content="{attr(url)}">',
        '<meta property="og:type" content="website">',
        '<meta property="og:site_name" content="dpnotes">',
        '<meta name="twitter:card" content="summary">',
    ]) + "\n"


def not_found_page(base_url):
    """A 404 page that loads nothing: inline style, absolute links to the home page."""
    home = html.escape(urlparse(base_url).path or "/", quote=True)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found · dpnotes</title>
<style>body{{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a;background:#fff}}
a{{color:#0d52b8}}@media (prefers-color-scheme:dark){{body{{color:#e6e6e6;background:#121212}}a{{color:#8ab4f8}}}}</style>
</head><body><main><h1>Page not found</h1>
<p>There is no page at this address in <em>dpnotes: how privacy losses compose and amplify</em>.</p>
<p><a href="{home}">Go to the book's home page</a>, or to its <a href="{home}search.html">search page</a>.</p>
</main></body></html>
"""


def sitemap(urls):
    rows = "\n".join(f"  <url><loc>{html.escape(u)}</loc></url>" for u in urls)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' + rows + "\n</urlset>\n")


def publish(src, out, base_url, pdf=None):
    """Write the deployable site to ``out``, with the book's PDF ``pdf`` if given; returns the list of
    page URLs in the sitemap."""
    base_url = check_base_url(base_url)
    src, out = Path(src), Path(out)
    if not (src / "index.html").exists():
        raise FileNotFoundError(f"{src / 'index.html'} is missing: build the book first (make book)")
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(src, out, ignore=shutil.ignore_patterns(".buildinfo", ".doctrees", "_sources"))
    urls = []
    home = "book/index.html" if (out / "book" / "index.html").exists() else "index.html"
    for page in sorted(out.rglob("*.html")):
        rel = page.relative_to(out).as_posix()
        url = base_url + ("" if rel == "index.html" else rel)
        text = page.read_text(encoding="utf-8")
        if not _HEAD_END.search(text):
            continue  # a bare redirect (the root index.html points at the book's first page)
        if 'rel="canonical"' not in text:
            text = _HEAD_END.sub(lambda m: head_tags(text, url) + m.group(0), text, count=1)
        if rel == home:
            zip_href = "../" * rel.count("/") + ZIP_NAME
            link = (f'<p class="dpnotes-offline">Read offline: <a href="{zip_href}" download>the whole site as a zip '
                    "file</a> (unzip it and open <code>index.html</code>).</p>")
            if pdf is not None:
                pdf_href = "../" * rel.count("/") + PDF_NAME
                size = Path(pdf).stat().st_size / 1e6
                link += (f'<p class="dpnotes-offline">Print or read on paper: <a href="{pdf_href}">the book as a PDF</a> '
                         f"({size:.0f} MB).</p>")
            text = text.replace("</article>", link + "</article>", 1)
        page.write_text(text, encoding="utf-8")
        if rel not in UNLISTED and not rel.startswith("_"):
            urls.append(url)
    (out / "404.html").write_text(not_found_page(base_url), encoding="utf-8")
    (out / "sitemap.xml").write_text(sitemap(urls), encoding="utf-8")
    (out / "robots.txt").write_text(f"User-agent: *\nAllow: /\nSitemap: {base_url}sitemap.xml\n", encoding="utf-8")
    (out / ".nojekyll").write_text("", encoding="utf-8")
    files = sorted(p for p in out.rglob("*") if p.is_file())
    if pdf is not None:  # after listing the files: the PDF stays out of the zip
        shutil.copyfile(pdf, out / PDF_NAME)
    with zipfile.ZipFile(out / ZIP_NAME, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for p in files:
            if p.name not in (".nojekyll", "404.html", "robots.txt", "sitemap.xml"):
                z.write(p, Path("dpnotes") / p.relative_to(out))
    for p in files:
        if p.suffix in COMPRESSED:
            with open(p, "rb") as f_in, gzip.GzipFile(p.with_name(p.name + ".gz"), "wb", 9, mtime=0) as f_out:
                shutil.copyfileobj(f_in, f_out)
    return urls


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--base-url", required=True, help="the address the site is served at, e.g. https://example.org/dpnotes/")
    parser.add_argument("--src", default=str(ROOT / "_build" / "html"))
    parser.add_argument("--out", default=str(ROOT / "_build" / "publish"))
    parser.add_argument("--pdf", default=str(ROOT / "_build" / "pdf" / PDF_NAME),
                        help="the book's PDF (make pdf), published and linked if it exists")
    args = parser.parse_args(argv)
    pdf = Path(args.pdf) if Path(args.pdf).is_file() else None
    try:
        urls = publish(args.src, args.out, args.base_url, pdf=pdf)
    except (ValueError, FileNotFoundError) as err:
        parser.error(str(err))
    print(f"published {len(urls)} pages to {args.out} for {check_base_url(args.base_url)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
