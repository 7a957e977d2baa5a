"""Live-widget latency: compute + redraw of every figure, as a reader drags a slider.

For each figure, a drag visits slider positions in a scrambled order (each value
new to the figure: "cold", nothing cached), then visits them again ("warm": what
the figure's own caches give). Each update is ``LiveFigure.set``: recompute the
curves, update the lines in place, render the PNG the widget shows. Next to it, in
the same process, the reference: recreating the matplotlib figure on every change.
Target: cold median ≤ 50 ms.

Usage: python benchmarks/widget_latency.py [moves] [figure-key ...]
"""

import statistics
import sys
import time

from dpnotes.figures import FIGURES
from dpnotes.widgets.live import LiveFigure
from dpnotes.widgets.mpl import render_png


def _positions(fig, n):
    grids = [s.values for s in fig.sliders]
    seen, out = set(), []
    for i in range(10 * n):
        combo = tuple(g[(i * 7 + 3 * j + 1) % len(g)] for j, g in enumerate(grids))
        if combo not in seen and combo != tuple(fig.defaults[s.name] for s in fig.sliders):
            seen.add(combo)
            out.append(dict(zip((s.name for s in fig.sliders), combo)))
        if len(out) == n:
            break
    return out


def _time(fn, items):
    times = []
    for params in items:
        t0 = time.perf_counter()
        fn(params)
        times.append(time.perf_counter() - t0)
    return times


def measure(fig, moves):
    live = LiveFigure(fig)
    positions = _positions(fig, moves)
    cold = _time(lambda p: live.set(**p), positions)
    warm = _time(lambda p: live.set(**p), positions)
    ref = _time(lambda p: render_png(fig, p), positions[: max(3, len(positions) // 4)])
    return cold, warm, ref


def main(moves=12, keys=None):
    print(f"{'figure':<30}{'cold ms':>9}{'warm ms':>9}{'recreate ms':>13}{'ratio':>7}")
    over = []
    for key, fig in FIGURES.items():
        if keys and key not in keys:
            continue
        cold, warm, ref = measure(fig, moves)
        c, w, r = (statistics.median(t) * 1e3 for t in (cold, warm, ref))
        print(f"{key:<30}{c:9.1f}{w:9.1f}{r:13.1f}{r / w:7.1f}")
        if c > 50:
            over.append(key)
    print(f"cold median over 50 ms: {', '.join(over) if over else 'none'}")
    return over


if __name__ == "__main__":
    args = sys.argv[1:]
    main(int(args[0]) if args else 12, set(args[1:]) or None)
