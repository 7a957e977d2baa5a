r"""DP-SGD as the remedy: logistic regression trained by noisy clipped gradient descent, and its ε.

:func:`dpsgd_logistic` trains the model of :func:`dpnotes.learning.erm.erm_logistic`
by DP-SGD (Poisson subsampling, per-example clipping, Gaussian noise, a ridge
term, checkpoints); σ = 0 is the unprotected baseline. :func:`dpsgd_epsilon_of`
is its (ε, δ) guarantee, from the RDP accountant :func:`dpnotes.dpsgd.dpsgd_epsilon`.
:func:`running_example_accuracy` measures the test accuracy of the book's run on the
running example at several σ over repeated runs (chapter 06).
"""

import numpy as np

from .._validation import (
    SIGMA_RANGE,
    check_cost,
    check_count,
    check_delta,
    check_interval,
    check_nonnegative,
    check_positive,
    check_probability,
    check_work,
    named_shapes,
)
from ..dpsgd import dpsgd_epsilon
from ..dpsgd_training import clip_rows, dp_sgd, logistic_gradients
from .erm import MAX_WORK, check_xy, rng_from_seed
from .erm import synthetic_classification  # noqa: F401 (the doctest of dpsgd_logistic uses it)


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
    source S4 (the sampled Gaussian mechanism it composes).

    Examples
    --------
    >>> x, y = synthetic_classification(40, 2, seed=0)
    >>> th = dpsgd_logistic(x, y, sigma=0.0, steps=200, lr=2.0)
    >>> float(np.mean(np.sign(x @ th) == y))  # training accuracy, as unconstrained ERM's
    0.75
    """
    x, y = check_xy(x, y)
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
    check_work(float(steps) * x.size, MAX_WORK * 10, f"steps = {steps} on x of shape {x.shape}", "use fewer steps")
    # per step: Python overhead and the batch's clipped gradients (measured on a busy 2-core machine)
    check_cost(f"dpsgd_logistic with steps = {steps} on x of shape {x.shape}", "use fewer steps or records",
               seconds=steps * (5e-4 + 5e-8 * q * x.size), nbytes=8.0 * 6 * x.size)
    rng = rng_from_seed(seed)
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
        if not np.all(np.isfinite(theta)):
            raise ValueError(f"dpsgd_logistic: the iterate left the float range at step {t} of {steps} (lr = {eta:g}, "
                             f"clip = {c:g}, sigma = {sigma:g}, q = {q:g}); use a smaller lr, clip or sigma")
        if checkpoints is not None and t in keep:
            saved.append(theta.copy())
    return np.array(saved) if checkpoints is not None else theta


@named_shapes
def dpsgd_epsilon_of(q, sigma, steps, delta):
    r"""The (ε, δ) guarantee of DP-SGD: RDP of the sampled Gaussian, composed, converted.

    .. math:: \varepsilon = \min_{\alpha}\ \Big[T\,\varepsilon_{q,\sigma}(\alpha)
              + \log\frac{\alpha-1}{\alpha} - \frac{\log\delta + \log\alpha}{\alpha-1}\Big]

    over the order α (searched on the exact curve, fractional orders included);
    ε_{q,σ}(α) is the exact RDP of the Poisson-subsampled Gaussian
    (:func:`dpnotes.subsampling.rdp_subsampled_gaussian`); computed by
    :func:`dpnotes.dpsgd.dpsgd_epsilon` (``route="rdp"``, its default search,
    :func:`dpnotes.subsampling.epsilon_rdp_subsampled_gaussian`).

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
    Source S4 (RDP of the sampled Gaussian); Mironov, Talwar and Zhang (2019);
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
    eps = np.array([dpsgd_epsilon(q, sigma, int(k), delta, route="rdp") for k in np.ravel(t)])
    return float(eps[0]) if np.ndim(t) == 0 else eps.reshape(np.shape(t))


