"""Exercises answered by a formula (a sympy expression or a string), checked by fingerprint.

The reference and the learner's formula are evaluated at fixed points drawn from each
symbol's range (the *fingerprint*, at 30 digits); they are equivalent when every value
matches at the fine step :data:`STEP` (see :mod:`.tokens`). The instructor's checker also
accepts a formula that ``sympy.simplify`` proves equal to the reference.

When the formula is not equivalent, the checker says, without giving the answer, which
common slip it matches: the spec's own slips, then the automatic ones (α where α − 1
belongs and the reverse; log₁₀ for ln); then *off by a constant factor* (the values'
ratios between points match the reference's) and *wrong power of s* (they match once a
power of the symbol s is divided out). The student copy holds salted hashes of the
reference's and the slips' tokens (and of the ratios), never the expression.
"""

import hashlib
import math
from dataclasses import dataclass
from typing import ClassVar, Mapping

import numpy as np
import sympy as sp

from .parsing import PRETTY, ExpressionError, read_expression
from .spec import Slip, Spec
from .tokens import FINGERPRINT_ITERATIONS, candidate_tokens, salted_hash, token
from .verdict import Verdict

__all__ = ["Symbolic", "symbolic_verdict", "StudentSymbolic", "STEP", "RATIO_STEP", "POWERS"]

#: log step at which values of equivalent formulas match (30-digit evaluation)
STEP = 1e-9
#: step for the ratios between points (constant-factor and power diagnoses)
RATIO_STEP = 1e-7
#: powers of a symbol tried by the "wrong power" diagnosis
POWERS = (-3, -2, -1.5, -1, -0.5, 0.5, 1, 1.5, 2, 3)
_MAX_SIMPLIFY_OPS = 200


def _symbol_objects(symbols):
    return {name: sp.Symbol(name, positive=True) for name in symbols}


def sample_points(key, symbols, count):
    """``count`` points (dicts name → value) in the symbols' ranges, the same on every machine."""
    rng = np.random.default_rng(int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big"))
    points = []
    for _ in range(count):
        point = {}
        for name, spec in symbols.items():
            low, high, integer = spec[0], spec[1], len(spec) > 2 and spec[2] == "integer"
            if integer:
                point[name] = int(rng.integers(int(low), int(high) + 1))
            elif high / low >= 10:
                point[name] = float(f"{math.exp(rng.uniform(math.log(low), math.log(high))):.6g}")
            else:
                point[name] = float(f"{rng.uniform(low, high):.6g}")
        points.append(point)
    return points


def evaluate(expr, objects, points):
    """Float values of ``expr`` at the points, or a message saying where it is not a finite real."""
    values = []
    for point in points:
        subs = {objects[n]: sp.Float(v, 30) if isinstance(v, float) else sp.Integer(v) for n, v in point.items()}
        try:
            z = complex(expr.evalf(30, subs=subs))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError):
            z = complex("nan")
        if not (math.isfinite(z.real) and math.isfinite(z.imag)) or abs(z.imag) > 1e-12 * max(1.0, abs(z.real)):
            where = ", ".join(f"{PRETTY.get(n, n)} = {v:g}" for n, v in point.items())
            return None, f"your formula is not a finite real number at {where}: check logarithms, roots and divisions."
        values.append(z.real)
    return values, None


def _ratio_tokens(logs, signs, step, candidates):
    """Tokens of log-ratios to the first point (None where a value is zero)."""
    out = []
    for i in range(1, len(logs)):
        if logs[i] is None or logs[0] is None:
            return None
        d, sign = logs[i] - logs[0], "+" if signs[i] == signs[0] else "-"
        k = math.floor(d / step)
        out.append(tuple(f"{sign}{j}" for j in (k - 1, k, k + 1)) if candidates else f"{sign}{k}")
    return out


def _logs(values):
    return [math.log(abs(v)) if v != 0 else None for v in values], [v > 0 for v in values]


def fingerprint_tokens(values):
    """Reference tokens: one per point, plus the ratio tokens (``None`` if a value is 0)."""
    logs, signs = _logs(values)
    return [token(v, STEP) for v in values], _ratio_tokens(logs, signs, RATIO_STEP, candidates=False)


