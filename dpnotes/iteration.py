r"""Amplification by iteration: contractive gradient steps and noisy SGD.

A gradient step ψ(w) = w − η∇f(w) on a convex β-smooth f is contractive
(1-Lipschitz) when η ≤ 2/β. Noisy projected SGD is then a contractive noisy
iteration, and the shift-reduction lemma spreads the effect of one changed
example over all later noise draws: in one pass over n examples (n steps), the
example used at step t has
last-iterate Rényi privacy α·2L²/(σ²(n − t + 1)), against 2αL²/σ² when every
iterate is released (the setting of every composition theorem).
"""

import math

import numpy as np

from ._validation import (
    check_array,
    check_choice,
    check_cost,
    check_count,
    check_int,
    check_interval,
    check_order,
    check_positive,
    check_real,
    check_work,
    named_shapes,
    scalar_or_array,
)

__all__ = [
    "smoothness_constant",
    "loss_gradient",
    "gradient_step_contraction",
    "rdp_noisy_sgd_last_iterate",
    "rdp_noisy_sgd_all_iterates",
    "noisy_sgd_logistic_simulation",
]

_LOSSES = ("squared", "logistic")


def _check_data(X, y, loss):
    check_choice(loss, "loss", _LOSSES)
    X = check_array(X, "X", ndim=2)
    if y is not None:
        y = check_array(y, "y")
        if y.shape != (X.shape[0],):
            raise ValueError("y must be a finite 1-D array with one entry per row of X")
        if loss == "logistic" and not np.all(np.abs(y) == 1):
            raise ValueError("logistic labels y must be in {−1, +1}")
    return X, y


@named_shapes
def smoothness_constant(X, loss="squared"):
    r"""Smoothness β of the average loss: the top eigenvalue of its Hessian bound.

    .. math:: \beta_{\rm sq} = \lambda_{\max}\!\Big(\frac{X^\top X}{n}\Big),\qquad
              \beta_{\rm log} = \frac14\lambda_{\max}\!\Big(\frac{X^\top X}{n}\Big),

    for f(w) = (1/2n)‖Xw − y‖² (Hessian XᵀX/n, exact) and the logistic loss
    f(w) = (1/n)Σ log(1 + e^{−y_i x_iᵀw}) (Hessian XᵀDX/n with D ≤ ¼), n the
    number of examples (rows of X).

    Parameters
    ----------
    X : (n, d) array
    loss : {"squared", "logistic"}

    Returns
    -------
    float

    References
    ----------
    Source S0, Proposition 2.2 (claim S0-09); source S3 (claim S3-08, the losses).

    Examples
    --------
    >>> smoothness_constant(np.eye(2) * 2.0, "squared")  # XᵀX/n = 2·I
    2.0
    """
    X, _ = _check_data(X, None, loss)
    scale = float(np.max(np.abs(X)))  # λ_max(XᵀX/n) = scale²·λ_max(YᵀY/n), Y = X/scale: no overflow in XᵀX
    if scale == 0.0:
        return 0.0
    Y = X / scale
    top = float(np.linalg.eigvalsh(Y.T @ Y / X.shape[0])[-1])
    beta = scale * (scale * max(top, 0.0)) / (1.0 if loss == "squared" else 4.0)
    if not math.isfinite(beta):
        raise ValueError(f"smoothness_constant: β exceeds the largest float (≈ 1.8e308) for X of largest entry "
                         f"{scale:g}; rescale X")
    return beta


@named_shapes
def loss_gradient(w, X, y, loss="squared"):
    r"""Gradient of the average squared or logistic loss at w (rows of w broadcast).

    .. math:: \nabla f_{\rm sq}(w) = \frac1n X^\top(Xw - y),\qquad
              \nabla f_{\rm log}(w) = -\frac1n X^\top\big(y \odot \mathrm{sigmoid}(-y\odot Xw)\big),

    with sigmoid(u) = 1/(1 + e^{−u}), n the number of examples and labels y ∈ {−1, +1}.

    Parameters
    ----------
    w : (d,) or (N, d) array (N points at once)
    X : (n, d) array
    y : (n,) array
    loss : {"squared", "logistic"}

    Returns
    -------
    ndarray of the shape of w

    Examples
    --------
    >>> loss_gradient(np.zeros(1), np.ones((2, 1)), np.array([1.0, -1.0]), "logistic").tolist()
    [0.0]
    """
    X, y = _check_data(X, y, loss)
    w = check_real(w, "w", allow_inf=False)
    if w.ndim == 0 or w.shape[-1] != X.shape[1]:
        raise ValueError(f"w must have {X.shape[1]} entries (one per column of X) in its last axis (got shape {w.shape})")
    margins = w @ X.T  # (..., n)
    if loss == "squared":
        return (margins - y) @ X / X.shape[0]
    s = 0.5 * (1.0 + np.tanh(-0.5 * y * margins))  # sigmoid(−y·margin), no overflow
    return -(y * s) @ X / X.shape[0]


