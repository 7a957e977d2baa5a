"""Exercises answered by a function: property tests against the package's own function.

The learner's function is called on a fixed list of inputs (the spec's edge cases, then
``n_cases`` drawn by its input generator from a generator seeded by the key), and each
output is compared with the package function named by ``reference`` (public in the student
copy as well). The first input where they differ, or where the function raises, is
reported; if every output equals what a common slip produces (its outputs are stored, not
its code), the slip is named. Calls run under a time limit.

The student copy holds the inputs, the name of the package function and the slips'
outputs: no reference implementation.
"""

import copy
import hashlib
import importlib
import json
from dataclasses import dataclass, field
from typing import Callable, ClassVar, Mapping

import numpy as np

from . import limits
from .limits import TimeUp
from .spec import Spec, short_repr
from .verdict import Verdict

__all__ = ["Code", "code_verdict", "StudentCode", "encode", "decode"]


# ----------------------------------------------------------------------------- inputs as JSON


def encode(value):
    """A JSON-ready copy of an input or output (arrays and tuples tagged, floats exact)."""
    if isinstance(value, np.ndarray):
        return {"__array__": value.tolist(), "dtype": str(value.dtype)}
    if isinstance(value, tuple):
        return {"__tuple__": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    raise TypeError(f"cannot store {type(value).__name__} as an input")


def decode(value):
    """Inverse of :func:`encode`."""
    if isinstance(value, dict):
        if "__array__" in value:
            return np.array(value["__array__"], dtype=value["dtype"])
        if "__tuple__" in value:
            return tuple(decode(v) for v in value["__tuple__"])
        return {k: decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [decode(v) for v in value]
    return value


def _describe(value):
    if isinstance(value, np.ndarray) or isinstance(value, (list, tuple)) and len(value) > 0:
        try:
            return np.array2string(np.asarray(value, dtype=float), precision=4, separator=", ", threshold=12)
        except (TypeError, ValueError):
            return short_repr(value)
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    return short_repr(value)


def describe_case(case):
    return ", ".join(f"{k}={_describe(v)}" for k, v in case.items())


# ----------------------------------------------------------------------------- running under a limit


def _same(out, expected, rtol, atol):
    """Whether ``out`` equals ``expected`` within the tolerances (a one-element array, list or tuple
    counts as the number it holds)."""
    try:
        a = np.asarray(out, dtype=float)
    except (TypeError, ValueError):
        return False
    b = np.asarray(expected, dtype=float)
    if b.shape == () and a.size == 1:
        a = a.reshape(())
    if a.shape != b.shape:
        return False
    both_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
    return bool(np.all(both_inf | np.isclose(a, b, rtol=rtol, atol=atol)))


def import_reference(path):
    """The package function named ``"dpnotes.module:function"``."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def code_verdict(key, value, *, function, cases, reference, argmap, slips, rtol, atol, time_limit, hint):
    """The verdict on a learner's function.

    ``cases`` are keyword-argument dicts; ``reference`` the package function (called with the
    arguments renamed by ``argmap``); ``slips`` a list of (name, message, outputs per case).
    """
    if value is None:
        return Verdict(key, "wrong", f"no answer yet: define {function} and pass the function itself.")
    if not callable(value):
        return Verdict(key, "wrong", f"expected the function {function}, got {short_repr(value)}")
    outputs, first_bad = [], None
    try:
        with limits.time_limit(time_limit):
            for i, case in enumerate(cases):
                try:
                    out = value(**copy.deepcopy(case))
                except TimeUp:
                    raise
                except Exception as err:  # the learner's bug, reported with the input
                    return Verdict(key, "wrong", f"your {function} raised {type(err).__name__}: {str(err)[:120]} "
                                                 f"at input {describe_case(case)}.")
                expected = reference(**{argmap.get(k, k): v for k, v in copy.deepcopy(case).items()})
                outputs.append(out)
                if first_bad is None and not _same(out, expected, rtol, atol):
                    first_bad = (i, out, expected)
    except TimeUp:
        return Verdict(key, "wrong", f"your {function} took longer than {time_limit:g} s on {len(cases)} inputs "
                                     f"(stopped after {len(outputs)}); is there a loop that does not end?")
    if first_bad is None:
        return Verdict(key, "right", f"correct: it agrees with the package on all {len(cases)} test inputs.")
    i, out, expected = first_bad
    if out is None:  # an unfinished stub (``...`` or no return): say so, never the package's value
        return Verdict(key, "wrong", f"your function returned None: finish it (it has no return value yet). "
                                     f"{hint}".strip())
    where = f"input {describe_case(cases[i])}"
    for name, message, slip_outputs in slips:
        if all(_same(o, s, rtol, atol) for o, s in zip(outputs, slip_outputs)):
            return Verdict(key, "wrong", f"not yet: {message} (first failing {where})", slip=name)
    return Verdict(key, "wrong", f"not yet: at {where} your {function} returned {_describe(out)}; the package "
                                 f"gives {_describe(expected)}. {hint}".strip())


@dataclass(frozen=True, kw_only=True)
class Code(Spec):
    """An exercise answered by a function, tested against a package function.

    ``function`` is the name the learner defines, ``signature`` its parameters as text
    ("(p, q, eps)"); ``reference`` names the package function ("dpnotes.module:name"),
    called with the learner's arguments renamed by ``argmap``; ``inputs(rng)`` draws one
    case (a dict of keyword arguments) and ``edge_cases`` are tried first; a slip's
    ``produce`` takes the learner's arguments and returns the slipped output.

    Examples
    --------
    >>> import numpy as np
    >>> ex = Code(key="tv", chapter="04-hypothesis-testing", stars=1, function="tv", signature="(p, q)",
    ...           reference="dpnotes.privacy_loss:hockey_stick_divergence", fixed={"epsilon": 0.0},
    ...           inputs=lambda rng: {"p": rng.dirichlet(np.ones(3)), "q": rng.dirichlet(np.ones(3))},
    ...           hint="Sum the positive parts.")
    >>> ex.check(lambda p, q: 0.5 * np.abs(p - q).sum()).status
    'right'
    >>> ex.check(lambda p, q: np.abs(p - q).sum()).message.startswith("not yet: at input p=[")
    True
    """

    kind: ClassVar[str] = "code"

    function: str
    signature: str
    reference: str
    inputs: Callable
    argmap: Mapping = field(default_factory=dict)
    fixed: Mapping = field(default_factory=dict)
    edge_cases: tuple = ()
    n_cases: int = 30
    rtol: float = 1e-9
    atol: float = 1e-12
    time_limit: float = 10.0

    def __post_init__(self):
        super().__post_init__()
        if not self.function.isidentifier():
            raise ValueError(f"{self.key}: function must be a Python name (got {self.function!r})")
        module, sep, name = self.reference.partition(":")
        if not (sep and module.split(".")[0] == "dpnotes" and not module.startswith("dpnotes.chapter_exercises")
                and name.isidentifier()):
            raise ValueError(f"{self.key}: reference must name a public package function as 'dpnotes.module:name', "
                             f"outside dpnotes.chapter_exercises (got {self.reference!r})")
        if not callable(self.inputs):
            raise TypeError(f"{self.key}: inputs must be a callable drawing one case from a numpy Generator")
        if not isinstance(self.n_cases, int) or not 1 <= self.n_cases <= 200:
            raise ValueError(f"{self.key}: n_cases must be an integer in [1, 200] (got {self.n_cases!r})")
        if not 0 < self.time_limit <= 60:
            raise ValueError(f"{self.key}: time_limit must be in (0, 60] seconds (got {self.time_limit!r})")
        for slip in self.slips:
            if not callable(slip.produce):
                raise TypeError(f"{self.key}: slip {slip.name} must produce its output with a callable")
        object.__setattr__(self, "argmap", dict(self.argmap))
        object.__setattr__(self, "fixed", dict(self.fixed))
        object.__setattr__(self, "edge_cases", tuple(self.edge_cases))

    def reference_function(self):
        """The package function, with the fixed arguments bound."""
        fn = import_reference(self.reference)
        return (lambda **kw: fn(**kw, **self.fixed)) if self.fixed else fn

    def cases(self):
        """The inputs, edge cases first (as they are stored in the student copy)."""
        def build():
            rng = np.random.default_rng(int.from_bytes(hashlib.sha256(self.key.encode()).digest()[:8], "big"))
            raw = list(self.edge_cases) + [self.inputs(rng) for _ in range(self.n_cases)]
            return decode(json.loads(json.dumps(encode(raw))))
        return self._cached("cases", build)

    def slip_outputs(self):
        return self._cached("slips", lambda: [(s.name, s.message, [s.produce(**copy.deepcopy(c)) for c in self.cases()])
                                              for s in self.slips])

    def check(self, value):
        return code_verdict(self.key, value, function=self.function, cases=self.cases(),
                            reference=self.reference_function(), argmap=self.argmap, slips=self.slip_outputs(),
                            rtol=self.rtol, atol=self.atol, time_limit=self.time_limit, hint=self.hint)

    def validate(self):
        """Raise ``ValueError`` if a slip agrees with the package on every input."""
        ref = self.reference_function()
        expected = [ref(**{self.argmap.get(k, k): v for k, v in copy.deepcopy(c).items()}) for c in self.cases()]
        for name, _, outputs in self.slip_outputs():
            if all(_same(o, e, self.rtol, self.atol) for o, e in zip(outputs, expected)):
                raise ValueError(f"{self.key}: slip {name} agrees with the package on every input")

    def student_record(self, salt):
        self.validate()
        return {
            "kind": self.kind, "hint": self.hint, "function": self.function, "signature": self.signature,
            "reference": self.reference, "argmap": self.argmap, "fixed": encode(self.fixed),
            "cases": encode(self.cases()), "rtol": self.rtol, "atol": self.atol, "time_limit": self.time_limit,
            "slips": [{"name": n, "message": m, "outputs": encode([np.asarray(o) for o in outs])}
                      for n, m, outs in self.slip_outputs()],
        }


class StudentCode:
    """The student copy's checker of a code exercise, from its record."""

    def __init__(self, key, record):
        self.key, self.record = key, record
        self._cases = decode(record["cases"])
        self._slips = [(s["name"], s["message"], decode(s["outputs"])) for s in record["slips"]]

    def check(self, value):
        r = self.record
        fn, fixed = import_reference(r["reference"]), decode(r["fixed"])
        reference = (lambda **kw: fn(**kw, **fixed)) if fixed else fn
        return code_verdict(self.key, value, function=r["function"], cases=self._cases, reference=reference,
                            argmap=r["argmap"], slips=self._slips, rtol=r["rtol"], atol=r["atol"],
                            time_limit=r["time_limit"], hint=r["hint"])


