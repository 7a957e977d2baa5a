"""Write the figure tables the live sliders read: ``dpnotes/data/figure_tables/<key>.npz``.

Each table holds a figure's curves at every slider position, exactly the float32 data the
static page embeds (see ``dpnotes/widgets/figure_tables.py``). Tables whose fingerprint is
current are kept unless ``--force``; tables of figures that no longer exist are removed.

Usage: python tools/figure_tables.py [--force] [--check] [figure-key ...]
  --check  write nothing; exit 1 if a table is missing or stale (by fingerprint)
"""

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dpnotes.figures import FIGURES  # noqa: E402
from dpnotes.widgets.figure_tables import fingerprint, load_table, table_arrays, table_name  # noqa: E402
from dpnotes.widgets.static_html import payload  # noqa: E402

OUT = ROOT / "dpnotes" / "data" / "figure_tables"


def write(fig):
    """Compute every slider position of ``fig`` and write its table; returns (seconds, bytes)."""
    t0 = time.perf_counter()
    arrays = table_arrays(fig, payload(fig))
    seconds = time.perf_counter() - t0
    path = OUT / table_name(fig)
    tmp = path.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    tmp.replace(path)
    return seconds, path.stat().st_size


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("keys", nargs="*", help="figures to write (default: all)")
    parser.add_argument("--force", action="store_true", help="recompute tables whose fingerprint is current")
    parser.add_argument("--check", action="store_true", help="write nothing; fail if a table is missing or stale")
    args = parser.parse_args(argv)
    unknown = set(args.keys) - set(FIGURES)
    if unknown:
        parser.error(f"unknown figure keys: {', '.join(sorted(unknown))}")
    keys = args.keys or list(FIGURES)
    OUT.mkdir(parents=True, exist_ok=True)
    stale = [k for k in keys if args.force or load_table(FIGURES[k]) is None]
    if args.check:
        for k in stale:
            print(f"stale or missing: {table_name(FIGURES[k])} (run `make tables`)")
        return 1 if stale else 0
    start = time.perf_counter()
    for key in stale:
        fig = FIGURES[key]
        if fingerprint(fig) is None:
            print(f"{key}: the source of its function cannot be read; no table")
            continue
        seconds, size = write(fig)
        print(f"{key:<30} {seconds:7.1f} s {size / 1e3:8.1f} kB")
    if not args.keys:
        for path in OUT.glob("*.npz"):
            if path.stem not in FIGURES:
                path.unlink()
                print(f"removed {path.name} (no such figure)")
    total = sum(p.stat().st_size for p in OUT.glob("*.npz"))
    print(f"{len(stale)} written in {time.perf_counter() - start:.1f} s; "
          f"{len(list(OUT.glob('*.npz')))} tables, {total / 1e3:.1f} kB in {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
