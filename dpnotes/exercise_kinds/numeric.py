"""Exercises answered by one number: the spec, its checker, and the student copy's checker.

The precision rule. A numeric exercise asks for ``sig_figs`` significant figures (3 unless the
prompt asks for more; ``None`` for an answer that is an integer). With a the reference, e its
decade ⌊log₁₀|a|⌋ and u = 10^(e − sig_figs + 1) one unit in its last asked figure:

- *right*: every x with |x − a| ≤ u/2 (every correct rounding of a to the asked figures, with
  any number of further digits); slightly looser values, up to u/2 + u/10 = 0.6 u, are right
  when they fall in a grid cell of width u/10 that meets [a − u/2, a + u/2] (see
  :mod:`.tokens`); nothing farther than 0.6 u is, so a value wrong in the asked figure is
  never right. An integer answer is right when x is within 10⁻⁹ of it.
- the *slip*: a value that matches a common slip's value by the same rule at the same
  precision (a slipped value given to the asked figures is named); in an integer exercise an
  integer slip is matched exactly and any other at 3 figures. :meth:`Numeric.validate` refuses
  a slip whose region meets the answer's or another slip's.
- *close*: right at one figure fewer than asked (only when that leaves 2 figures or more); the
  message says to how many figures the value agrees, never the answer.
- *wrong* otherwise.

The instructor's checker and the student copy's apply this one rule (:func:`numeric_verdict`),
to tokens in the clear or to their salted hashes, so they agree on every input; the static
site's script (``web/exercises/dpnotes-exercises.js``) applies it to the same hashes.
"""

import math
from dataclasses import InitVar, dataclass
from typing import Callable, ClassVar

import numpy as np

from .spec import Spec, short_repr
from .tokens import (NUMERIC_ITERATIONS, candidate_figure_tokens, figure_interval, integer_token,
                     reference_figure_tokens, salted_hash)
from .verdict import Verdict

__all__ = ["Numeric", "numeric_verdict", "StudentNumeric", "as_number", "DEFAULT_SIG_FIGS", "close_figures",
           "learner_tokens"]

#: the precision a numeric prompt asks for unless it says otherwise
DEFAULT_SIG_FIGS = 3
#: the relative distance within which a value counts as an integer
INTEGER_TOLERANCE = 1e-9


def close_figures(sig_figs):
    """The figures at which a value is *close* (one fewer than asked, if that leaves 2 or more), or ``None``."""
    if sig_figs is None or sig_figs - 1 < 2:
        return None
    return sig_figs - 1


def slip_figures(sig_figs):
    """The figures at which slips are matched: those asked, or 3 in an integer exercise."""
    return DEFAULT_SIG_FIGS if sig_figs is None else sig_figs


def as_number(value):
    """The learner's value as a float, or a message saying why it is not one.

    A one-element list, tuple or array counts as its element.
    """
    if value is None:
        return None, "no answer yet: replace None with your value."
    if isinstance(value, (list, tuple)):
        if len(value) != 1:
            return None, f"expected one number, got {short_repr(value)}"
        value = value[0]
        if isinstance(value, (list, tuple, str)) or value is None:
            return None, f"expected a number, got {short_repr(value)}"
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


def learner_tokens(x, sig_figs):
    """The learner's tokens by level ("right", "close", "slip") for a finite x."""
    int_tok = integer_token(x)
    int_toks = (int_tok,) if int_tok else ()
    if sig_figs is None:
        right = int_toks
    else:
        right = candidate_figure_tokens(x, sig_figs)
    close = close_figures(sig_figs)
    slip = int_toks + candidate_figure_tokens(x, slip_figures(sig_figs)) if sig_figs is None else right
    return {"right": right, "close": candidate_figure_tokens(x, close) if close else (), "slip": slip}


def reference_tokens(value, sig_figs, level):
    """The tokens a reference (level "right" or "close") or a slip's value (level "slip") matches."""
    if level == "close":
        return reference_figure_tokens(value, close_figures(sig_figs))
    if sig_figs is None and (level == "right" or integer_token(value)):
        tok = integer_token(value)
        if tok is None:
            raise ValueError(f"{value!r} is not an integer")
        return (tok,)
    return reference_figure_tokens(value, slip_figures(sig_figs))


def _region(value, sig_figs, level):
    """The interval [lo, hi] of values matching ``reference_tokens(value, sig_figs, level)``."""
    if value == 0:
        return 0.0, 0.0
    if sig_figs is None and (level == "right" or integer_token(value)):
        n = round(value)
        width = INTEGER_TOLERANCE * max(1.0, abs(n))
        return n - width, n + width
    return figure_interval(value, slip_figures(sig_figs))


