"""Timing shared by the benchmark scripts (run them from the project root)."""

import time

import numpy as np


def best_time(fn, repeat=3):
    """The fastest of ``repeat`` calls of ``fn``, in seconds."""
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best
