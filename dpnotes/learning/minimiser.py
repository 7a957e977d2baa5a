r"""What the minimiser reveals: the 1-D location ERM and how far it moves with one record.

:func:`location_minimiser` is θ* for the absolute loss (the median) or the
squared loss (the mean); :func:`minimiser_path` follows θ* as one record is
moved, and :func:`replace_one_sensitivity` is the largest change of θ* when one
record is replaced by any value of a range (the median of an odd number of
points is itself a data point, so releasing it reveals one).
"""

import numpy as np

from .._validation import check_array, check_choice, check_count, check_real, check_work, named_shapes


_LOCATION = ("median", "mean")


@named_shapes
def location_minimiser(values, estimator="median"):
    r"""The 1-D location ERM θ* = argmin Σᵢ ℓ(θ − xᵢ): absolute loss (median) or squared loss (mean).

    .. math:: \text{median: } \arg\min_\theta \sum_i |\theta - x_i|,\qquad
              \text{mean: } \arg\min_\theta \sum_i (\theta - x_i)^2

    For an even number of points the absolute loss is minimised by the whole
    middle interval; the midpoint (numpy's convention) is returned.

    Parameters
    ----------
    values : array, shape (..., n) (the last axis holds the records)
    estimator : {"median", "mean"}

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If the estimator is unknown or values are not finite.

    References
    ----------
    Source S3, "Revealing θ* might compromise privacy" (the median of an odd number of points is a point).

    Examples
    --------
    >>> location_minimiser([0.3, 5.0, -2.0])
    0.3
    """
    check_choice(estimator, "estimator", _LOCATION)
    v = check_real(values, "values", allow_inf=False)
    if v.ndim == 0:
        raise ValueError("values must be an array of at least one value (got a single number)")
    s = np.sort(v, axis=-1)
    n = s.shape[-1]
    if estimator == "mean":
        out = s.sum(axis=-1) / n
    elif n % 2:
        out = s[..., n // 2]
    else:
        out = 0.5 * (s[..., n // 2 - 1] + s[..., n // 2])
    return float(out) if np.ndim(out) == 0 else out


@named_shapes
def minimiser_path(data, index, positions, estimator="median"):
    r"""θ* as record ``index`` is moved to each of ``positions`` (the others fixed).

    .. math:: u \mapsto \theta^*(x_1, \dots, x_{i-1}, u, x_{i+1}, \dots, x_n)

    Parameters
    ----------
    data : array, shape (n,)
    index : int, 0 ≤ index < n
    positions : array of float
    estimator : {"median", "mean"}

    Returns
    -------
    ndarray, same shape as positions

    Raises
    ------
    ValueError
        If index is out of range or the estimator unknown.

    References
    ----------
    Source S3 (S3-08): the minimiser moves with one record.

    Examples
    --------
    >>> minimiser_path([0.0, 1.0, 2.0], 1, [-5.0, 0.5, 5.0]).tolist()
    [0.0, 0.5, 2.0]
    """
    x = check_array(data, "data")
    i = int(check_count(index, "index", minimum=0))
    if i >= x.size:
        raise ValueError(f"index must be in [0, len(data) − 1] = [0, {x.size - 1}] (got {i})")
    t = check_real(positions, "positions", allow_inf=False)
    check_choice(estimator, "estimator", _LOCATION)
    grid = np.broadcast_to(x, t.shape + x.shape).copy()
    grid[..., i] = t
    return np.asarray(location_minimiser(grid, estimator))


@named_shapes
def replace_one_sensitivity(data, low, high, estimator="median"):
    r"""The largest change of θ* when one record is replaced by any value in [low, high].

    .. math:: \Delta\theta^* = \max_i \sup_{u\in[\mathrm{low}, \mathrm{high}]} |\theta^*(x) - \theta^*(x_{i\to u})|

    Both the mean and the median are non-decreasing in each record, so the
    supremum over u is attained at u = low or u = high; the function evaluates
    those 2n replacements.

    Parameters
    ----------
    data : array, shape (n,), values in [low, high]
    low, high : float, low < high
    estimator : {"median", "mean"}

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If low ≥ high or data fall outside [low, high].

    References
    ----------
    Source S3 (S3-08); for the median of an odd number 2j+1 of points the answer
    is max(x₍ⱼ₊₂₎ − x₍ⱼ₊₁₎, x₍ⱼ₊₁₎ − x₍ⱼ₎) (order statistics), for the mean
    (high − low)/n.

    Examples
    --------
    >>> replace_one_sensitivity([0.0, 0.1, 0.5, 0.9, 1.0], 0.0, 1.0)
    0.4
    >>> round(replace_one_sensitivity([0.0, 0.1, 0.5, 0.9, 1.0], 0.0, 1.0, "mean"), 12)
    0.2
    """
    x = check_array(data, "data")
    low = float(check_real(low, "low", allow_inf=False))
    high = float(check_real(high, "high", allow_inf=False))
    check_choice(estimator, "estimator", _LOCATION)
    check_work(2.0 * x.size**2, 1e8, f"data of {x.size} values (n² replacements)", "use fewer values")
    if not low < high:
        raise ValueError(f"low must be < high (got {low}, {high})")
    if np.any((x < low) | (x > high)):
        raise ValueError(f"data must lie in [low, high] = [{low}, {high}]")
    base = location_minimiser(x, estimator)
    rep = np.broadcast_to(x, (2, x.size, x.size)).copy()
    idx = np.arange(x.size)
    rep[0, idx, idx] = low
    rep[1, idx, idx] = high
    return float(np.max(np.abs(location_minimiser(rep, estimator) - base)))
