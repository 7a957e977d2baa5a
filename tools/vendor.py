"""Fill ``_vendor/`` with the web assets the site serves itself (no CDN).

Sources are pinned: npm tarballs fetched with ``npm pack`` and checked against the
sha512 integrity recorded below, and the widget script from the ``dpnotes`` package.
Only the files a page needs are copied (MathJax is pruned to its loader, CommonHTML output, TeX
input, its fonts and assistive MathML; plotly.js is its partial bundle for scatter traces).

``--test`` fills ``_build/test-assets/`` instead with what the browser tests inject
into pages (axe-core); it never reaches the site.

Usage: python tools/vendor.py [--force] [--test]
"""

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENDOR = ROOT / "_vendor"
TEST_ASSETS = ROOT / "_build" / "test-assets"
CACHE = ROOT / "web" / ".cache"

PACKAGES = {
    # name@version: (sha512 integrity, {member prefix in tarball: destination under _vendor})
    "mathjax@3.2.2": (
        "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
        {
            # the loader and the components _config.yml's mathjax3_config loads (no contextual menu:
            # 0.43 MB less per page than the combined tex-mml-chtml.js); screen readers read the
            # assistive MathML that a11y/assistive-mml adds to every formula
            "package/es5/startup.js": "mathjax/startup.js",
            "package/es5/core.js": "mathjax/core.js",
            "package/es5/input/tex.js": "mathjax/input/tex.js",
            "package/es5/input/tex/extensions/": "mathjax/input/tex/extensions/",
            "package/es5/output/chtml.js": "mathjax/output/chtml.js",
            "package/es5/output/chtml/fonts/tex.js": "mathjax/output/chtml/fonts/tex.js",
            "package/es5/output/chtml/fonts/woff-v2/": "mathjax/output/chtml/fonts/woff-v2/",
            "package/es5/a11y/assistive-mml.js": "mathjax/a11y/assistive-mml.js",
            "package/LICENSE": "mathjax/LICENSE",
        },
    ),
    # plotly.js's partial bundle with the trace types the book draws (scatter): a quarter of
    # the full bundle's bytes, same version as the plotly wheel's
    "plotly.js-basic-dist-min@4.1.1": (
        "sha512-1oNF8PeQx2hv/y7tqEVWKD3JGwn/MGEMQ8mL9HUwsaqG9FGy/OU5FHUHvzqbqxN4mnwZGI9abTiE775C4kkjMQ==",
        {"package/plotly-basic.min.js": "plotly/plotly-basic.min.js", "package/LICENSE": "plotly/LICENSE"},
    ),
}


TEST_PACKAGES = {
    "axe-core@4.14.1": (
        "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
        {"package/axe.min.js": "axe-core/axe.min.js", "package/LICENSE": "axe-core/LICENSE"},
    ),
}

def _tarball(spec):
    CACHE.mkdir(parents=True, exist_ok=True)
    name, version = spec.rsplit("@", 1)
    path = CACHE / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
    if not path.exists():
        subprocess.run(["npm", "pack", spec, "--silent", "--pack-destination", str(CACHE)],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def _check_integrity(path, integrity):
    algo, expected = integrity.split("-", 1)
    digest = base64.b64encode(hashlib.new(algo, path.read_bytes()).digest()).decode()
    if digest != expected:
        path.unlink()
        sys.exit(f"vendor: integrity mismatch for {path.name}; refusing to use it")


def _extract(path, mapping, dest_root):
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            for prefix, dest in mapping.items():
                if member.name == prefix or (prefix.endswith("/") and member.name.startswith(prefix)):
                    if member.name.endswith(".map"):
                        continue
                    rel = dest + member.name[len(prefix):] if prefix.endswith("/") else dest
                    out = dest_root / rel
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(tar.extractfile(member).read())


def _copy_local():
    widget_dir = ROOT / "dpnotes" / "widgets" / "static"
    dest = VENDOR / "dpnotes"
    dest.mkdir(parents=True, exist_ok=True)
    for f in widget_dir.iterdir():
        if f.suffix in {".js", ".css"}:
            shutil.copy2(f, dest / f.name)


def _fill(root, packages):
    """Unpack ``packages`` into ``root`` unless it already holds exactly them (same versions, same files)."""
    stamp = root / ".complete"
    wanted = json.dumps(packages, sort_keys=True, indent=1) + "\n"
    if stamp.exists() and stamp.read_text() == wanted:
        return
    if root.exists():
        shutil.rmtree(root)
    for spec, (integrity, mapping) in packages.items():
        path = _tarball(spec)
        _check_integrity(path, integrity)
        _extract(path, mapping, root)
    stamp.write_text(wanted)


def main(force=False, test=False):
    root, packages = (TEST_ASSETS, TEST_PACKAGES) if test else (VENDOR, PACKAGES)
    if force and root.exists():
        shutil.rmtree(root)
    _fill(root, packages)
    if not test:
        _copy_local()  # cheap; keeps the widget script in step with the package


if __name__ == "__main__":
    main(force="--force" in sys.argv, test="--test" in sys.argv)