def _figures_text(n):
    return f"{n} significant figure{'s' * (n != 1)}"


def numeric_verdict(key, value, matcher, *, hint, sig_figs):
    """The verdict on a numeric answer; ``matcher`` knows the reference (in clear or hashed).

    ``matcher.matches(level, tokens)`` says whether the reference's tokens at "right" or
    "close" meet the learner's ``tokens``; ``matcher.slip(tokens)`` returns the
    (name, message) of the first slip whose tokens meet them, or ``None``.
    """
    got, problem = as_number(value)
    if problem:
        return Verdict(key, "wrong", problem)
    if not math.isfinite(got):
        return Verdict(key, "wrong", f"the answer is a finite number. {hint}".strip())
    tokens = learner_tokens(got, sig_figs)
    if matcher.matches("right", tokens["right"]):
        return Verdict(key, "right", "correct.")
    slip = matcher.slip(tokens["slip"])
    if slip is not None:
        name, message = slip
        return Verdict(key, "wrong", f"not yet: {message}", slip=name)
    close = close_figures(sig_figs)
    if close and matcher.matches("close", tokens["close"]):
        return Verdict(key, "close", f"close: your value agrees with the answer to {_figures_text(close)}; the "
                                     f"exercise asks for {sig_figs}. If you rounded along the way, keep more "
                                     f"digits. {hint}".strip())
    if sig_figs is None and integer_token(got) is None:
        return Verdict(key, "wrong", f"not yet: the answer is an integer. {hint}".strip())
    return Verdict(key, "wrong", f"not yet. {hint}".strip())


class _ClearMatcher:
    """Matches against tokens of the reference computed in the clear (instructor side)."""

    def __init__(self, answer, slips, sig_figs):
        self._answer = {"right": set(reference_tokens(answer, sig_figs, "right"))}
        if close_figures(sig_figs):
            self._answer["close"] = set(reference_tokens(answer, sig_figs, "close"))
        self._slips = [(s.name, s.message, set(reference_tokens(v, sig_figs, "slip"))) for s, v in slips]

    def matches(self, level, tokens):
        return not self._answer.get(level, set()).isdisjoint(tokens)

    def slip(self, tokens):
        for name, message, toks in self._slips:
            if not toks.isdisjoint(tokens):
                return name, message
        return None