@named_shapes
def gradient_step_contraction(X, y, eta, loss="squared", n_pairs=2000, seed=0, radius=3.0):
    r"""Largest observed ratio ‖ψ(w) − ψ(v)‖/‖w − v‖ for the step ψ(w) = w − η∇f(w).

    Pairs (w, v) are drawn at random (seeded) in the ball of the given radius,
    half of them close together (‖w − v‖ ~ 1e-3) to probe the local Jacobian.
    For convex β-smooth f the ratio is at most 1 when η ≤ 2/β (the Jacobian
    I − η∇²f has eigenvalues in [1 − ηβ, 1] ⊂ [−1, 1]); for the squared loss
    with η > 2/β the direction of the top eigenvector is stretched by ηβ − 1 > 1.

    Parameters
    ----------
    X : (n, d) array
    y : (n,) array
    eta : float > 0, step size η
    loss : {"squared", "logistic"}
    n_pairs : int, number of sampled pairs
    seed : int
    radius : float in [1e-6, 1e6]

    Returns
    -------
    float

    References
    ----------
    Source S0, Proposition 2.2 (claim S0-09); Feldman et al. (2018), Prop. 18.

    Examples
    --------
    >>> X = np.array([[1.0, 0.0], [0.0, 2.0]]); y = np.zeros(2)
    >>> beta = smoothness_constant(X, "squared")  # 2
    >>> gradient_step_contraction(X, y, 1.0 / beta) <= 1.0
    True
    """
    X, y = _check_data(X, y, loss)
    eta = float(check_positive(eta, "eta"))
    n_pairs = int(check_count(n_pairs, "n_pairs", minimum=2))
    check_work(float(n_pairs) * X.size, 1e9, f"n_pairs = {n_pairs} on X of shape {X.shape}", "use fewer pairs")
    radius = float(check_interval(radius, "radius", 1e-6, 1e6))  # the 1e-3 perturbations must stay resolvable
    rng = np.random.default_rng(check_int(seed, "seed", maximum=2**63 - 1))
    d = X.shape[1]
    w = rng.normal(size=(n_pairs, d))
    w *= radius * rng.uniform(size=(n_pairs, 1)) ** (1.0 / d) / np.linalg.norm(w, axis=1, keepdims=True)
    v = rng.normal(size=(n_pairs, d)) * radius / np.sqrt(d)
    half = n_pairs // 2
    v[:half] = w[:half] + 1e-3 * rng.normal(size=(half, d))
    # ‖(w − η∇f(w)) − (v − η∇f(v))‖ = η‖(w − v)/η − (∇f(w) − ∇f(v))‖: no ∞ − ∞ for a huge η
    gap = loss_gradient(w, X, y, loss) - loss_gradient(v, X, y, loss)
    ratio = eta * (np.linalg.norm((w - v) / eta - gap, axis=1) / np.linalg.norm(w - v, axis=1))
    out = float(np.max(ratio))
    if not math.isfinite(out):
        raise ValueError(f"eta is too large: the contraction factor of a step exceeds 1.8e308, the largest float "
                         f"(got eta = {eta:g})")
    return out


