"""Invalidate the build's execution cache when the package changes.

jupyter-cache keys a notebook on its code cells only, so after a change to
``dpnotes/`` (a formula, a slider grid) a cached build would serve outputs, and
embedded figure data, computed by the old code. This records a hash of the
package sources and, when it differs, removes the execution cache and Sphinx's
environment so that every chapter is executed again.
"""

import hashlib
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "_build"
STAMP = BUILD / ".package-hash"


def package_hash():
    digest = hashlib.sha256()
    for path in sorted((ROOT / "dpnotes").rglob("*")):
        if path.is_file() and path.suffix in {".py", ".js", ".css", ".json", ".toml"}:
            digest.update(path.relative_to(ROOT).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def main():
    current = package_hash()
    if STAMP.exists() and STAMP.read_text().strip() == current:
        return
    for stale in (BUILD / ".jupyter_cache", BUILD / ".doctrees", BUILD / "html"):
        if stale.exists():
            shutil.rmtree(stale)
            print(f"cache_guard: package changed, removed {stale.relative_to(ROOT)}")
    BUILD.mkdir(exist_ok=True)
    STAMP.write_text(current + "\n")


if __name__ == "__main__":
    main()
