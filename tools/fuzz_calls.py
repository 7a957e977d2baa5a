"""Fuzz what users call: random calls of every public function, the methods of the objects they
return, composed calls checked against a second route, and resource ladders.

:mod:`fuzz_api` changes one argument of each docstring example to one invalid or extreme value.
This tool starts from the same examples (:func:`fuzz_api.example_call`) and draws, with a fixed
seed, many calls that change several arguments at once over their whole range (numbers scaled by
powers of ten, signs flipped, special values, ints from 0 to 2**1024, arrays longer and shorter);
for every object a call returns (a privacy loss, a PLD, a loss grid, a loss law, a bracket) it
also calls that object's methods with drawn arguments. It runs:

* **random calls** (``--calls``) and the methods of their results (``--methods`` per object);
* **composed calls**: functions fed each other's outputs, with an invariant from an independent
  route (round trips ε → δ → ε, δ(ε(δ)) ≤ δ, a PLD upper bound ≥ the closed-form Gaussian δ ≥ its
  lower bound, the four δ(ε) expressions of a privacy loss against the closed form, ...);
* **resource ladders**: each size argument of each function (ints, array lengths; tail masses,
  widths and spacings downwards) multiplied by 4 (or divided by 100) rung by rung until the call
  is refused, fails or passes a limit, with its time and peak memory recorded.

Every call runs in its own forked process under ``np.seterr(all="raise")`` (a caller's error
state must change nothing), with warnings recorded, an address-space limit of the process size
plus ``--memory`` GiB (an allocation beyond fails as ``MemoryError``); each call is stopped after
``--limit`` seconds of CPU time (``ITIMER_PROF``; times are the call's CPU time from ``getrusage``, so a
machine shared with other jobs does not turn a 3 s call into an "over time" one), and a child still running
after 8·limit + 30 s of wall time is killed (counted "over time" if its CPU time passed the limit, else
run again alone at the end, and counted "over time" if killed again).

Outcomes: ``value`` (passed its checks), ``named error`` (ValueError/TypeError whose message
names a parameter of the call, or a cost refusal naming its estimate), and the defects
``silent wrong value`` (NaN, a probability outside [0, 1], a negative divergence or ε, a DP-SGD ε of ∞ without
an AccuracyWarning, a failed
invariant), ``unnamed error`` (ValueError/TypeError naming no parameter), ``other error`` (any
other exception, e.g. FloatingPointError, OverflowError, ZeroDivisionError, MemoryError),
``warning escaped`` (a RuntimeWarning reached the caller; the package's own
:class:`dpnotes._validation.AccuracyWarning`, documented where it is emitted, counts as ``value, accuracy
warning``), ``over time`` (stopped at the CPU limit, or finished after it) and ``over memory`` (peak above the
memory limit).

Usage::

    python tools/fuzz_calls.py [--calls N] [--methods M] [--composed N] [--no-ladders] [--budget SECONDS]
                               [--limit SECONDS] [--memory GIB] [--seed S] [--jobs J] [--json PATH]

Prints the counts by kind and outcome, the slowest and largest ladder rungs, and the defects;
exits 1 if there is a defect.
"""

import argparse
import collections
import importlib
import inspect
import json
import math
import os
import pickle
import re
import resource
import select
import signal
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fuzz_api  # noqa: E402  (the public functions and their example calls)

from dpnotes._validation import AccuracyWarning  # noqa: E402  (a documented warning, not an escaped one)

DEFECTS = ("silent wrong value", "unnamed error", "other error", "warning escaped", "over time", "over memory")
#: results that are probabilities (δ, a tail mass): in [0, 1]
PROBABILITY = re.compile(r"^(delta|gaussian_delta|log_delta)")
#: results that are divergences, losses or ε: ≥ 0
NONNEGATIVE = fuzz_api.NONNEGATIVE
#: the public classes whose methods are fuzzed on every object a call returns
CLASSES = ("PrivacyLoss", "PrivacyLossDistribution", "LossGrid", "LossLaw", "EpsilonBracket")
#: float parameters that drive cost downwards (halved by the ladders)
SMALL_DRIVES_COST = re.compile(r"(tail_mass|rel_width|interval|tol|width|step_size|spacing|resolution|h)$")

SPECIAL_FLOATS = [0.0, 1.0, -1.0, 0.5, 1e-300, 5e-324, 1e308, math.inf, -math.inf, 1.0 - 1e-16, 1e-16, 2.0, 1e6]
SPECIAL_INTS = [0, 1, 2, 3, -1, 10**6, 10**12, 10**18, 2**1024 + 1, 2**63]


