"""An answer submitted as data: what an autograded notebook emits, and how the grader reads it back.

In an nbgrader assignment (``make assignments``) the hidden part of a test cell only calls
:func:`submit`: it shows the learner's answer as a display output of the media type
:data:`MEDIA_TYPE`, a small JSON document keyed by the exercise. The score is computed later,
outside the learner's kernel, by the grader (``tools/autograde_scoring.py``, run inside
``nbgrader autograde``), which reads that document with :func:`read_payload` and checks the
value with the package's own checker. Whatever the learner's code does to the kernel, it can
at most change the value submitted, which must then be right.

What is emitted, by kind of answer:

- a number, a string (a formula, a written answer), ``None``: the value itself;
- a sympy expression: its text (``str``), which the formula checker reads as a string;
- a one-element or small numeric array: its entries and dtype;
- a function (code exercises): its outputs on the exercise's test inputs (the inputs are
  public in the student copy), each as data or as the exception it raised, computed under a
  time limit; the function itself never leaves the kernel.

This module imports no chapter and holds no answer: it ships in the student copy, whose
package is the only one the grading kernel can import.
"""

import json
import math

import numpy as np

from . import limits
from .limits import TimeUp

__all__ = ["MEDIA_TYPE", "MAX_PAYLOAD", "answer_payload", "submit", "read_payload", "Replay"]

#: the media type of an emitted answer
MEDIA_TYPE = "application/vnd.dpnotes.answer+json"
#: largest payload the grader reads (characters of JSON); beyond it the answer scores 0
MAX_PAYLOAD = 2_000_000
_FLOAT_KINDS = "biuf"


def _data(value, depth=0):
    """``value`` as JSON-ready data (numbers, strings, lists, tagged arrays and tuples); TypeError otherwise."""
    if depth > 6:
        raise TypeError("nested too deeply")
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return int(value) if abs(int(value)) < 2 ** 63 else float(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        return v if math.isfinite(v) else {"__float__": repr(v)}
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in _FLOAT_KINDS or value.size > 100_000:
            raise TypeError(f"an array of dtype {value.dtype} and size {value.size}")
        return {"__array__": [_data(v, depth + 1) for v in value.astype(float).ravel().tolist()],
                "shape": list(value.shape)}
    if isinstance(value, (list, tuple)):
        if len(value) > 100_000:
            raise TypeError("a sequence of more than 100000 items")
        items = [_data(v, depth + 1) for v in value]
        return {"__tuple__": items} if isinstance(value, tuple) else items
    if type(value).__module__.split(".")[0] == "sympy":
        return {"__expr__": str(value)}
    try:  # other numbers (fractions, mpmath, 0-d arrays of other types)
        return _data(float(value), depth + 1)
    except (TypeError, ValueError, OverflowError) as err:
        raise TypeError(f"a {type(value).__name__}") from err


def _value(data, depth=0):
    """Inverse of :func:`_data` on untrusted input: only numbers, strings, lists, numeric arrays."""
    if depth > 8:
        raise ValueError("nested too deeply")
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [_value(v, depth + 1) for v in data]
    if isinstance(data, dict):
        if set(data) == {"__float__"} and data["__float__"] in ("inf", "-inf", "nan"):
            return float(data["__float__"])
        if set(data) == {"__tuple__"} and isinstance(data["__tuple__"], list):
            return tuple(_value(v, depth + 1) for v in data["__tuple__"])
        if set(data) == {"__expr__"} and isinstance(data["__expr__"], str):
            return data["__expr__"]
        if set(data) == {"__array__", "shape"} and isinstance(data["__array__"], list):
            flat = [_value(v, depth + 1) for v in data["__array__"]]
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in flat):
                raise ValueError("an array of non-numbers")
            shape = data["shape"]
            if not (isinstance(shape, list) and all(isinstance(n, int) and 0 <= n <= 100_000 for n in shape)
                    and len(shape) <= 4 and math.prod(shape) == len(flat)):
                raise ValueError("an array whose shape does not fit its entries")
            return np.array(flat, dtype=float).reshape(shape)
    raise ValueError(f"unexpected data {str(data)[:60]!r}")


