r"""Empirical risk minimisation on small synthetic data: the data set and the minimisers.

:func:`synthetic_classification` draws the data set (Gaussian features, noisy
linear labels ±1). :func:`erm_squared`, :func:`erm_logistic` and
:func:`erm_hinge` release θ* = argmin_θ Σᵢ ℓ(θ, xᵢ) for the squared, logistic
and hinge losses (scipy's L-BFGS-B through :func:`_minimise`, SLSQP for the
hinge loss); :func:`geometric_median` is the unsupervised ERM with
ℓ(θ, x) = ‖θ − x‖ (Weiszfeld's iteration). The helpers shared with the other
modules of :mod:`dpnotes.learning` (public, not re-exported) are the argument check
:func:`check_xy`, the seeded generator :func:`rng_from_seed`, the overflow-free
:func:`log1pexp` and the work limit :data:`MAX_WORK`.
"""

import numpy as np
from scipy import optimize
from scipy.special import expit

from .._validation import (
    check_array,
    check_cost,
    check_count,
    check_int,
    check_nonnegative,
    check_positive,
    check_probability,
    check_work,
    named_shapes,
)


#: the most per-record gradient evaluations (steps · trials · n · d) one experiment may take
MAX_WORK = 10**9


def rng_from_seed(seed):
    """A new numpy ``Generator`` seeded with ``seed``, an integer in [0, 2⁶³ − 1] (ValueError otherwise)."""
    return np.random.default_rng(check_int(seed, "seed", maximum=2**63 - 1))


@named_shapes
def synthetic_classification(n, d, seed=0, label_noise=0.1):
    r"""A small synthetic data set: Gaussian features and noisy linear labels in {−1, +1}.

    .. math:: x_i \sim \mathcal N(0, I_d/d),\quad y_i = \pm\operatorname{sign}\langle w, x_i\rangle,
              \quad w \sim \mathcal N(0, I_d),

    the sign being flipped with probability ``label_noise``.

    Parameters
    ----------
    n, d : int, ≥ 1
    seed : int
    label_noise : float, the flip probability, in [0, 1]

    Returns
    -------
    x : ndarray, shape (n, d)
    y : ndarray, shape (n,), entries ±1

    Raises
    ------
    ValueError
        If n or d is not a positive integer, or label_noise ∉ [0, 1].

    References
    ----------
    Source S3, "Statistical learning" (the data set D = {(x₁, y₁), …, (xₙ, yₙ)}).

    Examples
    --------
    >>> x, y = synthetic_classification(5, 3, seed=1)
    >>> x.shape, sorted(set(y.tolist())) <= [-1.0, 1.0]
    ((5, 3), True)
    """
    n = int(check_count(n, "n"))
    d = int(check_count(d, "d"))
    check_work(float(n) * d, MAX_WORK, f"n = {n} records of d = {d} features", "use a smaller n or d")
    # x (n × d doubles), the draws behind it and the labels; about 15 ns an entry
    check_cost(f"synthetic_classification(n = {n}, d = {d})", "use a smaller n or d",
               seconds=1.5e-8 * n * d, nbytes=8.0 * (2.0 * n * d + 4.0 * n))
    eta = float(check_probability(label_noise, "label_noise"))
    rng = rng_from_seed(seed)
    w = rng.standard_normal(d)
    x = rng.standard_normal((n, d)) / np.sqrt(d)
    y = np.where(x @ w >= 0, 1.0, -1.0)
    flip = rng.random(n) < eta
    return x, np.where(flip, -y, y)


def check_xy(x, y):
    """Checked ``(x, y)``: x as a 2-D float array (one row per record), y as a 1-D float array of as many rows.

    Raises
    ------
    ValueError
        If x or y is empty, not finite, of the wrong dimension, or their row counts differ.
    """
    x = np.atleast_2d(check_array(x, "x", ndim=(1, 2)))
    y = check_array(y, "y")
    if x.shape[0] != y.shape[0]:
        raise ValueError(f"x and y must have the same number of rows (got {x.shape[0]} and {y.shape[0]})")
    return x, y


def _as_theta(theta, d, name):
    t = check_array(theta, name)
    if t.shape != (d,):
        raise ValueError(f"{name} must have shape ({d},), one entry per column of x (got {t.shape})")
    return t


