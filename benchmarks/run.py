"""``make bench``: every benchmark of issue 18, one table of ratios, written into the README.

Each ``bench_*`` module times dpnotes' public call against a peer called as the peer's
README calls it, side by side in this process, and returns its rows; this driver
condenses them into one line per goal: the smallest and the median ratio over the grid
(peer time / dpnotes time, so above 1 means dpnotes is faster), the target, and whether
it is met. What "equal accuracy" means is said in ``_reference``'s docstring and printed
under the table. The table and the machine it ran on replace the block between the
``bench:start`` / ``bench:end`` markers of the README.

Run: ``make bench`` (``BENCH_ARGS=--quick`` for the smaller grid), or from
``benchmarks/``: ``../.venv-bench/bin/python run.py [--quick] [--no-readme]``.
"""

import argparse
import contextlib
import datetime
import resource
import statistics
import sys
from pathlib import Path

import _reference
import bench_cold
import bench_curves
import bench_pld
import bench_prv
import bench_rdp
import widget_latency

README = Path(__file__).resolve().parents[1] / "README.md"
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


def _line(goal, target, ratios, extra=""):
    """(goal, target, min ratio, median ratio, met, extra) for one goal."""
    lo, med = min(ratios), statistics.median(ratios)
    return goal, f"≥ {target:g}×", f"{lo:.2f}×", f"{med:.2f}×", "yes" if lo >= target else "no", extra


#: the address space the in-process benchmarks may take (bytes): a peer tuned to a fine grid (prv_accountant at
#: r = 1e-4, q = 1e-3 grew to 24 GB and the kernel killed the whole run) then gets a MemoryError, which its call
#: counts as not reaching r. Not around the cold-start and browser benchmarks: their child processes (Chromium
#: reserves far more address space than it uses) inherit the limit.
ADDRESS_SPACE = 16 * 2**30


