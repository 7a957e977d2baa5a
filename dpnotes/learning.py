"""Empirical risk minimisation, what its minimiser reveals, and DP-SGD as the remedy.

The learning problem of seeds 000 and 003: given records x₁, …, xₙ and a loss
ℓ(θ, x), release θ* = argmin_θ Σᵢ ℓ(θ, xᵢ) (ERM).  This module solves ERM for
the squared, logistic and hinge losses and the geometric median on small
synthetic data (scipy does the optimisation), measures how far θ* moves when
one record is replaced, runs a loss-threshold membership-inference attack on
an unprotected fit, and trains the same model with DP-SGD (per-example
clipping, Poisson subsampling, Gaussian noise) with its accounted ε.

Used in: book/00-why-privacy
"""

import functools

import numpy as np
from scipy import optimize
from scipy.special import expit, log1p

from ._validation import (
    check_array,
    check_choice,
    check_count,
    check_delta,
    check_int,
    check_nonnegative,
    check_positive,
    check_probability,
    check_real,
    check_work,
    named_shapes,
)
from .conversion import epsilon_from_rdp
from .dpsgd_training import clip_rows, logistic_gradients
from .orders import DEFAULT_ORDERS
from .subsampling import rdp_subsampled_gaussian

__all__ = [
    "synthetic_classification",
    "erm_squared",
    "erm_logistic",
    "erm_hinge",
    "geometric_median",
    "location_minimiser",
    "minimiser_path",
    "replace_one_sensitivity",
    "logistic_losses",
    "loss_threshold_attack_accuracy",
    "membership_accuracy_bound",
    "dpsgd_logistic",
    "dpsgd_epsilon_of",
    "membership_experiment",
]


def _rng(seed):
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
    Seed 003, "Statistical learning" (the data set D = {(x₁, y₁), …, (xₙ, yₙ)}).

    Examples
    --------
    >>> x, y = synthetic_classification(5, 3, seed=1)
    >>> x.shape, sorted(set(y.tolist())) <= [-1.0, 1.0]
    ((5, 3), True)
    """
    n = int(check_count(n, "n"))
    d = int(check_count(d, "d"))
    check_work(float(n) * d, _MAX_WORK, f"n = {n} records of d = {d} features", "use a smaller n or d")
    eta = float(check_probability(label_noise, "label_noise"))
    rng = _rng(seed)
    w = rng.standard_normal(d)
    x = rng.standard_normal((n, d)) / np.sqrt(d)
    y = np.where(x @ w >= 0, 1.0, -1.0)
    flip = rng.random(n) < eta
    return x, np.where(flip, -y, y)


def _as_xy(x, y):
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
    Seed 003, "Example 1: linear regression"; seed 000, §1 (convex loss minimisation).

    Examples
    --------
    >>> np.round(erm_squared([[1.0], [2.0]], [2.0, 4.0]), 6)
    array([2.])
    """
    x, y = _as_xy(x, y)
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


def _log1pexp(u):
    """log(1 + e^u) without overflow."""
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
    Seed 003, "Example 2: logistic regression" (ℓ(θ,(x,y)) = log(1 + e^{−y⟨θ,x⟩})).

    Examples
    --------
    >>> th = erm_logistic([[1.0], [-1.0], [1.0]], [1.0, -1.0, -1.0], reg=0.1)
    >>> round(float(th[0]), 4)  # solves (s(θ) − 2s(−θ))/3 + γθ = 0, s the sigmoid, γ = 0.1
    0.4827
    """
    x, y = _as_xy(x, y)
    lam = float(check_nonnegative(reg, "reg"))
    n = x.shape[0]

    def fun(th):
        m = y * (x @ th)
        val = np.sum(_log1pexp(-m)) / n + 0.5 * lam * th @ th
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
    Seed 003, "Example 3: support vector machine" (the 0-1 loss and its convex surrogate).

    Examples
    --------
    >>> th = erm_hinge([[1.0], [-1.0]], [1.0, -1.0], reg=0.1)
    >>> round(float(th[0]), 4)  # the margin constraint y⟨θ,x⟩ ≥ 1 is active
    1.0
    """
    x, y = _as_xy(x, y)
    lam = float(check_positive(reg, "reg"))
    n, d = x.shape
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
    Seed 003, "4. Geometric median" (unsupervised ERM with ℓ(θ, x) = ‖θ − x‖);
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
    Seed 003, "Revealing θ* might compromise privacy" (the median of an odd number of points is a point).

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
    Seed 003 (S3-08): the minimiser moves with one record.

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
    Seed 003 (S3-08); for the median of an odd number 2j+1 of points the answer
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