# ----------------------------------------------------------------------------- drawing arguments
def draw_number(value, rng):
    """A new value for a numeric argument: the old one scaled, flipped, or a special value."""
    if isinstance(value, (bool, np.bool_)):
        return value
    if isinstance(value, (int, np.integer)):
        r = rng.random()
        if r < 0.3:
            return SPECIAL_INTS[int(rng.integers(len(SPECIAL_INTS)))]
        return int(max(int(value), 1) * 2 ** int(rng.integers(-3, 21)))
    r = rng.random()
    if r < 0.25:
        return float(rng.choice(SPECIAL_FLOATS))
    scaled = float(value if value else 1.0) * 10.0 ** float(rng.uniform(-12, 12))
    return -scaled if rng.random() < 0.1 else scaled


def draw_argument(value, rng):
    if isinstance(value, (bool, np.bool_, str)) or value is None or callable(value):
        return value
    if isinstance(value, (int, float, np.integer, np.floating)):
        return draw_number(value, rng)
    if isinstance(value, (list, tuple, np.ndarray)):
        try:
            arr = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            return value
        r = rng.random()
        if r < 0.3 and arr.ndim >= 1 and arr.size:  # longer or shorter along the first axis
            n = max(1, int(arr.shape[0] * 2.0 ** int(rng.integers(-2, 8))))
            return np.resize(arr, (n, *arr.shape[1:]))
        if r < 0.6:
            return arr * 10.0 ** float(rng.uniform(-6, 6))
        return arr if rng.random() < 0.5 else arr.tolist()
    return value


def draw_method_argument(name, rng):
    """An argument of a method of a returned object, by its parameter name."""
    r = rng.random()
    if name in ("count", "n", "k", "steps"):
        return int(rng.choice([1, 2, 3, 10, 1000, 10**6, 10**9, 0, -1])) if r < 0.9 else "3"
    if name in ("delta",):
        return float(rng.choice([1e-5, 1e-10, 0.5, 0.0, 1.0, 1e-300, -0.1, 2.0, math.nan])) if r < 0.9 else [1e-5, 1e-3]
    if name in ("other",):
        return None
    if name in ("tail_mass",):
        return float(rng.choice([1e-16, 1e-10, 1e-3, 1e-30, 0.0, 0.5]))
    if name in ("h", "fn"):
        return (lambda z: np.asarray(z) ** 2) if r < 0.8 else 3.0
    if name in ("seed",):
        return int(rng.integers(0, 100))
    if r < 0.6:
        return float(rng.choice(SPECIAL_FLOATS)) if rng.random() < 0.3 else float(rng.normal(0, 3))
    if r < 0.8:
        return rng.normal(0, 3, size=int(rng.integers(1, 6)))
    return [None, "abc", math.nan, 1 + 2j][int(rng.integers(4))]


# ----------------------------------------------------------------------------- checking results
def _numbers(value):
    """The floats a check needs from a result: as :func:`fuzz_api._numbers`, but an array of more than 1000 entries
    gives its extremes (and NaN if it holds one), not a list of every entry (a 10⁸-entry result would need 3 GB)."""
    if isinstance(value, np.ndarray) and value.dtype.kind in "fiu" and value.size > 1000:
        if value.dtype.kind == "f" and bool(np.isnan(value).any()):
            return [math.nan]
        return [float(np.min(value)), float(np.max(value))]
    if isinstance(value, (list, tuple)):
        return [x for v in value[:1000] for x in _numbers(v)]
    if isinstance(value, dict):
        return [x for v in list(value.values())[:1000] for x in _numbers(v)]
    return fuzz_api._numbers(value)


def check_value(label, value):
    """'' if a returned value passes its checks, else what is wrong."""
    nums = _numbers(value)
    if any(math.isnan(x) for x in nums):
        return "NaN in the result"
    short = label.rsplit(".", 1)[-1]
    probs = _numbers(value[0]) if isinstance(value, tuple) and value else nums  # (δ, its companion)
    if PROBABILITY.match(short) and not short.startswith("log_") and any(not 0.0 <= x <= 1.0 for x in probs):
        bad = [x for x in probs if not 0.0 <= x <= 1.0][:3]
        return f"a probability outside [0, 1]: {bad}"
    if NONNEGATIVE.match(short) and not PROBABILITY.match(short) and any(x < 0 for x in nums):
        return f"negative {min(nums):g}"
    return ""


#: the ε of DP-SGD (a subsampled Gaussian mechanism) at δ > 0 is finite: an ∞ from these is a bound that gave up
GAUSSIAN_EPSILON = re.compile(r"^dpsgd_epsilon")


def _unsaid_infinite_epsilon(label, value):
    """'' unless a DP-SGD ε function returned ∞ without an AccuracyWarning (its true ε is finite at δ > 0)."""
    if not GAUSSIAN_EPSILON.match(label.rsplit(".", 1)[-1]):
        return ""
    return "ε = ∞ without a warning (the true ε is finite)" if any(x == math.inf for x in _numbers(value)) else ""