@named_shapes
def erm_squared(x, y, reg=0.0, theta0=None):
    r"""ERM with the squared loss (linear regression), solved by L-BFGS.

    .. math:: \theta^* = \arg\min_\theta \frac1n\sum_i (y_i - \langle\theta, x_i\rangle)^2
              + \frac{\gamma}{2}\|\theta\|^2

    Parameters
    ----------
    x : array, shape (n, d)
    y : array, shape (n,)
    reg : float, the regularisation weight γ ≥ 0
    theta0 : array, optional (starting point; default 0)

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    ValueError
        If shapes disagree, data are not finite, or γ < 0.

    References
    ----------
    Source S3, "Example 1: linear regression"; source S0, §1 (convex loss minimisation).

    Examples
    --------
    >>> np.round(erm_squared([[1.0], [2.0]], [2.0, 4.0]), 6)
    array([2.])
    """
    x, y = check_xy(x, y)
    lam = float(check_nonnegative(reg, "reg"))
    n = x.shape[0]

    def fun(th):
        r = x @ th - y
        return r @ r / n + 0.5 * lam * th @ th, 2.0 * x.T @ r / n + lam * th

    return _minimise(fun, x.shape[1], theta0)


def _minimise(fun, d, theta0):
    th0 = np.zeros(d) if theta0 is None else _as_theta(theta0, d, "theta0")
    res = optimize.minimize(fun, th0, jac=True, method="L-BFGS-B",
                            options=dict(maxiter=5000, gtol=1e-12, ftol=1e-15))
    return res.x


def log1pexp(u):
    """log(1 + e^u) = logaddexp(0, u), elementwise, without overflow for large u."""
    return np.logaddexp(0.0, u)


@named_shapes
def erm_logistic(x, y, reg=1e-3, theta0=None):
    r"""ERM with the logistic loss, solved by L-BFGS.

    .. math:: \theta^* = \arg\min_\theta \frac1n\sum_i \log\big(1 + e^{-y_i\langle\theta, x_i\rangle}\big)
              + \frac{\gamma}{2}\|\theta\|^2

    Parameters
    ----------
    x : array, shape (n, d)
    y : array, shape (n,), entries ±1
    reg : float, the regularisation weight γ ≥ 0 (γ > 0 keeps the minimiser finite on separable data)
    theta0 : array, optional

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    ValueError
        If shapes disagree, data are not finite, or γ < 0.

    References
    ----------
    Source S3, "Example 2: logistic regression" (ℓ(θ,(x,y)) = log(1 + e^{−y⟨θ,x⟩})).

    Examples
    --------
    >>> th = erm_logistic([[1.0], [-1.0], [1.0]], [1.0, -1.0, -1.0], reg=0.1)
    >>> round(float(th[0]), 4)  # solves (s(θ) − 2s(−θ))/3 + γθ = 0, s the sigmoid, γ = 0.1
    0.4827
    """
    x, y = check_xy(x, y)
    lam = float(check_nonnegative(reg, "reg"))
    n = x.shape[0]

    def fun(th):
        m = y * (x @ th)
        val = np.sum(log1pexp(-m)) / n + 0.5 * lam * th @ th
        grad = -(x.T @ (y * expit(-m))) / n + lam * th
        return val, grad

    return _minimise(fun, x.shape[1], theta0)


