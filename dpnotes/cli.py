"""The command line: ``python -m dpnotes epsilon|delta|sigma …`` for a DP-SGD run.

Examples (each prints one line)::

    python -m dpnotes epsilon --q 0.01 --sigma 1.1 --steps 1000 --delta 1e-5
    python -m dpnotes epsilon --q 0.01 --sigma 1.1 --epochs 10 --delta 1e-5 --route bracket
    python -m dpnotes delta --q 0.01 --sigma 1.1 --steps 1000 --epsilon 2
    python -m dpnotes sigma --epsilon 3 --delta 1e-5 --q 0.01 --epochs 20

A bad argument exits with status 2 and a message naming it and its range (the package's own
checks); nothing is printed to standard output then.
"""

import argparse
import sys

__all__ = ["main"]

#: the routes of ``epsilon``/``delta``: the package's accounting routes, plus the certified bracket
ROUTE_CHOICES = ("rdp", "pld", "bracket", "rdp-mironov", "route1", "route2", "route3")


def _run_length(parser, args):
    """T from ``--steps`` or from ``--epochs`` (T = ⌈epochs / q⌉), exactly one of them."""
    from .dpsgd import steps_from_epochs

    if (args.steps is None) == (args.epochs is None):
        parser.error("give exactly one of --steps and --epochs")
    return args.steps if args.steps is not None else steps_from_epochs(args.epochs, args.q)


def _parser():
    p = argparse.ArgumentParser(prog="python -m dpnotes", description=(
        "Privacy accounting for DP-SGD (Poisson sampling at rate q, Gaussian noise multiplier sigma, "
        "add/remove adjacency)."))
    sub = p.add_subparsers(dest="command", required=True, metavar="{epsilon,delta,sigma}")

    def run(sp, epochs_help="epochs; T = ceil(epochs / q) steps"):
        sp.add_argument("--q", type=float, required=True, help="sampling rate q in (0, 1]")
        sp.add_argument("--steps", type=int, help="number of steps T >= 1")
        sp.add_argument("--epochs", type=float, help=epochs_help)

    e = sub.add_parser("epsilon", help="the epsilon of a run at a given delta")
    run(e)
    e.add_argument("--sigma", type=float, required=True, help="noise multiplier sigma > 0")
    e.add_argument("--delta", type=float, required=True, help="delta in (0, 1)")
    e.add_argument("--route", choices=ROUTE_CHOICES, default="rdp",
                   help="rdp (default; RDP accountant), pld (certified upper bound from the privacy loss "
                        "distribution), bracket (certified lower and upper bounds), or a route of chapter 06")

    d = sub.add_parser("delta", help="the delta of a run at a given epsilon")
    run(d)
    d.add_argument("--sigma", type=float, required=True, help="noise multiplier sigma > 0")
    d.add_argument("--epsilon", type=float, required=True, help="epsilon >= 0")
    d.add_argument("--route", choices=[r for r in ROUTE_CHOICES if r != "bracket"], default="rdp")

    s = sub.add_parser("sigma", help="the smallest noise multiplier that reaches a target (epsilon, delta)")
    run(s)
    s.add_argument("--epsilon", type=float, required=True, help="target epsilon > 0")
    s.add_argument("--delta", type=float, required=True, help="delta in (0, 1)")
    s.add_argument("--route", choices=("rdp", "pld"), default="rdp")
    return p


def main(argv=None):
    """Run the command line on ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    from . import dpsgd
    from .rounding import bound_text, bracket_text

    try:
        steps = _run_length(parser, args)
        where = f"q = {args.q:g}, T = {steps}"
        if args.command == "epsilon":
            if args.route == "bracket":
                from .pld import dpsgd_epsilon_bracket

                lo, hi = dpsgd_epsilon_bracket(args.q, args.sigma, steps, args.delta)[:2]
                print(f"epsilon in {bracket_text(lo, hi, significant=6)} "
                      f"(certified; delta = {args.delta:g}, sigma = {args.sigma:g}, {where})")
            else:
                eps = dpsgd.dpsgd_epsilon(args.q, args.sigma, steps, args.delta, route=args.route)
                print(f"epsilon = {bound_text(eps, 'upper', significant=6)} (route {args.route}; delta = {args.delta:g}, "
                      f"sigma = {args.sigma:g}, {where})")
        elif args.command == "delta":
            d = dpsgd.dpsgd_delta(args.q, args.sigma, steps, args.epsilon, route=args.route)
            print(f"delta = {bound_text(d, 'upper', significant=6)} (route {args.route}; epsilon = {args.epsilon:g}, "
                  f"sigma = {args.sigma:g}, {where})")
        else:
            sigma = dpsgd.dpsgd_sigma(args.epsilon, args.delta, args.q, steps, route=args.route)
            print(f"sigma = {bound_text(sigma, 'upper', significant=6)} (route {args.route}; epsilon = {args.epsilon:g}, "
                  f"delta = {args.delta:g}, {where})")
    except (ValueError, TypeError) as err:
        parser.error(str(err))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