def classify_error(err, names):
    kind, message = type(err).__name__, str(err)
    if not isinstance(err, (ValueError, TypeError)) or isinstance(err, FloatingPointError):
        return "other error", f"{kind}: {message[:200]}"
    readable = message.replace("√", "").lower()
    named = any(p.lower() in readable for p in names) or "needs about" in readable or "limit" in readable
    return ("named error", "") if named else ("unnamed error", f"{kind}: {message[:200]}")


def _rss_mb(field):
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(field):
                return int(line.split()[1]) / 1024.0
    return 0.0


def _reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")  # resets the peak resident size (VmHWM) to the current one
    except OSError:
        pass


MEMORY_LIMIT_MB = 2048.0
LAST_MB = [0.0]  # the peak memory of the last run_one call, above the resident size before it


def _cpu_seconds():
    """CPU time (user + system) of this process so far: the time verdict, unlike the wall clock, does not grow
    with the load other jobs put on the machine."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


LAST_WALL = [0.0]  # the wall-clock seconds of the last run_one call (reported, not judged)


class CpuLimit(BaseException):
    """Raised in a call that has used its CPU-time limit (a BaseException: no ``except Exception`` stops it)."""


def _stop_on_cpu_limit(signum, frame):
    raise CpuLimit()


def run_one(thunk, names, label, limit, check=check_value):
    """Call ``thunk`` in this process, returning (outcome, detail, seconds, value): ``seconds`` is the CPU
    time of the call (getrusage), judged against ``limit``; its wall time goes to LAST_WALL[0] and its peak
    memory above the resident size before the call to LAST_MB[0]."""
    _reset_peak()
    base = _rss_mb("VmRSS")
    t0, w0 = _cpu_seconds(), time.perf_counter()
    previous = signal.signal(signal.SIGPROF, _stop_on_cpu_limit)
    signal.setitimer(signal.ITIMER_PROF, limit + 0.5)  # fires after that much CPU time of this process
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = thunk()
    except CpuLimit:
        seconds = _cpu_seconds() - t0
        LAST_WALL[0] = time.perf_counter() - w0
        LAST_MB[0] = max(_rss_mb("VmHWM") - base, 0.0)
        return "over time", f"stopped after {seconds:.1f} s CPU", seconds, None
    except Exception as err:  # noqa: BLE001  (every outcome is counted)
        seconds = _cpu_seconds() - t0
        LAST_WALL[0] = time.perf_counter() - w0
        LAST_MB[0] = max(_rss_mb("VmHWM") - base, 0.0)
        outcome, detail = classify_error(err, names)
        if outcome == "named error" and seconds > limit:
            return "over time", f"refused after {seconds:.1f} s: {err}"[:200], seconds, None
        if outcome == "named error" and LAST_MB[0] > MEMORY_LIMIT_MB:
            return "over memory", f"refused after {LAST_MB[0]:.0f} MB: {err}"[:200], seconds, None
        return outcome, detail, seconds, None
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0.0)
        signal.signal(signal.SIGPROF, previous)
    seconds = _cpu_seconds() - t0
    LAST_WALL[0] = time.perf_counter() - w0
    LAST_MB[0] = max(_rss_mb("VmHWM") - base, 0.0)
    if LAST_MB[0] > MEMORY_LIMIT_MB:
        return "over memory", f"{LAST_MB[0]:.0f} MB", seconds, value
    runtime = [w for w in caught if issubclass(w.category, RuntimeWarning) and not issubclass(w.category, AccuracyWarning)]
    if runtime:
        return "warning escaped", f"{runtime[0].category.__name__}: {str(runtime[0].message)[:160]}", seconds, value
    problem = check(label, value)
    if not problem and not any(issubclass(w.category, AccuracyWarning) for w in caught):
        problem = _unsaid_infinite_epsilon(label, value)
    if problem:
        return "silent wrong value", problem, seconds, value
    if seconds > limit:
        return "over time", f"{seconds:.1f} s CPU", seconds, value
    if any(issubclass(w.category, AccuracyWarning) for w in caught):  # documented: less accurate than asked, valid
        return "value, accuracy warning", str(caught[0].message)[:160], seconds, value
    return "value", "", seconds, value


# ----------------------------------------------------------------------------- isolated execution
def isolated(job, limit, memory_gib):
    """Run ``job()`` (returns a list of records) in a forked child under limits; a generator step."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(r)
        try:
            size = _rss_mb("VmSize") * 2**20
            cap = int(size + memory_gib * 2**30)
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
            np.seterr(all="raise")
            globals()["MEMORY_LIMIT_MB"] = memory_gib * 1024
            records = job()
            payload = pickle.dumps(records)
        except BaseException as err:  # noqa: BLE001
            payload = pickle.dumps([{"kind": "call", "target": "?", "outcome": "other error",
                                     "detail": f"{type(err).__name__}: {err}"[:200], "seconds": 0.0, "mb": 0.0}])
        try:
            os.write(w, payload)
        finally:
            os._exit(0)
    os.close(w)
    return pid, r


