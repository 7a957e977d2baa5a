"""Tests for dpnotes.iteration: contractive gradient steps and last-iterate privacy of noisy SGD."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from dpnotes.iteration import (
    gradient_step_contraction,
    loss_gradient,
    noisy_sgd_logistic_simulation,
    rdp_noisy_sgd_all_iterates,
    rdp_noisy_sgd_last_iterate,
    smoothness_constant,
)


def _data(seed=0, m=60, d=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(m, d)) * np.array([1.0, 0.5, 2.0])[:d]
    return X, rng.normal(size=m), np.where(rng.uniform(size=m) < 0.5, -1.0, 1.0)


@pytest.mark.claim("S3-08")
def test_s3_08_gradients_match_finite_differences():
    X, y, yl = _data()
    w = np.array([0.3, -0.2, 0.1])
    for loss, labels in (("squared", y), ("logistic", yl)):
        f = (lambda v: 0.5 * np.mean((X @ v - labels) ** 2)) if loss == "squared" else \
            (lambda v: np.mean(np.logaddexp(0.0, -labels * (X @ v))))
        num = np.array([(f(w + 1e-6 * e) - f(w - 1e-6 * e)) / 2e-6 for e in np.eye(3)])
        np.testing.assert_allclose(loss_gradient(w, X, labels, loss), num, rtol=1e-6, atol=1e-9)


@pytest.mark.claim("S0-09")
def test_s0_09_smoothness_is_top_hessian_eigenvalue():
    X, y, yl = _data()
    # squared: Hessian XᵀX/m exactly; logistic: the Hessian at any w is ≤ XᵀX/(4m), equal at w = 0
    H0 = X.T @ X / X.shape[0]
    assert smoothness_constant(X, "squared") == pytest.approx(np.max(np.linalg.eigvalsh(H0)), rel=1e-12)
    s = 0.25 * np.ones(X.shape[0])  # sigmoid'(0)
    assert smoothness_constant(X, "logistic") == pytest.approx(np.max(np.linalg.eigvalsh((X.T * s) @ X / X.shape[0])), rel=1e-12)


@pytest.mark.claim("S0-09")
@pytest.mark.parametrize("loss", ["squared", "logistic"])
@pytest.mark.parametrize("factor", [0.1, 1.0, 1.5, 2.0])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_s0_09_gradient_step_contractive_up_to_two_over_beta(loss, factor, seed):
    X, y, yl = _data(seed)
    labels = y if loss == "squared" else yl
    beta = smoothness_constant(X, loss)
    assert gradient_step_contraction(X, labels, factor / beta, loss, seed=seed) <= 1.0 + 1e-12


@pytest.mark.claim("S0-09")
@pytest.mark.parametrize("factor", [2.2, 3.0])
def test_s0_09_contractivity_fails_above_two_over_beta(factor):
    X, y, _ = _data()
    beta = smoothness_constant(X, "squared")
    ratio = gradient_step_contraction(X, y, factor / beta, "squared", n_pairs=4000)
    assert ratio > 1.0
    # the step is linear: the exact worst ratio is max |1 − ηλ_i| = ηβ − 1, an upper bound on the sample
    assert ratio <= factor - 1.0 + 1e-9
    assert ratio > 0.9 * (factor - 1.0)


@pytest.mark.claim("S0-10")
def test_s0_10_bound_at_last_step_is_the_per_step_value_and_decreases():
    alpha, n, L, sigma = 3.0, 20, 0.7, 1.3
    t = np.arange(1, n + 1)
    vals = rdp_noisy_sgd_last_iterate(alpha, t, n, L, sigma)
    assert vals[-1] == pytest.approx(rdp_noisy_sgd_all_iterates(alpha, L, sigma), rel=1e-15)
    assert rdp_noisy_sgd_all_iterates(alpha, L, sigma) == pytest.approx(2 * alpha * L**2 / sigma**2, rel=1e-15)
    assert np.all(np.diff(vals) > 0)  # decreasing in n − t
    np.testing.assert_allclose(vals * (n - t + 1), vals[-1], rtol=1e-14)


def _gaussian_last_iterate(eta, sigma, data, w0):
    """Mean and covariance of the last iterate of noisy GD on f(w, x) = ½‖w − x‖², by propagation."""
    d = w0.size
    mean, cov = w0.astype(float), np.zeros((d, d))
    A = (1 - eta) * np.eye(d)  # w ↦ w − η(w − x) = (1 − η)w + ηx
    for x in data:
        mean = A @ mean + eta * x
        cov = A @ cov @ A.T + (eta * sigma) ** 2 * np.eye(d)
    return mean, cov


@pytest.mark.claim("S0-10")
@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 40), frac=st.floats(0, 1), eta=st.floats(0.05, 2.0), sigma=st.floats(0.3, 3.0),
       alpha=st.floats(1.1, 30.0), seed=st.integers(0, 10**6))
def test_s0_10_exact_gaussian_last_iterate_is_below_the_bound(n, frac, eta, sigma, alpha, seed):
    # quadratic loss ½‖w − x‖² is convex and 1-smooth (η ≤ 2 = 2/β); with ‖x‖ ≤ L the gradient
    # steps on neighbouring data differ by η‖x − x'‖ ≤ 2ηL, and the last iterate is exactly Gaussian
    rng = np.random.default_rng(seed)
    L, d = 1.0, 2
    t = 1 + int(frac * (n - 1))
    data = rng.normal(size=(n, d))
    data /= np.maximum(1.0, np.linalg.norm(data, axis=1, keepdims=True))
    other = data.copy()
    other[t - 1] = -data[t - 1] / np.linalg.norm(data[t - 1]) * L  # far side of the ball
    m1, cov = _gaussian_last_iterate(eta, sigma, data, np.zeros(d))
    m2, cov2 = _gaussian_last_iterate(eta, sigma, other, np.zeros(d))
    np.testing.assert_allclose(cov, cov2)
    diff = m1 - m2
    exact = alpha / 2 * diff @ np.linalg.solve(cov, diff)  # D_α of two Gaussians with equal covariance
    assert exact <= rdp_noisy_sgd_last_iterate(alpha, t, n, L, sigma) * (1 + 1e-9)
    assert exact <= rdp_noisy_sgd_all_iterates(alpha, L, sigma) * (1 + 1e-9)


@pytest.mark.claim("S0-10")
def test_s0_10_bound_is_attained_without_contraction():
    # linear loss ⟨w, x⟩ (β = 0, no contraction, η arbitrary): the change at step t is carried
    # unchanged to the end and meets n noise draws, so the exact value 2αL²/(nσ²) equals the
    # bound at t = 1 and lies below it for t > 1
    alpha, n, L, sigma, eta = 2.0, 10, 1.0, 1.5, 0.3
    exact = alpha * (2 * eta * L) ** 2 / (2 * n * (eta * sigma) ** 2)
    assert exact == pytest.approx(rdp_noisy_sgd_last_iterate(alpha, 1, n, L, sigma), rel=1e-14)


@pytest.mark.claim("S0-10")
def test_s0_10_simulation_helper():
    out = noisy_sgd_logistic_simulation(n=120, d=2, sigma=0.5, alpha=4.0, seed=7)
    assert out["trajectory"].shape == (121, 2)
    assert np.all(np.linalg.norm(out["trajectory"], axis=1) <= 5.0 + 1e-12)
    assert out["loss"][-1] < out["loss"][0]  # it learns something
    assert np.all(np.linalg.norm(out["X"], axis=1) <= 1 + 1e-12)
    np.testing.assert_allclose(out["rdp_last_iterate"][-1], out["rdp_all_iterates"])
    assert out["rdp_last_iterate"][0] == pytest.approx(2 * 4.0 / (0.25 * 120))
    again = noisy_sgd_logistic_simulation(n=120, d=2, sigma=0.5, alpha=4.0, seed=7)
    np.testing.assert_array_equal(out["trajectory"], again["trajectory"])
    with pytest.raises(ValueError, match="eta"):
        noisy_sgd_logistic_simulation(eta=9.0)


def test_validation():
    for bad in (dict(alpha=0.5, t=1, n=2, lipschitz=1, sigma=1), dict(alpha=2, t=3, n=2, lipschitz=1, sigma=1),
                dict(alpha=2, t=1, n=2, lipschitz=0, sigma=1), dict(alpha=2, t=1, n=2, lipschitz=1, sigma=-1)):
        with pytest.raises(ValueError):
            rdp_noisy_sgd_last_iterate(**bad)
    with pytest.raises(ValueError, match="loss"):
        smoothness_constant(np.eye(2), "hinge")
    with pytest.raises(ValueError, match="labels"):
        loss_gradient(np.zeros(2), np.eye(2), np.array([0.0, 1.0]), "logistic")
