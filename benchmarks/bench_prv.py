"""dpnotes against the two PRV accountants, at their default error settings.

Peers, each called as its README calls it:

``prv_accountant`` 0.2.0 (Gopi, Lee & Wutschitz 2021)
    ``DPSGDAccountant(noise_multiplier, sampling_probability, max_steps=T)`` (defaults
    ``eps_error=0.1``, ``delta_error=1e-9``), then ``compute_epsilon(delta, T)`` →
    (lower, estimate, upper).
Opacus 1.6.0 ``PRVAccountant``
    ``history = [(σ, q, T)]`` (what T calls of ``step`` record), then
    ``get_epsilon(delta)`` (defaults ``eps_error=0.01``, ``delta_error=δ/1000``) → an
    upper estimate.

For each: the time of the call, its ε, whether its upper bound is *valid* (not below
dpnotes' certified lower bound), its relative error against the truth (see
``_reference``), and the time dpnotes takes for an upper bound asked for that relative
error (equal accuracy, as for dp-accounting), and for a certified bracket of that width. Ratios are peer time / dpnotes time: above 1
means dpnotes is faster.

Run (needs the benchmark peers, ``make bench`` installs them):
``python benchmarks/bench_prv.py [--steps 1000 10000 100000]``
"""

import argparse
import math
import warnings

import dpnotes

from _reference import DELTA, best_time, grid, midpoint, truth

PEERS = ("prv_accountant", "opacus PRV")
MIN_REL = 1e-6  # the smallest relative width asked of our bracket (a peer error can be ~0 by chance)


def prv_accountant_epsilon(q, sigma, steps, delta):
    """prv_accountant's (lower, estimate, upper), built and computed as its README does."""
    from prv_accountant.dpsgd import DPSGDAccountant

    acc = DPSGDAccountant(noise_multiplier=sigma, sampling_probability=q, max_steps=steps)
    return acc.compute_epsilon(delta=delta, num_steps=steps)


def opacus_prv_epsilon(q, sigma, steps, delta):
    """Opacus' PRVAccountant ε after T steps of (σ, q)."""
    from opacus.accountants import PRVAccountant

    acc = PRVAccountant()
    acc.history = [(sigma, q, steps)]
    return acc.get_epsilon(delta)


def ours_upper_at(q, sigma, steps, delta, rel_error):
    """dpnotes' upper bound on ε asked for relative accuracy ``rel_error`` (clipped to [1e-6, 0.5])."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dpnotes.dpsgd_epsilon_pld(q, sigma, steps, delta, rel_width=min(max(rel_error, MIN_REL), 0.5))


def ours_bracket_at(q, sigma, steps, delta, rel_error):
    """dpnotes' certified bracket whose relative width is ``rel_error`` (clipped to [1e-6, 0.5])."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return dpnotes.dpsgd_epsilon_bracket(q, sigma, steps, delta, rel_width=min(max(rel_error, MIN_REL), 0.5))


def rows(steps=(1000, 10_000, 100_000), repeat=2):
    """One dict per (peer, grid point): times, ε, validity, error and the ratio."""
    calls = {
        "prv_accountant": lambda q, s, t: prv_accountant_epsilon(q, s, t, DELTA)[2],
        "opacus PRV": lambda q, s, t: opacus_prv_epsilon(q, s, t, DELTA),
    }
    out = []
    for q, sigma, t in grid(steps):
        lo, up = bracket = truth(q, sigma, t)
        if not math.isfinite(up):
            continue  # no truth (grid-size limit): left out
        mid = midpoint(bracket)
        for peer, call in calls.items():
            try:
                t_peer, eps = best_time(lambda: call(q, sigma, t), repeat)
            except MemoryError:  # its default grid past the benchmark's address-space limit (run.py): no ratio
                out.append(dict(peer=peer, q=q, sigma=sigma, steps=t, failed="MemoryError"))
                continue
            eps = float(eps)
            err = abs(eps - mid) / mid
            t_ours, o_up = best_time(lambda: ours_upper_at(q, sigma, t, DELTA, err), repeat)
            t_bracket, _ = best_time(lambda: ours_bracket_at(q, sigma, t, DELTA, err), repeat)
            out.append(dict(peer=peer, q=q, sigma=sigma, steps=t, eps=eps, lower=lo, valid=bool(eps >= lo),
                            rel_error=err, t_peer=t_peer, t_ours=t_ours, ours_upper=float(o_up),
                            ratio=t_peer / t_ours, t_bracket=t_bracket, bracket_ratio=t_peer / t_bracket))
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, nargs="+", default=[1000, 10_000, 100_000])
    p.add_argument("--repeat", type=int, default=2)
    args = p.parse_args(argv)
    print(f"{'peer':<15}{'q':>7}{'σ':>5}{'T':>8}{'peer ε':>10}{'valid':>6}{'rel err':>9}"
          f"{'peer ms':>9}{'ours ms':>9}{'ratio':>7}{'bracket ms':>11}{'ratio':>7}")
    for r in rows(args.steps, args.repeat):
        if "failed" in r:
            print(f"{r['peer']:<15}{r['q']:7.0e}{r['sigma']:5.1f}{r['steps']:8d}  failed: {r['failed']}")
            continue
        print(f"{r['peer']:<15}{r['q']:7.0e}{r['sigma']:5.1f}{r['steps']:8d}{r['eps']:10.4f}"
              f"{'yes' if r['valid'] else 'NO':>6}{r['rel_error']:9.1e}{1e3 * r['t_peer']:9.1f}"
              f"{1e3 * r['t_ours']:9.1f}{r['ratio']:7.2f}{1e3 * r['t_bracket']:11.1f}{r['bracket_ratio']:7.2f}")


if __name__ == "__main__":
    main()