#: a child still running after WALL_FACTOR·limit + 30 s of wall time is killed (a safety net: each call stops
#: itself after ``limit`` s of CPU time); the machine may be shared, so wall time alone is no verdict
WALL_FACTOR, WALL_GRACE = 8.0, 30.0


def run_jobs(jobs, limit, memory_gib, parallel, *, retry=True):
    """Run (description, job) pairs, ``parallel`` children at a time; yield each job's records.

    A child killed by the wall-clock net before its CPU time reached ``limit`` ("killed under load") is run
    again at the end, alone (``parallel`` = 1); killed again, it counts as "over time": a call the load
    slowed is retried, a call that never finishes is a defect, not a blind spot."""
    pending = list(jobs)[::-1]
    running = {}  # fd -> (pid, start, description, chunks, job)
    again = []
    while pending or running:
        while pending and len(running) < parallel:
            desc, job = pending.pop()
            pid, fd = isolated(job, limit, memory_gib)
            running[fd] = (pid, time.monotonic(), desc, [], job)
        ready, _, _ = select.select(list(running), [], [], 0.2)
        for fd in ready:
            chunk = os.read(fd, 1 << 20)
            if chunk:
                running[fd][3].append(chunk)
                continue
            pid, start, desc, chunks, _ = running.pop(fd)
            os.close(fd)
            os.waitpid(pid, 0)
            try:
                records = pickle.loads(b"".join(chunks))
            except Exception:  # noqa: BLE001  (a child killed by the kernel: out of memory)
                records = [dict(desc, outcome="over memory", detail="the process died", seconds=0.0, mb=0.0)]
            yield desc, records
        now = time.monotonic()
        for fd, (pid, start, desc, chunks, job) in list(running.items()):
            if now - start > WALL_FACTOR * limit + WALL_GRACE:
                os.kill(pid, signal.SIGKILL)
                _, _, usage = os.wait4(pid, 0)
                cpu = usage.ru_utime + usage.ru_stime
                os.close(fd)
                running.pop(fd)
                if cpu <= limit and retry:
                    again.append((desc, job))
                    continue
                yield desc, [dict(desc, outcome="over time", detail=f"killed after {now - start:.0f} s wall, {cpu:.1f} s CPU"
                                  + ("" if retry else " (run alone, after a first kill under load)"),
                                  seconds=cpu, mb=0.0)]
    if again:
        yield from run_jobs(again, limit, memory_gib, 1, retry=False)


# ----------------------------------------------------------------------------- the three kinds of jobs
def base_calls():
    out = []
    for module_name, name in fuzz_api.public_functions():
        try:
            args, kwargs = fuzz_api.example_call(module_name, name)
        except Exception:  # noqa: BLE001  (functions without an example call are skipped, as by fuzz_api)
            continue
        fn = getattr(importlib.import_module(module_name), name)
        bound = inspect.signature(fn).bind(*args, **kwargs)
        out.append((module_name, name, dict(bound.arguments)))
    return out


def _public_methods(obj):
    for cls in type(obj).__mro__:
        if cls.__name__ in CLASSES:
            break
    else:
        return []
    names = []
    for attr in dir(type(obj)):
        if attr.startswith("_") or attr in ("count", "index"):
            continue
        member = getattr(obj, attr, None)
        if callable(member) and not isinstance(member, type):
            names.append(attr)
    for attr in ("sf", "sf_q", "log_p", "log_q", "density", "log_ratio"):  # PrivacyLoss's functions of a point
        if callable(getattr(obj, attr, None)) and attr not in names:
            names.append(attr)
    return sorted(names)