@contextlib.contextmanager
def _address_space(limit):
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (min(limit, hard) if hard != resource.RLIM_INFINITY else limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def summary(quick):
    with _address_space(ADDRESS_SPACE):
        lines = _in_process_lines(quick)
    lines += _cold_lines(bench_cold.rows())
    lines += _widget_lines(widget_latency.rows())
    return lines


def _in_process_lines(quick):
    lines = []
    steps_rdp = (100, 10_000) if quick else (100, 10_000, 1_000_000)
    lines += _rdp_lines(bench_rdp.rows(steps=steps_rdp))
    steps_pld = (1000, 10_000) if quick else (1000, 10_000, 100_000, 1_000_000)
    lines += _pld_lines(bench_pld.rows(steps=steps_pld, repeats=2))
    steps_curves = (1000, 10_000) if quick else (1000, 10_000, 100_000)
    lines += _curve_lines(bench_curves.rows(steps=steps_curves, log=bench_curves._print_row), steps_curves)
    prv = bench_prv.rows(steps=(1000,) if quick else (1000, 10_000, 100_000))
    for peer in bench_prv.PEERS:
        failed = [r for r in prv if r["peer"] == peer and "failed" in r]
        rs = [r for r in prv if r["peer"] == peer and "failed" not in r]
        valid = sum(r["valid"] for r in rs)
        if not rs:
            lines.append((f"PLD upper bound at {peer}'s accuracy (its default error) vs {peer}", "≥ 1×", "—", "—",
                          "—", f"{peer} failed at all {len(failed)} points ({failed[0]['failed']})"))
            continue
        lines.append(_line(f"PLD upper bound at {peer}'s accuracy (its default error) vs {peer}", 1,
                           [r["ratio"] for r in rs],
                           f"its upper bound valid at {valid}/{len(rs)} points; our certified bracket at its accuracy: "
                           f"worst {min(r['bracket_ratio'] for r in rs):.2f}×, median "
                           f"{statistics.median(r['bracket_ratio'] for r in rs):.2f}×"
                           + (f"; {peer} failed at {len(failed)} points ("
                              + ", ".join(f"q = {r['q']:g}, σ = {r['sigma']:g}, T = {r['steps']}: {r['failed']}"
                                          for r in failed) + "; not counted)" if failed else "")))
    return lines


def _cold_lines(rows):
    """``import dpnotes`` against its budget, and import + first call in a fresh process against each peer."""
    by = {(r["library"], r["route"]): r for r in rows}
    imp = by["dpnotes", "import only"]["import_s"]
    out = [("Cold start: `import dpnotes` (fresh process, best of 5)", "≤ 0.3 s", f"{imp * 1e3:.1f} ms", "",
            "yes" if imp <= 0.3 else "no",
            "names load on first use; `from dpnotes import dpsgd_epsilon` then loads numpy and scipy.special/fft only")]
    p = bench_cold.POINT
    for route, peers in (("RDP", (("dp-accounting", "RDP"), ("opacus", "RDP"))),
                         ("PLD", (("dp-accounting", "PLD"), ("prv_accountant", "PRV"), ("opacus", "PRV")))):
        ours = by["dpnotes", route]["cold_s"]
        got = [(f"{lib} {kind}", by[lib, kind]["cold_s"] / ours) for lib, kind in peers if (lib, kind) in by]
        ratios = [x for _, x in got]
        out.append((f"Cold: import + first call, {route} route vs " + ", ".join(name for name, _ in got),
                    "—", f"{min(ratios):.2f}×", f"{statistics.median(ratios):.2f}×", "",
                    f"ours {ours:.2f} s; " + ", ".join(f"{name} {x:.1f}×" for name, x in got)
                    + f"; q = {p['q']}, σ = {p['sigma']}, T = {p['steps']:g}, each at its defaults (not equal accuracy)"))
    return out


def _curve_lines(rows, steps):
    """Speed–accuracy: per r, our upper bound (and bracket) against each peer tuned to reach r, every call checked."""
    out = []
    for r, s in bench_curves.summary(rows).items():
        v = {lib: s[f"verdict|{lib}"] for lib in (*bench_curves.PEERS, "upper", "bracket")}
        for peer in bench_curves.PEERS:
            lo, med = s[f"{peer}|upper"]
            blo, bmed = s[f"{peer}|bracket"]
            vp = v[peer]
            slow = sum(x["prv_slow"] for x in rows if x["r"] == r) if peer == "prv_accountant" else 0
            out.append((f"Tuned to r = {r:g}: PLD upper bound vs {peer} (each library tuned to reach r)", "≥ 1×",
                        f"{lo:.2f}×", f"{med:.2f}×", "yes" if lo >= 1 else "no",
                        f"bracket (both ends) worst {blo:.2f}×, median {bmed:.2f}×; {peer} reached r at "
                        f"{vp['reached']}/{s['points']} (unresolved {vp['unresolved']}, missed {vp['missed']}"
                        + (f", {s['tuning_failed'][peer]} tuning searches failed" if s["tuning_failed"][peer] else "")
                        + (f", {slow} calls over {bench_curves.PRV_BUDGET_S:g} s run once" if slow else "")
                        + (f"; not run at {s['prv_skipped']} points where its time at the last r predicts over "
                           f"{bench_curves.PRV_SKIP_S:g} s" if peer == "prv_accountant" and s["prv_skipped"] else "")
                        + ")"))
        u, b = v["upper"], v["bracket"]
        fmax, fmed = s["floor"]
        out.append((f"Tuned to r = {r:g}: our calls checked against the truth; time over the FFT floor of the grid",
                    "—", f"{fmax:.0f}× floor", f"{fmed:.0f}× floor", "",
                    f"upper bound reached r at {u['reached']}/{s['points']} (unresolved {u['unresolved']}, missed "
                    f"{u['missed']}); bracket width ≤ r and containing the truth at {b['reached']}/{s['points']} "
                    f"(wider {b['wide']}, disjoint {b['missed']}); truth half-width ≤ {s['truth_halfwidth_max']:.1e}; "
                    f"T ∈ {{{', '.join(f'{t:g}' for t in steps)}}}"))
    return out


def _rdp_lines(rows):
    """The RDP route against dp-accounting (≥ 10×) and Opacus (≥ 5×), and its ε against theirs and the PLD."""
    out = []
    for peer, target in (("dp-accounting", 10), ("opacus", 5)):
        ratios = [r["ratio"][peer] for r in rows if peer in r["ratio"]]
        if ratios:
            name = "`RdpAccountant`" if peer == "dp-accounting" else "`RDPAccountant`"
            first = min(r["time_s"][peer] / r["first_s"] for r in rows)
            out.append(_line(f"RDP route (`dpsgd_epsilon`) vs {peer} {name}", target, ratios,
                             f"our first call counted alone: min {first:.1f}×"))
    above = sum(r["epsilon"]["dpnotes"] > min(v for k, v in r["epsilon"].items() if k != "dpnotes") * (1 + 1e-8)
                for r in rows)
    checked = [r for r in rows if r["pld_lower"] is not None]
    below = sum(r["epsilon"]["dpnotes"] < r["pld_lower"] for r in checked)
    out.append(("RDP route: ε above a peer's / below the certified PLD lower bound", "0 / 0",
                f"{above} / {below}", "", "yes" if above == below == 0 else "no",
                f"{len(rows)} points; PLD lower bound at {len(checked)} (refused where its grid is too large)"))
    return out


def _pld_lines(rows):
    """The PLD route against dp-accounting's PLDAccountant at its defaults, at equal accuracy (r = its error)."""
    certified = sum(r["bracket_certified"] for r in rows)
    # our upper bound's error, checked: within what was asked, up to the truth's half-width
    checked = sum(r["upper_rel_err"] <= r["asked"] + r["truth_width"] / 2 for r in rows)
    wide = [r for r in rows if r["truth_width"] > 1.1e-5]
    truth_note = (f"truth half-width ≤ {max(r['truth_width'] for r in rows) / 2:.1e}"
                  + (f" (wider than the 1e-5 asked at {len(wide)} points, T = "
                     f"{', '.join(sorted({format(r['steps'], 'g') for r in wide}))}: the grid-size limit)" if wide else ""))
    unresolved = sum(r["dpa_rel_err"] < r["truth_width"] / 2 for r in rows)
    return [
        _line("PLD upper bound (`dpsgd_epsilon_pld`) at dp-accounting's accuracy vs `PLDAccountant`", 1,
              [r["dpa_s"] / r["upper_s"] for r in rows],
              f"our upper bound within the accuracy asked at {checked}/{len(rows)} points (checked); {truth_note}; "
              f"dp-accounting's error below the truth's resolution at {unresolved} (asked of us: that resolution)"),
        _line("PLD certified bracket (both ends) at dp-accounting's accuracy vs `PLDAccountant`", 0.5,
              [r["dpa_s"] / r["bracket_s"] if r["bracket_width_met"] else 0.0 for r in rows],
              f"bracket contains the truth at {certified}/{len(rows)} points; the width asked met at "
              f"{sum(r['bracket_width_met'] for r in rows)}/{len(rows)} (a wider bracket is not at equal accuracy: "
              f"counted as 0×)"),
    ]


def _widget_lines(rows):
    """Live widgets against their budgets: the worst move and the slowest show over all figures."""
    move = max(rows, key=lambda r: r["move_max_ms"])
    first = max(rows, key=lambda r: r["first_pass_move_max_ms"])
    compute = max(r["compute_max_ms"] for r in rows)
    show = max(rows, key=lambda r: r["show_s"])
    tables = sum(r["table"] for r in rows)
    return [
        ("Live widgets: worst slider move, compute + redraw (max over every position of every figure)",
         f"≤ {widget_latency.MOVE_BUDGET_MS:g} ms", f"{move['move_max_ms']:.0f} ms ({move['key']})", "",
         "yes" if move["move_max_ms"] <= widget_latency.MOVE_BUDGET_MS else "no",
         f"compute ≤ {compute:.1f} ms; {tables}/{len(rows)} figures read a table; single worst first-walk move "
         f"{first['first_pass_move_max_ms']:.0f} ms ({first['key']})"),
        ("Live widgets: showing a figure (after `import dpnotes`)", f"≤ {widget_latency.SHOW_BUDGET_S:g} s",
         f"{show['show_s']:.2f} s ({show['key']})", "", "yes" if show["show_s"] <= widget_latency.SHOW_BUDGET_S else "no",
         f"import {max(r['import_s'] for r in rows):.1f} s at most, once per kernel"),
    ]


def table(lines, quick):
    head = "| goal | target | worst | median | met | notes |\n|---|---|---|---|---|---|\n"
    body = "".join(f"| {' | '.join(cells)} |\n" for cells in lines)
    when = datetime.date.today().isoformat()
    grid = "quick grid" if quick else "full grid"
    return (f"{head}{body}\nMeasured {when} ({grid}) on {_reference.machine()}. Ratios are peer time / "
            f"dpnotes time (above 1: dpnotes is faster), worst and median over the grid; the widget lines are times against their budgets. "
            "Equal accuracy: " + " ".join(_reference.__doc__.split("**Equal accuracy**")[1].split("**Time**")[0].strip().lstrip(":").split()) + "\n")


def write_readme(text):
    readme = README.read_text(encoding="utf-8")
    if START not in readme or END not in readme:
        raise SystemExit(f"README.md has no {START} … {END} block")
    head, rest = readme.split(START, 1)
    _, tail = rest.split(END, 1)
    README.write_text(f"{head}{START}\n{text}{END}{tail}", encoding="utf-8")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="the smaller grid (minutes, not an hour)")
    p.add_argument("--no-readme", action="store_true", help="print only; leave README.md alone")
    args = p.parse_args(argv)
    text = table(summary(args.quick), args.quick)
    print(text)
    if not args.no_readme:
        write_readme(text)
        print(f"written into {README}")


if __name__ == "__main__":
    sys.exit(main())
