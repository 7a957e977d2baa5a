"""Values as tokens on a logarithmic grid, and salted hashes of the tokens.

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
           "FINGERPRINT_ITERATIONS"]

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
