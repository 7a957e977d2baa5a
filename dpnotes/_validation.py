"""Argument checks shared by every module.

Each check converts its argument to a float ndarray (so functions broadcast)
and raises ``ValueError`` naming the parameter and its allowed range.
"""

from types import MappingProxyType

import numpy as np


#: the most entries of one array argument: 10⁷ doubles (80 MB); the intermediate arrays of a call (a dozen or more of
#: its arguments' size) then stay within :data:`MAX_BYTES`
MAX_ARRAY_ENTRIES = 10**7


def _as_float(x, name):
    """``x`` as a float ndarray; ``TypeError`` for non-numbers (strings, None, complex), ``ValueError``
    for ragged or empty arrays and NaN, each naming the parameter."""
    if x is None or isinstance(x, (str, bytes)):
        raise TypeError(f"{name} must be a real number or an array of reals (got {type(x).__name__} {x!r:.40})")
    try:
        raw = np.asarray(x)
    except ValueError as err:
        raise ValueError(f"{name} must be a real number or a rectangular array of reals ({err})") from err
    try:
        if raw.dtype.kind not in "biufO":  # complex, strings, dates
            raise TypeError(raw.dtype)
        arr = raw.astype(float)  # object arrays: Fraction, mpmath and sympy numbers convert; others raise
    except OverflowError as err:  # a Python int (or Fraction) of magnitude ≥ 2**1024
        raise ValueError(f"{name} must be a real number of magnitude below 2**1024 ≈ 1.8e308, the largest "
                         f"float (got {type(x).__name__} {str(x)[:30]}...)") from err
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} must be a real number or an array of reals (got {type(x).__name__} of dtype "
                        f"{raw.dtype})") from err
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty (got an array of shape {arr.shape})")
    if arr.size > MAX_ARRAY_ENTRIES:
        raise ValueError(f"{name} holds {arr.size:.3g} entries (limit {MAX_ARRAY_ENTRIES:.0e}): a call makes a dozen or "
                         f"more arrays of its arguments' size, about {16 * 8 * arr.size / 2**30:.3g} GiB here against the "
                         f"{MAX_BYTES / 2**30:.1f} GiB limit; pass fewer entries, in several calls")
    if np.any(np.isnan(arr)):
        raise ValueError(f"{name} must not be NaN")
    return arr


def check_order(alpha, name="alpha", *, allow_one=False, allow_inf=False):
    """Rényi order: α > 1 (or α ≥ 1 with ``allow_one``), finite unless ``allow_inf``."""
    arr = _as_float(alpha, name)
    low_ok = arr >= 1 if allow_one else arr > 1
    high_ok = np.ones_like(low_ok) if allow_inf else np.isfinite(arr)
    if not np.all(low_ok & high_ok):
        lo = "[1" if allow_one else "(1"
        hi = "∞]" if allow_inf else "∞)"
        bad = arr[~(low_ok & high_ok)] if arr.ndim else arr
        raise ValueError(f"{name} must be in {lo}, {hi} (got {np.ravel(bad)[:3]})")
    return arr


def check_positive(x, name, *, allow_inf=False):
    """Strictly positive (and finite unless ``allow_inf``)."""
    arr = _as_float(x, name)
    ok = (arr > 0) & (np.ones_like(arr, dtype=bool) if allow_inf else np.isfinite(arr))
    if not np.all(ok):
        bad = arr[~ok] if arr.ndim else arr
        raise ValueError(f"{name} must be in (0, ∞) (got {np.ravel(bad)[:3]})")
    return arr


#: the most grid points of one privacy loss distribution (an FFT of 2²⁴ doubles, about 0.5 s)
MAX_GRID_POINTS = 2**23


def check_grid_points(n, what, remedy):
    """Refuse, before any work, a loss grid of more than :data:`MAX_GRID_POINTS` points."""
    if not n <= MAX_GRID_POINTS:
        raise ValueError(f"{what} needs about {n:.3g} grid points (limit {MAX_GRID_POINTS}); {remedy}")