@named_shapes
def logistic_losses(theta, x, y):
    r"""Per-record logistic losses log(1 + e^{−yᵢ⟨θ, xᵢ⟩}).

    .. math:: \ell_i = \log\big(1 + e^{-y_i\langle\theta, x_i\rangle}\big)

    Parameters
    ----------
    theta : array, shape (d,) or (N, d) (N models at once)
    x : array, shape (n, d)
    y : array, shape (n,)

    Returns
    -------
    ndarray, shape (n,) or (N, n)

    Raises
    ------
    ValueError
        If shapes disagree.

    References
    ----------
    Seed 003, Example 2.

    Examples
    --------
    >>> round(float(logistic_losses(np.zeros(1), [[1.0]], [1.0])[0]), 6)  # log 2
    0.693147
    """
    x, y = _as_xy(x, y)
    th = check_array(theta, "theta", ndim=(1, 2))
    if th.shape[-1] != x.shape[1]:
        raise ValueError(f"theta must have {x.shape[1]} entries (one per column of x) in its last axis "
                         f"(got shape {th.shape})")
    return _log1pexp(-y * (th @ x.T))


@named_shapes
def loss_threshold_attack_accuracy(loss_in, loss_out, threshold=None):
    r"""Balanced accuracy of the loss-threshold membership attack ("member iff loss < τ").

    .. math:: \mathrm{acc} = \tfrac12\big(\Pr[\ell < \tau \mid \text{member}]
              + \Pr[\ell \ge \tau \mid \text{non-member}]\big),

    with τ the mean loss on the members by default (Yeom et al. 2018): an
    attacker who knows the model's average training loss.

    Parameters
    ----------
    loss_in, loss_out : array, shape (..., n) (losses of members and non-members)
    threshold : float or array, optional

    Returns
    -------
    float or ndarray (1/2 is guessing)

    Raises
    ------
    ValueError
        If the loss arrays are empty.

    References
    ----------
    Yeom, Giacomelli, Fredrikson and Jha (2018), "Privacy risk in machine
    learning", the threshold adversary; seed 003 (model inversion).

    Examples
    --------
    >>> loss_threshold_attack_accuracy([0.1, 0.2], [1.0, 2.0])  # τ = 0.15 misses the member at 0.2
    0.75
    >>> loss_threshold_attack_accuracy([0.1, 0.2], [1.0, 2.0], threshold=0.5)
    1.0
    """
    a = check_array(loss_in, "loss_in", ndim=(1, 2), finite=False)
    b = check_array(loss_out, "loss_out", ndim=(1, 2), finite=False)
    if a.shape[:-1] != b.shape[:-1]:
        raise ValueError(f"loss_in and loss_out must have the same leading shape (got {a.shape} and {b.shape})")
    tau = (a.mean(axis=-1, keepdims=True) if threshold is None
           else np.broadcast_to(check_real(threshold, "threshold"), a.shape[:-1])[..., None])
    acc = 0.5 * ((a < tau).mean(axis=-1) + (b >= tau).mean(axis=-1))
    return float(acc) if np.ndim(acc) == 0 else acc


@named_shapes
def membership_accuracy_bound(epsilon, delta=0.0):
    r"""The largest balanced accuracy of any membership test against an (ε, δ)-DP release.

    .. math:: \mathrm{acc} \le \frac{e^\varepsilon + \delta}{1 + e^\varepsilon}

    (from TPR ≤ e^ε·FPR + δ and TNR ≤ e^ε·FNR + δ).

    Parameters
    ----------
    epsilon : float or array, ε ≥ 0
    delta : float or array, δ ∈ [0, 1]

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If ε < 0 or δ ∉ [0, 1].

    References
    ----------
    Kairouz, Oh and Viswanath (2015), the hypothesis-testing region of (ε, δ)-DP;
    Yeom et al. (2018), Theorem 1.

    Examples
    --------
    >>> round(membership_accuracy_bound(np.log(3.0)), 6)
    0.75
    """
    eps = check_nonnegative(epsilon, "epsilon", allow_inf=True)
    d = check_probability(delta, "delta")
    out = np.minimum(1.0, (1.0 + d * np.exp(-eps)) / (1.0 + np.exp(-eps)))
    return float(out) if np.ndim(out) == 0 else out