def symbolic_verdict(key, value, *, objects, points, matcher, hint, proves_equal=None):
    """The verdict on a formula; ``matcher`` knows the reference's tokens (in clear or hashed).

    ``matcher.matches(label, candidates)`` says whether, at every point, the stored token
    for ``label`` ("answer", "ratios" or "slip:<name>") is among the learner's candidates;
    ``matcher.slips`` lists (name, message).
    """
    if value is None:
        return Verdict(key, "wrong", "no answer yet: replace None with your formula (a string or a sympy expression).")
    try:
        expr = read_expression(value, objects)
    except ExpressionError as err:
        return Verdict(key, "wrong", f"{err.args[0]}.".replace("..", "."))
    values, problem = evaluate(expr, objects, points)
    if problem:
        return Verdict(key, "wrong", problem)
    cands = [candidate_tokens(v, STEP) for v in values]
    if matcher.matches("answer", cands) or (proves_equal is not None and proves_equal(expr)):
        return Verdict(key, "right", "correct.")
    for name, message in matcher.slips:
        if matcher.matches(f"slip:{name}", cands):
            return Verdict(key, "wrong", f"not yet: {message}", slip=name)
    logs, signs = _logs(values)
    ratios = _ratio_tokens(logs, signs, RATIO_STEP, candidates=True)
    if ratios is not None and matcher.matches("ratios", ratios):
        return Verdict(key, "wrong", "not yet: your formula is off by a constant factor (it varies with the "
                                     "symbols as it should): check the numerical coefficients.", slip="constant-factor")
    if ratios is not None:
        for name in objects:
            for k in POWERS:
                adjusted = [lg - k * math.log(p[name]) for lg, p in zip(logs, points)]
                if matcher.matches("ratios", _ratio_tokens(adjusted, signs, RATIO_STEP, candidates=True)):
                    pretty = PRETTY.get(name, name)
                    return Verdict(key, "wrong", f"not yet: the power of {pretty} is wrong (up to a constant factor, "
                                                 f"the rest of the formula is right).", slip=f"power-of-{name}")
    return Verdict(key, "wrong", f"not yet. {hint}".strip())


class _ClearMatcher:
    def __init__(self, tokens, slips):
        self._tokens, self.slips = tokens, slips

    def matches(self, label, candidates):
        ref = self._tokens.get(label)
        return ref is not None and len(ref) == len(candidates) and all(t in c for t, c in zip(ref, candidates))


def _auto_slips(ref, objects):
    """Slips every formula with α or log can suffer: α ↔ α − 1, log₁₀ for ln."""
    out = []
    if "alpha" in objects:
        alpha = objects["alpha"]
        a, b = sp.Dummy("a"), sp.Dummy("b")
        split = ref.subs(alpha - 1, b).subs(alpha, a)
        if b in split.free_symbols:
            out.append(Slip("alpha-for-alpha-minus-1", "it looks as if you wrote α where α − 1 belongs.",
                            split.subs(b, a).subs(a, alpha)))
        if a in split.free_symbols:
            out.append(Slip("alpha-minus-1-for-alpha", "it looks as if you wrote α − 1 where α belongs.",
                            split.subs(a, b).subs(b, alpha - 1)))
    if ref.has(sp.log):
        out.append(Slip("log10-for-ln", "it looks as if you used log₁₀; DP formulas use the natural logarithm.",
                        ref.replace(sp.log, lambda *args: sp.log(args[0], 10))))
    return out