def check_tail_mass(tail_mass):
    """tail_mass ∈ (0, 10⁻²]: the mass cut from each tail of a loss grid (a cut of 0 would keep an infinite grid)."""
    return float(check_interval(tail_mass, "tail_mass", 0.0, 1e-2, closed_low=False))


def check_nonnegative(x, name, *, allow_inf=False):
    """Non-negative (and finite unless ``allow_inf``)."""
    arr = _as_float(x, name)
    ok = (arr >= 0) & (np.ones_like(arr, dtype=bool) if allow_inf else np.isfinite(arr))
    if not np.all(ok):
        bad = arr[~ok] if arr.ndim else arr
        raise ValueError(f"{name} must be in [0, ∞) (got {np.ravel(bad)[:3]})")
    return arr


def check_interval(x, name, low, high, *, closed_low=True, closed_high=True):
    """``low ≤ x ≤ high`` with the given open/closed ends."""
    arr = _as_float(x, name)
    ok_low = arr >= low if closed_low else arr > low
    ok_high = arr <= high if closed_high else arr < high
    ok = ok_low & ok_high
    if not np.all(ok):
        bad = arr[~ok] if arr.ndim else arr
        lo = "[" if closed_low else "("
        hi = "]" if closed_high else ")"
        raise ValueError(f"{name} must be in {lo}{low}, {high}{hi} (got {np.ravel(bad)[:3]})")
    return arr


def check_probability(q, name="q"):
    """A probability (sampling rate): q ∈ [0, 1]."""
    return check_interval(q, name, 0, 1)


def check_delta(delta, name="delta"):
    """A failure probability: δ ∈ (0, 1)."""
    return check_interval(delta, name, 0, 1, closed_low=False, closed_high=False)


def check_count(k, name, *, minimum=1, maximum=None):
    """An integer count in [``minimum``, ``maximum``] (accepts integer-valued floats)."""
    arr = _as_float(k, name)
    ok = np.isfinite(arr) & (arr >= minimum) & (arr == np.round(arr))
    if maximum is not None:
        ok &= arr <= maximum
    if not np.all(ok):
        bad = arr[~ok] if arr.ndim else arr
        rng = f"≥ {minimum}" if maximum is None else f"in [{minimum}, {maximum:g}]"
        raise ValueError(f"{name} must be an integer {rng} (got {np.ravel(bad)[:3]})")
    return arr


def check_work(estimate, limit, what, remedy):
    """Refuse, before any work, a computation whose estimated size ``estimate`` exceeds ``limit``."""
    if not estimate <= limit:
        raise ValueError(f"{what} needs about {estimate:.3g} operations or points (limit {limit:.3g}); {remedy}")


#: the most memory one public call may allocate (bytes): 2 GB with room for the interpreter and its inputs
MAX_BYTES = 1.5 * 2**30
#: the most time one public call may take on a 2-core machine (estimated from measured rates)
MAX_SECONDS = 10.0


class AccuracyWarning(RuntimeWarning):
    """A result less accurate than the caller asked for (a bracket wider than ``rel_width``, a grid coarser
    than asked), still a valid bound; the functions that emit it say so in their docstrings. A subclass of
    ``RuntimeWarning`` (so filters on that still see it), told apart from numpy's warnings of an intermediate
    step, which never reach the caller. Exported as ``dpnotes.AccuracyWarning`` (from :mod:`dpnotes.dpsgd`, where
    its users meet it: ``warnings.simplefilter("error", dpnotes.AccuracyWarning)`` turns a miss into an error)."""

    __module__ = "dpnotes.dpsgd"  # its public home (re-exported there); the API page and pickling name it so


