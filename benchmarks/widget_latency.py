"""Live-widget latency: compute + redraw of every figure, as a reader drags a slider.

For each figure, alternate each slider between positions of its grid and time
``LiveFigure.set`` (recompute the curves, update the lines in place, render the PNG
that the widget shows). Reports the median and 90th percentile per figure, next to
a reference in the same process: recreating the matplotlib figure on every change,
the naive way. Target: median ≤ 50 ms.

Usage: python benchmarks/widget_latency.py [repeats]
"""

import statistics
import sys
import time

from dpnotes.figures import FIGURES
from dpnotes.widgets.live import LiveFigure
from dpnotes.widgets.mpl import render_png


def _positions(fig, n):
    for i in range(n):
        params = {}
        for s in fig.sliders:
            params[s.name] = s.values[(i * 7 + 3) % len(s.values)]
        yield params


def measure(fig, repeats):
    live = LiveFigure(fig)
    times = []
    for params in _positions(fig, repeats):
        t0 = time.perf_counter()
        live.set(**params)
        times.append(time.perf_counter() - t0)
    ref = []
    for params in _positions(fig, max(5, repeats // 5)):
        t0 = time.perf_counter()
        render_png(fig, params)
        ref.append(time.perf_counter() - t0)
    return times, ref


def main(repeats=60):
    print(f"{'figure':<18}{'median ms':>10}{'p90 ms':>9}{'recreate ms':>13}{'ratio':>7}")
    worst = 0.0
    for key, fig in FIGURES.items():
        times, ref = measure(fig, repeats)
        med = statistics.median(times) * 1e3
        p90 = sorted(times)[int(0.9 * len(times))] * 1e3
        rmed = statistics.median(ref) * 1e3
        worst = max(worst, med)
        print(f"{key:<18}{med:10.1f}{p90:9.1f}{rmed:13.1f}{rmed / med:7.1f}")
    print(f"worst median: {worst:.1f} ms (target ≤ 50 ms): {'OK' if worst <= 50 else 'OVER'}")
    return worst


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
