"""Live-widget latency, as a reader sees it: showing a figure, then every slider move.

Each figure is measured in a fresh Python process (nothing cached from another figure,
the first call included):

- import: ``from dpnotes.figures import FIGURES`` and the live widget module;
- show: ``LiveFigure(fig)`` (reads the figure's table, builds the canvas) plus its widget
  bundle, that is, what a notebook cell ``show(fig)`` costs after the imports;
- every grid position, visited by moving the sliders as a reader would (each slider
  change is one move, through the ipywidgets observer): per move, "compute" (the curves
  at the new values: the table lookup, or the figure's function without a table, plus
  ``set_data``), "draw" (the PNG the widget shows) and the whole move; the path is walked
  three times, each move keeps its best time (on a shared machine a single time includes
  other processes' load) and the maximum over the moves is reported; "1st walk" is the
  worst move of the first walk as measured, first calls included. Without a table
  (``--no-table``) the figures' own caches make the later walks fast: there the first
  walk is the reader's latency, and the budget is checked on it.

Targets: every move ≤ 50 ms (maximum, not median); show ≤ 1 s.
Usage: python benchmarks/widget_latency.py [--no-table] [figure-key ...]
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOVE_BUDGET_MS = 50.0
SHOW_BUDGET_S = 1.0


def measure_here(key, use_table=True, repeats=3):
    """Measure figure ``key`` in this process (meant to be a fresh one); returns a dict.

    The slider path is walked ``repeats`` times; each move's times are the best over the walks,
    and ``first_pass_move_max_ms`` is the worst move of the first walk (first calls included,
    and whatever else the machine was doing)."""
    t0 = time.perf_counter()
    from dpnotes.figures import FIGURES
    from dpnotes.widgets.live import LiveFigure

    t1 = time.perf_counter()
    fig = FIGURES[key]
    live = LiveFigure(fig, table=None if use_table else False)
    live._repr_mimebundle_()
    t2 = time.perf_counter()
    moves = []
    canvas, update, png = live.canvas, live.canvas.update, live.canvas.png
    current = {}

    def timed_update(params):
        s = time.perf_counter()
        out = update(params)
        current["compute"] = time.perf_counter() - s
        return out

    def timed_png():
        s = time.perf_counter()
        out = png()
        current["draw"] = time.perf_counter() - s
        return out

    canvas.update, canvas.png = timed_update, timed_png
    sliders = list(fig.sliders)
    order = _positions([len(s.values) for s in sliders])
    for _ in range(repeats):
        move = 0
        for idx in order:
            for s, i in zip(sliders, idx):
                value = s.values[i]
                if live.params[s.name] != value:
                    start = time.perf_counter()
                    live.sliders[s.name].value = value  # a reader's move: observer -> LiveFigure.set
                    total = time.perf_counter() - start
                    if len(moves) <= move:
                        moves.append([])
                    moves[move].append((current["compute"], current["draw"], total))
                    move += 1
        for s in sliders:  # back to the start of the path (not timed)
            live.sliders[s.name].value = s.values[0]
    # per move the best of the repeats (the machine's other load removed), then the worst move
    best = [[min(t[k] for t in times) for k in range(3)] for times in moves]
    return {
        "key": key,
        "table": live.table is not None,
        "positions": len(order),
        "moves": len(moves),
        "import_s": t1 - t0,
        "show_s": t2 - t1,
        "compute_max_ms": 1e3 * max((m[0] for m in best), default=0.0),
        "draw_max_ms": 1e3 * max((m[1] for m in best), default=0.0),
        "move_max_ms": 1e3 * max((m[2] for m in best), default=0.0),
        "first_pass_move_max_ms": 1e3 * max((times[0][2] for times in moves), default=0.0),
    }


def _positions(shape):
    """Every index tuple of a grid of ``shape``, in a boustrophedon order (one slider moves per step)."""
    if not shape:
        return [()]
    rest = _positions(shape[1:])
    out = []
    for i in range(shape[0]):
        out.extend((i, *r) for r in (rest if i % 2 == 0 else rest[::-1]))
    return out


def measure(key, use_table=True):
    """Measure figure ``key`` in a fresh subprocess; returns the dict of :func:`measure_here`."""
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); from widget_latency import measure_here; "
            "print(json.dumps(measure_here(sys.argv[2], sys.argv[3] == '1')))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "benchmarks"), key, "1" if use_table else "0"],
                         capture_output=True, text=True, check=True, env=env, timeout=3600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def rows(keys=None, use_table=True):
    """One measurement per figure (all figures if ``keys`` is None), each in a fresh process."""
    sys.path.insert(0, str(ROOT))
    from dpnotes.figures import FIGURES

    return [measure(key, use_table) for key in FIGURES if not keys or key in keys]


def main(argv):
    use_table = "--no-table" not in argv
    keys = {a for a in argv if not a.startswith("--")} or None
    print(f"{'figure':<30}{'table':>6}{'moves':>6}{'import s':>9}{'show s':>8}"
          f"{'compute max ms':>15}{'draw max ms':>12}{'move max ms':>12}{'1st walk ms':>12}")
    sys.path.insert(0, str(ROOT))
    from dpnotes.figures import FIGURES

    over = []
    for key in (k for k in FIGURES if not keys or k in keys):
        r = measure(key, use_table)
        print(f"{r['key']:<30}{'yes' if r['table'] else 'no':>6}{r['moves']:>6}{r['import_s']:9.2f}{r['show_s']:8.2f}"
              f"{r['compute_max_ms']:15.1f}{r['draw_max_ms']:12.1f}{r['move_max_ms']:12.1f}"
              f"{r['first_pass_move_max_ms']:12.1f}", flush=True)
        move = r["move_max_ms"] if r["table"] else r["first_pass_move_max_ms"]
        if move > MOVE_BUDGET_MS or r["show_s"] > SHOW_BUDGET_S:
            over.append(r["key"])
    print(f"over budget (a move > {MOVE_BUDGET_MS:g} ms or show > {SHOW_BUDGET_S:g} s): {', '.join(over) or 'none'}")
    return over


if __name__ == "__main__":
    main(sys.argv[1:])
