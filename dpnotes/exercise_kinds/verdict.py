"""The outcome of checking one answer: right, close, wrong, or ungraded (written answers)."""

import html
from dataclasses import dataclass

__all__ = ["Verdict", "STATUSES"]

#: status → (mark, colour) of the displayed verdict; each colour has a contrast of at least
#: 4.5:1 (WCAG AA) on white and on the light panel the book's dark mode puts outputs on
STATUSES = {
    "right": ("✓", "#1b5e20"),
    "close": ("≈", "#8a4500"),
    "wrong": ("✗", "#a61b1b"),
    "ungraded": ("✎", "#37474f"),
}


@dataclass(frozen=True)
class Verdict:
    """The outcome of a check.

    ``status`` is "right", "close", "wrong" or "ungraded" (a written answer, graded by
    hand); ``message`` is what the learner reads; ``slip`` names the common slip the
    checker recognised (``None`` if none), so a message can say what went wrong
    without giving the answer.

    Examples
    --------
    >>> Verdict("renyi-gaussian-order", "right", "correct.")
    ✓ renyi-gaussian-order: correct.
    """

    exercise: str
    status: str
    message: str
    slip: str | None = None

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {sorted(STATUSES)} (got {self.status!r})")

    @property
    def fraction(self):
        """Share of the points this verdict earns: 1 right, ½ close, 0 otherwise (``None`` if ungraded)."""
        return {"right": 1.0, "close": 0.5, "wrong": 0.0, "ungraded": None}[self.status]

    def __repr__(self):
        return f"{STATUSES[self.status][0]} {self.exercise}: {self.message}"

    def _repr_html_(self):
        color = STATUSES[self.status][1]
        return f'<p style="color:{color};font-weight:600">{html.escape(repr(self))}</p>'
