r"""Printing a bound: rounded outward, exactly, at the digits shown.

One rule for every printed bound of the book, its pages and its command line:

* an **upper bound** is rounded *up* and a **lower bound** *down* at the digits printed, so the
  printed number is still a bound (``bound_text``);
* a **bracket** [lower, upper] is printed with its lower end rounded down and its upper end
  rounded up, so the printed interval contains the true value (``bracket_text``);
* a quantity known only through a certified bracket (a supremum, say) is printed either as that
  bracket or as the digits the two ends share, which are certified (``certified_digits``),
  never as one end as if it were the value.

The rounding is done in decimal on the exact binary value of the float
(:class:`decimal.Decimal` of a float is exact), so it never lands on the wrong side by
a last bit, as ``math.floor(x * 100) / 100`` can.
"""

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal

__all__ = ["outward", "bound_text", "bracket_text", "certified_digits"]

_SIDES = ("lower", "upper")
# enough precision for the exact decimal expansion of any double (at most 767 significant digits)
_EXACT = Context(prec=800)


def _check_value(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)) and not hasattr(value, "__float__"):
        raise TypeError(f"{name} must be a real number (got {type(value).__name__})")
    try:
        v = float(value)
    except (TypeError, ValueError) as err:  # an array (empty, or of several numbers) has no single float
        raise TypeError(f"{name} must be a single real number (got {type(value).__name__} {str(value)[:40]})") from err
    if math.isnan(v):
        raise ValueError(f"{name} must be a number, not NaN (a bound that is NaN bounds nothing)")
    return v


def _check_digits(decimals, significant):
    if (decimals is None) == (significant is None):
        raise ValueError("give exactly one of decimals (digits after the point) and significant (significant digits)")
    if decimals is not None:
        if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 30:
            raise ValueError(f"decimals must be an integer in [0, 30] (got {decimals!r})")
    elif isinstance(significant, bool) or not isinstance(significant, int) or not 1 <= significant <= 30:
        raise ValueError(f"significant must be an integer in [1, 30] (got {significant!r})")


def outward(value, side, *, decimals=None, significant=None):
    r"""``value`` rounded toward its side at the digits asked for, as an exact :class:`~decimal.Decimal`.

    .. math:: \mathrm{down}_d(x) = \lfloor 10^d x\rfloor / 10^d,\qquad
              \mathrm{up}_d(x) = \lceil 10^d x\rceil / 10^d,

    with d the number of decimals, or d = s − 1 − ⌊log₁₀|x|⌋ for s significant digits.
    The floor and ceiling are taken on the exact decimal value of the float, so
    ``outward(x, "upper", ...) >= x >= outward(x, "lower", ...)`` holds exactly.

    Parameters
    ----------
    value : float, not NaN (±inf is returned as is)
    side : {"lower", "upper"}, the side the value bounds from: a lower bound is rounded down,
        an upper bound up
    decimals : int in [0, 30], digits after the decimal point; or
    significant : int in [1, 30], significant digits (exactly one of the two)

    Returns
    -------
    decimal.Decimal, or the float ±inf

    Raises
    ------
    ValueError
        For a NaN value, an unknown side, or digits out of range.

    References
    ----------
    IEEE 754-2019, §4.3 (directed rounding: toward +∞ for an upper bound, toward −∞ for a
    lower bound); Moore, Kearfott & Cloud (2009), "Introduction to Interval Analysis", §3.

    Examples
    --------
    >>> str(outward(1.5606, "upper", decimals=2)), str(outward(1.5606, "lower", decimals=2))
    ('1.57', '1.56')
    >>> str(outward(0.29, "upper", decimals=2))  # the float 0.29 is 0.28999…: up gives 0.29
    '0.29'
    """
    if not isinstance(side, str) or side not in _SIDES:
        raise ValueError(f"side must be one of {_SIDES} (got {side!r:.60})")
    _check_digits(decimals, significant)
    v = _check_value(value, "value")
    if math.isinf(v):
        return v
    exact = Decimal(v)
    if v == 0.0:
        return Decimal(0)
    if significant is not None:
        decimals = significant - 1 - (exact.adjusted())
    quantum = Decimal(1).scaleb(-decimals)
    rounding = ROUND_CEILING if side == "upper" else ROUND_FLOOR
    return exact.quantize(quantum, rounding=rounding, context=_EXACT)


