"""tools/execution_cache.py fills the cache the build reads, as myst-nb would, and leaves failures to the build."""

import os
import sys
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import execution_cache  # noqa: E402


def test_every_notebook_of_the_table_of_contents_is_listed_once():
    listed = execution_cache.book_notebooks()
    toc_text = (ROOT / "_toc.yml").read_text()
    on_disk = [p for p in (ROOT / "book").glob("*.ipynb") if f"book/{p.stem}\n" in toc_text + "\n"]
    assert sorted(listed) == sorted(on_disk) and len(set(listed)) == len(listed)
    cache, timeout, allow_errors = execution_cache.execution_settings()
    assert cache == ROOT / "_build" / ".jupyter_cache" and timeout >= 60 and allow_errors is False


def _project(tmp_path, sources):
    (tmp_path / "_toc.yml").write_text(yaml.safe_dump(
        {"format": "jb-book", "root": "index", "chapters": [{"file": name} for name in sources]}))
    (tmp_path / "_config.yml").write_text(yaml.safe_dump(
        {"execute": {"execute_notebooks": "cache", "cache": "_build/.jupyter_cache", "timeout": 120}}))
    (tmp_path / "index.md").write_text("# index\n")
    for name, source in sources.items():
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
        nbformat.write(nb, tmp_path / f"{name}.ipynb")


def test_the_cache_is_filled_as_the_build_reads_it_and_failures_are_left_to_the_build(tmp_path):
    from jupyter_cache import get_cache

    _project(tmp_path, {"ok": "import os\nprint(6 * 7, os.environ.get('PYTHONSTARTUP'))", "broken": "1 / 0"})
    lines = []
    assert execution_cache.fill(2, root=tmp_path, log=lines.append) == 1
    assert any("broken.ipynb failed (" in line for line in lines)
    cache = get_cache(str(tmp_path / "_build" / ".jupyter_cache"))
    # myst-nb's lookup: the notebook as read from disk matches an executed record carrying its output
    record = cache.match_cache_notebook(nbformat.read(tmp_path / "ok.ipynb", as_version=4))
    _, merged = cache.merge_match_into_notebook(nbformat.read(tmp_path / "ok.ipynb", as_version=4))
    # started as the build starts its kernels: figures display as static widgets
    startup = ROOT / "book" / "_ext" / "static_kernel.py"
    assert record is not None and merged.cells[0].outputs[0]["text"] == f"42 {startup}\n"
    assert execution_cache.fill(2, root=tmp_path, log=lines.append) == 0  # only the broken one, again failing
    assert "PYTHONSTARTUP" not in os.environ  # set in the workers only
    assert sum("executing 1 notebooks" in line for line in lines) == 1