def check_cost(what, remedy, *, seconds=0.0, nbytes=0.0):
    """Refuse, before any allocation, a call whose estimated time or memory exceeds the limits.

    ``seconds`` and ``nbytes`` are the caller's estimates (from the arguments that drive the cost,
    with rates measured on a 2-core machine); the message names both, the limits and ``remedy``
    (what to change).
    """
    if not (seconds <= MAX_SECONDS and nbytes <= MAX_BYTES):
        raise ValueError(f"{what} needs about {seconds:.3g} s and {nbytes / 2**20:.4g} MB (limits {MAX_SECONDS:g} s and "
                         f"{MAX_BYTES / 2**20:.0f} MB); {remedy}")


class TimeBudget:
    """Estimated seconds a public call may still spend on a loop whose cost shows only as it runs.

    An up-front estimate (:func:`check_cost`) can be short where the work depends on what the
    loop computes (the windows of repeated squaring, :meth:`dpnotes.pld.LossGrid.self_compose`).
    The loop then charges each step's estimated cost, from the sizes it is about to process and a
    measured rate, *before* doing it; :meth:`spend` refuses the step that would pass ``seconds``
    in total, so the call ends within about the limit (in estimated, not wall-clock, time: the
    outcome does not depend on the machine's load). One budget can be shared by several loops
    of one call (the grids of a privacy loss distribution).
    """

    def __init__(self, seconds=MAX_SECONDS):
        self.seconds = float(check_positive(seconds, "seconds"))
        self.spent = 0.0

    def spend(self, seconds, what, remedy):
        """Charge ``seconds``; raise ``ValueError`` naming ``what`` and ``remedy`` if the total would pass the budget."""
        if not self.spent + seconds <= self.seconds:
            raise ValueError(f"{what} needs more than its estimate: {self.spent:.3g} s spent, the next step "
                             f"about {seconds:.3g} s more (limit {self.seconds:g} s); {remedy}")
        self.spent += seconds


#: seconds per bin of a loss range put on a grid (:mod:`dpnotes.pld.discretise`) on this 2-core machine, by method
#: and bound: connect-the-dots' upper bound (its split certified and checked by quadrature, 8 nodes a bin), its
#: merged lower bound (four quadratures: three balancing passes) and rounding (masses only); about 1.5× the largest
#: rates measured over the Gaussian, Laplace and subsampled-Gaussian laws (q = 10⁻⁴…0.5, σ = 0.5…2, both
#: directions, 10⁶ bins): 0.60 (idle), 1.65 (next to another job) and 0.08 µs (a whole
#: ``pld_subsampled_gaussian(0.01, 1.0, interval=1e-6)``: 0.69 µs a bin)
DISCRETISATION_SECONDS_PER_BIN = MappingProxyType({("dots", True): 1e-6, ("dots", False): 2.4e-6,
                                                   ("round", True): 1e-7, ("round", False): 1e-7})
#: peak bytes of the same calls (tracemalloc): a fixed part (the quadrature runs in chunks of 2¹⁶ bins, 8 nodes
#: each) and a part per bin; measured at most 41 MB at 10⁵ bins and 143–230 bytes a bin at 10⁶–4·10⁶ (dots),
#: 108 (rounding)
DISCRETISATION_FIXED_BYTES = 48.0 * 2**20
DISCRETISATION_BYTES_PER_BIN = MappingProxyType({"dots": 224.0, "round": 128.0})


def discretisation_cost(spans, interval, method, pessimistic):
    r"""(seconds, bytes, bins) estimated for putting loss ranges ``spans`` ((lo, hi) each) on grids of spacing
    ``interval`` (:mod:`dpnotes.pld.discretise`).

    Each range takes n = (hi − lo)/h + 3 bins at the measured rates :data:`DISCRETISATION_SECONDS_PER_BIN`
    and :data:`DISCRETISATION_BYTES_PER_BIN`; the ranges are discretised one after the other, so the time is
    the sum and the memory the largest peak (plus :data:`DISCRETISATION_FIXED_BYTES`) and the kept grids
    (8 bytes a point).
    """
    bins = [(hi - lo) / interval + 3.0 for lo, hi in spans]
    seconds = DISCRETISATION_SECONDS_PER_BIN[method, bool(pessimistic)] * sum(bins)
    nbytes = DISCRETISATION_FIXED_BYTES + DISCRETISATION_BYTES_PER_BIN[method] * max(bins) + 8.0 * sum(bins)
    return seconds, nbytes, sum(bins)


