"""Speed against accuracy: each library tuned to reach a relative error r, every call checked.

For r ∈ {1e-2, 1e-3, 1e-4} and every grid point (``_reference``), each library is asked for
ε at δ = 1e-5 tuned to reach the relative error r:

dp-accounting ``PLDAccountant(value_discretization_interval=h)``
    h found by a short search (untimed; kept in ``_build/bench/tuning.json``): from its
    default 1e-4, scaled by the error measured against the truth until one h reaches r and a
    coarser one misses it, then bisected in log h for the coarsest that reaches r.
prv_accountant ``DPSGDAccountant(σ, q, max_steps=T, eps_error=e)``
    e = f·r·ε (absolute), f halved from 1 until its upper bound is within r of the truth
    (its README's call; its ``upper`` is timed and checked).
dpnotes, upper bound
    :func:`dpnotes.pld.dpsgd_epsilon_pld` with ``rel_width=r`` (no tuning: r is its argument).
dpnotes, certified bracket
    :func:`dpnotes.pld.dpsgd_epsilon_bracket` with ``rel_width=r`` (both ends; its own width is
    its certified error).

**Every call is checked.** The truth is a certified bracket [lo, up] (``_reference.truth``),
of relative half-width w; an output ε has the error |ε − mid|/mid ± w. A call *reached* r
when even the worst case |ε − mid|/mid + w is ≤ r, *missed* it when even the best case
|ε − mid|/mid − w is above r, and is *unresolved* otherwise (the truth is too wide to say);
the counts of each are reported for every library and r, and the truth's width beside them.
A tuning search that cannot reach r (its step limit, or a refused grid) is reported, never
replaced silently by a coarser run.

**The FFT floor.** For each of our upper-bound calls, the real FFTs it runs are recorded
(``scipy.fft.rfft`` sizes, in an untimed extra call); its floor is one forward and one
inverse real FFT of the largest size used, per adjacency direction (two): no FFT-based
accountant on that grid can be faster. ``floor_ratio`` = our time / that floor.

Times are the best of ``repeats`` calls, the libraries interleaved in each round.
Run (from benchmarks/, in the venv of ``make bench``): python bench_curves.py [--steps 1000 10000]
"""

import argparse
import json
import logging
import math
import statistics
import time
import warnings
from pathlib import Path

import numpy as np
import scipy.fft

from _reference import DELTA, grid, truth

RS = (1e-2, 1e-3, 1e-4)
PEERS = ("dp-accounting", "prv_accountant")
_TUNING = Path(__file__).resolve().parents[1] / "_build" / "bench" / "tuning.json"
MAX_SEARCH = 6  # tuning steps per (point, r)
BISECTIONS = 3  # of the dp-accounting search, between an h that reaches r and a coarser one that misses it
PRV_BUDGET_S = 10.0  # a prv_accountant call slower than this is run once, not tuned further nor repeated
PRV_SKIP_S = 40.0  # not run where its time at the last r, scaled by 1/r, predicts more (reported as not run)
_prv_seen = {}  # (q, σ, T) → (r, seconds) of its last call in this process

logging.getLogger().setLevel(logging.ERROR)


def dpa_epsilon(q, sigma, steps, h, delta=DELTA):
    """dp-accounting's PLDAccountant at value_discretization_interval h, called as its README does."""
    import dp_accounting

    acc = dp_accounting.pld.PLDAccountant(value_discretization_interval=h)
    acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
    return float(acc.get_epsilon(delta))


def prv_epsilon(q, sigma, steps, eps_error, delta=DELTA):
    """prv_accountant's upper bound on ε at the absolute ``eps_error``."""
    from prv_accountant.dpsgd import DPSGDAccountant

    acc = DPSGDAccountant(noise_multiplier=sigma, sampling_probability=q, max_steps=steps, eps_error=eps_error)
    return float(acc.compute_epsilon(delta=delta, num_steps=steps)[2])


def ours_upper(q, sigma, steps, r, delta=DELTA):
    from dpnotes.pld import dpsgd_epsilon_pld

    return float(dpsgd_epsilon_pld(q, sigma, steps, delta, rel_width=r))


def ours_bracket(q, sigma, steps, r, delta=DELTA):
    from dpnotes.pld import dpsgd_epsilon_bracket

    lo, up = dpsgd_epsilon_bracket(q, sigma, steps, delta, rel_width=r)
    return float(lo), float(up)


def verdict(eps, lo, up, r):
    """'reached', 'missed' or 'unresolved': |ε − mid|/mid against r, ± the truth's relative half-width."""
    mid = 0.5 * (lo + up)
    err, w = abs(eps - mid) / mid, 0.5 * (up - lo) / mid
    if not math.isfinite(eps):
        return "missed"
    return "reached" if err + w <= r else ("missed" if err - w > r else "unresolved")


def _load_tuning():
    try:
        return json.loads(_TUNING.read_text())
    except (OSError, ValueError):
        return {}


def _save_tuning(key, value):
    cache = _load_tuning()
    cache[key] = value
    _TUNING.parent.mkdir(parents=True, exist_ok=True)
    _TUNING.write_text(json.dumps(cache, indent=0))