@named_shapes
def erm_hinge(x, y, reg=0.1):
    r"""ERM with the hinge loss (the convex surrogate of the 0-1 loss; a linear SVM).

    .. math:: \theta^* = \arg\min_\theta \frac1n\sum_i \max\{0, 1 - y_i\langle\theta, x_i\rangle\}
              + \frac{\gamma}{2}\|\theta\|^2,

    solved exactly as the smooth program min γ/2‖θ‖² + (1/n)Σξᵢ subject to
    ξᵢ ≥ 0, ξᵢ ≥ 1 − yᵢ⟨θ, xᵢ⟩ (scipy's SLSQP; ξᵢ are slack variables).

    Parameters
    ----------
    x : array, shape (n, d)
    y : array, shape (n,), entries ±1
    reg : float, the regularisation weight γ > 0

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    ValueError
        If shapes disagree, data are not finite, or γ ≤ 0.

    References
    ----------
    Source S3, "Example 3: support vector machine" (the 0-1 loss and its convex surrogate).

    Examples
    --------
    >>> th = erm_hinge([[1.0], [-1.0]], [1.0, -1.0], reg=0.1)
    >>> round(float(th[0]), 4)  # the margin constraint y⟨θ,x⟩ ≥ 1 is active
    1.0
    """
    x, y = check_xy(x, y)
    lam = float(check_positive(reg, "reg"))
    n, d = x.shape
    # SLSQP on n + d variables: a dense (n + d)-column Jacobian and least-squares subproblem per
    # iteration, and iterations growing with n (measured: about 1.2 s at n = 100, 7 s at n = 400)
    m = float(n + d)
    check_cost(f"erm_hinge on x of shape {x.shape} (SLSQP on {n + d} variables)",
               "use fewer records (n ≲ 500) or a subsample", seconds=0.012 * m + 3e-9 * m**3,
               nbytes=8.0 * 6 * m * m)
    yx = y[:, None] * x

    def obj(v):
        th, xi = v[:d], v[d:]
        return 0.5 * lam * th @ th + xi.sum() / n

    def obj_grad(v):
        return np.concatenate([lam * v[:d], np.full(n, 1.0 / n)])

    cons = [dict(type="ineq", fun=lambda v: yx @ v[:d] + v[d:] - 1.0,
                 jac=lambda v: np.hstack([yx, np.eye(n)]))]
    bounds = [(None, None)] * d + [(0.0, None)] * n
    v0 = np.concatenate([np.zeros(d), np.ones(n)])
    res = optimize.minimize(obj, v0, jac=obj_grad, constraints=cons, bounds=bounds, method="SLSQP",
                            options=dict(maxiter=1000, ftol=1e-14))
    return res.x[:d]


@named_shapes
def geometric_median(points, tol=1e-12, max_iter=10_000):
    r"""The geometric median argmin_θ Σᵢ ‖θ − xᵢ‖₂ (Weiszfeld's iteration).

    .. math:: \theta_{t+1} = \frac{\sum_i x_i/\|\theta_t - x_i\|}{\sum_i 1/\|\theta_t - x_i\|}

    When an iterate lands on a data point xⱼ, the point is optimal iff the
    norm of Σ_{i≠j}(xⱼ − xᵢ)/‖xⱼ − xᵢ‖ is at most its multiplicity (Kuhn's
    test); otherwise the iteration steps off it (Vardi–Zhang).

    Parameters
    ----------
    points : array, shape (n, d) or (n,)
    tol : float, > 0 (stop when the step is below tol·(1 + ‖θ‖))
    max_iter : int

    Returns
    -------
    ndarray, shape (d,)

    Raises
    ------
    ValueError
        If the points are empty or not finite.

    References
    ----------
    Source S3, "4. Geometric median" (unsupervised ERM with ℓ(θ, x) = ‖θ − x‖);
    Weiszfeld (1937); Vardi and Zhang (2000).

    Examples
    --------
    >>> geometric_median([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]).round(8).tolist()
    [0.5, 0.5]
    >>> geometric_median([3.0, -1.0, 10.0]).tolist()  # 1-D: the median, itself a data point
    [3.0]
    """
    x = check_array(points, "points", ndim=(1, 2))
    if x.ndim == 1:
        x = x[:, None]
    check_positive(tol, "tol")
    max_iter = check_int(max_iter, "max_iter", minimum=1, maximum=10**7)
    theta = x.mean(axis=0)
    for _ in range(max_iter):
        diff = theta - x
        dist = np.linalg.norm(diff, axis=1)
        at = dist <= 1e-14 * (1.0 + np.linalg.norm(theta))
        if np.any(at):
            others = ~at
            if not np.any(others):
                return theta
            r = np.linalg.norm(np.sum(diff[others] / dist[others, None], axis=0))
            if r <= at.sum():
                return theta  # a data point is the minimiser
            w = 1.0 / dist[others]
            t_new = (w @ x[others]) / w.sum()
            # Vardi–Zhang step off the data point
            eta = at.sum() / r
            t_new = (1.0 - eta) * t_new + eta * theta if eta < 1 else theta
        else:
            w = 1.0 / dist
            t_new = (w @ x) / w.sum()
        if np.linalg.norm(t_new - theta) <= tol * (1.0 + np.linalg.norm(theta)):
            return t_new
        theta = t_new
    return theta