@named_shapes
def running_example_accuracy(sigmas, n_seeds=5, steps=None, split_seed=0):
    r"""Test accuracy of DP-SGD on the running example at several σ, over repeated runs, with its ε.

    For each noise multiplier σ of ``sigmas``, :func:`dpnotes.dpsgd_training.dp_sgd` trains logistic
    regression on the training records of :func:`dpnotes.learning.data.train_test_records` (split
    ``split_seed``) with the book's run (:data:`dpnotes.learning.data.RUNNING_RUN`: q, C, η; T steps)
    once per seed 0, …, n_seeds − 1 (each seed draws its own batches and noise), and measures the share
    of the 142 test records classified correctly, sign⟨θ_T, x⟩ = y. The first row is the non-private
    baseline: plain gradient descent on the mean loss (q = 1, σ = 0, no clipping, same η and T),
    which is deterministic.

    .. math:: \text{acc}(\theta) = \frac{1}{n_{\text{test}}}\sum_{i \in \text{test}}
              \mathbb 1\{\operatorname{sign}\langle\theta, x_i\rangle = y_i\},\qquad
              \varepsilon = \varepsilon_{\text{rdp}}(q, \sigma, T, \delta)

    Parameters
    ----------
    sigmas : sequence of float, each σ > 0
    n_seeds : int, ≥ 2
        Runs per σ (the spread is their sample standard deviation).
    steps : int, optional
        T; default RUNNING_RUN["steps"] (300).
    split_seed : int
        The seed of the training/test split.

    Returns
    -------
    list of dict
        One row per method: ``"sigma"`` (0 for the baseline), ``"epsilon"`` (inf for the baseline;
        RDP route at RUNNING_RUN["delta"]), ``"accuracy"`` (array, one per seed), ``"mean"``, ``"std"``.

    Raises
    ------
    ValueError
        On a σ ≤ 0, n_seeds < 2, steps < 1 or a negative split_seed.

    References
    ----------
    Abadi et al. (2016), Algorithm 1; Street, Wolberg & Mangasarian (1993) for the data.

    Examples
    --------
    >>> rows = running_example_accuracy([2.0], n_seeds=2, steps=30)
    >>> [round(r["epsilon"], 2) for r in rows], len(rows[1]["accuracy"])
    ([inf, 1.46], 2)
    """
    from .data import RUNNING_RUN, train_test_records

    # the RDP route's range of noise multipliers (its ε is reported for every σ), checked here by this name
    sig = np.atleast_1d(np.asarray(check_interval(sigmas, "sigmas", *SIGMA_RANGE), float))
    n_seeds = int(check_count(n_seeds, "n_seeds", minimum=2))
    run = RUNNING_RUN
    steps = int(check_count(run["steps"] if steps is None else steps, "steps"))
    split_seed = int(check_count(split_seed, "split_seed", minimum=0))
    x_train, y_train, x_test, y_test = train_test_records(seed=split_seed)
    # one plain run and n_seeds runs per σ, and one RDP ε per σ (~0.05 s); the per-step rates are twice those
    # measured on the running example (CPU time: 1.26 s for one σ, 5 seeds and 3,000 steps, against 2.6 s here)
    plain_step, noisy_step = 1e-4 + 1.25e-8 * x_train.size, 1e-4 + 1.25e-8 * run["q"] * x_train.size
    check_cost(f"running_example_accuracy with {sig.size} sigmas, n_seeds = {n_seeds} and steps = {steps}",
               "use fewer sigmas, seeds or steps",
               seconds=steps * (plain_step + noisy_step * sig.size * n_seeds) + 0.05 * sig.size,
               nbytes=8.0 * 6 * x_train.size)

    def accuracy(theta):
        return float(np.mean(np.sign(x_test @ theta) == y_test))

    plain = dp_sgd(x_train, y_train, q=1.0, sigma=0.0, clip=1e9, lr=run["lr"], steps=steps)  # no clipping
    rows = [{"sigma": 0.0, "epsilon": float("inf"), "accuracy": np.array([accuracy(plain)]),
             "mean": accuracy(plain), "std": 0.0}]
    for s in sig:
        acc = np.array([accuracy(dp_sgd(x_train, y_train, q=run["q"], sigma=float(s), clip=run["clip"],
                                        lr=run["lr"], steps=steps, rng=seed)) for seed in range(n_seeds)])
        rows.append({"sigma": float(s), "epsilon": float(dpsgd_epsilon(run["q"], float(s), steps, run["delta"])),
                     "accuracy": acc, "mean": float(acc.mean()), "std": float(acc.std(ddof=1))})
    return rows
