"""dpnotes.dpsgd vs dp-accounting's RdpAccountant: ε of two published DP-SGD runs, time per call.

Run: .venv/bin/python benchmarks/bench_dpsgd.py
"""
import logging
import warnings

from dp_accounting import dp_event
from dp_accounting.rdp import rdp_privacy_accountant as ra

from dpnotes.conversion import OrderGridWarning
from dpnotes.dpsgd import dpsgd_epsilon, steps_from_epochs
from dpnotes.orders import DEFAULT_ORDERS
from _timing import best_time

logging.disable(logging.WARNING)
warnings.simplefilter("ignore", OrderGridWarning)


def reference(q, sigma, steps, delta):
    acc = ra.RdpAccountant(list(DEFAULT_ORDERS))
    acc.compose(dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), steps)
    return acc.get_epsilon(delta)


def main():
    runs = {"TF Privacy tutorial": (256 / 60000, 1.1, 60), "Abadi et al. 2016": (0.01, 4.0, 100)}
    print(f"{'run':<22}{'route':>12}{'ε':>12}{'ms':>10}{'dp-acc ε':>12}{'dp-acc ms':>11}{'ratio':>8}")
    for name, (q, sigma, epochs) in runs.items():
        steps = steps_from_epochs(epochs, q)
        ref = reference(q, sigma, steps, 1e-5)
        t_ref = best_time(lambda: reference(q, sigma, steps, 1e-5))
        for route in ["route1", "route2", "route3", "rdp-mironov", "rdp", "pld"]:
            eps = dpsgd_epsilon(q, sigma, steps, 1e-5, route=route)
            t = best_time(lambda: dpsgd_epsilon(q, sigma, steps, 1e-5, route=route), 1 if route == "pld" else 3)
            extra = f"{ref:12.6f}{1e3 * t_ref:11.1f}{t / t_ref:8.2f}" if route == "rdp" else ""
            print(f"{name:<22}{route:>12}{eps:12.6f}{1e3 * t:10.1f}{extra}")


if __name__ == "__main__":
    main()
