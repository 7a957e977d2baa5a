"""What every benchmark compares against: the grid, the truth, and one timing rule.

The grid is issue 18's: DP-SGD (Poisson rate q, noise multiplier σ, T steps) at δ = 1e-5,
q ∈ {1e-3, 1e-2, 0.05}, σ ∈ {0.8, 1.1, 2, 4}.

**The truth** at a grid point is the midpoint of dpnotes' certified PLD bracket
(:func:`dpnotes.dpsgd_epsilon_bracket`) asked for a relative width of 1e-5 (1e-4, then
1e-3, where that grid would exceed the size limit), so it is within half the width it
reached of the true ε, round-off included; that width is reported with every error. It
is computed once per point and kept in ``_build/bench/truth.json``, so repeated
benchmark runs do not pay for it again.

**Equal accuracy**: a peer's output ε_peer has the relative error
r = |ε_peer − truth| / truth; dpnotes is timed asked for an upper bound whose error is at
most that r (a bracket of relative width r: its upper end is within r of the truth).

**Time** is the wall time of one call as the user makes it, including building the
accountant; every call of a row is a first call for its arguments (nothing is cached
between repeats that the user would not also have), and the best of ``repeat`` such calls
is kept, ours and the peer's interleaved in one process.
"""

import json
import logging
import math
import time
import warnings
from pathlib import Path

import dpnotes

DELTA = 1e-5
QS = (1e-3, 1e-2, 0.05)
SIGMAS = (0.8, 1.1, 2.0, 4.0)
TRUTH_WIDTHS = (1e-5, 1e-4, 1e-3)  # asked of the truth bracket, the first the grid allows
_CACHE = Path(__file__).resolve().parents[1] / "_build" / "bench" / "truth.json"

logging.getLogger().setLevel(logging.ERROR)  # the peers log every call at WARNING


def grid(steps):
    """(q, σ, T) for every grid point at each T in ``steps``."""
    return [(q, s, int(t)) for t in steps for q in QS for s in SIGMAS]


def _load():
    try:
        return json.loads(_CACHE.read_text())
    except (OSError, ValueError):
        return {}


def truth(q, sigma, steps, delta=DELTA):
    """The certified ε bracket (lower, upper) of the point, as tight as ``TRUTH_WIDTHS`` allows; cached on disk.

    (nan, nan) where even the widest is refused (grid-size limit).
    """
    key = f"{q!r}|{sigma!r}|{steps}|{delta!r}"
    cache = _load()
    if key not in cache:
        lo = up = math.nan
        for width in TRUTH_WIDTHS:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # a missed width shows in the width reported
                    lo, up = (float(v) for v in dpnotes.dpsgd_epsilon_bracket(
                        q, sigma, steps, delta, rel_width=width, max_refinements=4))
                break
            except ValueError:
                continue
        cache = _load()
        cache[key] = [lo, up]
        _CACHE.parent.mkdir(parents=True, exist_ok=True)
        _CACHE.write_text(json.dumps(cache, indent=0))
    lo, up = cache[key]
    return lo, up


def midpoint(bracket):
    lo, up = bracket
    return 0.5 * (lo + up)


def timed(fn, *args):
    """(wall time of one call ``fn(*args)`` in seconds, its value)."""
    t0 = time.perf_counter()
    value = fn(*args)
    return time.perf_counter() - t0, value


def best_time(fn, repeat=3):
    """(the fastest wall time of ``repeat`` calls of ``fn``, its last value)."""
    best, value = float("inf"), None
    for _ in range(repeat):
        t, value = timed(fn)
        best = min(best, t)
    return best, value


def machine():
    """One line naming the machine: CPU model, cores, Python, numpy."""
    import os
    import platform

    import numpy as np

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, numpy {np.__version__}"
