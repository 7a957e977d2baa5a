"""Fuzz the public API: every public function, each parameter replaced by invalid and extreme values.

A function's valid call is taken from its own docstring example (the first ``>>>`` line that
calls it, after running the example lines before it). Each parameter is then replaced, one at
a time, by each value of :data:`INVALID` (must raise ``ValueError``/``TypeError`` naming the
parameter) and of :data:`EXTREME` (a named error, or a value: a value must hold no NaN and,
for a divergence, privacy loss or δ, be ≥ 0). Every call runs in a worker process under a
time limit; a call past it counts as a hang.

Outcomes: ``named error``, ``value`` (passed its checks), and the defects ``unnamed error``
(the message does not name the parameter), ``other error`` (not ValueError/TypeError),
``bad value`` (NaN or a negative divergence) and ``hang``.

Usage::

    python tools/fuzz_api.py [--limit SECONDS] [--only MODULE] [--show N]

Prints the counts by outcome and the first defects; exits 1 if there are defects.
"""

import argparse
import ast
import collections
import importlib
import inspect
import math
import multiprocessing as mp
import pkgutil
import re
import sys
import warnings

import numpy as np

#: modules that are not the accountant's API (the book's figures, widgets, exercises, registries, and the
#: command line, which tests/test_cli.py runs as users run it)
SKIP = ("figures", "widgets", "exercise", "chapter_exercises", "claims", "published", "_validation",
        "_logspace", "orders", "symbolic.display", "cli", "__main__")

#: must raise ValueError/TypeError naming the parameter
INVALID = {
    "string": "abc",
    "none": None,
    "nan": float("nan"),
    "empty": np.array([]),
    "ragged": [[1.0, 2.0], [3.0]],
    "complex": 1 + 2j,
}
#: a named error or a value without NaN (and ≥ 0 for divergences, losses, δ)
EXTREME = {
    "zero": 0.0,
    "tiny": 1e-300,
    "huge": 1e300,
    "inf": math.inf,
    "one": 1.0,
    "just-below-one": 1.0 - 1e-16,
    "mid": 0.5,
    "int-huge": 10**18,
    "negative": -1.0,
    "neg-inf": -math.inf,
}
#: names of results that are divergences, privacy losses or probabilities (≥ 0)
NONNEGATIVE = re.compile(r"^(rdp|epsilon|delta|renyi|kl|max_divergence|shift_rdp|hockey|zcdp|gaussian_delta)")


def public_functions():
    import dpnotes

    for info in sorted(pkgutil.walk_packages(dpnotes.__path__, "dpnotes."), key=lambda i: i.name):
        if any(s in info.name for s in SKIP):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                yield info.name, name


def example_call(module_name, name):
    """(args, kwargs) of the first docstring example calling ``name``, evaluated after the lines before it."""
    module = importlib.import_module(module_name)
    fn = getattr(module, name)
    namespace = dict(vars(module))
    namespace.setdefault("np", np)
    for line in inspect.getdoc(fn).splitlines():
        line = line.strip()
        if not line.startswith(">>> "):
            continue
        src = line[4:]
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == name:
                args = [eval(compile(ast.Expression(a), "<ex>", "eval"), namespace) for a in node.args]
                kwargs = {k.arg: eval(compile(ast.Expression(k.value), "<ex>", "eval"), namespace)
                          for k in node.keywords}
                return args, kwargs
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(src, "<ex>", "single" if not src.startswith(("from", "import")) else "exec"), namespace)
    raise LookupError(f"{module_name}.{name}: no example call")


def _numbers(value):
    """The floats in a result (nested tuples, lists, arrays, dicts), for the NaN and sign checks."""
    if isinstance(value, (bool, np.bool_)) or value is None or isinstance(value, str):
        return []
    if isinstance(value, (int, float, np.integer, np.floating)):
        return [float(value)]
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiu":
        return value.astype(float).ravel().tolist()
    if isinstance(value, (list, tuple)):
        return [x for v in value[:1000] for x in _numbers(v)]
    if isinstance(value, dict):
        return [x for v in list(value.values())[:1000] for x in _numbers(v)]
    return []


