"""dpnotes.pld against dp-accounting's PLD accountant, side by side in one process.

For DP-SGD (TF-Privacy tutorial: q = 256/60000, σ = 1.1, δ = 1e-5) and
T = 1e3, 1e4, 1e5 prints: wall time of each, their ratio, peak memory
(tracemalloc), our bracket (lower, upper) and its width, and dp-accounting's
pessimistic (connect-the-dots) and optimistic (rounding-down) ε and their gap.

Run: .venv/bin/python benchmarks/bench_pld.py
"""

import logging
import time
import tracemalloc

from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant, privacy_loss_distribution

from dpnotes.pld import dpsgd_epsilon_bracket

logging.getLogger().setLevel(logging.ERROR)

Q, SIGMA, DELTA = 256 / 60000, 1.1, 1e-5


def measure(fn):
    tracemalloc.start()
    t = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return out, dt, peak / 2**20


def dp_accounting_pair(T, interval=1e-4):
    acc = pld_privacy_accountant.PLDAccountant(value_discretization_interval=interval)
    acc.compose(dp_event.SelfComposedDpEvent(
        dp_event.PoissonSampledDpEvent(Q, dp_event.GaussianDpEvent(SIGMA)), T))
    up = acc.get_epsilon(DELTA)
    opt = privacy_loss_distribution.from_gaussian_mechanism(
        SIGMA, sampling_prob=Q, value_discretization_interval=interval,
        pessimistic_estimate=False).self_compose(T)
    return opt.get_epsilon_for_delta(DELTA), up


def main():
    print(f"q = {Q:.6f}, sigma = {SIGMA}, delta = {DELTA}")
    print(f"{'T':>7} | {'ours s':>7} {'MiB':>6} {'lower':>9} {'upper':>9} {'width':>9} | "
          f"{'dpa s':>7} {'MiB':>6} {'optim.':>9} {'pessim.':>9} {'gap':>9} | {'time ratio':>10}")
    for T in (1000, 10000, 100000):
        (lo, up), t_ours, m_ours = measure(lambda: dpsgd_epsilon_bracket(Q, SIGMA, T, DELTA))
        (o, p), t_ref, m_ref = measure(lambda: dp_accounting_pair(T))
        print(f"{T:>7} | {t_ours:7.2f} {m_ours:6.0f} {lo:9.5f} {up:9.5f} {up - lo:9.2e} | "
              f"{t_ref:7.2f} {m_ref:6.0f} {o:9.5f} {p:9.5f} {p - o:9.2e} | {t_ours / t_ref:10.2f}")


if __name__ == "__main__":
    main()