def _case_inputs(exercise):
    """(function name, test inputs, time limit) of a code exercise from the registry of this kernel."""
    record = getattr(exercise, "record", None)
    if record is not None:  # the student copy's checker
        from .code import decode

        return record["function"], decode(record["cases"]), float(record["time_limit"])
    return exercise.function, exercise.cases(), float(exercise.time_limit)


def answer_payload(key, value, exercise=None):
    """The JSON document :func:`submit` shows for ``value`` (``exercise``: the kernel's checker of ``key``)."""
    import copy

    if callable(value) and not isinstance(value, type) and exercise is not None \
            and (getattr(exercise, "kind", None) == "code" or getattr(exercise, "record", {}).get("kind") == "code"):
        function, cases, limit = _case_inputs(exercise)
        outputs = []
        try:
            with limits.time_limit(limit):
                for case in cases:
                    try:
                        out = value(**copy.deepcopy(case))
                    except TimeUp:
                        raise
                    except Exception as err:  # the learner's bug, reported as such
                        outputs.append({"error": f"{type(err).__name__}: {str(err)[:120]}"})
                        continue
                    try:
                        outputs.append({"value": _data(out)})
                    except TypeError as err:
                        outputs.append({"error": f"TypeError: returned {err}"})
            complete = True
        except TimeUp:
            complete = False
        return {"key": key, "kind": "outputs", "function": function, "outputs": outputs, "complete": complete,
                "time_limit": limit}
    try:
        return {"key": key, "kind": "value", "value": _data(value)}
    except TypeError as err:
        return {"key": key, "kind": "unreadable", "type": str(err)[:80]}


def submit(key, value, exercises):
    """Show the learner's answer to exercise ``key`` as data (the hidden part of an autograded test cell).

    ``exercises`` is the kernel's registry (``dpnotes.exercises.EXERCISES``), read only for a code
    exercise's test inputs and time limit.
    """
    from IPython.display import display

    exercise = exercises[key] if key in exercises else None
    display({MEDIA_TYPE: answer_payload(key, value, exercise), "text/plain": f"answer to {key} submitted"},
            raw=True)


class Replay:
    """A stand-in for a learner's function: returns, call after call, the outputs it produced in the kernel.

    The grader passes it to the package's code checker, which calls it on the same inputs in
    the same order; a recorded exception is raised again as a ``RuntimeError`` carrying its text.
    """

    def __init__(self, outputs):
        self._outputs, self._i = list(outputs), 0

    def __call__(self, **kwargs):
        if self._i >= len(self._outputs):
            raise RuntimeError("no output recorded for this input")
        out = self._outputs[self._i]
        self._i += 1
        if "error" in out:
            raise RuntimeError(str(out["error"])[:160])
        return out["value"]


def read_payload(text, key):
    """The answer in an emitted document, as the checker takes it: ``(answer, problem)``.

    ``text`` is the JSON (a string) or the parsed document. ``answer`` is a value, or a
    :class:`Replay` for a function's outputs; ``problem`` is ``None`` or why nothing can be
    graded (wrong key, unreadable data, a function stopped by its time limit).
    """
    try:
        doc = json.loads(text) if isinstance(text, str) else json.loads(json.dumps(text))
    except (ValueError, TypeError, RecursionError):
        return None, "the submitted answer is not readable data"
    if not isinstance(doc, dict) or doc.get("key") != key:
        return None, "no answer was submitted for this exercise"
    try:
        if doc.get("kind") == "value":
            return _value(doc.get("value")), None
        if doc.get("kind") == "outputs":
            if doc.get("complete") is not True:
                return None, (f"your {doc.get('function', 'function')} took longer than the time limit on the "
                              "test inputs; is there a loop that does not end?")
            outputs = doc.get("outputs")
            if not isinstance(outputs, list):
                raise ValueError("outputs")
            clean = []
            for out in outputs:
                if isinstance(out, dict) and set(out) == {"error"} and isinstance(out["error"], str):
                    clean.append({"error": out["error"]})
                elif isinstance(out, dict) and set(out) == {"value"}:
                    clean.append({"value": _value(out["value"])})
                else:
                    raise ValueError("output")
            return Replay(clean), None
        if doc.get("kind") == "unreadable":
            return None, f"the answer is {str(doc.get('type'))[:80]}, which cannot be graded"
    except (ValueError, TypeError, RecursionError):
        pass
    return None, "the submitted answer is not readable data"
