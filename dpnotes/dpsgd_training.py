r"""DP-SGD itself: the training loop of Abadi et al. (2016), small enough to read.

:func:`dp_sgd` trains a model by differentially private stochastic gradient
descent: Poisson-sampled batches, per-example gradients clipped to norm C, the
clipped sum made noisy with :math:`\mathcal N(0, \sigma^2C^2I)`. Its privacy is
accounted by :mod:`dpnotes.dpsgd` (RDP) and :mod:`dpnotes.pld` (privacy loss
distributions): every step is the sampled Gaussian mechanism with sampling rate
q and noise multiplier σ.
"""

import numpy as np
from scipy.special import expit

from ._validation import (
    check_array,
    check_cost,
    check_count,
    check_int,
    check_interval,
    check_nonnegative,
    check_positive,
    check_real,
    check_work,
    named_shapes,
)

__all__ = ["clip_rows", "logistic_gradients", "dp_sgd"]


_MAX_WORK = 1e10  # the most per-record gradient entries (steps · n · d) one run may compute


def _real_array(value, name, what):
    """``value`` as a float array (it may be empty: a batch may be), or a TypeError naming ``name``."""
    if value is None or isinstance(value, (str, bytes)):
        raise TypeError(f"{name} must be an array of real {what} (got {type(value).__name__})")
    try:
        return np.asarray(value, dtype=float)
    except (TypeError, ValueError) as err:
        raise TypeError(f"{name} must be an array of real {what} ({err})") from err


def _as_rows(g, name, promote=False):
    """A 2-D float array of rows (with ``promote``, a 1-D array is one row); it may have no rows (an empty batch)."""
    arr = _real_array(g, name, "rows")
    arr = np.atleast_2d(arr) if promote and arr.ndim < 2 else arr
    if arr.ndim != 2 or arr.shape[1] == 0:
        raise ValueError(f"{name} must be two-dimensional, one record per row, with at least one column "
                         f"(got shape {arr.shape})")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite")
    return arr


def _as_records(x, y):
    """x (n, d) finite and y (n,) finite, n ≥ 0 (a batch may be empty), of matching lengths."""
    x = _as_rows(x, "x", promote=True)
    y = _real_array(y, "y", "labels")
    if y.ndim != 1 or y.shape[0] != x.shape[0]:
        raise ValueError(f"x and y must have the same number of records: y must be 1-D of length {x.shape[0]} "
                         f"(got shape {y.shape})")
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        raise ValueError("x and y must be finite")
    return x, y


def _as_theta(theta, d, name="theta"):
    """A finite parameter vector of length d."""
    t = check_real(theta, name, allow_inf=False)
    if t.shape != (d,):
        raise ValueError(f"{name} must have shape ({d},), one entry per column of x (got {t.shape})")
    return t


@named_shapes
def clip_rows(g, clip):
    r"""Each row of ``g`` clipped to ℓ2 norm at most C: :math:`g_i \min(1, C/\lVert g_i\rVert_2)`.

    A row whose norm is at most C is returned unchanged; a longer row keeps its
    direction and gets norm exactly C.

    Parameters
    ----------
    g : array, shape (b, d)
        One per-example gradient per row.
    clip : float, C > 0
        The clipping norm.

    Returns
    -------
    ndarray, shape (b, d)

    Raises
    ------
    ValueError
        If C is not positive and finite, or ``g`` is not two-dimensional.

    References
    ----------
    Abadi et al. (2016), "Deep learning with differential privacy", Algorithm 1
    (the "clip gradient" line).

    Examples
    --------
    >>> clip_rows([[3.0, 4.0], [0.3, 0.4]], 1.0)
    array([[0.6, 0.8],
           [0.3, 0.4]])
    """
    c = float(check_positive(clip, "clip"))
    g = _as_rows(g, "g")
    norms = np.linalg.norm(g, axis=1, keepdims=True)
    return g * (c / np.maximum(norms, c))  # = g·min(1, C/‖g‖): a row longer than C is scaled to norm C


@named_shapes
def logistic_gradients(theta, x, y):
    r"""Per-example gradients of the logistic loss, one row per record.

    .. math:: \nabla_\theta\,\log\big(1 + e^{-y_i\langle\theta, x_i\rangle}\big)
              = -\,y_i\,x_i\,\frac{1}{1 + e^{y_i\langle\theta, x_i\rangle}}

    Parameters
    ----------
    theta : array, shape (d,)
    x : array, shape (b, d)
    y : array, shape (b,), entries ±1

    Returns
    -------
    ndarray, shape (b, d)

    Examples
    --------
    >>> logistic_gradients(np.zeros(2), np.array([[1.0, 2.0]]), np.array([1.0]))
    array([[-0.5, -1. ]])
    """
    x, y = _as_records(x, y)
    theta = _as_theta(theta, x.shape[1])
    return -(y * expit(-y * (x @ theta)))[:, None] * x