def call_job(module_name, name, arguments, seed, methods, limit):
    def job():
        rng = np.random.default_rng(seed)
        fn = getattr(importlib.import_module(module_name), name)
        params = list(inspect.signature(fn).parameters)
        label = f"{module_name}.{name}"
        out_outcome, detail, seconds, value = run_one(lambda: fn(**arguments), params, label, limit)
        records = [{"kind": "call", "target": label, "outcome": out_outcome, "detail": detail, "seconds": seconds,
                    "mb": LAST_MB[0], "wall": LAST_WALL[0], "args": _describe(arguments)}]
        objects = [value] if not isinstance(value, (tuple, list)) else list(value)[:3]
        for obj in objects:
            names = _public_methods(obj)
            for _ in range(methods if names else 0):
                meth = names[int(rng.integers(len(names)))]
                bound = getattr(obj, meth)
                try:
                    sig = inspect.signature(bound)
                    mparams = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                               and p.default is p.empty]
                except (TypeError, ValueError):
                    mparams = []
                    sig = None
                margs = {p.name: (obj if p.name == "other" else draw_method_argument(p.name, rng)) for p in mparams}
                if sig is None or any(p.name == "x" for p in mparams) and not margs:
                    margs = {}
                mlabel = f"{type(obj).__name__}.{meth}"
                pos = list(margs.values()) if meth in ("sf", "sf_q", "log_p", "log_q", "density", "log_ratio") else None
                if pos is None and sig is not None and not mparams and meth in ("sf", "sf_q", "log_p", "log_q",
                                                                                "density", "log_ratio"):
                    pos = [draw_method_argument("z", rng)]
                thunk = (lambda b=bound, a=pos: b(*a)) if pos is not None else (lambda b=bound, k=margs: b(**k))
                names_m = (list(sig.parameters) if sig is not None else []) + list(margs)
                names_m += ["z", "y", "x"] if pos is not None else []
                o, d, s, _ = run_one(thunk, names_m or [meth], mlabel, limit, check=_method_check(meth))
                records.append({"kind": "method", "target": mlabel, "outcome": o, "detail": d, "seconds": s,
                                "mb": LAST_MB[0], "wall": LAST_WALL[0],
                                "args": _describe(margs if pos is None else {"z": pos[0] if pos else None}),
                                "on": {"target": label, "args": records[0]["args"]}})  # the call that made obj
        return records

    return job


def _method_check(meth):
    def check(label, value):
        if meth in ("log_p", "log_q", "log_ratio", "log_density", "log_mgf", "sample", "expect", "losses", "range",
                    "round_off", "chernoff_tilt", "fft_tilt", "density"):
            nums = _numbers(value)
            return "NaN in the result" if any(math.isnan(x) for x in nums) else ""
        if meth in ("sf", "sf_q", "delta", "mass", "q_mass"):
            nums = _numbers(value)
            if any(math.isnan(x) for x in nums):
                return "NaN in the result"
            if any(not -1e-12 <= x <= 1.0 + 1e-12 for x in nums):
                return f"a probability outside [0, 1]: {[x for x in nums if not 0 <= x <= 1][:3]}"
            return ""
        if meth == "epsilon":
            nums = _numbers(value)
            return "" if all(x >= 0 for x in nums) else f"negative ε {min(nums)}"
        return ""

    return check


def _describe(arguments):
    out = {}
    for k, v in arguments.items():
        if isinstance(v, np.ndarray):
            out[k] = f"array{v.shape}"
        elif isinstance(v, (list, tuple)) and len(v) > 4:
            out[k] = f"{type(v).__name__}[{len(v)}]"
        elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > 10**20:
            out[k] = f"int ~2**{v.bit_length()}"
        else:
            out[k] = repr(v)[:40]
    return out


# composed calls: (name, a function of rng returning (invariant holds?, detail))
def _gaussian_delta_mp(eps, mu):
    """δ(ε) of the Gaussian mechanism with μ = Δ/σ in mpmath, at the current precision: Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ)."""
    import mpmath

    e, m = mpmath.mpf(eps), mpmath.mpf(mu)
    return mpmath.ncdf(m / 2 - e / m) - mpmath.exp(e) * mpmath.ncdf(-m / 2 - e / m)


def _round_trip(eps, d, back, exact):
    """ε → δ(ε) = ``d`` → ε(d) = ``back`` is right if ``back`` is within 1e-6 of ε (relative), or, where ε(δ) is
    ill-conditioned (δ near 1: dδ/dε ~ 1e-10, so one rounding of ``d`` moves ε by ~1e-4 relative), if it is an
    exact inverse of ``d`` up to rounding: δ(``back``) in mpmath (``exact``) within 4 ulps + 1e-9 relative of ``d``."""
    import mpmath

    if abs(back - eps) <= 1e-6 * max(eps, 1e-3):
        return True
    with mpmath.workdps(40):
        return abs(float(exact(back) - mpmath.mpf(d))) <= 4 * float(np.spacing(d)) + 1e-9 * d


