r"""Membership inference: the loss-threshold attack, the bound DP puts on it, and the experiment.

:func:`logistic_losses` gives the per-record losses of a model;
:func:`loss_threshold_attack_accuracy` is the balanced accuracy of the attack
"member iff loss < τ" (Yeom et al. 2018) and :func:`membership_accuracy_bound`
the largest accuracy any test can reach against an (ε, δ)-DP release.
:func:`membership_experiment` runs the attack against logistic regression
trained with and without DP-SGD (:func:`dpnotes.learning.dpsgd.dpsgd_logistic`)
on fresh synthetic data (cached in :func:`_membership_experiment`).
"""

import functools

import numpy as np

from .._validation import (
    check_array,
    check_cost,
    check_count,
    check_nonnegative,
    check_positive,
    check_probability,
    check_real,
    named_shapes,
)
from .dpsgd import dpsgd_logistic
from .erm import MAX_WORK, check_xy, log1pexp, synthetic_classification


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
    Source S3, Example 2.

    Examples
    --------
    >>> round(float(logistic_losses(np.zeros(1), [[1.0]], [1.0])[0]), 6)  # log 2
    0.693147
    """
    x, y = check_xy(x, y)
    th = check_array(theta, "theta", ndim=(1, 2))
    if th.shape[-1] != x.shape[1]:
        raise ValueError(f"theta must have {x.shape[1]} entries (one per column of x) in its last axis "
                         f"(got shape {th.shape})")
    return log1pexp(-y * (x @ th.T).T)  # not th @ x.T: OpenBLAS ran that shape 80× slower (a wide, short product)


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
    learning", the threshold adversary; source S3 (model inversion).

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
    Yeom et al. (2018); Abadi et al. (2016); source S3 (model inversion, S3-08).

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
    if work > MAX_WORK:
        raise ValueError(f"steps · trials · n · d = {work:.3g} exceeds the limit {MAX_WORK:g}; use fewer steps, "
                         f"trials or records")
    check_cost(f"membership_experiment(steps = {steps}, n = {n}, d = {d}, trials = {trials})",
               "use fewer steps, trials or records, or a smaller d",
               seconds=trials * (steps * (5e-4 + 5e-8 * q * n * d) + 1e-7 * steps / 10 * 2 * n * d),
               nbytes=8.0 * 8 * n * d)
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
