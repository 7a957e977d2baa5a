"""Fill the build's execution cache with the chapters it is missing, several at a time, before the build.

jupyter-book executes the notebooks it reads one after another (myst-nb's cache mode), so on a machine with
two cores half of the book's execution time is idle. This fills the same cache the same way myst-nb would:
each notebook missing from it (jupyter-cache keys a notebook on its code cells) runs in a fresh kernel, in
its own directory, under the book's timeout, started as the build starts its kernels (``PYTHONSTARTUP`` set
by ``book/_ext/dpnotes_sphinx.py``: figures display as static widgets), a process per core; the results are written to the cache by
this process alone (its database is not written concurrently). The build then finds every chapter cached.
A notebook that fails here is left out of the cache: the build executes it again and reports its error as
usual. Run after ``tools/cache_guard.py`` (which empties a cache the package has outdated).

Usage: python tools/execution_cache.py [--jobs N]
"""

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))

from dpnotes_sphinx import STATIC_KERNEL_STARTUP  # noqa: E402  the build's kernel start-up, named once


def _toc_files(node):
    if isinstance(node, dict):
        if "file" in node:
            yield node["file"]
        for value in node.values():
            yield from _toc_files(value)
    elif isinstance(node, list):
        for item in node:
            yield from _toc_files(item)


def book_notebooks(root=ROOT):
    """The ``.ipynb`` files the table of contents lists, in its order."""
    toc = yaml.safe_load((root / "_toc.yml").read_text())
    names = dict.fromkeys([toc["root"], *_toc_files(toc)])
    return [root / f"{name}.ipynb" for name in names if (root / f"{name}.ipynb").exists()]


def execution_settings(root=ROOT):
    """(cache directory, timeout, allow_errors) from the book's ``_config.yml``."""
    execute = yaml.safe_load((root / "_config.yml").read_text()).get("execute", {})
    return (root / execute.get("cache", "_build/.jupyter_cache"), execute.get("timeout", 30),
            bool(execute.get("allow_errors", False)))


def _start_kernels_as_the_build():
    """In a worker: the kernels it starts inherit the build's start-up file (not set in the caller)."""
    os.environ["PYTHONSTARTUP"] = str(STATIC_KERNEL_STARTUP)


def _execute(path, timeout, allow_errors):
    from jupyter_cache.executors.utils import single_nb_execution

    notebook = nbformat.read(path, as_version=4)
    result = single_nb_execution(notebook, cwd=str(path.parent), allow_errors=allow_errors, timeout=timeout,
                                 meta_override=True)
    error = None if result.err is None else f"{type(result.err).__name__}: {str(result.err)[:300]}"
    return nbformat.writes(notebook), result.time, error


def fill(jobs, root=ROOT, log=print):
    """Execute the book's notebooks missing from its cache, ``jobs`` at a time; the number cached."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache_dir, timeout, allow_errors = execution_settings(root)
    cache = get_cache(str(cache_dir))
    missing = []
    for path in book_notebooks(root):
        try:
            cache.match_cache_notebook(nbformat.read(path, as_version=4))
        except KeyError:
            missing.append(path)
    if not missing:
        return 0
    log(f"execution_cache: executing {len(missing)} notebooks, {jobs} at a time")
    start, cached = time.perf_counter(), 0
    with ProcessPoolExecutor(max_workers=jobs, initializer=_start_kernels_as_the_build) as pool:
        futures = {path: pool.submit(_execute, path, timeout, allow_errors) for path in missing}
        for path, future in futures.items():
            name = path.relative_to(root)
            try:
                text, seconds, error = future.result()
            except Exception as err:  # a worker that died: the build executes the notebook itself
                text, seconds, error = None, None, f"{type(err).__name__}: {err}"
            if error is not None:
                log(f"execution_cache: {name} failed ({error}); the build will execute it and report")
                continue
            cache.cache_notebook_bundle(CacheBundleIn(nbformat.reads(text, as_version=4), str(path),
                                                      data={"execution_seconds": seconds}),
                                        check_validity=False, overwrite=True)
            cached += 1
            log(f"execution_cache: {name} executed in {seconds:.1f} s")
    log(f"execution_cache: {cached} of {len(missing)} cached in {time.perf_counter() - start:.0f} s")
    return cached


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="notebooks executed at once (default: the number of cores)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1 (got {args.jobs})")
    fill(args.jobs)


if __name__ == "__main__":
    sys.exit(main())