def check_discretisation_cost(spans, interval, method, pessimistic, what):
    """Refuse, before any work, a discretisation (:func:`discretisation_cost`) over the time or memory limits,
    naming ``what``, the estimate, the limits and the smallest interval that fits (both costs fall like 1/h)."""
    seconds, nbytes, bins = discretisation_cost(spans, interval, method, pessimistic)
    over = max(seconds / MAX_SECONDS, (nbytes - DISCRETISATION_FIXED_BYTES) / (MAX_BYTES - DISCRETISATION_FIXED_BYTES))
    check_cost(f"{what} at interval = {interval:.3g} ({bins:.3g} bins)",
               f"use a larger interval (≥ {interval * over:.3g})", seconds=seconds, nbytes=nbytes)


def check_pmf_pair(p, q, *, require_same_support=True):
    """Two 1-D pmfs of equal length (entries ≥ 0 summing to 1), as float arrays; with
    ``require_same_support`` also the same support (where a privacy loss is defined)."""
    p = _as_float(p, "p")
    q = _as_float(q, "q")
    if p.ndim != 1 or p.shape != q.shape:
        raise ValueError(f"p and q must be 1-D pmfs of equal length (got shapes {p.shape}, {q.shape})")
    for name, v in (("p", p), ("q", q)):
        if np.any(~np.isfinite(v)) or np.any(v < 0) or not np.isclose(v.sum(), 1.0, rtol=0, atol=1e-9):
            raise ValueError(f"{name} must be a pmf: entries in [0, 1] summing to 1")
    if require_same_support and np.any((p > 0) != (q > 0)):
        raise ValueError("p and q must have the same support (the privacy loss is undefined otherwise)")
    return p, q


def vacuous_delta_as_one(delta):
    """δ capped at 1: a δ ≥ 1 says nothing (every mechanism is (ε, 1)-DP), so it is returned as 1.0; a sum
    of failure probabilities or a rounding error above 1 never leaves [0, 1]."""
    return np.minimum(delta, 1.0)


def scalar_or_array(arr):
    """Return a Python float for 0-d results, the array otherwise."""
    arr = np.asarray(arr)
    return float(arr) if arr.ndim == 0 else arr


def check_real(x, name, *, allow_inf=True):
    """Any real number or array of reals (no NaN; ±∞ unless ``allow_inf`` is False)."""
    arr = _as_float(x, name)
    if not allow_inf and not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (got {np.ravel(arr[~np.isfinite(arr)])[:3]})")
    return arr


def check_array(x, name, *, ndim=1, finite=True, min_size=1):
    """A real array of ``ndim`` dimensions (an int or a tuple of allowed ones) with ≥ ``min_size`` entries
    along every axis, finite unless ``finite`` is False."""
    arr = check_real(x, name, allow_inf=not finite)
    allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
    if arr.ndim not in allowed:
        want = " or ".join(f"{k}-D" for k in allowed)
        raise ValueError(f"{name} must be a {want} array (got shape {arr.shape})")
    if any(s < min_size for s in arr.shape):
        raise ValueError(f"{name} must have at least {min_size} entries along each axis (got shape {arr.shape})")
    return arr


def check_choice(value, name, options):
    """One of ``options`` (strings); ``TypeError`` for a value that is not a string."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {tuple(options)} (got {type(value).__name__} {value!r:.40})")
    if value not in options:
        raise ValueError(f"{name} must be one of {tuple(options)} (got {value!r})")
    return value


def check_bool(value, name):
    """A bool (or numpy bool)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False (got {type(value).__name__} {value!r:.40})")
    return bool(value)