def _text(d, decimals, significant):
    if isinstance(d, float):  # ±inf
        return "inf" if d > 0 else "-inf"
    if significant is not None:
        # the g style of Python's format: the float nearest a decimal of ≤ 30 significant digits prints
        # back to the same digits at that many significant digits, so this shows d exactly
        return format(float(d), f".{significant}g") if significant <= 15 else format(d.normalize(), "g")
    return format(d, f".{decimals}f")


def bound_text(value, side, *, decimals=None, significant=None):
    """A bound as text, rounded outward: an upper bound up, a lower bound down (see :func:`outward`).

    ``significant`` prints in the ``g`` style (``format(x, ".6g")``), ``decimals`` in the ``f`` style.

    Examples
    --------
    >>> bound_text(34.180235, "upper", decimals=3), bound_text(2.0, "upper", significant=6)
    ('34.181', '2')
    """
    return _text(outward(value, side, decimals=decimals, significant=significant), decimals, significant)


def bracket_text(lower, upper, *, decimals=None, significant=None):
    """A bracket as ``"[lower, upper]"``: the lower end rounded down, the upper end up.

    Raises
    ------
    ValueError
        If ``lower > upper``, or as :func:`outward`.

    Examples
    --------
    >>> bracket_text(1.56055, 1.56063, decimals=2)  # rounded to nearest this would be [1.56, 1.56]
    '[1.56, 1.57]'
    >>> bracket_text(34.1802345, 34.1836512, decimals=4)
    '[34.1802, 34.1837]'
    """
    lo, hi = _check_value(lower, "lower"), _check_value(upper, "upper")
    if lo > hi:
        raise ValueError(f"a bracket needs lower <= upper (got lower = {lo!r}, upper = {hi!r})")
    return (f"[{bound_text(lo, 'lower', decimals=decimals, significant=significant)}, "
            f"{bound_text(hi, 'upper', decimals=decimals, significant=significant)}]")


def certified_digits(lower, upper, *, max_decimals=15):
    """The decimal digits a bracket certifies: the longest truncation shared by both ends, with "…".

    If lower ≤ x ≤ upper and both ends begin with the same digits up to the d-th decimal
    (both round *down* to the same number at d decimals), then x begins with them too. The text is
    those digits followed by "…"; when the ends agree to ``max_decimals`` decimals (or are equal) no
    "…" is added.

    Parameters
    ----------
    lower, upper : float, 0 ≤ lower ≤ upper < inf (a non-negative quantity; for a negative one,
        print the bracket)
    max_decimals : int in [0, 30]

    Returns
    -------
    str

    Raises
    ------
    ValueError
        If the ends are not ordered, negative or infinite.

    Examples
    --------
    >>> certified_digits(34.1802345, 34.1836512)
    '34.18…'
    >>> certified_digits(1.9999973, 1.9999981)
    '1.99999…'
    >>> certified_digits(1.4, 1.9)  # only the integer part is certified
    '1.…'
    """
    lo, hi = _check_value(lower, "lower"), _check_value(upper, "upper")
    if not (0.0 <= lo <= hi < math.inf):
        raise ValueError(f"certified_digits needs 0 <= lower <= upper < inf (got lower = {lo!r}, upper = {hi!r})")
    if isinstance(max_decimals, bool) or not isinstance(max_decimals, int) or not 0 <= max_decimals <= 30:
        raise ValueError(f"max_decimals must be an integer in [0, 30] (got {max_decimals!r})")
    shared = None
    for d in range(max_decimals + 1):
        a, b = outward(lo, "lower", decimals=d), outward(hi, "lower", decimals=d)
        if a != b:
            break
        shared = (d, a)
    else:
        return format(shared[1], f".{shared[0]}f")
    if shared is None:  # not even the integer part is shared
        raise ValueError(f"lower = {lo!r} and upper = {hi!r}: the bracket certifies no digit (not even the integer "
                         f"part is shared); print it as a bracket (bracket_text)")
    d, a = shared
    return (format(a, f".{d}f") if d else format(a, "f") + ".") + "…"