def _composed_checks():
    import mpmath

    import dpnotes as dp
    from dpnotes import pld

    def gaussian_round_trip(rng):
        mu, eps = 10 ** rng.uniform(-3, 1.3), 10 ** rng.uniform(-3, 1.5)
        d = dp.delta_gaussian(eps, mu)
        if not 1e-290 < d < 1 - 1e-9:
            return True, ""
        back = dp.epsilon_gaussian(d, mu)
        exact = lambda e: _gaussian_delta_mp(e, mu)  # noqa: E731
        return _round_trip(eps, d, back, exact), f"ε {eps!r} → δ {d!r} → ε {back!r} (μ = {mu!r})"

    def gaussian_vs_mpmath(rng):
        mu = 10 ** rng.uniform(-12, 1)
        eps = mu * 10 ** rng.uniform(-2, 0.8)
        mpmath.mp.dps = 60
        exact = _gaussian_delta_mp(eps, mu)
        got = dp.delta_gaussian(eps, mu)
        return abs(got - float(exact)) <= 1e-9 * float(exact), f"δ({eps:g}; μ={mu:g}) = {got!r}, mpmath {exact}"

    def laplace_round_trip(rng):
        b, eps = 10 ** rng.uniform(-2, 2), 10 ** rng.uniform(-3, 1)
        d = dp.delta_laplace(eps, b)
        if not 1e-290 < d < 1 - 1e-9:
            return True, ""
        back = dp.epsilon_laplace(d, b)
        exact = lambda e: max(mpmath.mpf(0), 1 - mpmath.exp((mpmath.mpf(e) - 1 / mpmath.mpf(b)) / 2))  # noqa: E731
        return _round_trip(eps, d, back, exact), f"ε {eps!r} → δ {d!r} → ε {back!r} (b = {b!r})"

    def rdp_conversion(rng):
        sigma, delta = 10 ** rng.uniform(-0.5, 1.5), 10 ** rng.uniform(-12, -2)
        orders = dp.DEFAULT_ORDERS
        rho = dp.rdp_gaussian(orders, sigma) * int(rng.integers(1, 1000))
        eps = dp.epsilon_from_rdp(orders, rho, delta)
        back = dp.delta_from_rdp(orders, rho, eps)
        return back <= delta * (1 + 1e-6), f"δ {delta!r} → ε {eps!r} → δ {back!r}"

    def dpsgd_round_trip(rng):
        q, sigma, steps = 10 ** rng.uniform(-3, -1), 10 ** rng.uniform(-0.2, 1), int(10 ** rng.uniform(0, 4))
        delta = 10 ** rng.uniform(-10, -3)
        eps = dp.dpsgd_epsilon(q, sigma, steps, delta, route="rdp")
        back = dp.dpsgd_delta(q, sigma, steps, eps, route="rdp")
        return back <= delta * (1 + 1e-6), f"(q, σ, T) = ({q:g}, {sigma:g}, {steps}): δ {delta!r} → ε {eps!r} → δ {back!r}"

    def pld_brackets_gaussian(rng):
        sigma, k, eps = 10 ** rng.uniform(0, 1), int(rng.integers(1, 20)), float(rng.uniform(0, 3))
        up = pld.pld_gaussian(sigma).self_compose(k).delta(eps)
        lo = pld.pld_gaussian(sigma, pessimistic=False).self_compose(k).delta(eps)
        exact = pld.gaussian_delta_exact(eps, math.sqrt(k) / sigma)
        return lo <= exact <= up, f"σ {sigma:g}, k {k}, ε {eps:g}: {lo!r} ≤ {exact!r} ≤ {up!r}"

    def expressions_agree(rng):
        sigma, eps = 10 ** rng.uniform(-0.5, 0.7), float(rng.uniform(0, 4))
        loss = dp.privacy_loss_gaussian(sigma)
        exact = dp.delta_gaussian(eps, 1.0 / sigma)
        got = [dp.delta_sup_over_sets(loss, eps), dp.delta_tail_difference(loss, eps), dp.delta_tail_integral(loss, eps)]
        ok = all(abs(g - exact) <= 1e-7 * exact + 1e-15 for g in got) and dp.delta_tail_bound(loss, eps) >= exact
        return ok, f"σ {sigma:g}, ε {eps:g}: {got} vs {exact!r}"

    def composition_caps(rng):
        k = int(rng.integers(1, 50))
        eps, delta = rng.uniform(0, 2, k), rng.uniform(0, 1, k)
        e, d = dp.epsilon_delta_basic_composition(eps, delta)
        return 0 <= d <= 1 and math.isclose(d, min(float(np.sum(delta)), 1.0), rel_tol=1e-12), f"δ {d!r}"

    def bracket_contains(rng):
        sigma, k = 10 ** rng.uniform(0, 0.7), int(rng.integers(1, 30))
        delta = 10 ** rng.uniform(-8, -3)
        br = dp.dpsgd_epsilon_bracket(1.0, sigma, k, delta, rel_width=1e-2)
        exact = dp.epsilon_gaussian(delta, math.sqrt(k) / sigma)
        return br.lower <= exact * (1 + 1e-9) and exact <= br.upper * (1 + 1e-9), f"{br} vs exact {exact!r}"

    return [gaussian_round_trip, gaussian_vs_mpmath, laplace_round_trip, rdp_conversion, dpsgd_round_trip,
            pld_brackets_gaussian, expressions_agree, composition_caps, bracket_contains]


