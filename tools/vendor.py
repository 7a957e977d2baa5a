"""Fill ``_vendor/`` with the web assets the site serves itself (no CDN).

Sources are pinned: npm tarballs fetched with ``npm pack`` and checked against the
sha512 integrity recorded below, plotly.js from the pinned plotly wheel, and the
widget script from the ``dpnotes`` package. Only the files a page needs are
copied (MathJax is pruned to CommonHTML output, TeX input and its fonts).

Usage: python tools/vendor.py [--force]
"""

import base64
import hashlib
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENDOR = ROOT / "_vendor"
CACHE = ROOT / "web" / ".cache"

PACKAGES = {
    # name@version: (sha512 integrity, {member prefix in tarball: destination under _vendor})
    "mathjax@3.2.2": (
        "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
        {
            "package/es5/tex-mml-chtml.js": "mathjax/tex-mml-chtml.js",
            "package/es5/output/chtml/fonts/woff-v2/": "mathjax/output/chtml/fonts/woff-v2/",
            "package/es5/input/tex/extensions/": "mathjax/input/tex/extensions/",
            "package/es5/ui/": "mathjax/ui/",
            "package/es5/a11y/": "mathjax/a11y/",
            "package/es5/sre/mathmaps/base.json": "mathjax/sre/mathmaps/base.json",
            "package/es5/sre/mathmaps/en.json": "mathjax/sre/mathmaps/en.json",
            "package/LICENSE": "mathjax/LICENSE",
        },
    ),
    "requirejs@2.3.8": (
        "sha512-7/cTSLOdYkNBNJcDMWf+luFvMriVm7eYxp4BcFCsAX0wF421Vyce5SXP17c+Jd5otXKGNehIonFlyQXSowL6Mw==",
        {"package/require.js": "requirejs/require.js"},
    ),
    "@jupyter-widgets/html-manager@1.0.15": (
        "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
        {"package/dist/": "html-manager/"},
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


def _extract(path, mapping):
    with tarfile.open(path) as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            for prefix, dest in mapping.items():
                if member.name == prefix or (prefix.endswith("/") and member.name.startswith(prefix)):
                    if member.name.endswith(".map"):
                        continue
                    rel = dest + member.name[len(prefix):] if prefix.endswith("/") else dest
                    out = VENDOR / rel
                    out.parent.mkdir(parents=True, exist_ok=True)
                    out.write_bytes(tar.extractfile(member).read())


def _copy_local():
    import plotly

    js = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    (VENDOR / "plotly").mkdir(parents=True, exist_ok=True)
    shutil.copy2(js, VENDOR / "plotly" / "plotly.min.js")
    widget_dir = ROOT / "dpnotes" / "widgets" / "static"
    dest = VENDOR / "dpnotes"
    dest.mkdir(parents=True, exist_ok=True)
    for f in widget_dir.iterdir():
        if f.suffix in {".js", ".css"}:
            shutil.copy2(f, dest / f.name)


def main(force=False):
    stamp = VENDOR / ".complete"
    if force and VENDOR.exists():
        shutil.rmtree(VENDOR)
    if not stamp.exists():
        for spec, (integrity, mapping) in PACKAGES.items():
            path = _tarball(spec)
            _check_integrity(path, integrity)
            _extract(path, mapping)
        stamp.write_text("\n".join(PACKAGES) + "\n")
    _copy_local()  # cheap; keeps the widget script in step with the package


if __name__ == "__main__":
    main(force="--force" in sys.argv)