@dataclass(frozen=True, kw_only=True)
class Numeric(Spec):
    """An exercise whose answer is one number, computed by the package when checked.

    ``answer()`` returns the reference; each slip's ``produce()`` returns the value a
    common slip leads to (log₁₀ for ln, σ for σ², a missing composition count…).
    ``sig_figs`` is the precision the prompt asks for (3 by default; the prompt says it), or
    ``None`` for an answer that is an integer (the prompt says "Give an integer."); the
    precision rule is in this module's docstring.

    Examples
    --------
    >>> from dpnotes.exercise_kinds import Slip
    >>> ex = Numeric(key="gauss", chapter="01-renyi-gaussian", stars=1, answer=lambda: 3 / 8,
    ...              hint="Use the Gaussian's closed form.",
    ...              slips=[Slip("sigma-for-sigma2", "σ where σ² belongs.", lambda: 3 / 4)])
    >>> ex.check(0.375).status, ex.check(0.3754).status, ex.check(0.38).status, ex.check(0.75).slip
    ('right', 'right', 'close', 'sigma-for-sigma2')
    """

    kind: ClassVar[str] = "numeric"

    answer: Callable[[], float]
    sig_figs: int | None = DEFAULT_SIG_FIGS
    #: the relative tolerances of an earlier version, refused with a message saying what replaced them
    rtol: InitVar[float | None] = None
    close: InitVar[float | None] = None
    slip_tol: InitVar[float | None] = None

    def __post_init__(self, rtol=None, close=None, slip_tol=None):
        super().__post_init__()
        given = [name for name, v in (("rtol", rtol), ("close", close), ("slip_tol", slip_tol)) if v is not None]
        if given:
            raise TypeError(f"{self.key}: {', '.join(given)} no longer exist{'s' * (len(given) == 1)}: a numeric "
                            f"answer is checked at "
                            f"sig_figs significant figures (3 by default, None for an integer answer; the prompt "
                            f"states it), close at one figure fewer, slips at the same precision")
        if not callable(self.answer):
            raise TypeError(f"{self.key}: answer must be a callable returning the reference value")
        if self.sig_figs is not None and (isinstance(self.sig_figs, bool) or not isinstance(self.sig_figs, int)
                                          or not 1 <= self.sig_figs <= 12):
            raise ValueError(f"{self.key}: sig_figs must be an integer in [1, 12], or None for an integer answer "
                             f"(got {self.sig_figs!r})")
        for slip in self.slips:
            if not callable(slip.produce):
                raise TypeError(f"{self.key}: slip {slip.name} must produce its value with a callable")

    def reference(self):
        """The reference value (computed once)."""
        return self._cached("reference", lambda: _finite(self.answer(), self.key, "answer"))

    def slip_values(self):
        """(slip, value) pairs (computed once)."""
        return self._cached("slips", lambda: [(s, _finite(s.produce(), self.key, f"slip {s.name}"))
                                              for s in self.slips])

    def right_interval(self):
        """[lo, hi]: the values the checker calls right lie in it (and every x with |x − a| ≤ u/2 is one)."""
        return _region(self.reference(), self.sig_figs, "right")

    def _matcher(self):
        return self._cached("matcher", lambda: _ClearMatcher(self.reference(), self.slip_values(), self.sig_figs))

    def check(self, value):
        return numeric_verdict(self.key, value, self._matcher(), hint=self.hint, sig_figs=self.sig_figs)

    def validate(self):
        """Raise ``ValueError`` if the reference does not fit the precision, or a slip cannot be told from the
        answer or from another slip at that precision."""
        ref, slips = self.reference(), self.slip_values()
        if self.sig_figs is None and integer_token(ref) is None:
            raise ValueError(f"{self.key}: sig_figs=None asks for an integer, but the answer is {ref!r}")
        if self.sig_figs is not None and ref == 0:
            raise ValueError(f"{self.key}: an answer of 0 has no significant figures; ask for an integer "
                             f"(sig_figs=None)")
        regions = [("the answer", _region(ref, self.sig_figs, "right"))]
        regions += [(f"slip {s.name}", _region(v, self.sig_figs, "slip")) for s, v in slips]
        for i, (a, (lo_a, hi_a)) in enumerate(regions):
            for b, (lo_b, hi_b) in regions[i + 1:]:
                if lo_a <= hi_b and lo_b <= hi_a:
                    what = "the answer" if i == 0 else a
                    raise ValueError(f"{self.key}: {b} and {what} cannot be told apart at the asked precision "
                                     f"({_figures_text(slip_figures(self.sig_figs))}"
                                     f"{'' if self.sig_figs else ' for slips, integer answer'})"
                                     + (": too close to the answer" if i == 0 else ": they give the same value"))

    def student_record(self, salt):
        self.validate()
        ref, sig = self.reference(), self.sig_figs

        def hashes(label, value, level):
            return sorted(salted_hash(salt, self.key, label, t, NUMERIC_ITERATIONS)
                          for t in reference_tokens(value, sig, level))

        answer = {"right": hashes("right", ref, "right")}
        if close_figures(sig):
            answer["close"] = hashes("close", ref, "close")
        return {
            "kind": self.kind, "salt": salt, "iterations": NUMERIC_ITERATIONS, "sig_figs": sig,
            "hint": self.hint, "answer": answer,
            "slips": [{"name": s.name, "message": s.message, "hashes": hashes("slip", v, "slip")}
                      for s, v in self.slip_values()],
        }


def _finite(value, key, what):
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(f"{key}: {what} is not finite ({v!r})")
    return v


class _HashedMatcher:
    """Matches the learner's tokens against the stored salted hashes."""

    def __init__(self, key, record):
        self.key = key
        self._salt, self._iterations = record["salt"], record["iterations"]
        self._answer = {level: set(h) for level, h in record["answer"].items()}
        self._slips = [(s["name"], s["message"], set(s["hashes"])) for s in record["slips"]]

    def _hashes(self, label, tokens):
        return {salted_hash(self._salt, self.key, label, t, self._iterations) for t in tokens}

    def matches(self, level, tokens):
        stored = self._answer.get(level)
        return bool(stored) and not stored.isdisjoint(self._hashes(level, tokens))

    def slip(self, tokens):
        if not self._slips:
            return None
        hashes = self._hashes("slip", tokens)
        for name, message, stored in self._slips:
            if not stored.isdisjoint(hashes):
                return name, message
        return None


class StudentNumeric:
    """The student copy's checker of a numeric (or explore) exercise, from its record."""

    def __init__(self, key, record):
        self.key, self.record = key, record
        self._matcher = _HashedMatcher(key, record)

    def check(self, value):
        return numeric_verdict(self.key, value, self._matcher, hint=self.record["hint"],
                               sig_figs=self.record["sig_figs"])