def check_int(k, name, *, minimum=0, maximum=None):
    """One integer in [minimum, maximum] (integer-valued floats accepted), as a Python int."""
    arr = _as_float(k, name)
    if arr.ndim:
        raise ValueError(f"{name} must be a single integer (got an array of shape {arr.shape})")
    v = float(arr)
    hi = "∞" if maximum is None else f"{maximum:g}"
    if not (np.isfinite(v) and v == round(v) and v >= minimum and (maximum is None or v <= maximum)):
        raise ValueError(f"{name} must be an integer in [{minimum}, {hi}] (got {v:g})")
    return int(v)


def broadcast(**arrays):
    """``np.broadcast_arrays`` of the named arrays, or a ``ValueError`` naming them and their shapes."""
    try:
        return np.broadcast_arrays(*arrays.values())
    except ValueError as err:
        shapes = ", ".join(f"{k} {np.shape(v)}" for k, v in arrays.items())
        raise ValueError(f"the shapes of {', '.join(arrays)} must broadcast together (got {shapes})") from err


#: the noise multipliers the DP-SGD routes are computed for: below, one step alone costs ε > 5000
#: (1/(2σ²)); above, the ε of 10¹² steps is below 10⁻⁹
SIGMA_RANGE = (1e-2, 1e6)
#: the most DP-SGD steps T
MAX_STEPS = 10**12


def check_noise_multiplier(sigma, name="sigma"):
    """A DP-SGD noise multiplier σ ∈ :data:`SIGMA_RANGE`, as a float."""
    return float(check_interval(sigma, name, *SIGMA_RANGE))


def check_steps(steps, name="steps"):
    """A number of DP-SGD steps T ∈ [1, :data:`MAX_STEPS`], as an int."""
    return int(check_count(steps, name, maximum=MAX_STEPS))


_SHAPE_ERRORS = ("could not be broadcast", "shape mismatch", "only 0-dimensional arrays can be converted",
                 "only length-1 arrays can be converted")


def named_shapes(fn):
    """Decorator of every public function: numpy's shape errors are re-raised naming the array arguments,
    and the function runs under its own floating-point error state.

    Arguments that must broadcast together but do not, or an array where one number is expected,
    make numpy raise messages without any parameter name; this names each array-valued argument
    with its shape (the function's own checks have already named everything else).

    The body runs inside ``np.errstate(all="ignore")``: a caller's ``np.seterr(all="raise")`` (or
    ``"warn"``) changes no value and raises nothing, and no numpy ``RuntimeWarning`` of an
    intermediate step (an exp that underflows to 0, a log of 0 that is handled) reaches the caller.
    The caller's error state is restored on return.
    """
    import functools
    import inspect

    signature = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            with np.errstate(all="ignore"):
                return fn(*args, **kwargs)
        except (ValueError, TypeError) as err:
            if not any(s in str(err) for s in _SHAPE_ERRORS):
                raise
            try:
                bound = signature.bind(*args, **kwargs)
            except TypeError:
                raise err from None
            shapes = {k: np.shape(v) for k, v in bound.arguments.items()
                      if isinstance(v, (list, tuple, np.ndarray)) and not isinstance(v, str)}
            listed = ", ".join(f"{k} {s}" for k, s in shapes.items()) or "none"
            raise type(err)(f"{fn.__name__}: the array arguments do not fit together, or an array was given "
                            f"where one number is expected (array arguments: {listed}): {err}") from err

    return wrapper


def validated_methods(cls):
    """Class decorator: every public method (and ``__call__``) of ``cls`` gets :func:`named_shapes`, so
    methods of returned objects run under their own floating-point error state like the functions."""
    for attr, value in list(vars(cls).items()):
        if (attr.startswith("_") and attr != "__call__") or not callable(value) or isinstance(value, type):
            continue
        if isinstance(value, (staticmethod, classmethod)):
            setattr(cls, attr, type(value)(named_shapes(value.__func__)))
        else:
            setattr(cls, attr, named_shapes(value))
    return cls


def frozen_array(values):
    """A read-only float array (an exported constant no caller can overwrite in place)."""
    arr = np.array(values, dtype=float)
    arr.flags.writeable = False
    return arr