@dataclass(frozen=True, kw_only=True)
class Symbolic(Spec):
    """An exercise whose answer is a formula in the given symbols.

    ``answer`` is a string (read by the same safe parser as the learner's input) or a sympy
    expression; ``symbols`` maps each name to its range ``(low, high)`` or
    ``(low, high, "integer")`` (all symbols are positive); each slip's ``produce`` is a
    string, an expression, or a callable of the reference expression.

    Examples
    --------
    >>> ex = Symbolic(key="rdp-curve", chapter="02-composition", stars=2, answer="T*alpha/(2*sigma**2)",
    ...               symbols={"alpha": (1.1, 64), "sigma": (0.3, 10), "T": (1, 1000, "integer")},
    ...               hint="Compose the Gaussian's curve.")
    >>> ex.check("alpha*T/(2*sigma^2)").status, ex.check("T*alpha/sigma**2").slip
    ('right', 'constant-factor')
    >>> ex.check("T*alpha/(2*sigma)").slip, ex.check("T*(alpha - 1)/(2*sigma**2)").slip
    ('power-of-sigma', 'alpha-minus-1-for-alpha')
    """

    kind: ClassVar[str] = "symbolic"

    answer: object
    symbols: Mapping
    points: int = 6
    auto_slips: bool = True

    def __post_init__(self):
        super().__post_init__()
        if not isinstance(self.symbols, Mapping) or not self.symbols:
            raise ValueError(f"{self.key}: symbols must map names to ranges")
        for name, rng in self.symbols.items():
            if not (isinstance(name, str) and name.isidentifier()) or name in ("e", "E", "pi", "log", "exp", "sqrt"):
                raise ValueError(f"{self.key}: {name!r} cannot be a symbol name")
            ok = (isinstance(rng, tuple) and len(rng) in (2, 3) and all(isinstance(x, (int, float)) for x in rng[:2])
                  and 0 < rng[0] < rng[1] and (len(rng) == 2 or rng[2] == "integer"))
            if not ok:
                raise ValueError(f"{self.key}: the range of {name} must be (low, high) or (low, high, 'integer') "
                                 f"with 0 < low < high (got {rng!r})")
        object.__setattr__(self, "symbols", dict(self.symbols))
        if not isinstance(self.points, int) or not 3 <= self.points <= 20:
            raise ValueError(f"{self.key}: points must be an integer in [3, 20] (got {self.points!r})")
        try:
            ref = read_expression(self.answer, self.objects)
        except ExpressionError as err:
            raise ValueError(f"{self.key}: the answer is not a formula over {sorted(self.symbols)}: {err}") from None
        self._cache["reference"] = ref

    @property
    def objects(self):
        """The sympy symbols, by name (positive)."""
        return self._cached("objects", lambda: _symbol_objects(self.symbols))

    def reference(self):
        """The reference expression."""
        return self._cache["reference"]

    def sample_points(self):
        return self._cached("points", lambda: sample_points(self.key, self.symbols, self.points))

    def _values(self, expr, what):
        values, problem = evaluate(expr, self.objects, self.sample_points())
        if problem:
            raise ValueError(f"{self.key}: {what}: {problem}")
        return values

    def all_slips(self):
        """(slip, expression) pairs: the spec's slips, then the automatic ones that differ from them."""
        def build():
            ref, out, seen = self.reference(), [], [fingerprint_tokens(self._values(self.reference(), "answer"))[0]]
            for slip in self.slips:
                produce = slip.produce(ref) if callable(slip.produce) else slip.produce
                try:
                    expr = read_expression(produce, self.objects)
                except ExpressionError as err:
                    raise ValueError(f"{self.key}: slip {slip.name} is not a formula: {err}") from None
                out.append((slip, expr))
            for slip in (_auto_slips(ref, self.objects) if self.auto_slips else []):
                if slip.name not in {s.name for s, _ in out}:
                    out.append((slip, slip.produce))
            kept = []
            for slip, expr in out:
                tokens = fingerprint_tokens(self._values(expr, f"slip {slip.name}"))[0]
                if tokens in seen:
                    if slip in self.slips:
                        raise ValueError(f"{self.key}: slip {slip.name} is equivalent to the answer or to another slip")
                    continue
                seen.append(tokens)
                kept.append((slip, expr))
            return kept
        return self._cached("slips", build)

    def _tokens(self):
        def build():
            answer, ratios = fingerprint_tokens(self._values(self.reference(), "answer"))
            tokens = {"answer": answer, "ratios": ratios}
            for slip, expr in self.all_slips():
                tokens[f"slip:{slip.name}"] = fingerprint_tokens(self._values(expr, f"slip {slip.name}"))[0]
            return tokens
        return self._cached("tokens", build)

    def _proves_equal(self, expr):
        diff = expr - self.reference()
        if sp.count_ops(diff) > _MAX_SIMPLIFY_OPS:
            return False
        return sp.simplify(diff) == 0

    def equivalent(self, value):
        """Whether ``value`` is the reference: ``simplify(a − b) == 0``, or the fingerprints match."""
        expr = read_expression(value, self.objects)
        values, problem = evaluate(expr, self.objects, self.sample_points())
        fingerprint = not problem and fingerprint_tokens(values)[0] == self._tokens()["answer"]
        return bool(self._proves_equal(expr) or fingerprint)

    def check(self, value):
        matcher = _ClearMatcher(self._tokens(), [(s.name, s.message) for s, _ in self.all_slips()])
        return symbolic_verdict(self.key, value, objects=self.objects, points=self.sample_points(), matcher=matcher,
                                hint=self.hint, proves_equal=self._proves_equal)

    def validate(self):
        self._tokens()

    def student_record(self, salt):
        tokens = self._tokens()

        def hashes(label, toks):
            if toks is None:
                return None
            return [salted_hash(salt, self.key, f"{label}:{i}", t, FINGERPRINT_ITERATIONS) for i, t in enumerate(toks)]

        return {
            "kind": self.kind, "salt": salt, "iterations": FINGERPRINT_ITERATIONS, "hint": self.hint,
            "symbols": {n: list(r) for n, r in self.symbols.items()}, "points": self.sample_points(),
            "answer": hashes("answer", tokens["answer"]), "ratios": hashes("ratios", tokens["ratios"]),
            "slips": [{"name": s.name, "message": s.message, "hashes": hashes(f"slip:{s.name}", tokens[f"slip:{s.name}"])}
                      for s, _ in self.all_slips()],
        }


class _HashedMatcher:
    def __init__(self, key, record):
        self.key, self._record = key, record
        self.slips = [(s["name"], s["message"]) for s in record["slips"]]
        self._stored = {"answer": record["answer"], "ratios": record["ratios"],
                        **{f"slip:{s['name']}": s["hashes"] for s in record["slips"]}}

    def matches(self, label, candidates):
        stored = self._stored.get(label)
        if stored is None or len(stored) != len(candidates):
            return False
        salt, iterations = self._record["salt"], self._record["iterations"]
        for i, (h, cands) in enumerate(zip(stored, candidates)):  # stops at the first point that differs
            if h not in {salted_hash(salt, self.key, f"{label}:{i}", c, iterations) for c in cands}:
                return False
        return True


class StudentSymbolic:
    """The student copy's checker of a symbolic exercise, from its record."""

    def __init__(self, key, record):
        self.key, self.record = key, record
        self._objects = _symbol_objects(record["symbols"])
        self._matcher = _HashedMatcher(key, record)

    def check(self, value):
        return symbolic_verdict(self.key, value, objects=self._objects, points=self.record["points"],
                                matcher=self._matcher, hint=self.record["hint"])