def composed_job(check, seeds, limit):
    def job():
        records = []
        for seed in seeds:
            rng = np.random.default_rng(seed)
            holder = {}

            def thunk():
                holder["result"] = check(rng)
                return None

            o, d, s, _ = run_one(thunk, [check.__name__], check.__name__, limit, check=lambda *_: "")
            if o == "value" and not holder["result"][0]:
                o, d = "silent wrong value", holder["result"][1][:200]
            records.append({"kind": "composed", "target": check.__name__, "outcome": o, "detail": d, "seconds": s,
                            "mb": LAST_MB[0], "wall": LAST_WALL[0]})
        return records

    return job


def ladder_rungs(arguments, fn):
    """(parameter, [values]) of every size argument: ints and arrays doubled, cost-driving floats halved."""
    sig = inspect.signature(fn)
    bound = sig.bind_partial(**arguments)
    bound.apply_defaults()
    out = []
    for p, v in bound.arguments.items():
        if isinstance(v, bool) or p in ("seed", "rng", "random_state"):
            continue
        if isinstance(v, (int, np.integer)) and int(v) >= 1:
            out.append((p, [int(v) * 4**k for k in range(1, 21)]))
        elif isinstance(v, float) and SMALL_DRIVES_COST.search(p) and 0 < v < 1:
            out.append((p, [v * 100.0 ** -k for k in range(1, 16)]))
        elif isinstance(v, (list, np.ndarray)) and np.ndim(v) >= 1 and np.size(v) >= 1:
            try:
                arr = np.asarray(v, dtype=float)
            except (TypeError, ValueError):
                continue
            out.append((p, [("resize", arr, arr.shape[0] * 4**k) for k in range(1, 13)]))
    return out


def ladder_step_job(module_name, name, arguments, param, value, limit):
    def job():
        fn = getattr(importlib.import_module(module_name), name)
        args = dict(arguments)
        if isinstance(value, tuple) and value and value[0] == "resize":
            _, arr, n = value
            args[param] = np.resize(arr, (n, *arr.shape[1:]))
            shown = f"length {n}"
        else:
            args[param] = value
            shown = repr(value)
        o, d, s, _ = run_one(lambda: fn(**args), list(inspect.signature(fn).parameters), f"{module_name}.{name}",
                             limit)
        return [{"kind": "ladder", "target": f"{module_name}.{name}", "param": param, "value": shown, "outcome": o,
                 "detail": d, "seconds": s, "mb": LAST_MB[0], "wall": LAST_WALL[0]}]

    return job


