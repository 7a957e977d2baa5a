"""Values as tokens on a grid, and salted hashes of the tokens.

Two grids: a logarithmic one (below; the fingerprints of formulas use it) and a decimal one for
numeric answers checked at a number of significant figures (further down, from :func:`pow10`).

A value x ≠ 0 falls in the bin k = ⌊ln|x| / h⌋ of step h; its *token* is the sign and
k ("+12345"), and zero has the token "0". Two values *match at step h* when their bins
differ by at most one: always when |ln(x/y)| < h, never when |ln(x/y)| ≥ 2h. The learner's
value is turned into the tokens of its bin and of the two neighbouring bins
(:func:`candidate_tokens`), so a reference near a bin boundary is still recognised.

The instructor's checker compares tokens in the clear; the student copy stores only
:func:`salted_hash` of the reference tokens and hashes the learner's candidates the same
way. Both apply the same rule, so both give the same verdict on the same input.

What the hashes protect against: reading an answer from the student copy. They do not
stop a determined brute-force search: a coarse step (the "close" level, h = 0.05) has
only a few thousand bins per decade of plausible answers, and the salt ships with the
data. The key stretching (PBKDF2-HMAC-SHA256, :data:`NUMERIC_ITERATIONS` rounds) makes
each guess cost milliseconds; a course that grades for credit uses hidden tests that
never leave the teacher's machine (``make assignments``).
"""

import hashlib
import math

__all__ = ["log_bin", "token", "candidate_tokens", "salted_hash", "NUMERIC_ITERATIONS",
           "FINGERPRINT_ITERATIONS", "pow10", "decade", "grid_cell", "figure_interval", "reference_figure_tokens",
           "candidate_figure_tokens", "integer_token", "MAX_DECADE"]

#: PBKDF2 rounds for the hashed tokens of numeric answers (a few ms per hash)
NUMERIC_ITERATIONS = 10_000
#: PBKDF2 rounds for symbolic fingerprints (fine steps: a search is hopeless anyway)
FINGERPRINT_ITERATIONS = 500


def log_bin(x, step):
    """⌊ln|x| / step⌋ for finite x ≠ 0.

    Examples
    --------
    >>> log_bin(1.0, 1e-6), log_bin(-1.0, 1e-6), log_bin(2.0, 0.5)
    (0, 0, 1)
    """
    x = float(x)
    if x == 0 or not math.isfinite(x):
        raise ValueError(f"x must be finite and non-zero (got {x!r})")
    if not step > 0:
        raise ValueError(f"step must be in (0, ∞) (got {step!r})")
    return math.floor(math.log(abs(x)) / step)


def token(x, step):
    """The token of a finite value: its sign and log bin, or "0".

    Examples
    --------
    >>> token(0.375, 0.05), token(-0.375, 0.05), token(0.0, 0.05)
    ('+-20', '--20', '0')
    """
    x = float(x)
    if x == 0:
        return "0"
    return f"{'+' if x > 0 else '-'}{log_bin(x, step)}"


def candidate_tokens(x, step):
    """Tokens of the bin of x and of its two neighbours (only "0" for x = 0).

    Examples
    --------
    >>> candidate_tokens(1.0, 1e-6)
    ('+-1', '+0', '+1')
    """
    x = float(x)
    if x == 0:
        return ("0",)
    sign, k = "+" if x > 0 else "-", log_bin(x, step)
    return tuple(f"{sign}{j}" for j in (k - 1, k, k + 1))


def salted_hash(salt, key, label, tok, iterations):
    """PBKDF2-HMAC-SHA256 of "key|label|token" with a hex salt, as hex.

    Examples
    --------
    >>> len(salted_hash("00ff", "ex", "right", "+0", 10))
    64
    """
    message = f"{key}|{label}|{tok}".encode()
    return hashlib.pbkdf2_hmac("sha256", message, bytes.fromhex(salt), int(iterations)).hex()


