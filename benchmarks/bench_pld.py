"""dpnotes.pld against dp-accounting's PLDAccountant at *equal accuracy*, side by side in one process.

DP-SGD (Poisson rate q, noise σ, T steps, δ = 1e-5) on the grid q ∈ {1e-3, 1e-2, 0.05},
σ ∈ {0.8, 1.1, 2, 4}, T ∈ {1e3, 1e4, 1e5, 1e6} (``--quick``: T ∈ {1e3, 1e4}).
Per point:

truth
    the midpoint of a tight certified bracket (``_reference.truth``: relative width 1e-5,
    or 1e-4 / 1e-3 where the grid would exceed the size limit; untimed; its achieved
    width is reported, so the uncertainty of every error below is ± width/2).
dp-accounting
    ``PLDAccountant()`` at its defaults (value_discretization_interval 1e-4) as its
    README calls it; its relative error r = |ε − truth|/truth.
ours, upper at r
    :func:`dpnotes.pld.dpsgd_epsilon_pld` with ``rel_width=r`` (the upper bound only).
ours, bracket at r
    :func:`dpnotes.pld.dpsgd_epsilon_bracket` with ``rel_width=r`` (both ends, checked width).
r is never taken below the truth's own half-width (dp-accounting's error cannot be
resolved more finely: it is then reported as "below the truth's resolution"). The
default-against-default comparison is gone (unequal accuracy); ``bench_curves`` tunes each
library to the same r instead.

Times are best of ``--repeats`` runs, the three runs interleaved in each round;
ratios are ours / dp-accounting (< 1: we are faster).

Run (from benchmarks/, in the venv of ``make bench``): python bench_pld.py [--quick] [--repeats 3]
"""

import argparse
import logging
import math
import time
import warnings

from _reference import DELTA, QS, SIGMAS, TRUTH_WIDTHS, truth

STEPS = (1000, 10000, 100000, 1000000)
QUICK_STEPS = (1000, 10000)
MIN_REL = 1e-6  # the smallest relative accuracy asked of our calls (r can be ~0 by chance)


def dp_accounting_epsilon(q, sigma, steps, delta=DELTA):
    """ε of dp-accounting's PLDAccountant at its defaults, called as its README does."""
    import dp_accounting

    logging.getLogger().setLevel(logging.ERROR)
    acc = dp_accounting.pld.PLDAccountant()
    acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
    return acc.get_epsilon(delta)


def _timed(fn):
    t0 = time.perf_counter()
    try:
        out = fn()
    except ValueError:  # refused (grid-size limit): shown as nan
        out = (math.nan, math.nan) if fn.__name__ == "bracket" else math.nan
    return out, time.perf_counter() - t0


def row(q, sigma, steps, lo, up, repeats=3):
    """One point: truth, dp-accounting's ε, time and error, and our three calls at equal accuracy."""
    from dpnotes.pld import dpsgd_epsilon_bracket, dpsgd_epsilon_pld

    truth = 0.5 * (lo + up)
    e_dpa = dp_accounting_epsilon(q, sigma, steps)
    r = abs(e_dpa - truth) / truth
    r_ask = min(max(r, MIN_REL, 0.5 * (up - lo) / truth), 1.0)  # not below what the truth resolves
    def bracket():
        return dpsgd_epsilon_bracket(q, sigma, steps, DELTA, rel_width=r_ask)

    runs = {
        "dpa": lambda: dp_accounting_epsilon(q, sigma, steps),
        "upper": lambda: dpsgd_epsilon_pld(q, sigma, steps, DELTA, rel_width=r_ask),
        "bracket": bracket,
    }
    best = {k: math.inf for k in runs}
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # width misses show in the columns
        for _ in range(repeats):
            for k, fn in runs.items():
                out[k], dt = _timed(fn)
                best[k] = min(best[k], dt)
    b_lo, b_up = out["bracket"]
    return {
        "q": q, "sigma": sigma, "steps": steps,
        "truth": truth, "truth_width": (up - lo) / truth,
        "dpa_eps": e_dpa, "dpa_s": best["dpa"], "dpa_rel_err": r,
        "asked": r_ask,
        "upper_eps": out["upper"], "upper_s": best["upper"], "upper_rel_err": (out["upper"] - truth) / truth,
        "bracket": (b_lo, b_up), "bracket_s": best["bracket"], "bracket_width": (b_up - b_lo) / b_up,
        "bracket_certified": b_lo <= up and lo <= b_up,
        "bracket_width_met": (b_up - b_lo) / b_up <= r_ask * (1 + 1e-9),  # else not at equal accuracy
        "upper_ratio": best["upper"] / best["dpa"],
        "bracket_ratio": best["bracket"] / best["dpa"],
    }


def rows(quick=False, repeats=3, steps=None):
    """Every grid point (``quick``: T ≤ 10⁴ only) as a dict; see the module docstring for the columns."""
    steps = tuple(steps) if steps else (QUICK_STEPS if quick else STEPS)
    points = [(q, s, t) for t in steps for q in QS for s in SIGMAS]
    known = {p: truth(*p) for p in points}
    return [row(q, s, t, *known[q, s, t], repeats=repeats) for q, s, t in points
            if math.isfinite(known[q, s, t][1])]  # no truth: left out (and said so by main)


def _median(xs):
    xs = sorted(xs)
    n = len(xs)
    return 0.5 * (xs[(n - 1) // 2] + xs[n // 2]) if n else math.nan


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="T ∈ {1e3, 1e4} only")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--steps", type=int, nargs="*", help="a subset of T values")
    args = parser.parse_args()
    print(f"delta = {DELTA}; truth: bracket at rel_width {TRUTH_WIDTHS[0]:g}; best of {args.repeats}; "
          "ratio = ours / dp-accounting")
    head = (f"{'q':>6} {'σ':>4} {'T':>8} {'truth':>11} {'±w/2':>8} {'dpa err':>8} {'dpa s':>7} "
            f"{'up err':>8} {'up s':>7} {'up/dpa':>6} {'br wid':>8} {'br s':>7} {'br/dpa':>6}")
    print(head)
    out = []
    for r in rows(args.quick, args.repeats, args.steps):  # a point without a truth is left out
        out.append(r)
        print(f"{r['q']:6g} {r['sigma']:4g} {r['steps']:8d} {r['truth']:11.6g} {r['truth_width'] / 2:8.1e} "
              f"{r['dpa_rel_err']:8.1e} {r['dpa_s']:7.3f} {r['upper_rel_err']:8.1e} {r['upper_s']:7.3f} "
              f"{r['upper_ratio']:6.2f} {r['bracket_width']:8.1e} {r['bracket_s']:7.3f} {r['bracket_ratio']:6.2f}"
              + ("" if r["bracket_certified"] else "  BRACKETS DISAGREE")
              + ("" if r["bracket_width_met"] else "  WIDTH MISSED"), flush=True)
    for name in ("upper", "bracket"):
        ratios = [r[f"{name}_ratio"] for r in out]
        print(f"{name:>8}: median ratio {_median(ratios):.2f}, worst {max(ratios):.2f}, "
              f"≤ 1 at {sum(x <= 1 for x in ratios)}/{len(ratios)}, ≤ 2 at {sum(x <= 2 for x in ratios)}/{len(ratios)}"
              + (f"; the width asked met at {sum(r['bracket_width_met'] for r in out)}/{len(out)}" if name == "bracket" else ""))
    return out


if __name__ == "__main__":
    main()
