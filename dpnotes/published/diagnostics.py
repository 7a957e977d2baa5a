"""Diagnostics for the numbers that do not reproduce: ε under each recorded method, the step
counts that would give the published ε, and the noise that the CLT needs for a given ε."""

import math
import warnings

from .._validation import check_delta, check_interval, check_positive
from ..composition import gaussian_sigma_exact
from ..conversion import OrderGridWarning
from .data import check_setting, published_numbers
from .reproduce import published_row, same_method_result

__all__ = ["published_epsilon_by_method", "steps_reproducing_published", "clt_noise_for_epsilon",
           "strong_composition_epsilon_abadi"]

def published_epsilon_by_method(row_id, method, *, source=None):
    r"""The ε a row's setting gets from another method of the data (e.g. a library's current one).

    .. math:: \varepsilon_{\text{method}}(q, \sigma, T_{\text{method}}, \delta)

    The steps T are recounted by the method's own step rule from the row's
    setting as given (epochs, n, b or q).

    Parameters
    ----------
    row_id : str, a row of the data
    method : str, a key of the data's ``methods``
    source : optional, as :func:`published_numbers`

    Returns
    -------
    (dict, float)
        The method's values (``epsilon`` and ``order``, or ``epsilon`` and ``mu``)
        and the number of steps T it counted.

    Raises
    ------
    ValueError
        For an unknown row or method, or a setting the method's step rule cannot count.

    Examples
    --------
    >>> values, steps = published_epsilon_by_method("tfp-s1.1-e60", "tfp-cli-2019")
    >>> steps, round(values["epsilon"], 4)
    (14063, 3.0092)
    """
    data = published_numbers(source)
    row = published_row(data, row_id)
    if method not in data["methods"]:
        raise ValueError(f"unknown method {method!r} (known: {sorted(data['methods'])})")
    given = dict(row["setting_given"])
    if data["methods"][method]["steps"] != "given" and "epochs" in given:
        given.pop("steps", None)  # recounted from the epochs by the method's rule
    setting = check_setting(given, data["methods"][method]["steps"], f"{row_id}.setting")
    other = {**row, "method": method, "setting": setting}
    return same_method_result(data, other), setting["steps"]


def steps_reproducing_published(row_id, *, source=None):
    r"""The whole numbers of steps T at which a row's own method prints its published ε.

    .. math:: \{T \in \mathbb N : |\varepsilon_{\text{same}}(T) - \varepsilon_{\text{pub}}| < \tfrac12 10^{-d}\}
              = [T_{\text{lo}}, T_{\text{hi}}]

    ε_same(T) is non-decreasing in T (the composed RDP curve Tε_q(α) grows with T
    at every order, and a minimum of non-decreasing functions is non-decreasing),
    so the set is an interval; both ends are found by bisection over
    T ∈ [1, 2¹⁶·T₀] (T₀ the row's own T), each in at most 40 evaluations.

    Parameters
    ----------
    row_id : str, a row of an RDP method
    source : optional, as :func:`published_numbers`

    Returns
    -------
    (int, int) or None
        (T_lo, T_hi), or None when no T prints the published value.

    Raises
    ------
    ValueError
        For an unknown row or a row whose method is not an RDP accountant.

    Examples
    --------
    >>> steps_reproducing_published("abadi-e400")[0] < 40000
    True
    """
    data = published_numbers(source)
    row = published_row(data, row_id)
    if data["methods"][row["method"]]["accountant"] != "rdp":
        raise ValueError(f"{row_id}: steps_reproducing_published needs an RDP method")
    value, decimals = row["published"]["epsilon"]
    half = 0.5 * 10.0 ** (-decimals)

    def eps(t):  # far from T₀ the best order may sit at the grid's edge: expected, not reported
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", OrderGridWarning)
            return same_method_result(data, row, steps=t)["epsilon"]

    def first(pred, lo, hi):
        """Smallest t in [lo, hi] with pred(t) (pred monotone false → true), or hi + 1."""
        if not pred(hi):
            return hi + 1
        while lo < hi:
            mid = (lo + hi) // 2
            if pred(mid):
                hi = mid
            else:
                lo = mid + 1
        return lo

    top = int(row["setting"]["steps"]) * 2 ** 16
    t_lo = first(lambda t: eps(t) > value - half - 1e-12, 1, top)
    t_hi = first(lambda t: eps(t) >= value + half - 1e-12, 1, top) - 1
    return (t_lo, t_hi) if t_lo <= t_hi else None


