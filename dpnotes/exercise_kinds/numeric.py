"""Exercises answered by one number: the spec, its checker, and the student copy's checker.

The verdict, in this order: *right* if the value matches the reference at step ``rtol``
(see :mod:`.tokens`: within ``rtol`` always, beyond ``2·rtol`` never); the *slip* a value
matches at step ``max(rtol, slip_tol)`` (a hand-rounded slipped value is still named);
*close* if it matches at step ``close``; *wrong* otherwise. The instructor's checker and
the student copy's apply this one rule (:func:`numeric_verdict`), to tokens in the clear
or to their salted hashes, so they agree on every input.
"""

import math
from dataclasses import dataclass
from typing import Callable, ClassVar

import numpy as np

from .spec import Spec, short_repr
from .tokens import NUMERIC_ITERATIONS, candidate_tokens, salted_hash, token
from .verdict import Verdict

__all__ = ["Numeric", "numeric_verdict", "StudentNumeric", "as_number"]


def as_number(value):
    """The learner's value as a float, or a message saying why it is not one."""
    if value is None:
        return None, "no answer yet: replace None with your value."
    if isinstance(value, (bool, np.bool_)):
        return None, f"expected a number, got {value!r}"
    if isinstance(value, str):
        try:
            return float(value.strip().replace("−", "-")), None
        except ValueError:
            return None, f"expected a number, got {short_repr(value)}"
    try:
        if isinstance(value, np.ndarray):
            if value.size != 1 or value.dtype.kind not in "iuf":
                raise TypeError
            value = value.reshape(()).item()
        return float(value), None
    except (TypeError, ValueError, OverflowError):
        return None, f"expected a number, got {short_repr(value)}"


def numeric_verdict(key, value, matcher, *, hint, close):
    """The verdict on a numeric answer; ``matcher`` knows the reference (in clear or hashed).

    ``matcher.steps`` maps "right", "close" and "slip" to their steps;
    ``matcher.matches(level, candidates)`` says whether the reference's token at that
    level is among the learner's candidate tokens; ``matcher.slip(candidates)`` returns the
    (name, message) of the first slip whose token is among them, or ``None``.
    """
    got, problem = as_number(value)
    if problem:
        return Verdict(key, "wrong", problem)
    if not math.isfinite(got):
        return Verdict(key, "wrong", f"the answer is a finite number. {hint}".strip())
    steps = matcher.steps
    if matcher.matches("right", candidate_tokens(got, steps["right"])):
        return Verdict(key, "right", "correct.")
    slip = matcher.slip(candidate_tokens(got, steps["slip"]))
    if slip is not None:
        name, message = slip
        return Verdict(key, "wrong", f"not yet: {message}", slip=name)
    if matcher.matches("close", candidate_tokens(got, steps["close"])):
        return Verdict(key, "close", f"close (within about {100 * close:.0f} %), but not exact; if you rounded "
                                     f"along the way, keep more digits. {hint}".strip())
    return Verdict(key, "wrong", f"not yet. {hint}".strip())


class _ClearMatcher:
    """Matches against tokens of the reference computed in the clear (instructor side)."""

    def __init__(self, steps, answer, slips):
        self.steps = steps
        self._answer = {level: token(answer, step) for level, step in steps.items()}
        self._slips = [(s.name, s.message, token(v, steps["slip"])) for s, v in slips]

    def matches(self, level, candidates):
        return self._answer[level] in candidates

    def slip(self, candidates):
        for name, message, tok in self._slips:
            if tok in candidates:
                return name, message
        return None


