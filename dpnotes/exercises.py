"""Exercises that check themselves: right, close (with a hint), or wrong.

The expected value is computed by the package when the learner checks, so the
notebook never prints it; solutions live in collapsed dropdowns in the book.
"""

from dataclasses import dataclass
from typing import Callable

import numpy as np

__all__ = ["Exercise", "Verdict", "check", "EXERCISES"]

EXERCISES = {}


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check: ``status`` is "right", "close" or "wrong"."""

    exercise: str
    status: str
    message: str

    def __repr__(self):
        mark = {"right": "✓", "close": "≈", "wrong": "✗"}[self.status]
        return f"{mark} {self.exercise}: {self.message}"

    def _repr_html_(self):
        color = {"right": "#2e7d32", "close": "#ef6c00", "wrong": "#c62828"}[self.status]
        return f'<p style="color:{color};font-weight:600">{self!r}</p>'


@dataclass(frozen=True)
class Exercise:
    """An exercise with a numeric answer.

    ``answer`` computes the expected value from the package; ``rtol`` is the
    tolerance for "right", ``close`` the (looser) one for "close".
    """

    key: str
    answer: Callable[[], float]
    hint: str
    rtol: float = 1e-6
    close: float = 0.05

    def __post_init__(self):
        EXERCISES[self.key] = self

    def check(self, value):
        if value is None:
            return Verdict(self.key, "wrong", "no answer yet: replace None with your value.")
        try:
            got = float(value)
        except (TypeError, ValueError):
            return Verdict(self.key, "wrong", f"expected a number, got {value!r}")
        expected = float(self.answer())
        if not np.isfinite(got):
            return Verdict(self.key, "wrong", "the answer is a finite number. " + self.hint)
        err = abs(got - expected) / max(abs(expected), 1e-300)
        if err <= self.rtol:
            return Verdict(self.key, "right", "correct.")
        if err <= self.close:
            return Verdict(self.key, "close", f"close (within {100 * self.close:.0f}%), but not exact. {self.hint}")
        return Verdict(self.key, "wrong", f"not yet. {self.hint}")


def check(key, value):
    """Check a learner's answer to exercise ``key``; returns a :class:`Verdict`."""
    if key not in EXERCISES:
        from . import chapter_exercises  # noqa: F401  (registers the book's exercises)
    if key not in EXERCISES:
        raise ValueError(f"unknown exercise {key!r}; known: {sorted(EXERCISES)}")
    return EXERCISES[key].check(value)