def tune_dpa(q, sigma, steps, r, mid):
    """(h, found): the coarsest value_discretization_interval found whose central error is ≤ r.

    From the default 1e-4, h is scaled by the measured error (finer while it misses r, coarser
    while it reaches r with room) until one h reaches r and one misses it; then
    :data:`BISECTIONS` bisections in log h between the two keep the coarsest that reaches r
    (so the peer is not tuned finer, hence slower, than it needs).
    """
    key = f"dpa2|{q!r}|{sigma!r}|{steps}|{r!r}"
    cached = _load_tuning().get(key)
    if cached:
        return cached
    def error_at(h):  # a grid too large for this machine (dp-accounting's FFT of T·n points) misses r
        try:
            return abs(dpa_epsilon(q, sigma, steps, h) - mid) / mid
        except MemoryError:
            return math.inf

    h, good, bad = 1e-4, None, None
    for _ in range(MAX_SEARCH):
        err = error_at(h)
        if err == math.inf:  # finer is larger still: the search ends (at the coarsest h that reached r, if any)
            bad = h if bad is None else min(bad, h)
            break
        if err <= r:
            good = h if good is None else max(good, h)
            if bad is not None or h >= 1.0:
                break
            h *= min(max(0.7 * r / max(err, 1e-12), 1.5), 10.0)  # coarser while it still reaches r
        else:
            bad = h if bad is None else min(bad, h)
            if good is not None:
                break
            h *= max(0.7 * r / err, 0.05)
    if good is not None and bad is not None:
        for _ in range(BISECTIONS):  # the coarsest h that reaches r, between good < bad
            mid_h = math.sqrt(good * bad)
            if error_at(mid_h) <= r:
                good = mid_h
            else:
                bad = mid_h
    found = [good if good is not None else h, good is not None]
    _save_tuning(key, found)
    return found


def tune_prv(q, sigma, steps, r, mid):
    """(eps_error, found, seconds, ε): the largest f·r·ε (f = 1, 1/2, …) whose upper bound is within r of the truth.

    ``seconds`` is the time of the last call; a call slower than :data:`PRV_BUDGET_S` ends the
    search (its time and ε then stand for the library at this point: it is not repeated).
    """
    key = f"prv|{q!r}|{sigma!r}|{steps}|{r!r}"
    cached = _load_tuning().get(key)
    if cached:
        return cached
    seen = _prv_seen.get((q, sigma, steps))
    if seen and seen[1] * seen[0] / r > PRV_SKIP_S:
        return [math.nan, False, math.inf, math.nan]  # predicted too slow: not run
    e, found, dt, eps = r * mid, False, math.nan, math.nan
    for _ in range(MAX_SEARCH):
        t0 = time.perf_counter()
        try:
            eps = prv_epsilon(q, sigma, steps, e)
        except (MemoryError, ValueError, RuntimeError):
            eps = math.nan
            break
        dt = time.perf_counter() - t0
        err = abs(eps - mid) / mid
        if err <= r:
            found = True
            break
        if dt > PRV_BUDGET_S:
            break
        e *= 0.5
    _prv_seen[q, sigma, steps] = (r, dt)
    _save_tuning(key, [e, found, dt, eps])
    return [e, found, dt, eps]


def _fft_sizes(fn):
    """The sizes of the real FFTs that ``fn()`` runs (scipy.fft.rfft, recorded)."""
    sizes, rfft = [], scipy.fft.rfft

    def recording(x, n=None, *args, **kwargs):
        sizes.append(int(n if n is not None else np.shape(x)[-1]))
        return rfft(x, n, *args, **kwargs)

    scipy.fft.rfft = recording
    try:
        fn()
    finally:
        scipy.fft.rfft = rfft
    return sizes


def fft_floor(n, repeat=5):
    """Best time of one forward and one inverse real FFT of size n, twice (one pair per direction)."""
    x = np.random.default_rng(0).random(n)
    best = math.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        scipy.fft.irfft(scipy.fft.rfft(x), n)
        best = min(best, time.perf_counter() - t0)
    return 2 * best


def _best(fn, repeats):
    best, value = math.inf, None
    for _ in range(repeats):
        t0 = time.perf_counter()
        try:
            value = fn()
        except (ValueError, MemoryError):  # refused (grid-size limit), or a peer's grid too large for this machine
            value = math.nan
        best = min(best, time.perf_counter() - t0)
    return best, value