@named_shapes
def rdp_noisy_sgd_last_iterate(alpha, t, n, lipschitz, sigma):
    r"""Rényi privacy of the LAST iterate of noisy projected SGD for the example used at step t.

    Noisy projected SGD runs w_s = Π_𝒦(w_{s−1} − η(∇f(w_{s−1}, x_s) + ξ_s)),
    ξ_s ~ N(0, σ²I), for s = 1..n (one pass over n examples, Π_𝒦 the projection
    onto a convex set 𝒦), with f(·, x) convex, L-Lipschitz and
    β-smooth and η ≤ 2/β. Changing x_t moves step t by at most 2ηL; the later
    steps are contractive and each adds noise N(0, η²σ²). Spreading the shift
    2ηL evenly over the n − t + 1 noise draws from step t on (shift reduction,
    uniform schedule) gives

    .. math:: D_\alpha(w_n \,\|\, w_n') \le (n-t+1)\,\frac{\alpha\,(2\eta L/(n-t+1))^2}{2\eta^2\sigma^2}
              = \frac{2\alpha L^2}{\sigma^2 (n-t+1)}.

    Parameters
    ----------
    alpha : float or array, α ∈ [1, ∞)
    t : int or array, 1 ≤ t ≤ n (the step that used the example)
    n : int or array, n ≥ 1 (number of steps = number of examples, one pass)
    lipschitz : float or array, L > 0
    sigma : float or array, σ > 0 (gradient-noise multiplier; parameter noise has std ησ)

    Returns
    -------
    float or ndarray

    Raises
    ------
    ValueError
        If α < 1, t or n is not a positive integer, t > n, L ≤ 0 or σ ≤ 0.

    References
    ----------
    Feldman, Mironov, Talwar, Thakurta (2018), "Privacy amplification by
    iteration", Theorem 23; source S0, Section 3.2 (claims S0-10, S0-11).

    Examples
    --------
    >>> rdp_noisy_sgd_last_iterate(2.0, 1, 4, 1.0, 1.0)  # 2·2/(1·4)
    1.0
    >>> rdp_noisy_sgd_last_iterate(2.0, 4, 4, 1.0, 1.0) == rdp_noisy_sgd_all_iterates(2.0, 1.0, 1.0)
    True
    """
    alpha = check_order(alpha, allow_one=True)
    t = check_count(t, "t")
    n = check_count(n, "n")
    if np.any(t > n):
        raise ValueError("t must satisfy 1 ≤ t ≤ n")
    L = check_positive(lipschitz, "lipschitz")
    sigma = check_positive(sigma, "sigma")
    # α·r·r·2/(n − t + 1), r = L/σ, in that order: L² and σ² alone under- or overflow where the value does not
    # (α = 1e308, L = 5e-324 gave ∞·0 = NaN); what is still not finite is beyond the float range, refused
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        r = L / sigma
        out = alpha * r * r * (2.0 / (n - t + 1.0))
    if not np.all(np.isfinite(out)):
        raise ValueError(f"alpha·(lipschitz/sigma)²·2/(n − t + 1) exceeds the float range (got alpha = "
                         f"{np.max(alpha):g}, lipschitz = {np.max(L):g}, sigma = {np.min(sigma):g})")
    return scalar_or_array(out)


@named_shapes
def rdp_noisy_sgd_all_iterates(alpha, lipschitz, sigma):
    r"""Rényi privacy of one example when every iterate of noisy SGD is released.

    The example enters one step; that step is a Gaussian mechanism with
    sensitivity 2ηL and noise std ησ, and the other steps do not depend on it
    (adaptive composition adds 0 for them):

    .. math:: \frac{\alpha (2\eta L)^2}{2\eta^2\sigma^2} = \frac{2\alpha L^2}{\sigma^2}.

    Parameters
    ----------
    alpha : float or array, α ∈ [1, ∞)
    lipschitz : float or array, L > 0
    sigma : float or array, σ > 0

    Returns
    -------
    float or ndarray

    References
    ----------
    Source S0, Section 2 remark (claim S0-11); Feldman et al. (2018), Section 1.

    Examples
    --------
    >>> rdp_noisy_sgd_all_iterates(2.0, 1.0, 2.0)
    1.0
    """
    alpha = check_order(alpha, allow_one=True)
    L = check_positive(lipschitz, "lipschitz")
    sigma = check_positive(sigma, "sigma")
    # 2α(L/σ)² directly: the ratio first (no 2L overflowing to ∞ for L near the float limit)
    out = 2.0 * alpha * (L / sigma) ** 2
    if not np.all(np.isfinite(out)):
        raise ValueError(f"lipschitz/sigma is too large: 2·alpha·(lipschitz/sigma)² exceeds 1.8e308, the largest "
                         f"float (got lipschitz {np.ravel(L)[:3]}, sigma {np.ravel(sigma)[:3]})")
    return scalar_or_array(out)