@named_shapes
def dpsgd_logistic(x, y, sigma, steps, q=1.0, clip=1.0, lr=1.0, reg=0.0, seed=0, checkpoints=None):
    r"""Logistic regression trained by DP-SGD (noisy clipped gradient descent).

    Each step samples a Poisson batch B (each record with probability q),
    clips each record's gradient to norm C, adds Gaussian noise and takes a step:

    .. math:: \theta_{t+1} = \theta_t - \frac{\eta}{qn}\Big(\sum_{i\in B}
              \operatorname{clip}_C\big(\nabla\ell(\theta_t, (x_i, y_i))\big) + \mathcal N(0, \sigma^2C^2 I)\Big)
              - \eta\gamma\theta_t .

    σ = 0 is plain (clipped) gradient descent, the unprotected baseline. This is
    :func:`dpnotes.dpsgd_training.dp_sgd` (whose clipping and gradients it uses)
    with a ridge term and checkpoints, for the experiments of chapters 00 and 10.

    Parameters
    ----------
    x : array, shape (n, d)
    y : array, shape (n,), entries ±1
    sigma : float, σ ≥ 0 (noise multiplier)
    steps : int, the number of steps T ≥ 1
    q : float, sampling rate q ∈ (0, 1]
    clip : float, clipping norm C > 0
    lr : float, step size η > 0
    reg : float, regularisation weight γ ≥ 0
    seed : int
    checkpoints : sequence of int, optional
        Steps after which to record θ (default: only the last).

    Returns
    -------
    ndarray, shape (d,), or (len(checkpoints), d) when checkpoints are given

    Raises
    ------
    ValueError
        On a negative σ, q ∉ (0, 1], non-positive C or η.

    References
    ----------
    Abadi et al. (2016), "Deep learning with differential privacy", Algorithm 1;
    seed 004 (the sampled Gaussian mechanism it composes).

    Examples
    --------
    >>> x, y = synthetic_classification(40, 2, seed=0)
    >>> th = dpsgd_logistic(x, y, sigma=0.0, steps=200, lr=2.0)
    >>> float(np.mean(np.sign(x @ th) == y))  # training accuracy, as unconstrained ERM's
    0.75
    """
    x, y = _as_xy(x, y)
    sigma = float(check_nonnegative(sigma, "sigma"))
    steps = int(check_count(steps, "steps"))
    q = float(check_probability(q, "q"))
    if q <= 0:
        raise ValueError("q must be in (0, 1]")
    c = float(check_positive(clip, "clip"))
    eta = float(check_positive(lr, "lr"))
    lam = float(check_nonnegative(reg, "reg"))
    if eta * lam >= 2.0:
        raise ValueError(f"lr · reg must be < 2 for the weight decay θ ← (1 − lr·reg)θ to be stable "
                         f"(got lr = {eta:g}, reg = {lam:g})")
    check_work(float(steps) * x.size, _MAX_WORK * 10, f"steps = {steps} on x of shape {x.shape}", "use fewer steps")
    rng = _rng(seed)
    n, d = x.shape
    if checkpoints is None:
        keep = set()
    else:
        cp = check_count(checkpoints, "checkpoints", maximum=steps)
        if cp.ndim != 1:
            raise ValueError(f"checkpoints must be a 1-D list of steps in [1, steps] (got shape {cp.shape})")
        keep = {int(s) for s in cp}
    theta = np.zeros(d)
    saved = []
    for t in range(1, steps + 1):
        batch = rng.random(n) < q if q < 1 else np.ones(n, dtype=bool)
        g = logistic_gradients(theta, x[batch], y[batch])
        total = clip_rows(g, c).sum(axis=0) + sigma * c * rng.standard_normal(d)
        theta = theta - eta * (total / (q * n) + lam * theta)
        if checkpoints is not None and t in keep:
            saved.append(theta.copy())
    return np.array(saved) if checkpoints is not None else theta


@named_shapes
def dpsgd_epsilon_of(q, sigma, steps, delta):
    r"""The (ε, δ) guarantee of DP-SGD: RDP of the sampled Gaussian, composed, converted.

    .. math:: \varepsilon = \min_{\alpha}\ \Big[T\,\varepsilon_{q,\sigma}(\alpha)
              + \log\frac{\alpha-1}{\alpha} - \frac{\log\delta + \log\alpha}{\alpha-1}\Big]

    over ``DEFAULT_ORDERS``; ε_{q,σ}(α) is the exact RDP of the Poisson-subsampled
    Gaussian (:func:`dpnotes.subsampling.rdp_subsampled_gaussian`).  Uses
    ``dpnotes.dpsgd.dpsgd_epsilon`` when that module exists (same computation).

    Parameters
    ----------
    q : float, q ∈ (0, 1]
    sigma : float, σ > 0
    steps : int or array of int, T ≥ 1
    delta : float, δ ∈ (0, 1)

    Returns
    -------
    float or ndarray (one ε per T)

    Raises
    ------
    ValueError
        On parameters outside their ranges.

    References
    ----------
    Seed 004 (RDP of the sampled Gaussian); Mironov, Talwar and Zhang (2019);
    Balle et al. (2020) for the improved conversion.

    Examples
    --------
    >>> round(dpsgd_epsilon_of(0.01, 1.0, 1000, 1e-5), 2)
    2.1
    """
    q = float(check_probability(q, "q"))
    sigma = float(check_positive(sigma, "sigma"))
    t = check_count(steps, "steps")
    delta = float(check_delta(delta))
    try:  # the DP-SGD chapter's accountant, when present (the same three steps)
        from .dpsgd import dpsgd_epsilon
    except ImportError:  # pragma: no cover - compose the three functions directly
        dpsgd_epsilon = None
    if dpsgd_epsilon is not None:
        eps = np.array([dpsgd_epsilon(q, sigma, int(k), delta, route="rdp") for k in np.ravel(t)])
    else:
        per_step = _rdp_per_step(q, sigma)
        eps = np.array([epsilon_from_rdp(DEFAULT_ORDERS, k * per_step, delta) for k in np.ravel(t)])
    return float(eps[0]) if np.ndim(t) == 0 else eps.reshape(np.shape(t))


