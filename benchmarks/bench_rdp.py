"""The DP-SGD RDP route end to end: dpnotes vs dp-accounting vs Opacus, per (q, σ, T), δ = 1e-5.

Each library is called as its documentation shows, from scratch at every call (a new accountant;
dpnotes keeps no cache of its arguments), with its own default orders:

* dpnotes: ``dpsgd_epsilon(q, sigma, T, delta, route="rdp")`` (the order searched on the exact curve);
* dp-accounting: ``RdpAccountant()``, ``compose(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), T)``,
  ``get_epsilon(delta)``;
* Opacus: ``RDPAccountant()`` with ``history = [(sigma, q, T)]`` (what T calls of ``step`` record),
  ``get_epsilon(delta)``.

Times are the best of ``repeat`` calls (the three interleaved in one process), and the first call of
dpnotes at each point is reported too. The PLD lower bound (``dpsgd_epsilon_bracket``) checks that no ε
is below the true one; it is "n/a" where the PLD grid would be too large.

Run (from benchmarks/, in the venv of ``make bench``): python bench_rdp.py (Opacus optional: its column is skipped
when it is not installed).
"""

import logging
import warnings

import numpy as np

from dpnotes.dpsgd import dpsgd_epsilon
from dpnotes.pld import dpsgd_epsilon_bracket

from _reference import DELTA, QS, SIGMAS, timed

STEPS = (100, 10_000, 1_000_000)


def _peers():
    """{name: ε function} of the installed peers (imported here, not at module import)."""
    peers = {}
    try:
        import dp_accounting

        def dp_acc(q, sigma, steps, delta):
            acc = dp_accounting.rdp.RdpAccountant()
            acc.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
            return acc.get_epsilon(delta)
        peers["dp-accounting"] = dp_acc
    except ImportError:
        print("dp-accounting is not installed: its column is skipped")
    try:
        from opacus.accountants import RDPAccountant

        def opacus(q, sigma, steps, delta):
            acc = RDPAccountant()
            acc.history = [(sigma, q, steps)]
            return acc.get_epsilon(delta)
        peers["opacus"] = opacus
    except ImportError:
        print("opacus is not installed: its column is skipped")
    return peers


def _ours(q, sigma, steps, delta):
    return dpsgd_epsilon(q, sigma, steps, delta, route="rdp")


def rows(repeat=5, qs=QS, sigmas=SIGMAS, steps=STEPS, delta=DELTA):
    """One dict per grid point: times (s), ratios peer/ours, ε of each library, the PLD lower bound."""
    peers = _peers()
    out = []
    logging.disable(logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for q in qs:
                for s in sigmas:
                    for t in steps:
                        first, eps = timed(_ours, q, s, t, delta)
                        best = {"dpnotes": first}
                        values = {"dpnotes": eps}
                        for name, fn in peers.items():
                            best[name], values[name] = timed(fn, q, s, t, delta)
                        for _ in range(repeat - 1):
                            for name, fn in [("dpnotes", _ours)] + list(peers.items()):
                                best[name] = min(best[name], timed(fn, q, s, t, delta)[0])
                        try:
                            lower = float(dpsgd_epsilon_bracket(q, s, t, delta)[0])
                        except ValueError:
                            lower = None
                        out.append({"q": q, "sigma": s, "steps": t, "delta": delta, "first_s": first,
                                    "time_s": best, "ratio": {k: best[k] / best["dpnotes"] for k in peers},
                                    "epsilon": values, "pld_lower": lower})
    finally:
        logging.disable(logging.NOTSET)
    return out


def main():
    data = rows()
    names = [k for k in data[0]["time_s"] if k != "dpnotes"]
    head = f"{'q':>6} {'σ':>4} {'T':>7} {'ours ms':>8} {'1st ms':>7}"
    for n in names:
        head += f" {n[:9] + ' ms':>12} {'×':>6}"
    head += f" {'ε ours':>11}" + "".join(f" {'ε ' + n[:9]:>12}" for n in names) + f" {'PLD lower':>10}"
    print(head)
    for r in data:
        line = f"{r['q']:>6g} {r['sigma']:>4g} {r['steps']:>7g} {r['time_s']['dpnotes'] * 1e3:8.3f} {r['first_s'] * 1e3:7.3f}"
        for n in names:
            line += f" {r['time_s'][n] * 1e3:12.2f} {r['ratio'][n]:6.1f}"
        line += f" {r['epsilon']['dpnotes']:11.5f}" + "".join(f" {r['epsilon'][n]:12.5f}" for n in names)
        line += f" {r['pld_lower']:10.5f}" if r["pld_lower"] is not None else f" {'n/a':>10}"
        print(line)
    for n in names:
        ratios = np.array([r["ratio"][n] for r in data])
        print(f"{n}/dpnotes time ratio: min {ratios.min():.1f}, median {np.median(ratios):.1f}, max {ratios.max():.1f}")
    above = [(r["q"], r["sigma"], r["steps"]) for r in data
             if any(r["epsilon"]["dpnotes"] > r["epsilon"][n] for n in names)
             or (r["pld_lower"] is not None and r["epsilon"]["dpnotes"] < r["pld_lower"])]
    print("ε ours above a peer's or below the PLD lower bound at:", above or "nowhere")


if __name__ == "__main__":
    main()
