r"""The generic subsampling bound of Claim 24, for any inner mechanism.

:func:`rdp_subsampled` turns the RDP curve ε(α) of an inner mechanism into
that of the mechanism run on a subsample drawn without replacement at rate q
(source S4, Claim 24); :func:`rdp_subsampled_relaxed` is its relaxation via
1 + x ≤ e^x, of order qε(α). Both take the inner curve as values or as a
callable (:func:`_rho_at`). The bound gains a factor q, against q² for the exact
sampled Gaussian (:mod:`dpnotes.subsampling.sampled_gaussian`).
"""

import numpy as np

from .._logspace import log_expm1
from .._validation import check_nonnegative, check_order, check_probability, named_shapes, scalar_or_array


# ----------------------------------------------------------------------------
# Claim 24: the generic subsampling bound
# ----------------------------------------------------------------------------

def _rho_at(alpha, rdp):
    # the inner mechanism's RDP curve ε(α), from values or a callable
    if callable(rdp):
        rho = np.asarray(rdp(alpha), dtype=float)
    else:
        rho = rdp
    return check_nonnegative(rho, "rdp", allow_inf=True)


@named_shapes
def rdp_subsampled(alpha, rate, rdp):
    r"""RDP after subsampling without replacement, by the generic bound of Claim 24.

    .. math:: \varepsilon'(\alpha) = \frac{1}{\alpha-1}\log\big(1 + q\,(e^{(\alpha-1)\varepsilon(\alpha)} - 1)\big)

    computed as (log q + log(e^{(α−1)ε(α)} − 1)) passed through log1p/logaddexp,
    so (α − 1)ε(α) in the thousands does not overflow (the value then tends to
    ε(α) + log(q)/(α − 1)).

    Parameters
    ----------
    alpha : float or array, α > 1
    rate : float or array, the sampling rate q (batch size over n) ∈ [0, 1]
    rdp : float, array or callable
        The RDP curve ε(α) ≥ 0 of the inner mechanism: values at the given orders, or a
        function of α (e.g. ``lambda a: rdp_gaussian(a, sigma)``).

    Returns
    -------
    float or ndarray
        ε'(α), the RDP curve of the subsampled mechanism.

    Raises
    ------
    ValueError
        If α ≤ 1, q ∉ [0, 1] or ε(α) < 0.

    Notes
    -----
    The source states Claim 25 (used in the proof) for "nonnegative integers"
    p_i, q_i; the proof (Jensen) and the use in (9) need non-negative *reals*.
    The proof also overloads n for both the dataset size and |𝓘|.

    References
    ----------
    Source S4, Claim 24 (S4-09) and Claim 25 (S4-10).

    Examples
    --------
    >>> round(rdp_subsampled(2.0, 0.1, 1.0), 10)  # log(1 + 0.1(e − 1))
    0.1585650787
    >>> round(float(rdp_subsampled(3.0, 0.01, 500.0)), 6)  # ε(α) + log(q)/(α−1)
    497.697415
    """
    alpha = check_order(alpha)
    r = check_probability(rate, "rate")
    rho = _rho_at(alpha, rdp)
    alpha, r, rho = np.broadcast_arrays(alpha, r, rho)
    x = (alpha - 1.0) * rho
    with np.errstate(divide="ignore", invalid="ignore"):
        log_term = np.log(r) + log_expm1(np.where(x > 0, x, 1.0))  # log(q(e^x − 1)), r holds q
        out = np.logaddexp(0.0, log_term) / (alpha - 1.0)
    out = np.where((x == 0) | (r == 0), 0.0, out)
    out = np.where(np.isinf(rho) & (r > 0), np.inf, out)
    return scalar_or_array(out)


@named_shapes
def rdp_subsampled_relaxed(alpha, rate, rdp):
    r"""The relaxation of Claim 24 via 1 + x ≤ e^x.

    .. math:: \varepsilon'(\alpha) \le \frac{q\,(e^{(\alpha-1)\varepsilon(\alpha)} - 1)}{\alpha-1}

    which is ≤ (e^c − 1)/c · qε(α) when (α − 1)ε(α) ≤ c, i.e. O(qε(α)) (source S4, after
    Claim 24).  May be infinite when (α − 1)ε(α) > ~709 + log(1/q).

    Parameters
    ----------
    alpha : float or array, α > 1
    rate : float or array, the sampling rate q ∈ [0, 1]
    rdp : float, array or callable, the inner RDP curve ε(α) ≥ 0

    Raises
    ------
    ValueError
        If α ≤ 1, q ∉ [0, 1] or ε(α) < 0.

    References
    ----------
    Source S4, Claim 24 and the remark after it (S4-09, S4-11).

    Examples
    --------
    >>> round(rdp_subsampled_relaxed(2.0, 0.1, 1.0), 10)  # q(e − 1), q = 0.1
    0.1718281828
    """
    alpha = check_order(alpha)
    r = check_probability(rate, "rate")
    rho = _rho_at(alpha, rdp)
    alpha, r, rho = np.broadcast_arrays(alpha, r, rho)
    x = (alpha - 1.0) * rho
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        out = np.exp(np.log(r) + log_expm1(np.where(x > 0, x, 1.0))) / (alpha - 1.0)
    out = np.where((x == 0) | (r == 0), 0.0, out)
    return scalar_or_array(out)