@named_shapes
def dp_sgd(x, y, *, q, sigma, clip, lr, steps, gradients=logistic_gradients, theta0=None, rng=0):
    r"""Train by DP-SGD and return the last iterate :math:`\theta_T`.

    For :math:`t = 1, \dots, T`: keep each of the n records independently with
    probability q (a Poisson batch :math:`B_t`), compute the per-example
    gradients :math:`g_i = \nabla\ell(\theta_{t-1}; x_i, y_i)` of the batch, clip
    each to norm C, add Gaussian noise to their sum and step:

    .. math:: \theta_t = \theta_{t-1} - \frac{\eta}{qn}\Big(\sum_{i \in B_t}
              g_i\min\big(1, C/\lVert g_i\rVert_2\big) + \mathcal N(0, \sigma^2C^2 I)\Big).

    The divisor qn, the expected batch size, is a constant fixed before training.
    With σ = 0, q = 1 and C larger than every gradient this is plain gradient
    descent on the mean loss.

    Parameters
    ----------
    x : array, shape (n, d)
        Features, one record per row.
    y : array, shape (n,)
        Labels (±1 for the default logistic loss).
    q : float, q ∈ (0, 1]
        Sampling rate.
    sigma : float, σ ≥ 0
        Noise multiplier: the noise on the clipped sum has standard deviation σC.
    clip : float, C > 0
        Clipping norm.
    lr : float, η > 0
        Step size.
    steps : int, T ≥ 1
        Number of steps.
    gradients : callable, optional
        ``gradients(theta, x_batch, y_batch)`` returns the per-example gradients,
        one row per record of the batch (default: :func:`logistic_gradients`).
    theta0 : array, shape (d,), optional
        Starting point (default 0).
    rng : int or numpy.random.Generator
        The random generator that draws the batches and the noise, or an integer
        to start one with (``numpy.random.default_rng(rng)``), so that a run can
        be repeated.

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    ValueError
        Naming the parameter: q ∉ (0, 1], σ < 0, C ≤ 0, η ≤ 0, T not a positive
        integer, or x and y of different lengths.

    References
    ----------
    Abadi et al. (2016), "Deep learning with differential privacy", Algorithm 1
    (with Poisson sampling, as their accountant assumes); Song, Chaudhuri and
    Sarwate (2013) for noisy SGD; Bassily, Smith and Thakurta (2014).

    Examples
    --------
    >>> from dpnotes.learning import synthetic_classification
    >>> x, y = synthetic_classification(200, 2)
    >>> theta = dp_sgd(x, y, q=0.1, sigma=1.0, clip=1.0, lr=1.0, steps=100, rng=1)
    >>> theta.shape
    (2,)
    """
    q = float(check_interval(q, "q", 0, 1, closed_low=False))
    sigma = float(check_nonnegative(sigma, "sigma"))
    clip = float(check_positive(clip, "clip"))
    lr = float(check_positive(lr, "lr"))
    steps = int(check_count(steps, "steps"))
    x, y = _as_records(x, y)
    if x.shape[0] == 0:
        raise ValueError("x must hold at least one record")
    check_work(float(steps) * x.size, _MAX_WORK, f"steps = {steps} on x of shape {x.shape}", "use fewer steps")
    # per step: Python overhead (sampling, clipping, noise) and the gradients of the batch (measured on a busy
    # 2-core machine: 25,600 steps on 200 × 2 records in 10.6 s)
    check_cost(f"dp_sgd with steps = {steps} on x of shape {x.shape}", "use fewer steps or records",
               seconds=steps * (4e-4 + 5e-8 * q * x.size), nbytes=8.0 * 6 * x.size)
    if not callable(gradients):
        raise TypeError(f"gradients must be a callable (theta, x_batch, y_batch) → rows (got {type(gradients).__name__})")
    if not isinstance(rng, np.random.Generator):
        rng = check_int(rng, "rng", maximum=2**63 - 1)
    rng = np.random.default_rng(rng)
    n = len(y)
    if theta0 is None:
        theta = np.zeros(x.shape[1])
    elif gradients is logistic_gradients:
        theta = _as_theta(theta0, x.shape[1], "theta0").copy()
    else:  # a model of its own: any finite parameter vector
        theta = check_array(theta0, "theta0").copy()
    for _ in range(steps):
        batch = rng.random(n) < q                  # 1. Poisson sampling at rate q
        g = gradients(theta, x[batch], y[batch])   # 2. per-example gradients, one per row
        g = clip_rows(g, clip)                     # 3. clip each row to norm at most C
        noise = rng.normal(0.0, sigma * clip, size=theta.shape)  # N(0, σ²C² I)
        s = g.sum(axis=0) + noise                  # 4. the noisy sum
        theta = theta - lr * s / (q * n)           # 5. step; qn is the expected batch size
        if not np.all(np.isfinite(theta)):
            raise ValueError(f"dp_sgd: the iterate left the float range at step {_ + 1} of {steps} (lr = {lr:g}, "
                             f"clip = {clip:g}, sigma = {sigma:g}, q = {q:g}); use a smaller lr, clip or sigma")
    return theta