@dataclass(frozen=True, kw_only=True)
class Numeric(Spec):
    """An exercise whose answer is one number, computed by the package when checked.

    ``answer()`` returns the reference; each slip's ``produce()`` returns the value a
    common slip leads to (log₁₀ for ln, σ for σ², a missing composition count…).

    Examples
    --------
    >>> from dpnotes.exercise_kinds import Slip
    >>> ex = Numeric(key="gauss", chapter="01-renyi-gaussian", stars=1, answer=lambda: 3 / 8,
    ...              hint="Use the Gaussian's closed form.",
    ...              slips=[Slip("sigma-for-sigma2", "σ where σ² belongs.", lambda: 3 / 4)])
    >>> ex.check(0.375).status, ex.check(0.38).status, ex.check(0.75).slip
    ('right', 'close', 'sigma-for-sigma2')
    """

    kind: ClassVar[str] = "numeric"

    answer: Callable[[], float]
    rtol: float = 1e-6
    close: float = 0.05
    slip_tol: float = 1e-3

    def __post_init__(self):
        super().__post_init__()
        if not callable(self.answer):
            raise TypeError(f"{self.key}: answer must be a callable returning the reference value")
        if not 0 < self.rtol < self.close < 1:
            raise ValueError(f"{self.key}: need 0 < rtol < close < 1 (got rtol={self.rtol}, close={self.close})")
        if not 0 < self.slip_tol < 1:
            raise ValueError(f"{self.key}: slip_tol must be in (0, 1) (got {self.slip_tol})")
        for slip in self.slips:
            if not callable(slip.produce):
                raise TypeError(f"{self.key}: slip {slip.name} must produce its value with a callable")

    @property
    def steps(self):
        return {"right": self.rtol, "close": self.close, "slip": max(self.rtol, self.slip_tol)}

    def reference(self):
        """The reference value (computed once)."""
        return self._cached("reference", lambda: _finite(self.answer(), self.key, "answer"))

    def slip_values(self):
        """(slip, value) pairs (computed once)."""
        return self._cached("slips", lambda: [(s, _finite(s.produce(), self.key, f"slip {s.name}"))
                                              for s in self.slips])

    def _matcher(self):
        return self._cached("matcher", lambda: _ClearMatcher(self.steps, self.reference(), self.slip_values()))

    def check(self, value):
        return numeric_verdict(self.key, value, self._matcher(), hint=self.hint, close=self.close)

    def validate(self):
        """Raise ``ValueError`` if a slip cannot be told from the answer or from another slip."""
        ref, slips = self.reference(), self.slip_values()
        sstep = self.steps["slip"]
        for slip, v in slips:
            if _near(v, ref, 2 * sstep):
                raise ValueError(f"{self.key}: slip {slip.name} gives {v!r}, too close to the answer to be told apart")
        for i, (a, va) in enumerate(slips):
            for b, vb in slips[i + 1:]:
                if _near(va, vb, 2 * sstep):
                    raise ValueError(f"{self.key}: slips {a.name} and {b.name} give the same value")

    def student_record(self, salt):
        self.validate()
        steps, ref = self.steps, self.reference()

        def h(label, value, step):
            return salted_hash(salt, self.key, label, token(value, step), NUMERIC_ITERATIONS)

        return {
            "kind": self.kind, "salt": salt, "iterations": NUMERIC_ITERATIONS, "steps": steps,
            "hint": self.hint, "close": self.close,
            "answer": {level: h(level, ref, step) for level, step in steps.items() if level != "slip"},
            "slips": [{"name": s.name, "message": s.message, "hash": h("slip", v, steps["slip"])}
                      for s, v in self.slip_values()],
        }


def _finite(value, key, what):
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{key}: {what} is not finite ({v!r})")
    return v


def _near(a, b, step):
    if a == 0 or b == 0:
        return a == b
    return (a > 0) == (b > 0) and abs(math.log(abs(a) / abs(b))) < step


class _HashedMatcher:
    """Matches the learner's candidate tokens against the stored salted hashes."""

    def __init__(self, key, record):
        self.key, self.steps = key, record["steps"]
        self._salt, self._iterations = record["salt"], record["iterations"]
        self._answer, self._slips = record["answer"], record["slips"]

    def _hashes(self, label, candidates):
        return {salted_hash(self._salt, self.key, label, c, self._iterations) for c in candidates}

    def matches(self, level, candidates):
        return self._answer[level] in self._hashes(level, candidates)

    def slip(self, candidates):
        if not self._slips:
            return None
        hashes = self._hashes("slip", candidates)
        for s in self._slips:
            if s["hash"] in hashes:
                return s["name"], s["message"]
        return None


class StudentNumeric:
    """The student copy's checker of a numeric (or explore) exercise, from its record."""

    def __init__(self, key, record):
        self.key, self.record = key, record
        self._matcher = _HashedMatcher(key, record)

    def check(self, value):
        return numeric_verdict(self.key, value, self._matcher, hint=self.record["hint"], close=self.record["close"])