def row(q, sigma, steps, r, lo, up, repeats=2):
    """One (point, r): each library's tuned time, ε and verdict; ratios; our FFT floor."""
    mid = 0.5 * (lo + up)
    h, dpa_found = tune_dpa(q, sigma, steps, r, mid)
    e, prv_found, prv_s, prv_eps = tune_prv(q, sigma, steps, r, mid)
    prv_slow = not prv_s <= PRV_BUDGET_S  # (or it failed): its one tuning call stands
    prv_skipped = prv_s == math.inf
    runs = {
        "dp-accounting": lambda: dpa_epsilon(q, sigma, steps, h),
        "prv_accountant": lambda: prv_epsilon(q, sigma, steps, e),
        "upper": lambda: ours_upper(q, sigma, steps, r),
        "bracket": lambda: ours_bracket(q, sigma, steps, r),
    }
    best = {k: math.inf for k in runs}
    value = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for _ in range(repeats):  # interleaved rounds
            for k, fn in runs.items():
                if k == "prv_accountant" and prv_skipped:
                    t, value[k] = math.nan, math.nan
                elif k == "prv_accountant" and prv_slow:
                    t, value[k] = prv_s, prv_eps
                else:
                    t, value[k] = _best(fn, 1)
                best[k] = min(best[k], t)
        sizes = _fft_sizes(runs["upper"])
    b_lo, b_up = value["bracket"] if isinstance(value["bracket"], tuple) else (math.nan, math.nan)
    floor = fft_floor(max(sizes)) if sizes else math.nan
    return dict(
        q=q, sigma=sigma, steps=steps, r=r, truth=mid, truth_halfwidth=0.5 * (up - lo) / mid,
        time={k: best[k] for k in runs}, epsilon={k: value[k] for k in runs},
        verdict={"dp-accounting": verdict(value["dp-accounting"], lo, up, r),
                 "prv_accountant": "not run" if prv_skipped else verdict(value["prv_accountant"], lo, up, r),
                 "upper": verdict(value["upper"], lo, up, r),
                 "bracket": ("reached" if b_lo <= up and lo <= b_up and (b_up - b_lo) <= r * b_up else
                             "missed" if not (b_lo <= up and lo <= b_up) else "wide")},
        tuned={"dp-accounting": (h, dpa_found), "prv_accountant": (e, prv_found)}, 
        prv_slow=prv_slow and not prv_skipped, prv_skipped=prv_skipped,
        ratio={peer: {"upper": best[peer] / best["upper"], "bracket": best[peer] / best["bracket"]}
               for peer in PEERS},
        fft_n=max(sizes) if sizes else 0, floor_s=floor, floor_ratio=best["upper"] / floor,
    )


def rows(steps=(1000, 10_000), rs=RS, repeats=2, log=None):
    """Every (r, grid point) with a truth, as a dict (see the module docstring)."""
    out = []
    for r in rs:
        for q, sigma, t in grid(steps):
            lo, up = truth(q, sigma, t)
            if not math.isfinite(up):
                continue
            out.append(row(q, sigma, t, r, lo, up, repeats))
            if log:
                log(out[-1])
    return out


def summary(rs_rows):
    """Per r: worst and median ratio per peer (upper, bracket), verdict counts per library, truth widths."""
    out = {}
    for r in sorted({x["r"] for x in rs_rows}, reverse=True):
        sel = [x for x in rs_rows if x["r"] == r]
        s = {"points": len(sel), "truth_halfwidth_max": max(x["truth_halfwidth"] for x in sel)}
        for peer in PEERS:
            for kind in ("upper", "bracket"):
                ratios = [x["ratio"][peer][kind] for x in sel if math.isfinite(x["ratio"][peer][kind])]
                s[f"{peer}|{kind}"] = (min(ratios), statistics.median(ratios)) if ratios else (math.nan, math.nan)
        for lib in (*PEERS, "upper", "bracket"):
            s[f"verdict|{lib}"] = {v: sum(x["verdict"][lib] == v for x in sel) for v in
                                   ("reached", "unresolved", "missed", "wide")}
        s["tuning_failed"] = {peer: sum(not x["tuned"][peer][1] and not x.get("prv_skipped") for x in sel)
                              for peer in PEERS}
        s["prv_skipped"] = sum(x["prv_skipped"] for x in sel)
        floors = [x["floor_ratio"] for x in sel if math.isfinite(x["floor_ratio"])]
        s["floor"] = (max(floors), statistics.median(floors)) if floors else (math.nan, math.nan)
        out[r] = s
    return out


def _print_row(x):
    v = x["verdict"]
    print(f"r={x['r']:.0e} q={x['q']:<6g}σ={x['sigma']:<4g}T={x['steps']:<8d} truth ±{x['truth_halfwidth']:.1e} | "
          f"dpa {x['time']['dp-accounting']:7.3f}s {v['dp-accounting'][:5]} h={x['tuned']['dp-accounting'][0]:.2g} | "
          f"prv {x['time']['prv_accountant']:7.3f}s {v['prv_accountant'][:5]} | "
          f"up {x['time']['upper']:7.3f}s {v['upper'][:5]} | br {x['time']['bracket']:7.3f}s {v['bracket'][:5]} | "
          f"N={x['fft_n']} floor ×{x['floor_ratio']:.1f}", flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, nargs="+", default=[1000, 10_000])
    p.add_argument("--repeats", type=int, default=2)
    args = p.parse_args(argv)
    out = rows(args.steps, RS, args.repeats, log=_print_row)
    for r, s in summary(out).items():
        print(r, s)


if __name__ == "__main__":
    main()
