"""The deployable site (tools/publish.py): what a host and a search engine expect, on every page."""

import gzip
import re
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import publish  # noqa: E402

from conftest import HTML, SITE  # noqa: E402


@pytest.fixture(scope="module")
def site():
    if not (SITE / "index.html").exists():
        pytest.fail(f"{SITE} is missing: make test publishes the book before testing it")
    return SITE


def _pages(root):
    return sorted(p for p in root.rglob("*.html") if not p.relative_to(root).parts[0].startswith("_"))


def test_every_built_page_is_published_with_canonical_and_social_tags(site):
    built = {p.relative_to(HTML).as_posix() for p in _pages(HTML)}
    published = {p.relative_to(site).as_posix() for p in _pages(site)}
    assert built <= published
    for rel in built:
        text = (site / rel).read_text(encoding="utf-8")
        if "</head>" not in text:
            continue  # the root's bare redirect to the first page
        canonical = re.findall(r'<link rel="canonical" href="([^"]+)"', text)
        assert len(canonical) == 1 and canonical[0].endswith("/dpnotes/" + ("" if rel == "index.html" else rel)), rel
        for prop in ("og:title", "og:description", "og:url"):
            assert f'property="{prop}"' in text, (rel, prop)


def test_sitemap_lists_every_chapter(site):
    locs = re.findall(r"<loc>([^<]+)</loc>", (site / "sitemap.xml").read_text(encoding="utf-8"))
    chapters = [p.stem for p in (ROOT / "book").glob("*.ipynb")]
    for stem in chapters:
        assert any(loc.endswith(f"/book/{stem}.html") for loc in locs), stem
    assert "Sitemap: " in (site / "robots.txt").read_text()


def test_host_files(site):
    assert (site / ".nojekyll").exists()
    page = (site / "404.html").read_text(encoding="utf-8")
    # served at any depth: it must load nothing by a relative address
    assert not re.search(r'<(?:script|link|img)\b[^>]*(?:src|href)="(?!/|https?:)', page)
    assert 'href="/dpnotes/"' in page


def test_zip_holds_the_whole_site_and_is_linked_from_the_home_page(site):
    with zipfile.ZipFile(site / publish.ZIP_NAME) as z:
        names = set(z.namelist())
    for p in _pages(HTML):
        assert "dpnotes/" + p.relative_to(HTML).as_posix() in names
    assert f'href="../{publish.ZIP_NAME}"' in (site / "book" / "index.html").read_text(encoding="utf-8")


def test_precompressed_copies_equal_the_files(site):
    checked = 0
    for gz in site.rglob("*.gz"):
        with gzip.open(gz, "rb") as f:
            assert f.read() == gz.with_suffix("").read_bytes(), gz
        checked += 1
    assert checked >= len(_pages(HTML))


@pytest.mark.parametrize("url", ["", "example.org/dpnotes", "ftp://example.org/", "https:///x"])
def test_base_url_must_be_absolute(url):
    with pytest.raises(ValueError, match="base URL"):
        publish.check_base_url(url)


def test_publish_refuses_an_unbuilt_site(tmp_path):
    with pytest.raises(FileNotFoundError, match="make book"):
        publish.publish(tmp_path / "nothing", tmp_path / "out", "https://example.org/dpnotes/")
