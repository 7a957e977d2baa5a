r"""The privacy loss distribution of a mechanism: one grid per adjacency direction.

:class:`PrivacyLossDistribution` holds one :class:`~dpnotes.pld.grid.LossGrid`
(a symmetric mechanism) or two (remove, add), all upper or all lower bounds;
δ(ε) and ε(δ) are the worse direction. It composes (:meth:`~PrivacyLossDistribution.compose`,
:meth:`~PrivacyLossDistribution.self_compose`) with FFTs tilted by the Chernoff
λ of a target (:meth:`~PrivacyLossDistribution.chernoff_tilt`, :meth:`~PrivacyLossDistribution.fft_tilt`).
"""

import math

import numpy as np

from .._validation import (TimeBudget, check_choice, check_count, check_delta, check_nonnegative, check_real,
                           check_tail_mass, scalar_or_array, validated_methods)
from .grid import DEFAULT_TAIL_MASS, LossGrid

_AUTO_TILT_DELTA = 1e-10  # the δ whose ε the default FFT tilt aims at


@validated_methods
class PrivacyLossDistribution:
    r"""Discretised privacy loss distribution(s) of a mechanism; δ is the worse direction.

    Holds one :class:`LossGrid` (symmetric mechanisms) or two (``remove`` then
    ``add``: P = ℳ(S), Q = ℳ(S′) and the reverse). All grids share the spacing
    h (``interval``) and are all upper bounds (``pessimistic``) or all lower bounds.

    .. math:: \delta(\varepsilon) = \max_{\text{directions}}
              \sum_{\ell_i>\varepsilon} p_i (1 - e^{\varepsilon-\ell_i}) + p_\infty

    Use the constructors :func:`pld_gaussian`, :func:`pld_laplace`,
    :func:`pld_randomized_response`, :func:`pld_subsampled_gaussian`,
    :func:`pld_from_probabilities`.

    Examples
    --------
    >>> from dpnotes.pld import gaussian_delta_exact, pld_gaussian
    >>> up = pld_gaussian(2.0).self_compose(4)          # μ = √4/2 = 1
    >>> lo = pld_gaussian(2.0, pessimistic=False).self_compose(4)
    >>> exact = gaussian_delta_exact(1.0, 1.0)
    >>> bool(lo.delta(1.0) <= exact <= up.delta(1.0))
    True
    >>> round(up.epsilon(1e-5), 3)
    4.377
    """

    def __init__(self, grids):
        try:
            grids = tuple(grids)
        except TypeError as err:
            raise TypeError(f"grids must be a sequence of 1 or 2 LossGrid (got {type(grids).__name__})") from err
        if not 1 <= len(grids) <= 2:
            raise ValueError(f"grids must hold 1 or 2 LossGrid (got {len(grids)})")
        if not all(isinstance(g, LossGrid) for g in grids):
            raise TypeError(f"grids must be LossGrid objects (got {[type(g).__name__ for g in grids]})")
        if len({g.pessimistic for g in grids}) != 1:
            raise ValueError("grids must all be pessimistic or all optimistic")
        self.grids = grids

    @property
    def interval(self):
        """h, the spacing of the loss grid."""
        return self.grids[0].interval

    @property
    def pessimistic(self):
        """True if δ from this object is an upper bound, False for a lower bound."""
        return self.grids[0].pessimistic

    def compose(self, other, tail_mass=DEFAULT_TAIL_MASS):
        """Composition with another PLD of the same interval and kind."""
        if not isinstance(other, PrivacyLossDistribution):
            raise TypeError(f"other must be a PrivacyLossDistribution (got {type(other).__name__})")
        tail_mass = check_tail_mass(tail_mass)
        if len(self.grids) == len(other.grids):
            pairs = zip(self.grids, other.grids)
        else:  # a symmetric mechanism serves both directions
            one, two = (self, other) if len(self.grids) == 1 else (other, self)
            pairs = ((one.grids[0], g) for g in two.grids)
        return PrivacyLossDistribution([a.compose(b, tail_mass) for a, b in pairs])

    def self_compose(self, count, tail_mass=DEFAULT_TAIL_MASS, *, tilt="auto", algorithm="squaring", timed=True):
        r"""``count``-fold composition (count ≥ 1).

        ``algorithm="squaring"``: repeated squaring, each convolution by FFT and cut to its
        bulk (:meth:`LossGrid.self_compose`); ``"power"``: one transform raised to the
        ``count``-th power on a window chosen by Chernoff bounds (:meth:`LossGrid.power`),
        a few times faster at large ``count``. Both carry certified round-off bounds.

        ``tilt`` (λ ≥ 0, one value or one per grid) tilts every FFT by e^{λℓ}:
        the round-off of δ(ε) is then bounded by ≈ u·e^{−λε}E[e^{λZ_T}] (Z_T the
        composed loss) instead of
        ≈ u·E[1], which is what makes δ ≈ 1e-10 resolvable after 10⁵ steps.
        ``"auto"`` is :meth:`chernoff_tilt` for δ = 1e-10, the smallest δ the book
        uses (larger δ are served by the untilted FFT, which is also computed);
        λ = 0 is one FFT per convolution instead of two.

        Refused before any convolution beyond the grid-size limit and (``timed``, the default) beyond
        the time limit (:meth:`LossGrid.check_composed_size`).
        """
        count = int(check_count(count, "count"))
        tail_mass = check_tail_mass(tail_mass)
        check_choice(algorithm, "algorithm", ("squaring", "power"))
        if isinstance(tilt, str):
            tilt = self.fft_tilt(count, tilt, delta=_AUTO_TILT_DELTA)
        tilts = np.broadcast_to(np.asarray(tilt, dtype=float), (len(self.grids),))
        budget = TimeBudget() if timed else None  # one time limit for the whole call, shared by the grids
        if algorithm == "power":
            return PrivacyLossDistribution([g.with_tilt(t).power(count, tail_mass, timed=timed, budget=budget)
                                            for g, t in zip(self.grids, tilts)])
        return PrivacyLossDistribution([g.with_tilt(t).self_compose(count, tail_mass, timed=timed, budget=budget)
                                        for g, t in zip(self.grids, tilts)])

    def chernoff_tilt(self, count, *, delta=None, epsilon=None):
        r"""Per grid, the λ of the Chernoff bound on the ``count``-fold composition at a target.

        With κ(λ) = log E[e^{λZ}] of one step (of the grid) and T = ``count``, for a target δ

        .. math:: \lambda^* = \arg\min_{\lambda>0} \frac{T \kappa(\lambda) + \log(1/\delta)}{\lambda},

        and for a target ε, λ* = argmin_λ T κ(λ) − λε (searched on a log grid of
        λ ∈ [10⁻³, 10⁷], then refined). The composed law tilted by λ* is centred near the ε
        where δ(ε) ≈ δ, so tilting the FFTs by λ* keeps relative precision there
        (see :meth:`self_compose`).
        """
        count = int(check_count(count, "count"))
        if (delta is None) == (epsilon is None):
            raise ValueError(f"give exactly one target, delta or epsilon (got delta = {delta!r}, epsilon = {epsilon!r})")
        if delta is not None:
            log_inv_delta = math.log(1.0 / float(check_delta(delta)))
        else:
            epsilon = float(check_nonnegative(epsilon, "epsilon"))

        def objective(g, lams):
            k = g.log_mgf(lams)
            obj = (count * k + log_inv_delta) / lams if delta is not None else count * k - lams * epsilon
            return np.where(np.isfinite(obj), obj, np.inf)

        out = []
        for g in self.grids:
            coarse = np.geomspace(1e-3, 1e7, 41)  # four per decade, then twenty between the neighbours
            i = int(np.argmin(objective(g, coarse)))
            fine = np.geomspace(coarse[max(i - 1, 0)], coarse[min(i + 1, coarse.size - 1)], 21)
            out.append(float(fine[int(np.argmin(objective(g, fine)))]))
        return tuple(out)

    def fft_tilt(self, count, tilt="auto", **target):
        """λ per grid for the FFTs of the ``count``-fold composition.

        ``tilt="auto"``: :meth:`chernoff_tilt` at the target (``delta=`` or
        ``epsilon=``); a number ≥ 0 (or one per grid): that λ.
        """
        if isinstance(tilt, str):
            if tilt != "auto":
                raise ValueError(f"tilt must be 'auto' or a number ≥ 0 (got {tilt!r})")
            return self.chernoff_tilt(count, **target)
        t = check_nonnegative(tilt, "tilt", allow_inf=False)
        if t.ndim > 1 or t.ndim == 1 and t.size != len(self.grids):
            raise ValueError(f"tilt must be one number or one per grid ({len(self.grids)}; got shape {t.shape})")
        return t if t.ndim else float(t)

    def delta(self, epsilon):
        """δ(ε) ∈ [0, 1], maximised over the directions (ε a real number or array; ε = ±∞ allowed)."""
        epsilon = check_real(epsilon, "epsilon")
        vals = [np.asarray(g.delta(epsilon)) for g in self.grids]
        return scalar_or_array(np.maximum.reduce(vals))

    def epsilon(self, delta):
        """Smallest ε ≥ 0 with δ(ε) ≤ δ, maximised over the directions."""
        delta = check_delta(delta)
        vals = [np.asarray(g.epsilon(delta)) for g in self.grids]
        return scalar_or_array(np.maximum.reduce(vals))