# ----------------------------------------------------------------------------- significant figures
#
# A numeric answer asked "to n significant figures" is checked on a decimal grid. The reference a
# lies in the decade e = ⌊log₁₀|a|⌋; its unit at n figures is u = 10^(e − n + 1) (one in the n-th
# figure) and the grid's cells are [j g, (j + 1) g) with g = u/10 = 10^(e − n), one unit of the next
# figure. The reference's tokens are the cells that meet [a − u/2, a + u/2] (widened by g/100 so that
# no rounding in computing a cell loses one); a value matches when its cell is among them. So a value
# within half a unit of a (every correct rounding of a to n figures, with any further digits) always
# matches, and a value farther than u/2 + g = 0.6 u never does. The learner's value x is turned into
# its cells in the decades ⌊log₁₀|x|⌋ − 1, ⌊log₁₀|x|⌋ and ⌊log₁₀|x|⌋ + 1 (a correct value can sit across
# a power of ten from the reference), each token naming its decade, so only the reference's own decade
# can match. Integer answers have one token, "i:n", matched by values within 10⁻⁹ of the integer n.
# The arithmetic (powers of ten parsed from "1eK", one product or quotient, a floor) gives the same
# bits in Python and in the static site's JavaScript (web/exercises/dpnotes-exercises.js).

#: decades beyond ±this are refused (their powers of ten would overflow)
MAX_DECADE = 290


def pow10(k):
    """10**k as the correctly rounded float (parsed, as JavaScript's ``Number("1e" + k)`` does)."""
    return float(f"1e{int(k)}")


def decade(x):
    """⌊log₁₀|x|⌋, exact (corrected where the float logarithm rounds across a power of ten).

    Examples
    --------
    >>> decade(0.375), decade(1000.0), decade(999.9999), decade(-0.01)
    (-1, 3, 2, -2)
    """
    ax = abs(float(x))
    if ax == 0 or not math.isfinite(ax):
        raise ValueError(f"x must be finite and non-zero (got {x!r})")
    e = math.floor(math.log10(ax))
    if pow10(e) > ax:
        e -= 1
    elif pow10(e + 1) <= ax:
        e += 1
    return e


def grid_cell(x, figures, e):
    """The index j of the cell [j g, (j + 1) g) holding x, with g = 10^(e − figures)."""
    k = figures - e
    scaled = x * pow10(k) if k >= 0 else x / pow10(-k)
    return math.floor(scaled)


def figure_interval(a, figures):
    """(lo, hi): the values that match the reference a at ``figures`` significant figures lie in
    [lo, hi); every value within half a unit of the last figure does, with a margin of g/100."""
    e = decade(a)
    u, g = pow10(e - figures + 1), pow10(e - figures)
    j0 = grid_cell(a - u / 2 - g / 100, figures, e)
    j1 = grid_cell(a + u / 2 + g / 100, figures, e)
    return j0 * g, (j1 + 1) * g


def reference_figure_tokens(a, figures):
    """Tokens of the cells meeting [a − u/2, a + u/2] (see above); ``("0",)`` for a = 0.

    Examples
    --------
    >>> reference_figure_tokens(0.375, 1)[0], len(reference_figure_tokens(0.375, 1))
    ('-1:32', 11)
    """
    a = float(a)
    if a == 0:
        return ("0",)
    e = decade(a)
    u, g = pow10(e - figures + 1), pow10(e - figures)
    j0 = grid_cell(a - u / 2 - g / 100, figures, e)
    j1 = grid_cell(a + u / 2 + g / 100, figures, e)
    return tuple(f"{e}:{j}" for j in range(j0, j1 + 1))


def candidate_figure_tokens(x, figures):
    """The learner's tokens at ``figures`` significant figures: its cell in its own decade and the two
    neighbouring ones (nothing for a decade beyond ±:data:`MAX_DECADE`; ``("0",)`` for 0).

    Examples
    --------
    >>> candidate_figure_tokens(0.375, 3)
    ('-2:37500', '-1:3750', '0:375')
    """
    x = float(x)
    if x == 0:
        return ("0",)
    e0 = decade(x)
    if abs(e0) > MAX_DECADE:
        return ()
    return tuple(f"{e}:{grid_cell(x, figures, e)}" for e in (e0 - 1, e0, e0 + 1))


def integer_token(x):
    """"i:n" if x is within 10⁻⁹ (relative, at least absolute) of the integer n, else ``None``.

    Examples
    --------
    >>> integer_token(29.0), integer_token(29.0000000001), integer_token(28.7)
    ('i:29', 'i:29', None)
    """
    x = float(x)
    if not math.isfinite(x) or abs(x) >= 2.0**53:
        return None
    n = round(x)
    return f"i:{n}" if abs(x - n) <= 1e-9 * max(1.0, abs(x)) else None
