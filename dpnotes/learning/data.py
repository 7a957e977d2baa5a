r"""The book's running example: a real data set that ships inside scikit-learn.

:func:`breast_cancer_records` loads the Wisconsin diagnostic breast cancer data
(Street, Wolberg & Mangasarian 1993; 569 records, 30 features of cell nuclei, a
benign/malignant label) from the copy bundled with scikit-learn: nothing is
downloaded. Each feature is standardised, and each record scaled to Euclidean norm
at most one, so that a per-record gradient of the logistic loss has norm at most
one and clipping at ``C = 1`` changes nothing (the sensitivity of a sum of
gradients is then exactly the clipping norm). :func:`train_test_records` splits it
reproducibly.
"""

from types import MappingProxyType

import numpy as np

from .._validation import check_probability
from .erm import rng_from_seed

#: the number of records and of features of the running example
N_RECORDS, N_FEATURES = 569, 30

#: the book's DP-SGD run on the running example (chapters 06 and 07): Poisson rate q, noise
#: multiplier σ, T steps (30 epochs in expectation), clipping norm C, step size η, and the δ reported
#: (below 1/n for the 427 training records). Read-only.
RUNNING_RUN = MappingProxyType({"q": 0.1, "sigma": 2.0, "steps": 300, "clip": 1.0, "lr": 2.0, "delta": 1e-5})


def breast_cancer_records():
    r"""The running example as ``(x, y)``: standardised features in the unit ball, labels ±1.

    .. math:: x_i = \frac{z_i}{\max_j \lVert z_j\rVert_2},\qquad
              z_{ik} = \frac{v_{ik} - \bar v_k}{s_k},

    with :math:`v_{ik}` the raw feature :math:`k` of record :math:`i`, :math:`\bar v_k`
    and :math:`s_k` its mean and standard deviation over the records; :math:`y_i = +1`
    for a malignant tumour and :math:`-1` for a benign one.

    Returns
    -------
    x : ndarray, shape (569, 30), every row of norm at most 1
    y : ndarray, shape (569,), entries ±1 (212 malignant)

    Raises
    ------
    ImportError
        If scikit-learn (which ships the data file) is not installed.

    References
    ----------
    W. N. Street, W. H. Wolberg and O. L. Mangasarian, "Nuclear feature extraction for
    breast tumor diagnosis", Proc. SPIE 1905 (1993). The copy read is scikit-learn's
    ``sklearn.datasets.load_breast_cancer``, which reads a file inside the package.

    Examples
    --------
    >>> x, y = breast_cancer_records()
    >>> x.shape, int((y > 0).sum()), bool(np.linalg.norm(x, axis=1).max() <= 1.0)
    ((569, 30), 212, True)
    """
    from sklearn.datasets import load_breast_cancer  # deferred: only the running example needs it

    bundle = load_breast_cancer()
    raw = np.asarray(bundle.data, dtype=float)
    z = (raw - raw.mean(axis=0)) / raw.std(axis=0)
    x = z / np.linalg.norm(z, axis=1).max()
    # scikit-learn codes malignant as 0 and benign as 1
    y = np.where(np.asarray(bundle.target) == 0, 1.0, -1.0)
    return x, y


def train_test_records(test_fraction=0.25, seed=0):
    """The running example split at random into a training and a test set.

    Parameters
    ----------
    test_fraction : float in (0, 1)
        The share of the records held out.
    seed : int
        Seeds the permutation.

    Returns
    -------
    x_train, y_train, x_test, y_test : ndarray

    Raises
    ------
    ValueError
        If test_fraction is not in (0, 1).

    Examples
    --------
    >>> x_train, y_train, x_test, y_test = train_test_records(0.25, seed=0)
    >>> len(y_train), len(y_test)
    (427, 142)
    """
    frac = float(check_probability(test_fraction, "test_fraction"))
    if not 0.0 < frac < 1.0:
        raise ValueError(f"test_fraction must be in (0, 1), got {test_fraction!r}")
    x, y = breast_cancer_records()
    order = rng_from_seed(seed).permutation(len(y))
    n_test = int(round(frac * len(y)))
    test, train = order[:n_test], order[n_test:]
    return x[train], y[train], x[test], y[test]
