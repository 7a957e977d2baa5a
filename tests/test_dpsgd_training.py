"""DP-SGD's training loop (dpnotes.dpsgd_training): clipping, the plain-GD limit, the noise, the batches."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

from dpnotes.dpsgd_training import clip_rows, dp_sgd, logistic_gradients
from dpnotes.learning import synthetic_classification

_FLOATS = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


@settings(max_examples=200, deadline=None)
@given(g=arrays(float, st.tuples(st.integers(0, 8), st.integers(1, 5)), elements=_FLOATS),
       clip=st.floats(1e-3, 1e3))
def test_clipping_bounds_every_row_by_c_and_keeps_short_rows_and_directions(g, clip):
    out = clip_rows(g, clip)
    norms, new = np.linalg.norm(g, axis=1), np.linalg.norm(out, axis=1)
    assert out.shape == g.shape
    assert np.all(new <= clip * (1 + 1e-12))
    short = norms <= clip
    assert np.array_equal(out[short], g[short])
    long = ~short
    assert np.allclose(new[long], clip, rtol=1e-12)
    # a clipped row is a positive multiple of the original: same direction
    assert np.allclose(out[long] * norms[long, None], g[long] * new[long, None], rtol=1e-9, atol=1e-9)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), scale=st.floats(0.1, 1e3), clip=st.floats(1e-2, 10.0))
def test_one_record_moves_the_clipped_sum_by_at_most_c(seed, scale, clip):
    # with σ = 0, q = 1, η = 1 and θ₀ = 0, one step returns −(sum of clipped gradients)/n, so the
    # clipped sum of a data set and of the same set with one record added can be compared directly
    rng = np.random.default_rng(seed)
    n, d = 12, 3
    x = scale * rng.standard_normal((n + 1, d))
    y = np.where(rng.random(n + 1) < 0.5, -1.0, 1.0)
    step = dict(q=1.0, sigma=0.0, clip=clip, lr=1.0, steps=1)
    sum_s = -n * dp_sgd(x[:n], y[:n], **step)
    sum_s_added = -(n + 1) * dp_sgd(x, y, **step)
    assert np.linalg.norm(sum_s_added - sum_s) <= clip * (1 + 1e-9)


def _mean_logistic_loss(theta, x, y):
    return float(np.mean(np.logaddexp(0.0, -y * (x @ theta))))


def test_without_noise_and_sampling_it_is_gradient_descent_on_the_mean_loss():
    x, y = synthetic_classification(80, 3, seed=5)
    theta0 = np.array([0.3, -0.2, 0.1])
    lr, steps = 0.7, 25
    got = dp_sgd(x, y, q=1.0, sigma=0.0, clip=1e6, lr=lr, steps=steps, theta0=theta0)
    # direct: gradient of the mean loss written as Xᵀ(−y/(1 + e^{y⟨θ, x⟩}))/n
    theta = theta0.copy()
    for _ in range(steps):
        grad = x.T @ (-y / (1.0 + np.exp(y * (x @ theta)))) / len(y)
        theta = theta - lr * grad
    assert np.allclose(got, theta, rtol=0, atol=1e-12)
    # and that gradient is the gradient of the mean loss (central differences)
    h = 1e-6
    fd = np.array([(_mean_logistic_loss(theta + h * e, x, y) - _mean_logistic_loss(theta - h * e, x, y)) / (2 * h)
                   for e in np.eye(3)])
    assert np.allclose(logistic_gradients(theta, x, y).mean(axis=0), fd, atol=1e-8)


def test_per_example_gradients_are_the_rows():
    x, y = synthetic_classification(6, 2, seed=2)
    theta = np.array([0.5, -1.0])
    rows = logistic_gradients(theta, x, y)
    h = 1e-6
    for i in range(6):
        fd = [(_mean_logistic_loss(theta + h * e, x[i:i + 1], y[i:i + 1])
               - _mean_logistic_loss(theta - h * e, x[i:i + 1], y[i:i + 1])) / (2 * h) for e in np.eye(2)]
        assert np.allclose(rows[i], fd, atol=1e-8)


def _zero_gradients(theta, xb, yb):
    return np.zeros((len(yb), theta.size))


@pytest.mark.parametrize("sigma, clip, steps", [(1.0, 1.0, 1), (2.5, 0.4, 1), (0.7, 3.0, 4)])
def test_the_noise_has_standard_deviation_sigma_times_c(sigma, clip, steps):
    # zero gradients: θ_T = −η/(qn) · (sum of T draws of N(0, σ²C²I)), so each coordinate of
    # −θ_T·qn/η is N(0, Tσ²C²); d = 20 000 coordinates estimate its standard deviation
    d, n, q, lr = 20_000, 50, 0.3, 0.5
    theta = dp_sgd(np.zeros((n, 1)), np.ones(n), q=q, sigma=sigma, clip=clip, lr=lr, steps=steps,
                   gradients=_zero_gradients, theta0=np.zeros(d), rng=11)
    noise = -theta * q * n / lr
    target = sigma * clip * np.sqrt(steps)
    # the sample standard deviation of d normals has relative standard error 1/√(2d) ≈ 0.005
    assert abs(noise.std() / target - 1) < 5 / np.sqrt(2 * d)
    assert abs(noise.mean()) < 5 * target / np.sqrt(d)


def test_poisson_batches_have_mean_size_qn_and_binomial_variance():
    n, q, steps = 200, 0.1, 4000
    sizes = []

    def recording(theta, xb, yb):
        sizes.append(len(yb))
        return np.zeros((len(yb), theta.size))

    dp_sgd(np.zeros((n, 2)), np.ones(n), q=q, sigma=1.0, clip=1.0, lr=1.0, steps=steps,
           gradients=recording, rng=3)
    sizes = np.array(sizes)
    assert sizes.size == steps
    var = n * q * (1 - q)  # Binomial(n, q)
    assert abs(sizes.mean() - q * n) < 5 * np.sqrt(var / steps)
    # the sample variance of Binomial draws: standard error about var·√(2/steps) (near-normal law)
    assert abs(sizes.var() - var) < 5 * var * np.sqrt(2 / steps)


def test_q_one_uses_every_record():
    sizes = []

    def recording(theta, xb, yb):
        sizes.append(len(yb))
        return np.zeros((len(yb), theta.size))

    dp_sgd(np.zeros((30, 2)), np.ones(30), q=1.0, sigma=0.0, clip=1.0, lr=1.0, steps=5, gradients=recording)
    assert sizes == [30] * 5


def test_same_seed_same_run():
    x, y = synthetic_classification(100, 2, seed=0)
    a = dp_sgd(x, y, q=0.1, sigma=1.0, clip=1.0, lr=1.0, steps=50, rng=4)
    b = dp_sgd(x, y, q=0.1, sigma=1.0, clip=1.0, lr=1.0, steps=50, rng=4)
    assert np.array_equal(a, b)
    c = dp_sgd(x, y, q=0.1, sigma=1.0, clip=1.0, lr=1.0, steps=50, rng=np.random.default_rng(4))
    assert np.array_equal(a, c)


_GOOD = dict(q=0.1, sigma=1.0, clip=1.0, lr=1.0, steps=10)


@pytest.mark.parametrize("name, value", [
    ("q", 0.0), ("q", 1.5), ("q", -0.1), ("q", float("nan")),
    ("sigma", -1.0), ("sigma", float("inf")),
    ("clip", 0.0), ("clip", -2.0),
    ("lr", 0.0), ("lr", -0.5),
    ("steps", 0), ("steps", 2.5),
])
def test_bad_input_raises_value_error_naming_the_parameter(name, value):
    x, y = synthetic_classification(20, 2, seed=0)
    with pytest.raises(ValueError, match=rf"\b{name}\b"):
        dp_sgd(x, y, **{**_GOOD, name: value})


def test_mismatched_data_and_bad_gradients_raise():
    x, y = synthetic_classification(20, 2, seed=0)
    with pytest.raises(ValueError, match="x and y"):
        dp_sgd(x, y[:-1], **_GOOD)
    with pytest.raises(ValueError, match="clip"):
        clip_rows(np.ones((2, 2)), 0.0)
    with pytest.raises(ValueError, match="two-dimensional"):
        clip_rows(np.ones(3), 1.0)
