"""The chapter map and reading paths (tools/chapter_map.py): complete, current, and linked."""

import importlib.util
import os
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("DPNOTES_HTML", ROOT / "_build" / "html"))
_spec = importlib.util.spec_from_file_location("chapter_map", ROOT / "tools" / "chapter_map.py")
chapter_map = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chapter_map)


def _toc_chapters():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    files = [c["file"] for part in toc["parts"] if part.get("caption") != "Reference" for c in part["chapters"]]
    return [f.split("/", 1)[1] for f in files if (ROOT / f"{f}.ipynb").exists()]


def test_every_chapter_is_on_the_map_in_reading_order():
    chapters, _ = chapter_map.load()
    assert list(chapters) == _toc_chapters()


def test_prerequisites_come_earlier_in_the_book():
    chapters, _ = chapter_map.load()
    order = list(chapters)
    for stem, c in chapters.items():
        for need in c["needs"]:
            assert order.index(need) < order.index(stem), f"{stem} needs the later chapter {need}"


def test_paths_follow_the_prerequisites():
    """A path may skip a chapter only if nothing later on the path needs it (directly or not)."""
    chapters, paths = chapter_map.load()

    def ancestors(stem):
        found = set()
        for need in chapters[stem]["needs"]:
            found |= {need} | ancestors(need)
        return found

    for path in paths:
        seen = [s for step in path["steps"] for s in step["chapters"]]
        assert len(seen) == len(set(seen)), path["name"]
        for i, stem in enumerate(seen):
            for need in ancestors(stem) - {"00-why-privacy"}:  # motivation, not a prerequisite
                assert need in seen[:i], f"{path['name']}: {stem} comes before its prerequisite {need}"


def test_the_six_week_course_covers_every_chapter():
    chapters, paths = chapter_map.load()
    course = next(p for p in paths if "six-week" in p["name"])
    assert len(course["steps"]) == 6
    assert sorted(s for step in course["steps"] for s in step["chapters"]) == sorted(chapters)


def test_time_estimate_counts_words_figures_and_exercises(tmp_path, monkeypatch):
    nb = {"cells": [{"cell_type": "markdown", "source": ["# A title\n", "word " * 1000, "\n```{exercise} x\n```"]},
                    {"cell_type": "code", "source": ["show(FIGURES['a'])\nshow(FIGURES['b'])"]}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    import json

    (tmp_path / "x.ipynb").write_text(json.dumps(nb))
    monkeypatch.setattr(chapter_map, "BOOK", tmp_path)
    facts = chapter_map.chapter_facts("x")
    # 1000 words and "title" (one-letter words and fenced blocks do not count), 2 figures, 1 exercise:
    # 10.01 + 4 + 8 minutes, rounded up to 25
    assert (facts["title"], facts["figures"], facts["exercises"]) == ("A title", 2, 1)
    assert facts["words"] == 1001 and facts["minutes"] == 25


def test_generated_files_are_current():
    chapters, paths = chapter_map.load()
    assert chapter_map.SVG.read_text(encoding="utf-8") == chapter_map.svg(chapters), "run tools/chapter_map.py"
    assert chapter_map.GUIDE.read_text(encoding="utf-8") == chapter_map.guide(chapters, paths), \
        "run tools/chapter_map.py"


def test_the_map_is_on_the_index_page_and_its_boxes_link_to_built_chapters():
    page = HTML / "book" / "index.html"
    if not page.exists():
        pytest.fail("build the book first (make book)")
    html = page.read_text(encoding="utf-8")
    assert 'id="map-title"' in html and "A six-week course" in html
    links = re.findall(r'<a href="([\w-]+\.html)"><rect', html)
    assert len(links) == len(_toc_chapters())
    for link in links:
        assert (HTML / "book" / link).exists(), link


#: a day of study: what a path that promises days may ask of a reader
HOURS_A_DAY = 7


def test_a_path_in_days_fits_its_days():
    chapters, paths = chapter_map.load()
    for path in paths:
        if "day" in path["name"].lower():
            assert path.get("days"), f"{path['name']}: a path named in days says how many"
            minutes = sum(chapters[s]["minutes"] for step in path["steps"] for s in step["chapters"])
            assert minutes <= HOURS_A_DAY * 60 * path["days"], (
                f"{path['name']}: {minutes / 60:.1f} hours do not fit {path['days']} days of {HOURS_A_DAY} hours")
