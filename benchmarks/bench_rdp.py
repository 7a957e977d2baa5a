"""dpnotes vs dp-accounting: RDP of the Poisson-subsampled Gaussian on DEFAULT_ORDERS.

Run: .venv/bin/python benchmarks/bench_rdp.py
"""
import logging

import numpy as np
from dp_accounting.rdp import rdp_privacy_accountant as ra

from dpnotes.orders import DEFAULT_ORDERS
from dpnotes.subsampling import rdp_subsampled_gaussian
from _timing import best_time

logging.disable(logging.WARNING)


def main():
    orders = DEFAULT_ORDERS
    print(f"{len(orders)} orders; per (q, sigma) curve; best of repeats")
    print(f"{'q':>8} {'sigma':>7} {'dpnotes ms':>11} {'dp-acc ms':>10} {'ratio':>7} {'max rel diff (finite)':>22} {'dp-acc inf':>10}")
    t_ours = t_ref = 0.0
    for q in [1e-5, 1e-3, 0.01, 0.1, 0.5]:
        for s in [0.5, 1.0, 4.0, 100.0]:
            ours = rdp_subsampled_gaussian(orders, q, s)
            ref = ra._compute_rdp_poisson_subsampled_gaussian(q, s, orders)
            a = best_time(lambda: rdp_subsampled_gaussian(orders, q, s), 5)
            b = best_time(lambda: ra._compute_rdp_poisson_subsampled_gaussian(q, s, orders), 1)
            t_ours += a
            t_ref += b
            fin = np.isfinite(ref)
            diff = np.max(np.abs(ours[fin] / ref[fin] - 1))
            print(f"{q:8.0e} {s:7.1f} {a*1e3:11.2f} {b*1e3:10.1f} {b/a:7.1f} {diff:22.2e} {np.sum(~fin):10d}")
    print(f"total: dpnotes {t_ours*1e3:.1f} ms, dp-accounting {t_ref*1e3:.1f} ms, ratio {t_ref/t_ours:.1f}x")


if __name__ == "__main__":
    main()
