"""What every exercise spec has (key, chapter, stars, hint, slips), and the registry.

A spec is declarative: the kind's class (:class:`~dpnotes.exercise_kinds.Numeric`,
``Symbolic``, ``Code``, ``Explore``, ``Written``) holds the reference and the checker; a
chapter lists its specs, and the chapter-exercise package builds one :class:`Registry`
from the lists. Nothing here imports a chapter.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

__all__ = ["Slip", "Spec", "Registry", "check_key", "short_repr", "TASKS"]

#: what an exercise asks a learner to do (``Spec.task``): a substitution into a stated formula with at
#: most one package call, a slider reading, a computation of several steps that needs a choice, a
#: derivation, an implementation, a proof, an explanation, a critique of a claimed bound
TASKS = ("plug-in", "reading", "multi-step", "derive", "implement", "prove", "explain", "critique")

_KEY = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_CHAPTER = re.compile(r"^\d\d[a-z]?-[a-z0-9]+(-[a-z0-9]+)*$")


def check_key(key, name="key"):
    """A lowercase, hyphen-separated identifier such as ``"composition-advanced-eps"``."""
    if not isinstance(key, str) or not _KEY.match(key):
        raise ValueError(f"{name} must be lowercase words joined by hyphens (got {key!r})")
    return key


@dataclass(frozen=True)
class Slip:
    """A common slip: its name, the message that names it, and how to produce its result.

    ``produce`` depends on the kind: for a numeric answer a callable returning the slipped
    value; for a symbolic one a string, a sympy expression or a callable of the reference
    expression; for code a callable with the learner's signature returning the slipped
    output. The message says what went wrong, never what the answer is.
    """

    name: str
    message: str
    produce: Any

    def __post_init__(self):
        check_key(self.name, "slip name")
        if not isinstance(self.message, str) or not self.message.strip():
            raise ValueError(f"slip {self.name}: message must be a non-empty string")


@dataclass(frozen=True, kw_only=True)
class Spec:
    """Fields every exercise has.

    ``key`` identifies it in ``check(key, value)``; ``chapter`` is the notebook's stem
    (``"02-composition"``); ``stars`` its difficulty, 1 to 3; ``hint`` what a wrong answer
    is told (a direction, never the answer's expression); ``slips`` the common slips the
    checker recognises; ``task`` what it asks a learner to do (one of :data:`TASKS`).
    """

    kind: ClassVar[str] = ""

    key: str
    chapter: str
    stars: int
    hint: str = ""
    slips: tuple = ()
    task: str = ""
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        check_key(self.key)
        if not isinstance(self.chapter, str) or not _CHAPTER.match(self.chapter):
            raise ValueError(f"{self.key}: chapter must be a notebook stem such as '02-composition' "
                             f"(got {self.chapter!r})")
        if isinstance(self.stars, bool) or self.stars not in (1, 2, 3):
            raise ValueError(f"{self.key}: stars must be 1, 2 or 3 (got {self.stars!r})")
        if not isinstance(self.hint, str):
            raise TypeError(f"{self.key}: hint must be a string")
        if self.task and self.task not in TASKS:
            raise ValueError(f"{self.key}: task must be one of {TASKS} (got {self.task!r})")
        object.__setattr__(self, "slips", tuple(self.slips))
        names = [s.name for s in self.slips if isinstance(s, Slip)]
        if len(names) != len(self.slips):
            raise TypeError(f"{self.key}: slips must be Slip objects")
        if len(set(names)) != len(names):
            raise ValueError(f"{self.key}: slip names must be unique (got {names})")

    def _cached(self, name, compute):
        if name not in self._cache:
            self._cache[name] = compute()
        return self._cache[name]

    def check(self, value):  # pragma: no cover - every kind overrides it
        raise NotImplementedError

    def validate(self):
        """Compute the reference and the slips and check that they can be told apart."""

    def student_record(self, salt):  # pragma: no cover - every kind overrides it
        """What the student copy needs to check an answer (no answer in it)."""
        raise NotImplementedError


class Registry(Mapping):
    """Exercise specs by key, with :meth:`check`.

    Raises ``ValueError`` on a duplicate key and ``TypeError`` on anything but a spec.

    Examples
    --------
    >>> from dpnotes.exercise_kinds import Numeric
    >>> reg = Registry([Numeric(key="half", chapter="01-x", stars=1, answer=lambda: 0.5, hint="Halve it.")])
    >>> reg.check("half", 0.5)
    ✓ half: correct.
    """

    def __init__(self, specs):
        self._specs = {}
        for spec in specs:
            if not isinstance(spec, Spec):
                raise TypeError(f"an exercise registry holds specs, not {type(spec).__name__}")
            if spec.key in self._specs:
                raise ValueError(f"duplicate exercise key {spec.key!r}")
            self._specs[spec.key] = spec

    def __getitem__(self, key):
        return self._specs[key]

    def __iter__(self):
        return iter(self._specs)

    def __len__(self):
        return len(self._specs)

    def check(self, key, value):
        """Check a learner's answer to exercise ``key``; returns a :class:`Verdict`."""
        if key not in self._specs:
            raise ValueError(f"unknown exercise {key!r}; known: {sorted(self._specs)}")
        return self._specs[key].check(value)

    def score(self, key, value, points):
        """Points earned by ``value``: ``points`` if right, half if close, else 0 (for autograders)."""
        fraction = self.check(key, value).fraction
        if fraction is None:
            raise ValueError(f"exercise {key!r} is graded by hand")
        return float(points) * fraction


def short_repr(value, limit=60):
    """A short repr of a learner's value for a message."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"