def clt_noise_for_epsilon(q, steps, delta, epsilon):
    r"""Noise multiplier σ̃ at which the Gaussian-DP central limit gives ε at δ after T steps.

    The CLT gives μ = q√T √(e^{1/σ̃²} − 1); μ-GDP is (ε, δ)-DP exactly when μ = 1/σ_G,
    σ_G the exact Gaussian noise for (ε, δ) (:func:`dpnotes.composition.gaussian_sigma_exact`).
    Solving for σ̃:

    .. math:: \tilde\sigma = \Big(\log\big(1 + \mu^2/(q^2 T)\big)\Big)^{-1/2},\qquad \mu = 1/\sigma_G(\varepsilon, \delta).

    Parameters
    ----------
    q : float, q ∈ (0, 1]
    steps : float, T > 0 (the GDP accountant allows fractional T)
    delta : float, δ ∈ (0, 1)
    epsilon : float, ε > 0

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For parameters out of range.

    References
    ----------
    Bu, Dong, Long & Su (2020), Theorem 5; Balle & Wang (2018), Theorem 8.

    Examples
    --------
    >>> s = clt_noise_for_epsilon(256 / 60000, 4687.5, 1e-5, 1.3411966651387)
    >>> round(s, 6)
    1.06
    """
    q = float(check_interval(q, "q", 0, 1, closed_low=False))
    steps = float(check_positive(steps, "steps"))
    delta = float(check_delta(delta))
    epsilon = float(check_positive(epsilon, "epsilon"))
    mu = 1.0 / float(gaussian_sigma_exact(epsilon, delta))
    return 1.0 / math.sqrt(math.log1p(mu * mu / (q * q * steps)))


def strong_composition_epsilon_abadi(q, sigma, steps, delta, slack_share=0.5):
    r"""ε of DP-SGD by "the strong composition theorem" as Abadi et al. (2016) used it (a reconstruction).

    .. math:: \varepsilon_0 = \frac{\sqrt{2\log(1.25/\delta_0)}}{\sigma},\quad
              \tilde\varepsilon = q\,\varepsilon_0,\quad
              \varepsilon = \tilde\varepsilon\sqrt{2T\log(1/\delta')} + T\tilde\varepsilon^{2},\quad
              \delta' = s\,\delta,\ Tq\delta_0 = (1 - s)\,\delta .

    Each step is the classical Gaussian mechanism (ε₀, δ₀); amplification by sampling is taken to first
    order, (qε₀, qδ₀); Dwork, Rothblum & Vadhan's composition is used with its second-order term
    Tε̃(e^ε̃ − 1) replaced by Tε̃²; the slack δ' takes the share s of δ. The paper does not spell the
    computation out; this recipe with s ≈ ½ gives its 9.34 (100 epochs) and 24.21 (400 epochs; printed
    24.22, matched at s = 0.52). It is **not** a valid bound in this regime: ε₀ ≈ 1.46, and the
    amplified ε of a subsampled (ε₀, δ₀)-DP step is log(1 + q(e^{ε₀} − 1)) ≈ 2.2 qε₀ here, not qε₀
    (the book's route 1, :func:`dpnotes.dpsgd.dpsgd_epsilon` with ``route="route1"``, is valid).

    Parameters
    ----------
    q : float, q ∈ (0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    delta : float, δ ∈ (0, 1)
    slack_share : float, s ∈ (0, 1)

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For parameters out of range.

    References
    ----------
    Abadi et al. (2016), Sections 3.1 and 5.1 (ε = 9.34 and 24.22 by strong composition, q = 0.01,
    σ = 4, δ = 10⁻⁵, 100 and 400 epochs); Dwork, Rothblum & Vadhan (2010), Theorem III.3;
    Dwork & Roth (2014), Appendix A (the classical Gaussian calibration).

    Examples
    --------
    >>> round(strong_composition_epsilon_abadi(0.01, 4.0, 10_000, 1e-5), 2)
    9.34
    """
    q = float(check_interval(q, "q", 0, 1, closed_low=False))
    sigma = float(check_positive(sigma, "sigma"))
    steps = float(check_positive(steps, "steps"))
    delta = float(check_delta(delta))
    share = float(check_interval(slack_share, "slack_share", 0, 1, closed_low=False, closed_high=False))
    delta0 = (1.0 - share) * delta / (steps * q)
    eps0 = math.sqrt(2.0 * math.log(1.25 / delta0)) / sigma
    amplified = q * eps0
    return amplified * math.sqrt(2.0 * steps * math.log(1.0 / (share * delta))) + steps * amplified ** 2
