"""Cold start: a fresh process, the import plus the first call, for dpnotes and each peer.

A user with one question (a script, a command line, the first cell of a notebook) pays for
the import of the library and its first call. Each line below runs in its own fresh
interpreter (``python -c``) and times, inside it, ``import`` plus one call with
``time.perf_counter`` (the interpreter's own start-up, the same for every library, is
left out); the best of ``--repeats`` fresh processes is kept. ``import dpnotes`` alone is
timed the same way (issue 29: at most 0.3 s).

The call is the grid point q = 0.01, σ = 1.1, T = 10⁴, δ = 1e-5, each library at its defaults
(dpnotes' PLD upper bound at its default ``rel_width``): a cold line compares what a user
waits for, not equal accuracy (the curves of ``bench_curves`` do that).

Run (from benchmarks/, in the venv of ``make bench``): python bench_cold.py [--repeats 5]
"""

import argparse
import json
import subprocess
import sys

POINT = dict(q=0.01, sigma=1.1, steps=10_000, delta=1e-5)

# (library, route) → (import statement, first call), formatted with POINT
CALLS = {
    ("dpnotes", "import only"): ("import dpnotes", "None"),
    ("dpnotes", "RDP"): ("from dpnotes import dpsgd_epsilon", "dpsgd_epsilon({q}, {sigma}, {steps}, {delta})"),
    ("dpnotes", "PLD"): ("from dpnotes import dpsgd_epsilon_pld",
                         "dpsgd_epsilon_pld({q}, {sigma}, {steps}, {delta})"),
    ("dp-accounting", "RDP"): (
        "import dp_accounting",
        "(lambda a: (a.compose(dp_accounting.PoissonSampledDpEvent({q}, dp_accounting.GaussianDpEvent({sigma})), "
        "{steps}), a.get_epsilon({delta}))[1])(dp_accounting.rdp.RdpAccountant())"),
    ("dp-accounting", "PLD"): (
        "import dp_accounting",
        "(lambda a: (a.compose(dp_accounting.PoissonSampledDpEvent({q}, dp_accounting.GaussianDpEvent({sigma})), "
        "{steps}), a.get_epsilon({delta}))[1])(dp_accounting.pld.PLDAccountant())"),
    ("opacus", "RDP"): (
        "from opacus.accountants import RDPAccountant",
        "(lambda a: (setattr(a, 'history', [({sigma}, {q}, {steps})]), a.get_epsilon({delta}))[1])(RDPAccountant())"),
    ("opacus", "PRV"): (
        "from opacus.accountants import PRVAccountant",
        "(lambda a: (setattr(a, 'history', [({sigma}, {q}, {steps})]), a.get_epsilon({delta}))[1])(PRVAccountant())"),
    ("prv_accountant", "PRV"): (
        "from prv_accountant.dpsgd import DPSGDAccountant",
        "DPSGDAccountant(noise_multiplier={sigma}, sampling_probability={q}, max_steps={steps})"
        ".compute_epsilon(delta={delta}, num_steps={steps})[2]"),
}

_PROBE = """
import time, json, logging, warnings
logging.disable(logging.WARNING)
warnings.simplefilter("ignore")
t0 = time.perf_counter()
{imp}
t1 = time.perf_counter()
value = {call}
t2 = time.perf_counter()
print(json.dumps([t1 - t0, t2 - t0, None if value is None else float(value)]))
"""


def cold(library, route, repeats=5):
    """(best import time, best import + first call time, ε) over ``repeats`` fresh interpreters (None if not installed)."""
    imp, call = CALLS[library, route]
    code = _PROBE.format(imp=imp, call=call.format(**POINT))
    best_imp = best_all = float("inf")
    value = None
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if out.returncode:
            if "ModuleNotFoundError" in out.stderr:
                return None
            raise RuntimeError(f"{library} {route}: {out.stderr.strip().splitlines()[-1]}")
        t_imp, t_all, value = json.loads(out.stdout.strip().splitlines()[-1])
        best_imp, best_all = min(best_imp, t_imp), min(best_all, t_all)
    return best_imp, best_all, value


def rows(repeats=5):
    """One dict per (library, route): import and import + first-call times (best of fresh processes), and ε."""
    out = []
    for library, route in CALLS:
        got = cold(library, route, repeats)
        if got is not None:
            out.append(dict(library=library, route=route, import_s=got[0], cold_s=got[1], epsilon=got[2]))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args(argv)
    print(f"point {POINT}; best of {args.repeats} fresh processes")
    print(f"{'library':<16}{'route':<13}{'import s':>9}{'import+call s':>14}{'ε':>10}")
    for r in rows(args.repeats):
        eps = "" if r["epsilon"] is None else f"{r['epsilon']:10.4f}"
        print(f"{r['library']:<16}{r['route']:<13}{r['import_s']:9.3f}{r['cold_s']:14.3f}{eps}")


if __name__ == "__main__":
    main()