def ladders(calls, limit, memory_gib, parallel, deadline=math.inf):
    """Run every ladder rung by rung (each ladder stops at its first refusal, error or over-limit rung);
    no new rung starts after ``deadline`` (time.time()), and the unfinished ladders are counted."""
    queues = []
    for module_name, name, arguments in calls:
        fn = getattr(importlib.import_module(module_name), name)
        for param, values in ladder_rungs(arguments, fn):
            queues.append([module_name, name, arguments, param, list(values)])
    records = []
    active = queues
    while active and time.time() < deadline:
        batch = []
        for q in active:
            value = q[4].pop(0)
            batch.append(({"kind": "ladder", "target": f"{q[0]}.{q[1]}", "param": q[3]},
                          ladder_step_job(q[0], q[1], q[2], q[3], value, limit), q))
        by_desc = {}
        jobs = []
        for desc, job, q in batch:
            key = (desc["target"], desc["param"])
            by_desc[key] = q
            jobs.append((desc, job))
        nxt = []
        print(f"  … ladders: {len(jobs)} rungs", file=sys.stderr, flush=True)
        for desc, recs in run_jobs(jobs, limit, memory_gib, parallel):
            records.extend(recs)
            q = by_desc[(desc["target"], desc["param"])]
            if recs[-1]["outcome"].startswith("value") and q[4]:
                nxt.append(q)
        active = nxt
    if active:
        print(f"  … {len(active)} ladders unfinished at the time budget", file=sys.stderr, flush=True)
        records.append({"kind": "ladder", "target": "(budget)", "param": "", "value": "", "outcome": "unfinished",
                        "detail": f"{len(active)} ladders", "seconds": 0.0, "mb": 0.0})
    return records


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=6000)
    ap.add_argument("--methods", type=int, default=6, help="method calls per returned object")
    ap.add_argument("--composed", type=int, default=100, help="draws per composed check")
    ap.add_argument("--no-ladders", action="store_true")
    ap.add_argument("--limit", type=float, default=10.0)
    ap.add_argument("--memory", type=float, default=2.0, help="GiB")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", default=None, help="a function name (substring) to restrict the random calls to")
    ap.add_argument("--json", default=None)
    ap.add_argument("--budget", type=float, default=math.inf, help="seconds after which no new ladder rung starts")
    ap.add_argument("--show", type=int, default=40)
    opts = ap.parse_args(argv)
    t0 = time.time()
    load0 = os.getloadavg()
    calls = base_calls()
    if opts.only:
        calls = [c for c in calls if opts.only in f"{c[0]}.{c[1]}"]
    rng = np.random.default_rng(opts.seed)
    jobs = []
    per_job = 20  # random calls per child process (each call's memory is the child's peak)
    drawn = []
    for i in range(opts.calls):
        module_name, name, arguments = calls[int(rng.integers(len(calls)))]
        args = dict(arguments)
        keys = [k for k, v in args.items() if not isinstance(v, (str, bool)) and not callable(v)]
        for k in rng.choice(keys, size=min(len(keys), int(rng.integers(1, 4))), replace=False) if keys else []:
            args[k] = draw_argument(args[k], rng)
        drawn.append((module_name, name, args, int(rng.integers(2**31))))
    for start in range(0, len(drawn), per_job):
        chunk = drawn[start:start + per_job]

        def job(chunk=chunk):
            out = []
            for module_name, name, args, seed in chunk:
                try:
                    out.extend(call_job(module_name, name, args, seed, opts.methods, opts.limit)())
                except Exception as err:  # noqa: BLE001  (outside a call: e.g. a property read while listing methods)
                    out.append({"kind": "call", "target": f"{module_name}.{name}", "outcome": "other error",
                                "detail": f"outside the call (listing methods): {type(err).__name__}: {err}"[:200],
                                "seconds": 0.0, "mb": 0.0, "args": _describe(args)})
            return out

        jobs.append(({"kind": "call", "target": "batch"}, job))
    checks = _composed_checks()
    for check in checks:
        seeds = [opts.seed * 100003 + k for k in range(opts.composed)]
        for start in range(0, len(seeds), 25):
            jobs.append(({"kind": "composed", "target": check.__name__},
                         composed_job(check, seeds[start:start + 25], opts.limit)))
    records = []
    for k, (desc, recs) in enumerate(run_jobs(jobs, opts.limit * 20, opts.memory, opts.jobs)):
        records.extend(recs)
        if k % 25 == 0:
            print(f"  … {len(records)} calls, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    if not opts.no_ladders:
        records.extend(ladders(calls, opts.limit, opts.memory, opts.jobs, deadline=t0 + opts.budget))
    if opts.json:
        Path(opts.json).write_text(json.dumps(records, indent=0, default=str))
    counts = collections.Counter((r["kind"], r["outcome"]) for r in records)
    total = collections.Counter(r["kind"] for r in records)
    print(f"load average (1 min) at the start {load0[0]:.1f}, at the end {os.getloadavg()[0]:.1f}; times are CPU "
          f"seconds of each call (getrusage), limit {opts.limit:g} s")
    print(f"{len(records)} calls in {time.time() - t0:.0f} s (seed {opts.seed}): " +
          ", ".join(f"{k} {n}" for k, n in total.items()))
    for (kind, outcome), n in sorted(counts.items()):
        print(f"  {kind:9s} {outcome:20s} {n}")
    overall = collections.Counter(r["outcome"] for r in records)
    print("defects: " + ", ".join(f"{d} {overall.get(d, 0)}" for d in DEFECTS))
    rungs = [r for r in records if r["kind"] == "ladder"]
    if rungs:
        print("slowest ladder rungs:")
        for r in sorted(rungs, key=lambda r: -r["seconds"])[:8]:
            print(f"  {r['seconds']:6.2f} s {r.get('mb', 0):7.0f} MB  {r['target']}({r.get('param')}={r.get('value')}): "
                  f"{r['outcome']}")
        print("largest ladder rungs:")
        for r in sorted(rungs, key=lambda r: -r.get("mb", 0))[:8]:
            print(f"  {r['seconds']:6.2f} s {r.get('mb', 0):7.0f} MB  {r['target']}({r.get('param')}={r.get('value')}): "
                  f"{r['outcome']}")
    defects = [r for r in records if r["outcome"] in DEFECTS]
    for r in defects[: opts.show]:
        where = f"({r.get('param')}={r.get('value')})" if r["kind"] == "ladder" else str(r.get("args", ""))[:160]
        on = f" on {r['on']['target']}({str(r['on']['args'])[:160]})" if "on" in r else ""
        print(f"{r['outcome']:18s} {r['kind']:8s} {r['target']}{where}{on}: {r['detail'][:200]}")
    return 1 if defects else 0


if __name__ == "__main__":
    sys.exit(main())
