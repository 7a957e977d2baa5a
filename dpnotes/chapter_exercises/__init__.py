"""The book's exercises: one module per chapter, each with a list ``EXERCISES`` of specs.

This package builds the registry from those lists (:data:`REGISTRY`, keys checked unique)
and exposes :func:`check` and :func:`score`; the kinds and checkers it uses live in the
base layer, :mod:`dpnotes.exercise_kinds`, which imports nothing from here. Notebooks call
``from dpnotes.exercises import check``, a thin front on top of this package.

The student copy (``make student``) ships neither this package nor its answers: it ships
:func:`dpnotes.exercise_kinds.export` of :data:`REGISTRY` instead.
"""

from ..exercise_kinds import Registry
from . import (
    composition,
    conversion,
    convolution,
    dpsgd,
    foundations,
    hypothesis,
    iteration,
    learning,
    open_questions,
    pld,
    renyi,
    subsampling,
)

__all__ = ["REGISTRY", "EXERCISES", "CHAPTER_MODULES", "check", "score"]

#: the chapter modules, in book order
CHAPTER_MODULES = (learning, foundations, renyi, composition, conversion, hypothesis, subsampling, dpsgd, pld,
                   iteration, convolution, open_questions)

#: every exercise of the book, by key
REGISTRY = Registry(spec for module in CHAPTER_MODULES for spec in module.EXERCISES)
EXERCISES = REGISTRY


def check(key, value):
    """Check a learner's answer to exercise ``key``; returns a :class:`~dpnotes.exercise_kinds.Verdict`.

    Examples
    --------
    >>> check("renyi-gaussian-order", 3 / 8)
    ✓ renyi-gaussian-order: correct.
    """
    return REGISTRY.check(key, value)


def score(key, value, points):
    """Points for an autograder: all if right, half if close, none otherwise.

    Warnings raised while checking are silenced: an autograder reads anything on stderr as a failure.
    """
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return REGISTRY.score(key, value, points)