def classify(name, param, exc, value):
    if exc is not None:
        kind, message = exc
        if kind not in ("ValueError", "TypeError"):
            return "other error", f"{kind}: {message}"
        readable = message.replace("√", "").lower()
        named = any(p.lower() in readable or p.lower().rstrip("s") in readable for p in param.split("|"))
        return ("named error", message) if named else ("unnamed error", f"{kind}: {message}")
    nums = _numbers(value)
    if any(math.isnan(x) for x in nums):
        return "bad value", "NaN in the result"
    if NONNEGATIVE.match(name) and any(x < 0 for x in nums):
        return "bad value", f"negative {min(nums):g}"
    return "value", ""


def _call(index):
    module_name, name, args, kwargs = TODO[index][1]
    import signal

    fn = getattr(importlib.import_module(module_name), name)
    signal.signal(signal.SIGALRM, lambda *a: (_ for _ in ()).throw(TimeoutError("time limit")))
    signal.alarm(LIMIT)
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            value = fn(*args, **kwargs)
        return None, value if _numbers(value) or value is None else None
    except TimeoutError:
        return ("hang", f"over {LIMIT} s"), None
    except BaseException as err:  # noqa: BLE001  (every outcome is counted)
        return (type(err).__name__, str(err)[:300]), None
    finally:
        signal.alarm(0)


LIMIT = 10
TODO = []  # (key, job) pairs, set before the worker processes fork


def jobs():
    for module_name, name in public_functions():
        try:
            args, kwargs = example_call(module_name, name)
        except Exception as err:  # noqa: BLE001
            print(f"skip {module_name}.{name}: {err}", file=sys.stderr)
            continue
        fn = getattr(importlib.import_module(module_name), name)
        bound = inspect.signature(fn).bind(*args, **kwargs)
        bound.apply_defaults()  # optional parameters are fuzzed too
        for p in inspect.signature(fn).parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                bound.arguments.pop(p.name, None)
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name in bound.arguments]
        numeric = [p.name for p in params if isinstance(bound.arguments[p.name], (int, float))
                   and not isinstance(bound.arguments[p.name], bool)]
        for first, second in zip(numeric, numeric[1:]):
            # two arrays that cannot broadcast: the error must name one of them
            arguments = dict(bound.arguments)
            arguments[first] = np.full(2, arguments[first], dtype=float)
            arguments[second] = np.full(3, arguments[second], dtype=float)
            yield (module_name, name, f"{first}|{second}", "shapes", "2 and 3"), (module_name, name, [], arguments)
        for p in params:
            for group, table in (("invalid", INVALID), ("extreme", EXTREME)):
                for label, bad in table.items():
                    if label == "none" and p.default is None or label == "empty" and p.default == ():
                        continue  # None (or no entries) is this parameter's documented default
                    arguments = dict(bound.arguments)
                    arguments[p.name] = bad
                    yield (module_name, name, p.name, group, label), (module_name, name, [], arguments)


def main(argv=None):
    global LIMIT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=10)
    ap.add_argument("--only", default=None)
    ap.add_argument("--show", type=int, default=40)
    opts = ap.parse_args(argv)
    LIMIT = opts.limit
    global TODO
    TODO = todo = [(k, j) for k, j in jobs() if opts.only is None or k[0] == opts.only
                   or k[0].startswith(opts.only + ".")]
    counts = collections.Counter()
    defects = []
    ctx = mp.get_context("fork")
    with ctx.Pool(2, maxtasksperchild=50) as pool:
        results = [pool.apply_async(_call, (i,)) for i in range(len(todo))]
        for (key, _), res in zip(todo, results):
            try:
                exc, value = res.get(timeout=LIMIT + 30)
            except mp.TimeoutError:
                exc, value = ("hang", "worker did not answer"), None
            if exc is not None and exc[0] == "hang":
                outcome, detail = "hang", exc[1]
            else:
                outcome, detail = classify(key[1], key[2], exc, value)
                if key[3] == "invalid" and outcome == "value":
                    outcome, detail = "accepted invalid", "no error"
                if key[3] == "shapes" and outcome == "value":
                    outcome, detail = "named error", ""  # a function of scalars may refuse or broadcast
            counts[outcome] += 1
            if outcome not in ("named error", "value"):
                defects.append((key, outcome, detail))
    print(f"{len(todo)} calls, {len({k[:2] for k, _ in todo})} functions")
    for outcome, n in counts.most_common():
        print(f"  {outcome:18s} {n}")
    for key, outcome, detail in defects[: opts.show]:
        print(f"{outcome:16s} {key[0]}.{key[1]}({key[2]}={key[4]}): {detail[:160]}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
