"""dpnotes.pld against dp-accounting's PLD accountant, side by side in one process.

DP-SGD with the TF-Privacy tutorial's parameters (q = 256/60000, σ = 1.1,
δ = 1e-5) for T = 1e3, 1e4, 1e5. Three runs per T, interleaved and repeated
(median wall time of ``REPEATS``; peak memory by tracemalloc on a separate run):

``dpa``
    dp-accounting 0.6 at its default interval 1e-4: the pessimistic
    (connect-the-dots) ε and the optimistic ε; their difference is *its gap*.
``ours@gap``
    :func:`dpnotes.pld.dpsgd_epsilon_bracket` with a fixed interval chosen (before
    timing) so that our bracket upper − lower is no wider than dp-accounting's gap.
``ours@1e-3``
    the same with the default automatic interval (bracket ≤ 1e-3 relative).

Printed: median times, the ratios ours/dpa (< 1 means we are faster), peak
memory in MiB and the bracket widths.

Run: .venv/bin/python benchmarks/bench_pld.py [--repeats 3]
"""

import argparse
import logging
import math
import statistics
import time
import tracemalloc

from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant, privacy_loss_distribution

from dpnotes.pld import dpsgd_epsilon_bracket, dpsgd_grid_interval

logging.getLogger().setLevel(logging.ERROR)

Q, SIGMA, DELTA = 256 / 60000, 1.1, 1e-5
DPA_INTERVAL = 1e-4


def dp_accounting_pair(T, interval=DPA_INTERVAL):
    """(optimistic ε, pessimistic ε) from dp-accounting at the same interval."""
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=interval)
    acc.compose(dp_event.SelfComposedDpEvent(
        dp_event.PoissonSampledDpEvent(Q, dp_event.GaussianDpEvent(SIGMA)), T))
    up = acc.get_epsilon(DELTA)
    opt = privacy_loss_distribution.from_gaussian_mechanism(
        SIGMA, sampling_prob=Q, value_discretization_interval=interval,
        pessimistic_estimate=False).self_compose(T)
    return opt.get_epsilon_for_delta(DELTA), up


def matched_interval(T, gap):
    """The coarsest fixed interval (within a factor ~1.3) whose bracket is no wider than ``gap``.

    Found once, untimed: start from the automatic interval and grow it (width ∝ T·Δ²)
    while the bracket stays inside the gap; shrink if it does not fit.
    """
    d = dpsgd_grid_interval(Q, SIGMA, T)
    while True:  # shrink until it fits
        lo, up = dpsgd_epsilon_bracket(Q, SIGMA, T, DELTA, interval=d)
        if up - lo <= gap:
            break
        d *= 0.7
    for _ in range(12):  # grow while it fits
        trial = d * 1.3
        lo, up = dpsgd_epsilon_bracket(Q, SIGMA, T, DELTA, interval=trial)
        if not up - lo <= gap:
            break
        d = trial
    return d


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def peak_mib(fn):
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--steps", type=int, nargs="*", default=[1000, 10000, 100000])
    args = parser.parse_args()
    print(f"q = {Q:.6f}, sigma = {SIGMA}, delta = {DELTA}; dp-accounting interval {DPA_INTERVAL}; "
          f"median of {args.repeats} interleaved runs")
    rows = []
    for T in args.steps:
        (o, p) = dp_accounting_pair(T)
        gap = p - o
        d_gap = matched_interval(T, gap)
        runs = {
            "dpa": lambda: dp_accounting_pair(T),
            "ours@gap": lambda: dpsgd_epsilon_bracket(Q, SIGMA, T, DELTA, interval=d_gap),
            "ours@1e-3": lambda: dpsgd_epsilon_bracket(Q, SIGMA, T, DELTA),
        }
        times = {k: [] for k in runs}
        out = {}
        for _ in range(args.repeats):
            for k, fn in runs.items():
                out[k], dt = timed(fn)
                times[k].append(dt)
        med = {k: statistics.median(v) for k, v in times.items()}
        mem = {k: peak_mib(fn) for k, fn in runs.items()}
        rows.append((T, gap, d_gap, out, med, mem))
        o, p = out["dpa"]
        print(f"\nT = {T}")
        print(f"  {'run':<10} {'median s':>9} {'ratio':>7} {'peak MiB':>9} {'lower':>10} {'upper':>10} "
              f"{'width':>9} {'interval':>9}")
        print(f"  {'dpa':<10} {med['dpa']:9.3f} {1.0:7.2f} {mem['dpa']:9.1f} {o:10.5f} {p:10.5f} "
              f"{p - o:9.2e} {DPA_INTERVAL:9.2e}")
        for k, d in (("ours@gap", d_gap), ("ours@1e-3", None)):
            lo, up = out[k]
            shown = f"{d:9.2e}" if d else f"{'auto':>9}"
            print(f"  {k:<10} {med[k]:9.3f} {med[k] / med['dpa']:7.2f} {mem[k]:9.1f} {lo:10.5f} "
                  f"{up:10.5f} {up - lo:9.2e} {shown}")
    return rows


if __name__ == "__main__":
    main()
