"""Check an exercise of the book: ``check(key, value)`` returns right, close or wrong (with a hint).

This is what the notebooks import (``from dpnotes.exercises import check``). It sits on top
of two layers: :mod:`dpnotes.exercise_kinds` (the kinds of exercise and their checkers,
which imports no chapter) and :mod:`dpnotes.chapter_exercises` (each chapter's specs, and
the registry built from them). The expected value is computed by the package when the
learner checks, so the notebook never prints it; solutions live in collapsed dropdowns.

The student copy (``make student``) replaces this file with one that checks against
hashed data, so ``check`` works unchanged there without any answer on disk.
"""

from .chapter_exercises import EXERCISES, check
from .exercise_kinds import Verdict

__all__ = ["check", "EXERCISES", "Verdict"]
