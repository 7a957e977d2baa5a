"""Exercises answered in words (prove or explain): a model solution and a rubric, graded by hand.

The checker only records that there is an answer; the model solution and the rubric go
to the instructor's version of an assignment, never to the student copy.
"""

from dataclasses import dataclass
from typing import ClassVar

from .spec import Spec
from .verdict import Verdict

__all__ = ["Criterion", "Written", "written_verdict", "StudentWritten"]


@dataclass(frozen=True)
class Criterion:
    """One line of a rubric: what a grader looks for, and the points it is worth."""

    points: float
    text: str

    def __post_init__(self):
        if isinstance(self.points, bool) or not isinstance(self.points, (int, float)) or not self.points > 0:
            raise ValueError(f"rubric points must be positive numbers (got {self.points!r})")
        if not isinstance(self.text, str) or not self.text.strip():
            raise ValueError("a rubric criterion needs a text")


def written_verdict(key, value):
    """'ungraded' for a non-empty text, 'wrong' (no answer yet) otherwise."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return Verdict(key, "wrong", "no answer yet: write your answer in the string.")
    if not isinstance(value, str):
        return Verdict(key, "wrong", f"expected your answer as text (a string), got {type(value).__name__}")
    words = len(value.split())
    return Verdict(key, "ungraded", f"answer recorded ({words} word{'s' if words != 1 else ''}); written answers "
                                    "are graded by hand against a rubric.")


@dataclass(frozen=True, kw_only=True)
class Written(Spec):
    """A prove-or-explain exercise: ``model_solution`` (Markdown) and ``rubric`` (criteria).

    Examples
    --------
    >>> ex = Written(key="why", chapter="02-composition", stars=2, model_solution="Because …",
    ...              rubric=[Criterion(1, "Names the reason.")])
    >>> ex.check("Because the divergences add.").status, ex.points
    ('ungraded', 1)
    """

    kind: ClassVar[str] = "written"

    model_solution: str
    rubric: tuple

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.model_solution, str) or not self.model_solution.strip():
            raise ValueError(f"{self.key}: model_solution must be non-empty Markdown")
        object.__setattr__(self, "rubric", tuple(self.rubric))
        if not self.rubric or not all(isinstance(c, Criterion) for c in self.rubric):
            raise ValueError(f"{self.key}: rubric must be a non-empty list of Criterion")
        if self.slips:
            raise ValueError(f"{self.key}: a written exercise has no automatic slips")

    @property
    def points(self):
        """Total points of the rubric."""
        return sum(c.points for c in self.rubric)

    def rubric_markdown(self):
        """The rubric as a Markdown list, for the instructor."""
        return "\n".join(f"- **{c.points:g} pt** {c.text}" for c in self.rubric)

    def check(self, value):
        return written_verdict(self.key, value)

    def student_record(self, salt):
        return {"kind": self.kind}


class StudentWritten:
    """The student copy's checker of a written exercise (records the answer; nothing to compare)."""

    def __init__(self, key, record):
        self.key, self.record = key, record

    def check(self, value):
        return written_verdict(self.key, value)