@named_shapes
def noisy_sgd_logistic_simulation(n=100, d=2, sigma=1.0, alpha=2.0, eta=None, radius=5.0, seed=0):
    r"""Noisy projected SGD on a small synthetic logistic regression, one pass.

    Data: n examples x_i in the unit ball (so the logistic loss is L = 1
    Lipschitz and β = ¼-smooth per example), labels from a fixed linear rule
    with 10% flips. Each step uses one example:
    w_s = Π(w_{s−1} − η(∇f(w_{s−1}, x_s) + ξ_s)), ξ_s ~ N(0, σ²I), with Π the
    projection onto the ball ‖w‖ ≤ ``radius``.

    Parameters
    ----------
    n : int, number of steps = examples (50–200 is a good range)
    d : int, dimension
    sigma : float > 0, gradient-noise multiplier (parameter noise std ησ)
    alpha : float > 1, the order at which the privacy profile is returned
    eta : float, step size; default 1/β = 4 (must be ≤ 2/β = 8)
    radius : float > 0, radius of the projection ball
    seed : int

    Returns
    -------
    dict
        ``trajectory`` (n + 1, d) iterates w_0..w_n; ``loss`` (n + 1,) average
        logistic loss along the way; ``X``, ``y`` the data; ``eta``;
        ``position`` (1..n); ``rdp_last_iterate`` (n,) the bound for the
        example used at each position; ``rdp_all_iterates`` (scalar).

    Raises
    ------
    ValueError
        If η > 2/β = 8 (the steps would not be contractive) or another argument is invalid.

    References
    ----------
    Feldman et al. (2018), Section 5 (noisy projected SGD); claims S0-10, S0-11.

    Examples
    --------
    >>> out = noisy_sgd_logistic_simulation(n=50, seed=1)
    >>> out["trajectory"].shape, round(float(out["rdp_last_iterate"][0]), 4)
    ((51, 2), 0.08)
    """
    n = int(check_count(n, "n", maximum=10**6))
    d = int(check_count(d, "d", maximum=10**4))
    check_work(float(n) * n * d, 1e10, f"n = {n}, d = {d} (n steps over n × d data)", "use a smaller n or d")
    # the (n + 1) × n margins, their losses and a temporary; about 60 µs a step and 2 ns a margin term
    check_cost(f"noisy_sgd_logistic_simulation(n = {n}, d = {d})", "use a smaller n (or d)",
               seconds=6e-5 * n + 2e-9 * n * n * d, nbytes=8.0 * (3 * (n + 1.0) * n + 2 * (n + 1.0) * d))
    sigma = float(check_positive(sigma, "sigma"))
    alpha = float(check_order(alpha))
    radius = float(check_positive(radius, "radius"))
    beta = 0.25  # per-example smoothness bound ‖x‖²/4 with ‖x‖ ≤ 1
    eta = 1.0 / beta if eta is None else float(check_positive(eta, "eta"))
    if eta > 2.0 / beta:
        raise ValueError(f"eta must be in (0, 2/β] = (0, {2.0 / beta}] for contractive steps (got {eta})")
    rng = np.random.default_rng(check_int(seed, "seed", maximum=2**63 - 1))
    X = rng.normal(size=(n, d))
    X /= np.maximum(1.0, np.linalg.norm(X, axis=1, keepdims=True))
    truth = rng.normal(size=d)
    y = np.where(X @ truth >= 0, 1.0, -1.0)
    y[rng.uniform(size=n) < 0.1] *= -1.0
    w = np.zeros((n + 1, d))
    for k in range(1, n + 1):
        g = loss_gradient(w[k - 1], X[k - 1 : k], y[k - 1 : k], "logistic")
        step = w[k - 1] - eta * (g + sigma * rng.normal(size=d))
        norm = np.linalg.norm(step)
        w[k] = step if norm <= radius else step * (radius / norm)
    margins = (w @ X.T) * y
    loss = np.mean(np.logaddexp(0.0, -margins), axis=1)
    pos = np.arange(1, n + 1)
    return {
        "trajectory": w,
        "loss": loss,
        "X": X,
        "y": y,
        "eta": eta,
        "position": pos,
        "rdp_last_iterate": rdp_noisy_sgd_last_iterate(alpha, pos, n, 1.0, sigma),
        "rdp_all_iterates": rdp_noisy_sgd_all_iterates(alpha, 1.0, sigma),
    }

