"""The running example (dpnotes/learning/data.py): read from scikit-learn's bundled file, never downloaded."""

import socket

import numpy as np
import pytest

from dpnotes import breast_cancer_records, train_test_records
from dpnotes.learning.data import RUNNING_RUN


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("the running example tried to open a network connection")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


def test_loaded_from_the_package_without_network(no_network):
    x, y = breast_cancer_records()
    assert x.shape == (569, 30) and y.shape == (569,)


def test_matches_the_published_description():
    # UCI's description of the data: 569 instances, 357 benign and 212 malignant, 30 real features
    x, y = breast_cancer_records()
    assert int((y == 1).sum()) == 212 and int((y == -1).sum()) == 357
    assert np.all(np.isfinite(x))


def test_standardised_and_in_the_unit_ball():
    x, _ = breast_cancer_records()
    norms = np.linalg.norm(x, axis=1)
    assert norms.max() == pytest.approx(1.0, rel=1e-12)  # the largest record is on the sphere
    # standardised then scaled by one constant: zero means, equal standard deviations
    assert np.allclose(x.mean(axis=0), 0.0, atol=1e-12)
    assert np.allclose(x.std(axis=0), x.std(axis=0)[0], rtol=1e-10)


def test_split_is_a_reproducible_partition():
    a = train_test_records(0.25, seed=3)
    b = train_test_records(0.25, seed=3)
    for u, v in zip(a, b):
        assert np.array_equal(u, v)
    x, _ = breast_cancer_records()
    rows = np.vstack([a[0], a[2]])
    assert len(rows) == len(x) and len({r.tobytes() for r in rows}) == len({r.tobytes() for r in x})


@pytest.mark.parametrize("frac", [0.0, 1.0, -0.1, 1.5])
def test_split_refuses_a_fraction_outside_zero_one(frac):
    with pytest.raises(ValueError, match="test_fraction"):
        train_test_records(frac)


def test_running_run_is_read_only_and_reports_delta_below_one_over_n():
    with pytest.raises(TypeError):
        RUNNING_RUN["sigma"] = 0.5
    n_train = len(train_test_records()[1])
    assert RUNNING_RUN["delta"] < 1 / n_train