@functools.lru_cache(maxsize=256)
def _rdp_per_step(q, sigma):
    out = np.array(rdp_subsampled_gaussian(DEFAULT_ORDERS, q, sigma), dtype=float)
    out.flags.writeable = False  # cached: shared by every caller
    return out


#: the most per-record gradient evaluations (steps · trials · n · d) one experiment may take
_MAX_WORK = 10**9


@named_shapes
def membership_experiment(sigma, steps=200, n=50, d=100, trials=16, q=0.1, clip=1.0, lr=2.0, seed=0):
    r"""Mean loss-threshold attack accuracy against logistic regression trained with/without DP-SGD.

    .. math:: \overline{\mathrm{acc}} = \frac{1}{\text{trials}}\sum_{j}
              \mathrm{acc}\big(\ell(\theta_j, \text{members}_j), \ell(\theta_j, \text{non-members}_j)\big)

    Each trial draws 2n records from one distribution (d > n: the model can
    memorise), trains on the first n with DP-SGD (σ = 0: no noise, the
    unprotected fit) and attacks with the threshold = mean training loss.
    Results are returned at the checkpoints 10, 20, …, steps.

    Parameters
    ----------
    sigma : float, σ ≥ 0
    steps : int, the number of steps T, a multiple of 10
    n, d, trials : int
    q, clip, lr : float (DP-SGD parameters q, C, η)
    seed : int

    Returns
    -------
    checkpoints : ndarray of int
    accuracy : ndarray (mean attack accuracy at each checkpoint)

    Raises
    ------
    ValueError
        On parameters outside their ranges.

    References
    ----------
    Yeom et al. (2018); Abadi et al. (2016); seed 003 (model inversion, S3-08).

    Examples
    --------
    >>> cps, acc = membership_experiment(0.0, steps=20, n=20, d=40, trials=2)
    >>> cps.tolist(), bool(np.all((acc >= 0) & (acc <= 1)))
    ([10, 20], True)
    """
    sigma = float(check_nonnegative(sigma, "sigma"))
    steps = int(check_count(steps, "steps", minimum=10))
    if steps % 10:
        raise ValueError(f"steps must be a multiple of 10 (got {steps})")
    n, d, trials = (int(check_count(v, name)) for v, name in ((n, "n"), (d, "d"), (trials, "trials")))
    q = float(check_probability(q, "q"))
    clip, lr = float(check_positive(clip, "clip")), float(check_positive(lr, "lr"))
    seed = int(check_count(seed, "seed", minimum=0))
    work = float(steps) * trials * n * d
    if work > _MAX_WORK:
        raise ValueError(f"steps · trials · n · d = {work:.3g} exceeds the limit {_MAX_WORK:g}; use fewer steps, "
                         f"trials or records")
    cps, acc = _membership_experiment(sigma, steps, n, d, trials, q, clip, lr, seed)
    return cps.copy(), acc.copy()


@functools.lru_cache(maxsize=64)
def _membership_experiment(sigma, steps, n, d, trials, q, clip, lr, seed):
    """The experiment of :func:`membership_experiment` on validated arguments; cached, arrays read-only."""
    cps = np.arange(10, steps + 1, 10)
    accs = []
    for r in range(int(trials)):
        x, y = synthetic_classification(2 * n, d, seed=seed * 1000 + r, label_noise=0.2)
        thetas = dpsgd_logistic(x[:n], y[:n], sigma, steps, q=q, clip=clip, lr=lr, seed=seed * 1000 + r,
                                checkpoints=cps)
        li = logistic_losses(thetas, x[:n], y[:n])
        lo = logistic_losses(thetas, x[n:], y[n:])
        accs.append(loss_threshold_attack_accuracy(li, lo))
    acc = np.mean(accs, axis=0)
    cps.flags.writeable = acc.flags.writeable = False
    return cps, acc
