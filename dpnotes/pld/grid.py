r"""The loss grid of one direction, and the FFT arithmetic that composes grids.

:class:`LossGrid` is a (sub-)probability measure on ℓ_i = ``shift`` + i·h (h =
``interval``) plus an atom at +∞; it reads δ(ε) and ε(δ) off the grid, composes with
another grid by a convolution cut to its bulk by exact tail sums (:meth:`LossGrid.compose`),
and with itself T times by one transform raised to the T-th power (:meth:`LossGrid.power`).

The convolution itself is :func:`_convolve`: direct summation for short
inputs, otherwise a real FFT, plain and exponentially tilted (:func:`_tilted`),
with bounds on the ℓ₂ norm of its round-off (:func:`_fft_error_l2`, the
constant :data:`_FFT_ETA`) that :meth:`LossGrid.round_off` reads out with
geometric weights (:func:`_log_geometric_tail`). The analysis is in the
package docstring (:mod:`dpnotes.pld`, "Round-off").

Also here, because every later stage uses them: the grid-size limit
(:data:`MAX_POINTS`, :func:`dpnotes._validation.check_grid_points`) and the tail mass cut per
construction or convolution (:data:`DEFAULT_TAIL_MASS`, :func:`dpnotes._validation.check_tail_mass`).
"""

import math

import numpy as np
from scipy import fft as _fft
from scipy.special import logsumexp

from .._validation import (
    MAX_GRID_POINTS,
    TimeBudget,
    check_array,
    check_bool,
    check_cost,
    check_count,
    check_grid_points,
    check_interval,
    check_nonnegative,
    check_positive,
    check_real,
    check_tail_mass,
    scalar_or_array,
    validated_methods,
)

UNIT_ROUNDOFF = np.finfo(float).eps
_REL_SLACK = 1e-8  # relative floating-point allowance on δ (per-bin quadrature and CDFs)
#: seconds per point·log₂(points) of one FFT convolution with its round-off bounds in the window model of
#: :meth:`LossGrid.check_composed_size` (the rate of :mod:`dpnotes.pld.dpsgd`'s cost model)
_SECONDS_PER_FFT_POINT_LOG = 2e-8
#: seconds per N·log₂N of one :meth:`LossGrid.compose` of inputs whose sizes add to N: the time budget of repeated
#: squaring (:meth:`LossGrid.self_compose`). Measured on this 2-core machine, idle: 2.5–9·10⁻⁹ per convolution
#: (N = 10⁵ to 8·10⁶, plain or tilted), 3.0 and 3.2·10⁻⁹ over whole 10⁹-fold squarings; 2.5× the latter, and
#: below the up-front model's rate (2·:data:`_SECONDS_PER_FFT_POINT_LOG` per window point, N ≈ 2 windows)
_SECONDS_PER_CONVOLUTION_POINT_LOG = 8e-9
_GUESS_POINTS = 2**16  # the most grid points on which :meth:`LossGrid.epsilon` starts from a guess (else: bisection)
_MASS_SLACK = 1e-6  # total mass a LossGrid may hold above 1 (round-off of composed grids, far below)
_NOISE_FLOOR = UNIT_ROUNDOFF ** 2  # per-level tail mass below which the squaring's cut is decided by round-off
DEFAULT_TAIL_MASS = 1e-16  # mass cut from each tail per construction/convolution
MAX_POINTS = MAX_GRID_POINTS  # the most grid points of one distribution (an FFT of 2²⁴ doubles, about 0.5 s)


# --------------------------------------------------------------------------
# one direction: a (sub-)probability measure on shift + i·h (h = interval), plus an atom at +∞
# --------------------------------------------------------------------------
@validated_methods
class LossGrid:
    r"""A privacy loss distribution of one direction on the grid ``shift + i·interval``.

    ``probs[i]`` is the P-mass at loss ``shift + i·interval``; ``inf_mass`` the
    P-mass at loss +∞. ``pessimistic`` says whether δ computed from it is an
    upper (True) or lower (False) bound.

    Floating-point error of ``probs`` (from the FFTs that composed it) is
    carried as two ℓ₂ bounds on the error vector e: ``error`` = B₀ ≥ ‖e‖₂ and
    ``log_tilt_error`` = log B_λ ≥ log ‖(e_i e^{λℓ_i})_i‖₂, with λ = ``tilt`` ≥ 0;
    ``inf_error`` bounds the error of ``inf_mass``. Both norms compose by Young's
    inequality, ‖e∗b‖₂ ≤ ‖e‖₂‖b‖₁ (tilting is multiplicative), and by
    Cauchy–Schwarz, with w_i = 1 − e^{ε−ℓ_i} ∈ [0, 1] for ℓ_i > ε, the error of
    δ(ε) is at most

    .. math:: \min\Big(B_0 \big(\textstyle\sum_{\ell_i>\varepsilon} w_i\big)^{1/2},\
              B_\lambda \big(\textstyle\sum_{\ell_i>\varepsilon} e^{-2\lambda\ell_i} w_i\big)^{1/2}\Big)
              + \text{inf\_error},

    which is added to an upper bound and subtracted from a lower one:

    .. math:: \delta(\varepsilon) = \sum_{\ell_i>\varepsilon} p_i\,(1 - e^{\varepsilon-\ell_i})
              + p_\infty \;(\pm\ \text{error})

    Examples
    --------
    >>> g = LossGrid(0.0, 0.5, np.array([0.5, 0.5]), 0.0, True)  # losses 0 and 0.5
    >>> round(g.delta(0.0), 6)  # 0.5·(1 − e^{−0.5})
    0.196735
    """

    __slots__ = ("shift", "interval", "probs", "inf_mass", "pessimistic", "error",
                 "tilt", "log_tilt_error", "inf_error")

    def __init__(self, shift, interval, probs, inf_mass, pessimistic, error=0.0, *,
                 tilt=0.0, log_tilt_error=-math.inf, inf_error=0.0):
        self.shift = float(check_real(shift, "shift", allow_inf=False))
        self.interval = float(check_positive(interval, "interval"))
        probs = check_array(probs, "probs") if np.size(probs) else np.zeros(0)
        if np.any(probs < 0):
            raise ValueError(f"probs must be masses in [0, 1] (got {probs[probs < 0][:3]})")
        self.probs = probs
        self.inf_mass = float(check_interval(inf_mass, "inf_mass", 0.0, 1.0))
        self.pessimistic = check_bool(pessimistic, "pessimistic")
        self.error = float(check_nonnegative(error, "error"))  # bound on ‖e‖₂, the FFT round-off carried by probs
        self.tilt = float(check_nonnegative(tilt, "tilt"))  # λ of the tilted error norm
        self.log_tilt_error = float(check_real(log_tilt_error, "log_tilt_error"))  # bound on log ‖e_i e^{λ ℓ_i}‖₂
        self.inf_error = float(check_nonnegative(inf_error, "inf_error"))  # bound on the error of inf_mass
        _check_total_mass(probs, self.inf_mass, self.error, self.inf_error, self.tilt, self.log_tilt_error, self.shift,
                          self.interval)

    def with_tilt(self, tilt):
        """This grid with its error measured in the λ-tilted norm (only for a grid without FFT error)."""
        tilt = float(check_nonnegative(tilt, "tilt"))
        if self.error > 0 and tilt != self.tilt:
            raise ValueError("tilt can only be chosen for a grid that carries no round-off yet")
        return _trusted_grid(self.shift, self.interval, self.probs, self.inf_mass, self.pessimistic,
                             self.error, tilt, self.log_tilt_error, self.inf_error)

    def log_mgf(self, tilt):
        """log Σ_i p_i e^{λ ℓ_i}, the log moment generating function of the finite part (λ a number or array)."""
        lams = check_real(tilt, "tilt", allow_inf=False)
        keep = self.probs > 0
        if not np.any(keep):
            return scalar_or_array(np.full(lams.shape, -math.inf))
        log_p, ell = np.log(self.probs[keep]), self.losses[keep]
        flat = lams.ravel()
        if flat.size * ell.size <= 2**22:  # all λ at once, in blocks of moderate size
            out = _log_sum_exp_rows(log_p[None, :] + flat[:, None] * ell[None, :])
        else:
            out = np.concatenate([_log_sum_exp_rows(log_p[None, :] + lam * ell[None, :]) for lam in flat])
        return scalar_or_array(np.reshape(out, lams.shape))

    def round_off(self, eps):
        """Bound on the floating-point error of δ(ε) from this grid (see the class docstring)."""
        eps = float(check_real(eps, "eps", allow_inf=False))
        lam, d, n = self.tilt, self.interval, self.probs.size
        x = (eps - self.shift) / d  # may overflow to ±∞ for |ε| near the float limit
        k0 = n if not x < n else max(math.floor(x) + 1, 0) if x > -1.0 else 0  # first grid loss > ε
        if k0 >= n or self.error == 0.0:  # nothing above ε, or no FFT error
            return self.inf_error

        def log_weights(rate):
            # log Σ_{k≥k0} e^{−rate·ℓ_k}(1 − e^{ε−ℓ_k}) = log(G(rate) − e^ε G(rate + 1)), G geometric
            g0 = _log_geometric_tail(self.shift + k0 * d, d, n - k0, rate)
            g1 = eps + _log_geometric_tail(self.shift + k0 * d, d, n - k0, rate + 1.0)
            return g0 + math.log(-math.expm1(g1 - g0)) if g1 < g0 else g0

        err = self.error * math.exp(0.5 * log_weights(0.0))
        if self.log_tilt_error > -math.inf:  # carried only when λ > 0
            err = min(err, math.exp(min(self.log_tilt_error + 0.5 * log_weights(2 * lam), 700.0)))
        return err + self.inf_error

    @property
    def losses(self):
        """The grid of losses ``shift + i·interval``."""
        return self.shift + self.interval * np.arange(self.probs.size)

    @property
    def mass(self):
        """Total finite mass Σ p_i."""
        return float(self.probs.sum())

    def _raw_delta(self, eps):
        """(Σ_{ℓ_i > ε} p_i (1 − e^{ε−ℓ_i}) + p_∞, round-off bound) for one scalar ε."""
        n = self.probs.size
        x = (eps - self.shift) / self.interval  # may overflow to ±∞ for |ε| near the float limit
        k = n if not x < n else max(math.floor(x) + 1, 0) if x > -1.0 else 0  # first index with ℓ_i > ε
        while k < n and self.shift + self.interval * k <= eps:  # (rounding of the floor above)
            k += 1
        if k < n:  # the losses increase with the index: every ℓ_i from k on is above ε
            ell = self.shift + self.interval * np.arange(k, n)
            body = _dot(self.probs[k:], -np.expm1(eps - ell))
        else:
            body = 0.0
        return body + self.inf_mass, self.round_off(eps)

    def _bound(self, eps):
        d, err = self._raw_delta(eps)
        # relative slack for per-bin floating-point error; the FFT round-off bound is
        # added to an upper bound and subtracted from a lower bound
        if self.pessimistic:
            d = d * (1 + _REL_SLACK) + err
        else:
            d = d * (1 - _REL_SLACK) - err
        return min(max(d, 0.0), 1.0)

    def delta(self, epsilon):
        """δ(ε) of this grid (an upper bound if pessimistic, a lower bound if not), in [0, 1]."""
        eps = check_real(epsilon, "epsilon")
        # δ is constant beyond the last grid loss (the atom at +∞ only) and equal to its value at ε = −∞ in
        # floating point below shift − 800 (e^{ε−ℓ_i} = 0): ε = ±∞ is read there
        low, high = self.shift - 800.0, self.shift + self.interval * self.probs.size + 1.0
        flat = [self._bound(min(max(float(e), low), high)) for e in eps.ravel()]
        return scalar_or_array(np.reshape(flat, eps.shape))

    def epsilon(self, delta):
        """Smallest ε ≥ 0 with δ(ε) ≤ δ (exact for the grid: δ is linear in e^ε between grid points)."""
        dl = check_interval(delta, "delta", 0.0, 1.0)
        flat = [self._epsilon_one(float(d)) for d in dl.ravel()]
        return scalar_or_array(np.reshape(flat, dl.shape))

    def _epsilon_one(self, delta):
        f = self._bound
        if f(0.0) <= delta:
            return 0.0
        n = self.probs.size
        i0 = max(math.floor(-self.shift / self.interval) + 1, 0)  # first grid loss > 0
        if i0 >= n:  # no finite loss above 0: δ(ε) is the +∞ atom for all ε > 0
            return math.inf
        top = self.shift + self.interval * (n - 1)
        if f(top) > delta:  # beyond the last grid point δ is constant (the +∞ atom)
            return math.inf
        point = lambda i: 0.0 if i < i0 else self.shift + self.interval * i  # noqa: E731
        lo, hi = i0 - 1, n - 1  # f(point(lo)) > delta ≥ f(point(hi))
        # on a small grid (where each probe's Python overhead outweighs its arithmetic) narrow the bracket around a
        # guess (δ at every grid loss at once), each probe by f itself: galloping from the guess; δ decreasing in
        # ε, the pair found is the one bisection alone finds. On a large one the guess's array passes cost more
        # than the probes they save (measured: 5 against 16 ms at 3.4·10⁵ points)
        g = min(max(self._crossing_guess(delta, i0), lo + 1), hi - 1) if n <= _GUESS_POINTS else lo
        if lo < g < hi:
            up = f(point(g)) > delta  # the crossing is above g: gallop upwards from it, else downwards
            lo, hi = (g, hi) if up else (lo, g)
            step = 1
            while hi - lo > 1:
                probe = lo + step if up else hi - step
                if not lo < probe < hi:
                    break
                if f(point(probe)) > delta:
                    lo = probe
                    if not up:
                        break
                else:
                    hi = probe
                    if up:
                        break
                step *= 2
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if f(point(mid)) > delta:
                lo = mid
            else:
                hi = mid
        ea, eb = point(lo), point(hi)
        da, db = f(ea), f(eb)
        # δ is affine in x = e^ε on [ea, eb]: solve da + (db − da)(x − xa)/(xb − xa) = delta
        frac = (da - delta) / (da - db) if da > db else 1.0
        return float(ea + math.log1p(frac * math.expm1(eb - ea)))

    def _crossing_guess(self, delta, i0):
        """About the last index k ≥ i0 − 1 with the bound δ(ℓ_k) of :meth:`_bound` above ``delta``, all k at once.

        δ(ℓ_k) = Σ_{i>k} p_i − Σ_{i>k} p_i e^{−(i−k)h} + p_∞ by suffix sums, plus the round-off bound of
        :meth:`round_off` in closed form, with G(ρ) = Σ_{j=1}^{m} e^{−ρjh} (m = n − 1 − k points above ℓ_k):
        B₀(G(0) − G(1))^{1/2} and B_λ e^{−λℓ_k}(G(2λ) − G(2λ + 1))^{1/2}. Only a starting point for
        :meth:`_epsilon_one`, whose probes are exact; computed on the top 4^j·1024 points (j = 0, 1, …) until the
        crossing lies inside them, and within the top 600/h points (e^{600} at most: no overflow).
        """
        p, h = self.probs, self.interval
        n = p.size
        lowest = max(i0, n - 1 - int(600.0 / h))
        size = 1024
        while True:
            start = max(n - size, lowest)
            tail = p[start:]
            w = np.exp(h * np.arange(tail.size - 1, -1, -1, dtype=float))  # e^{(n−1−i)h}
            s0 = np.cumsum(tail[::-1])[::-1]  # Σ_{i≥k} p_i
            s1 = np.cumsum((tail * w)[::-1])[::-1] / w  # Σ_{i≥k} p_i e^{−(i−k)h}
            d = (s0 - s1 + self.inf_mass) * (1 + _REL_SLACK)  # δ(ℓ_k), k = start … n − 1 (the terms i = k cancel)
            if self.error > 0:
                m = np.arange(tail.size - 1, -1, -1, dtype=float)  # points above ℓ_k

                def geometric(rate):  # G(rate) = Σ_{j=1}^{m} e^{−rate·j·h}
                    x = rate * h
                    return m if x == 0.0 else math.exp(-x) * -np.expm1(-x * m) / -math.expm1(-x)

                err = self.error * np.sqrt(np.maximum(geometric(0.0) - geometric(1.0), 0.0))
                if self.log_tilt_error > -math.inf:
                    lam = self.tilt
                    ell = self.shift + h * np.arange(start, n)
                    log_t = self.log_tilt_error - lam * ell + 0.5 * np.log(
                        np.maximum(geometric(2 * lam) - geometric(2 * lam + 1), 1e-300))
                    err = np.minimum(err, np.exp(np.minimum(log_t, 700.0)))
                d = d + err + self.inf_error
            if d[0] > delta or start == lowest:
                break
            size *= 4
        above = np.flatnonzero(d > delta)
        return start + int(above[-1]) if above.size else start - 1

    def truncated(self, tail_mass):
        """Cut the tails holding at most ``tail_mass`` each; keep the bound valid."""
        tail_mass = float(check_interval(tail_mass, "tail_mass", 0.0, 1.0))
        p = self.probs
        if p.size == 0:
            return self
        c = np.cumsum(p)
        lo = int(np.searchsorted(c, tail_mass, side="right"))
        rc = np.cumsum(p[::-1])
        hi = p.size - int(np.searchsorted(rc, tail_mass, side="right"))
        if lo >= hi:  # everything is tail: keep the largest entry
            lo = int(np.argmax(p))
            hi = lo + 1
        low_mass = float(c[lo - 1]) if lo > 0 else 0.0
        high_mass = float(rc[p.size - hi - 1]) if hi < p.size else 0.0
        kept = p[lo:hi].copy()
        inf_mass = self.inf_mass
        if self.pessimistic:
            kept[0] += low_mass  # rounding losses up is allowed
            inf_mass += high_mass
        return _trusted_grid(self.shift + lo * self.interval, self.interval, kept, inf_mass,
                             self.pessimistic, self.error, self.tilt, self.log_tilt_error, self.inf_error)

    def compose(self, other, tail_mass=DEFAULT_TAIL_MASS):
        """The grid of the composition (losses add): a convolution, cut to its bulk.

        The window kept is chosen from the *exact* tail masses of the
        convolution, Σ_{i+j>k} a_i b_j (prefix/suffix sums, one dot product per
        probe of a galloping search from each end, not from the FFT output), so
        FFT noise never decides what is cut; the cut mass goes to +∞ and to the
        lowest kept point (pessimistic) or is dropped.
        """
        if not isinstance(other, LossGrid):
            raise TypeError(f"other must be a LossGrid (got {type(other).__name__})")
        tail_mass = check_tail_mass(tail_mass)
        if not math.isclose(self.interval, other.interval, rel_tol=1e-12, abs_tol=0.0):
            raise ValueError("interval of both grids must be equal to compose them")
        if self.pessimistic != other.pessimistic:
            raise ValueError("pessimistic must be the same for both grids")
        if self.tilt != other.tilt:
            raise ValueError("tilt must be the same for both grids")
        a, b = self.probs, other.probs
        na, nb = a.size, b.size
        ma, mb = float(a.sum()), float(b.sum())
        n = na + nb - 1
        check_grid_points(n, "the composition", "use a larger interval or tail_mass, or fewer steps")
        # exact tail sums from prefix/suffix sums; each is one contiguous dot product
        # exact tail sums from prefix/suffix sums (stored reversed, so that every
        # probe is one dot product of two contiguous slices)
        b_pre_rev = np.concatenate([[0.0], np.cumsum(b)])[::-1].copy()  # [nb − m] = Σ_{j<m} b_j
        b_suf_rev = np.concatenate([[0.0], np.cumsum(b[::-1])[:-1]])  # [nb − 1 − m] = Σ_{j>m} b_j
        a_pre = np.concatenate([[0.0], np.cumsum(a)])
        a_suf = np.concatenate([np.cumsum(a[::-1])[::-1], [0.0]])  # a_suf[i] = Σ_{i'≥i} a_i'

        def below(k):  # Σ_{i+j<k} a_i b_j
            full = mb * a_pre[min(max(k - nb + 1, 0), na)]  # i ≤ k − nb: all of b
            i0, i1 = max(0, k - nb + 1), min(k - 1, na - 1)
            if i1 < i0:
                return float(full)
            return float(full) + _dot(a[i0:i1 + 1], b_pre_rev[nb - k + i0:nb - k + i1 + 1])

        def above(k):  # Σ_{i+j>k} a_i b_j
            full = mb * a_suf[min(max(k + 1, 0), na)]  # i > k: all of b
            i0, i1 = max(0, k - nb + 2), min(k, na - 1)
            if i1 < i0:
                return float(full)
            return float(full) + _dot(a[i0:i1 + 1], b_suf_rev[nb - 1 - k + i0:nb - k + i1])

        # the widest window whose exact tails are ≤ tail_mass: galloping, then bisection
        k_lo = _last_true(lambda k: below(k) <= tail_mass, 0, n - 1)
        k_hi = n - 1 - _last_true(lambda r: above(n - 1 - r) <= tail_mass, 0, n - 1 - k_lo)
        lam = self.tilt
        c, new_err, new_log_tilt = _convolve(a, b, lam * self.interval)
        window = c[k_lo:k_hi + 1].copy()
        low_mass, high_mass = below(k_lo), above(k_hi)
        inf_mass = self.inf_mass * (mb + other.inf_mass) + other.inf_mass * ma
        if self.pessimistic:
            window[0] += low_mass
            inf_mass += high_mass
        # round-off: an error e_a of the inputs becomes e_a∗b (+ a∗e_b + e_a∗e_b), and
        # ‖e_a∗b‖₂ ≤ ‖e_a‖₂‖b‖₁ (Young), also tilted: ‖(e_a∗b)e^{λℓ}‖₂ ≤ ‖e_a e^{λℓ}‖₂ Σ_j b_j e^{λℓ_j};
        # ‖e_a∗e_b‖₂ ≤ ‖e_a‖₂‖e_b‖₁ ≤ ‖e_a‖₂ √n_b ‖e_b‖₂
        root_nb = math.sqrt(nb)
        error = self.error * mb + other.error * ma + self.error * other.error * root_nb + new_err
        log_tilt_error = -math.inf  # the tilted norm is carried only for λ > 0
        if lam > 0:
            log_terms = [new_log_tilt + lam * (self.shift + other.shift)]
            if self.log_tilt_error > -math.inf or other.log_tilt_error > -math.inf:
                lma = self.log_mgf(lam)
                lmb = lma if other is self else other.log_mgf(lam)
                log_terms += [self.log_tilt_error + lmb, other.log_tilt_error + lma,
                              self.log_tilt_error + other.log_tilt_error + math.log(root_nb)]
            log_tilt_error = float(np.logaddexp.reduce(log_terms))
        # the +∞ atom is p∞_a(‖b‖₁ + p∞_b) + p∞_b‖a‖₁: errors of ‖a‖₁, ‖b‖₁ (≤ √n ‖e‖₂) and the atoms
        err1_a, err1_b = self.error * math.sqrt(na), other.error * root_nb
        inf_error = (self.inf_error * (mb + other.inf_mass + err1_b + other.inf_error)
                     + other.inf_error * (ma + self.inf_mass + err1_a)
                     + self.inf_mass * err1_b + other.inf_mass * err1_a)
        return LossGrid(self.shift + other.shift + k_lo * self.interval, self.interval, window,
                        min(inf_mass, 1.0), self.pessimistic, error, tilt=lam,
                        log_tilt_error=log_tilt_error, inf_error=inf_error)

    def check_composed_size(self, count, tail_mass=DEFAULT_TAIL_MASS, algorithm="squaring", timed=True):
        r"""Refuse, before any convolution, a ``count``-fold composition whose grid would exceed the size limit.

        The composed loss has mean T·m and standard deviation √T·s (m, s of this grid's law, T =
        ``count``); by the central limit its kept window is about 2z√T·s wide, z = √(2 log(1/τ)) for
        the tail mass τ cut from each side, so it needs about 2z√T·s/h + n points (h the interval,
        n this grid's points). Returns that estimate when it is within ``MAX_POINTS``.
        """
        count = int(check_count(count, "count"))
        if count > 10**9:  # the FFT round-off (and the atom at +∞, bounded with 1 + 4·T·n·u) grows like T·u
            raise ValueError(f"count must be at most 1e9 for a composed grid, whose round-off grows with the count "
                             f"(got {count}); use an RDP or CLT route for more compositions")
        tail_mass = check_tail_mass(tail_mass)
        p, n = self.probs, self.probs.size
        mass = float(p.sum())
        if count == 1 or n <= 1 or mass <= 0:
            return n
        idx = np.arange(n, dtype=float)
        mean = _dot(p, idx) / mass
        sd = math.sqrt(max(_dot(p, (idx - mean) ** 2) / mass, 0.0))  # in grid steps
        z = math.sqrt(2.0 * math.log(1.0 / (tail_mass / count)))
        # the window kept: beyond u above (below) the mean the composed index has mass ≤ τ = tail_mass/T by
        # Chernoff, P(J − T·mean > u) ≤ exp(T·κ(μ) − μu), κ the centred log-MGF of one step's index (heavy
        # tails included); never more than the full support T(n − 1) + 1
        with np.errstate(divide="ignore"):
            log_p = np.log(p / mass)
        log_tau = math.log(tail_mass / count)
        mus = np.geomspace(1e-6, 50.0, 40) / max(sd, 1e-12)
        width = 0.0
        for sign in (1.0, -1.0):
            # four exponents at a time: this estimate itself allocates at most 4 rows of the grid's size
            kappa = np.concatenate([logsumexp(log_p[None, :] + sign * mus[j:j + 4, None] * (idx - mean)[None, :], axis=1)
                                    for j in range(0, mus.size, 4)])
            width += float(np.min((count * kappa - log_tau) / mus))
        full = count * (n - 1.0) + 1.0
        estimate = min(width + n, full)
        what = f"the {count}-fold composition of a grid of {n} points (interval {self.interval:g})"
        remedy = "use a larger interval or tail_mass, or a smaller count"
        if algorithm == "squaring" and count > 2 and tail_mass / count < _NOISE_FLOOR:
            # each level cuts at most tail_mass/count, chosen from tail sums of the previous level's FFT output,
            # whose round-off (products of two ~u·‖x‖ errors) exceeds u² per entry: below that the window is not
            # cut by the tail bound but by the noise, and keeps most of the full support (measured: 3.8–17× the
            # bulk at τ/T = 1e-33, T = 1000; at most 1.45× at τ/T ≥ 1e-31)
            estimate = full
            remedy = (f"use tail_mass ≥ count·{_NOISE_FLOOR:.1e} = {count * _NOISE_FLOOR:.1e} (a smaller one is below "
                      f"the FFT's round-off and keeps the whole support), a larger interval, or a smaller count")
        if not timed:  # the caller made its own estimate (the DP-SGD routes, dpnotes.pld.dpsgd)
            return estimate
        check_grid_points(2.0 * estimate, what + " (convolving two halves of about that window)", remedy)
        # by squaring: one convolution (plain and tilted FFTs) per level j, of about 2z√(2^j)·sd + n points;
        # by one power of the transform: the last window, with log₂T multiplications
        levels = max(math.ceil(math.log2(count)), 1)
        if algorithm == "power":
            top = min(estimate, MAX_POINTS)
            work = top * (math.log2(top + 2) + levels)
        else:
            work = sum(w * math.log2(w + 2) for w in (min(2.0 * z * math.sqrt(2.0**j) * sd + n, MAX_POINTS)
                                                     for j in range(1, levels + 1)))
        check_cost(what, remedy, seconds=_SECONDS_PER_FFT_POINT_LOG * 2 * work, nbytes=16.0 * 8 * estimate)
        return estimate

    def self_compose(self, count, tail_mass=DEFAULT_TAIL_MASS, *, timed=True, budget=None):
        """``count``-fold composition with itself by repeated squaring (round-off in the norm of ``tilt``).

        Refused up front (:meth:`check_composed_size`) beyond the grid-size limit, or (``timed``) the time
        limit. The up-front window model can be short (where round-off in far tails keeps the windows wide:
        a two-point step, ``pld_randomized_response(1e-9)``, composed 10⁹ times grows windows 3× past it), so
        a timed call also charges each convolution's estimated cost before doing it to ``budget`` (a
        ``dpnotes._validation.TimeBudget``; a new one with the time limit if None) and stops with a
        ``ValueError`` where the next one would pass it.
        """
        count = int(check_count(count, "count"))
        tail_mass = check_tail_mass(tail_mass)
        if timed:  # untimed, the check computes an estimate only (the DP-SGD routes make their own)
            self.check_composed_size(count, tail_mass, timed=timed)
            budget = TimeBudget() if budget is None else budget
        what = f"the {count}-fold composition of a grid of {self.probs.size} points (interval {self.interval:g})"
        tail_mass = tail_mass / count  # a cut at one level is repeated up to `count` times

        def composed(x, y):
            if timed:
                size = x.probs.size + y.probs.size - 1.0
                budget.spend(_SECONDS_PER_CONVOLUTION_POINT_LOG * size * math.log2(size + 2.0), what,
                             "use a larger interval or tail_mass, or a smaller count")
            return x.compose(y, tail_mass)

        result, base = None, self
        while count:
            if count & 1:
                result = base if result is None else composed(result, base)
            count >>= 1
            if count:
                base = composed(base, base)
        return result


    def power(self, count, tail_mass=DEFAULT_TAIL_MASS, *, timed=True, budget=None):
        r"""The ``count``-fold composition in the Fourier domain: one transform, its T-th power, one inverse.

        The composed index J (loss ``count``·shift + J·h) is kept on the window
        [L, U] outside which each tail holds at most ``tail_mass`` by the Chernoff
        bounds P(J > U) ≤ e^{Tκ(μ) − μ(U+1)}, P(J < L) ≤ e^{Tκ(−μ) + μ(L−1)}
        (κ the log-MGF of the index of one step; μ searched on a log grid from 10⁻³ to
        3 times the Gaussian guess √(2 log(1/τ)/T)/sd, then refined around the best: a
        step with a rare, widely spread part, as the subsampled Gaussian at small σ, has
        its best μ far below the guess that its standard deviation makes), and the powers
        are taken modulo the FFT size N ≥ U − L + 1, so the mass τ outside the
        window aliases into it: it is an error of ℓ₁ norm ≤ τ (carried in both
        error norms; a pessimistic grid also puts τ at +∞). Round-off, per
        pipeline with input x (‖x‖₁ = m ≤ 1), by Higham's FFT bound
        (c_F = log₂N·η_F) and the error of binary powering of complex numbers,
        ρ_T = (1 + √5u)^{T−1} − 1 (Brent, Percival & Zimmermann 2007):

        .. math:: \|\hat c - c\|_2 \le (\rho_T/(1-\rho_T) + c_F)\,\|\hat p\|_2/\sqrt N
                  + T (m + c_F\sqrt N\|x\|_2)^{T-1} c_F \|x\|_2 + \tau

        (p̂ the computed power of the transform). With λ = ``tilt`` > 0 the same is done for
        the tilted law x_i ∝ a_i e^{λh i} (mass 1), whose relative input error θ grows to
        (1 + θ)^T − 1; each entry is taken from the pipeline with the smaller bound (:func:`_convolve`).
        Where Chernoff bounds are loose (long-tailed steps: the window would exceed
        8(n + 16√T·sd) or the size limit) this is :meth:`self_compose` (with ``budget``). Only for a grid without
        round-off yet.
        """
        count = int(check_count(count, "count"))
        if count == 1:
            return self
        if timed:  # untimed, the check computes an estimate only (the DP-SGD routes make their own)
            self.check_composed_size(count, check_tail_mass(tail_mass), algorithm="power", timed=timed)
        if self.error > 0 or self.inf_error > 0:
            raise ValueError("power composes a grid that carries no round-off yet")
        tail_mass = check_tail_mass(tail_mass)
        a, h, lam, T = self.probs, self.interval, self.tilt, count
        n, m = a.size, float(a.sum())
        ctr = int(round(_dot(a, np.arange(n, dtype=float)) / m))  # indices are centred here: j − ctr, J − T·ctr
        idx, shift_c = np.arange(n, dtype=float) - ctr, T * ctr
        with np.errstate(divide="ignore"):
            log_a = np.log(a)  # κ(μ) = log Σ a_i e^{μ(i − ctr)}, at several μ at once:

        def kappa(mu):  # log Σ a_i e^{μ(i − ctr)} for each μ (a log-sum-exp without scipy's per-call overhead)
            v = log_a[None, :] + np.atleast_1d(mu)[:, None] * idx[None, :]
            top = v.max(axis=1)
            np.exp(v - top[:, None], out=v)
            return top + np.log(v.sum(axis=1))

        log_tau, top, bottom = math.log(tail_mass), T * (n - 1) - shift_c, -shift_c
        slack = lambda t: 2 * UNIT_ROUNDOFF * (T * (n + 2) + np.abs(t))  # noqa: E731  (error of t = T·κ: sums of n terms)

        def log_tail(t, mus, cut):  # log of min over μ of the Chernoff bound on Σ_{J>cut} (μ > 0) or Σ_{J<cut} (μ < 0)
            return float(np.min(t - mus * (cut + np.sign(mus)) + slack(t)))  # t = T·κ(μ)

        def spread(x):  # the standard deviation of the index under the law x (at least 1/2)
            mean = _dot(x, idx) / float(x.sum())
            return math.sqrt(max(_dot(x, (idx - mean) ** 2) / float(x.sum()), 0.25))

        def exponents(sign, sd, log_tau=log_tau, mu0=0.0, k0=0.0):
            # Chernoff exponents μ > 0 (and t = T·(κ(mu0 + sign·μ) − k0)) near the one that minimises the cut
            # (t − log τ)/μ: a coarse log grid reaching far below the Gaussian guess √(2 log(1/τ)/T)/sd (a
            # step with a rare, widely spread part, the subsampled Gaussian at small σ, needs a small μ),
            # then a finer one around the best coarse point
            guess = math.sqrt(-2 * log_tau) / (math.sqrt(T) * sd)
            mus = guess * np.geomspace(1e-3, 3.0, 7)
            t = T * (kappa(mu0 + sign * mus) - k0)
            i = int(np.argmin((t - log_tau + slack(t)) / mus))
            fine = np.geomspace(mus[max(i - 1, 0)], mus[min(i + 1, mus.size - 1)], 5)[1:-1]
            return np.concatenate([mus, fine]), np.concatenate([t, T * (kappa(mu0 + sign * fine) - k0)])

        def cut_above(t, mus, log_tau=log_tau):  # the smallest U with the bound on Σ_{J>U} ≤ e^{log_tau} (t = T·κ(μ))
            return int(min(np.min(np.ceil((t - log_tau + slack(t)) / mus)) - 1, top))

        sd_a = spread(a)
        mus, t_up = exponents(1.0, sd_a)
        mus_dn, t_dn = exponents(-1.0, sd_a)
        u = cut_above(t_up, mus)
        lo = int(max(np.max(np.floor((log_tau - t_dn - slack(t_dn)) / mus_dn)) + 1, bottom))
        if lo > u:  # the whole composed mass is below the tail bounds: keep one point
            lo = u = min(max(int(T * _dot(a, idx) / m), bottom), top)
        u_fft = u
        if lam > 0:
            mu_t = lam * h
            k_t = float(kappa(mu_t)[0])
            expo = mu_t * idx - k_t  # ≤ −log a_i: above 700 only where a_i < e^{−700}
            tiny = expo > 700.0
            x = a * np.exp(np.minimum(expo, 700.0))
            x[tiny] = np.exp(log_a[tiny] + expo[tiny])
            # the window also holds the tilted law up to an alias below its round-off (≈ T·u·‖x‖₂), within 16×
            log_tau_t = max(log_tau, math.log(1e-3 * T * _FFT_ETA * math.sqrt(_dot(x, x))))
            mus_t, t_t = exponents(1.0, spread(x), log_tau_t, mu_t, k_t)  # T·κ of the tilted law (in its own units)
            u_fft = min(max(u, cut_above(t_t, mus_t, log_tau_t)), u + 15 * (u - lo + 1), top)
        with np.errstate(over="ignore"):
            tau_up = math.exp(min(log_tail(t_up, mus, u), 0.0)) if u < top else 0.0
            tau_dn = math.exp(min(log_tail(t_dn, -mus_dn, lo), 0.0)) if lo > bottom else 0.0
        width = u_fft - lo + 1  # computed; only lo … u is returned (the rest holds less than tau_up)
        if width > min(8 * (n + 16 * math.sqrt(T) * sd_a), MAX_POINTS):  # loose bounds
            return self.self_compose(count, tail_mass, timed=timed, budget=budget)  # (long-tailed steps): squaring cuts by exact tail sums
        nfft = _fft.next_fast_len(width, real=True)
        c0, e0 = _power_pipeline(a, T, nfft, lo + shift_c, width, m * (1 + n * UNIT_ROUNDOFF), 0.0)
        e0 += tau_up + tau_dn
        log_t = -math.inf
        if lam > 0:
            worst = abs(log_a[tiny & (a > 0)]).max() if np.any(tiny & (a > 0)) else 0.0
            theta = 8 * UNIT_ROUNDOFF * (1 + abs(mu_t) * n + abs(k_t) + worst)  # relative error of each x_i
            ct, et = _power_pipeline(x, T, nfft, lo + shift_c, width, float(x.sum()) * (1 + 2 * n * UNIT_ROUNDOFF), theta)
            # aliased tilted mass, in the tilted units (Σ_{j∉[L,U]} c_j e^{μ_t j − Tκ_t})
            with np.errstate(over="ignore"):
                alias_up = math.exp(min(log_tail(t_t, mus_t, u_fft), 0.0)) if u_fft < top else 0.0
            alias_dn = tau_dn * math.exp(min(mu_t * (lo - 1) - T * k_t, 0.0)) if lo > bottom else 0.0
            et += alias_up + alias_dn
            # entry r (index lo + r) untilted errs by et·e^{Tκ_t − μ_t(lo + r)}: the tilted one is better above r_s
            r_s = min(max(math.floor((math.log(et) + T * k_t - mu_t * lo - math.log(e0)) / mu_t), -1), width - 1)
            with np.errstate(divide="ignore"):
                c0[r_s + 1:] = np.exp(np.log(ct[r_s + 1:]) + T * k_t - mu_t * (lo + np.arange(r_s + 1, width)))
            log_t_terms = [math.log(et) + T * k_t - mu_t * lo]
            plain = et * math.exp(T * k_t - mu_t * (lo + r_s + 1)) if r_s < width - 1 else 0.0
            if r_s >= 0:
                log_t_terms.append(math.log(e0) + mu_t * r_s)
                plain += e0
            e0 = plain
            log_t = float(np.logaddexp.reduce(log_t_terms)) + lam * (T * self.shift + (lo + shift_c) * h)
        # the atom: (m + p∞)^T − m^T, with the sum m known to n·u relative (its error, ≤ 4·T·n·u of it, is inf_error:
        # added to an upper δ, taken from a lower one; inflating the atom itself pushed the total mass past 1 at
        # T = 10⁹), plus the cut tails on an upper bound
        p_inf = self.inf_mass
        atom = (m + p_inf) ** T * -math.expm1(T * math.log1p(-p_inf / (m + p_inf)))
        inf_mass = atom + ((tau_up + tau_dn) if self.pessimistic else 0.0)
        return _trusted_grid(T * self.shift + (lo + shift_c) * h, h, c0[:u - lo + 1], min(inf_mass, 1.0),
                             self.pessimistic, e0, lam, log_t, atom * 4 * T * n * UNIT_ROUNDOFF)

def _log_sum_exp_rows(v):
    """log Σ_j e^{v_ij} for each row i of the finite-or-(−∞) matrix ``v`` (overwritten): scipy's logsumexp without its
    per-call overhead (a row whose largest entry is ±∞ gives that entry)."""
    top = v.max(axis=1)
    safe = np.where(np.isfinite(top), top, 0.0)
    np.exp(v - safe[:, None], out=v)
    with np.errstate(divide="ignore"):  # a row of −∞ only: log 0
        return np.where(np.isfinite(top), safe + np.log(v.sum(axis=1)), top)


def _check_total_mass(probs, inf_mass, error, inf_error, tilt=0.0, log_tilt_error=-math.inf, shift=0.0, interval=1.0):
    r"""Refuse a grid whose total mass exceeds 1 by more than its round-off can: ``error`` bounds the ℓ₂ norm of the
    error of ``probs``, so their sum errs by at most √n·``error`` (Cauchy–Schwarz); ``inf_error`` that of the atom
    (a 10⁹-fold composition of a two-point step summed to 1 + 1.4e-6 within these bounds); and the entries a tilted
    FFT computed err by e_i with ‖e_i e^{λℓ_i}‖₂ ≤ e^{``log_tilt_error``}, so their sum by at most

    .. math:: e^{\text{log\_tilt\_error}}\,\Big(\sum_i e^{-2\lambda\ell_i}\Big)^{1/2}

    (Cauchy–Schwarz again; large where the grid reaches far below 0, where the tilted round-off is amplified: a
    1000-fold randomized response at p = 0.0047, tilted, summed to 1 + 2·10⁻⁶ there, while its δ(ε) at ε ≥ 0 keeps
    its certified bound)."""
    total = float(probs.sum()) + inf_mass
    round_off = math.sqrt(probs.size) * error + inf_error
    if total <= 1.0 + _MASS_SLACK + round_off:
        return
    if tilt > 0 and log_tilt_error > -math.inf and probs.size:
        ell = shift + interval * np.arange(probs.size)
        log_norm = 0.5 * float(_log_sum_exp_rows((-2.0 * tilt * ell)[None, :])[0])
        round_off += math.exp(min(log_tilt_error + log_norm, 700.0))
    if not total <= 1.0 + _MASS_SLACK + round_off:
        raise ValueError(f"probs and inf_mass must hold a total mass in [0, 1] (a sub-probability; got {total!r}, "
                         f"beyond the round-off bound {round_off:.3g})")


def _trusted_grid(shift, interval, probs, inf_mass, pessimistic, error=0.0, tilt=0.0, log_tilt_error=-math.inf,
                  inf_error=0.0):
    """A :class:`LossGrid` from values this module computed (a truncation, a composition, a re-tilt of a checked
    grid), without the argument checks of its constructor, which cost more than the arithmetic on small grids;
    only the total mass is checked (FFT round-off could in principle push it above 1)."""
    _check_total_mass(probs, inf_mass, error, inf_error, tilt, log_tilt_error, shift, interval)
    g = object.__new__(LossGrid)
    g.shift, g.interval, g.probs, g.inf_mass, g.pessimistic = float(shift), float(interval), probs, float(inf_mass), \
        bool(pessimistic)
    g.error, g.tilt, g.log_tilt_error, g.inf_error = float(error), float(tilt), float(log_tilt_error), float(inf_error)
    return g


# --------------------------------------------------------------------------
# FFT convolution with bounds on its round-off; exponential tilting
# --------------------------------------------------------------------------
def _dot(x, y):
    """Σ x_i y_i by numpy's pairwise summation (no BLAS: its threads stall on a busy machine)."""
    return float(np.sum(x * y))


def _last_true(pred, start, stop):
    """Largest k in [start, stop] with pred(k) (pred monotone: true then false; pred(start) assumed).

    Galloping from ``start`` then bisection: O(log(k − start)) calls, cheap when
    the answer is near ``start`` (the tails are short compared with the grid).
    """
    lo, step = start, 1
    while True:
        probe = min(lo + step, stop)
        if probe == lo:
            return lo
        if not pred(probe):
            hi = probe
            break
        lo, step = probe, 2 * step
        if probe == stop:
            return stop
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if pred(mid) else (lo, mid)
    return lo


# Error constant of a floating-point FFT: ‖fl(F x) − F x‖₂ ≤ log₂(n)·η_F·‖F x‖₂ with
# η_F = μ_F + g₄(√2 + μ_F) ≈ 6.7u, g₄ = 4u/(1 − 4u), for a radix-2 FFT with twiddle
# factors accurate to μ_F ≈ u (Higham, Accuracy and Stability of Numerical Algorithms,
# 2nd ed., Thm 24.2, where η_F, μ_F, g₄ are written η, μ, γ₄).
# scipy's pocketfft is a mixed-radix FFT with accurate twiddles; 16u leaves a
# margin for the radix-3/5 butterflies (the tests compare the bound with the
# actual error against exact summation).
_FFT_ETA = 16 * UNIT_ROUNDOFF / 2


def _log_geometric_tail(start, step, count, rate):
    """log Σ_{k<count} e^{−rate·(start + k·step)}: the weights e^{−rate·ℓ} of ``count`` grid losses."""
    return -rate * start + _log_geometric_sum(-rate * step, 0, count - 1)


def _log_geometric_sum(rate, first, last):
    """log Σ_{k=first}^{last} e^{rate·k} (−∞ for an empty range), stable for any sign of rate."""
    if last < first:
        return -math.inf
    m = last - first + 1
    if rate == 0.0:
        return math.log(m)
    top = last if rate > 0 else first  # the largest term
    r = -abs(rate)
    return rate * top + math.log(-math.expm1(r * m)) - math.log(-math.expm1(r))


def _fft_convolve(a, b, nfft):
    """irfft(rfft(a)·rfft(b)) cut to the linear convolution, negative entries clipped to 0."""
    n = a.size + b.size - 1
    fa = _fft.rfft(a, nfft)
    fb = fa if b is a else _fft.rfft(b, nfft)
    c = _fft.irfft(fa * fb, nfft)[:n]
    return np.maximum(c, 0.0)  # the true values are ≥ 0: clipping only shrinks the error


def _fft_error_l2(a, b, nfft):
    r"""Bound on ‖ĉ − a∗b‖₂ for the FFT convolution of ``a`` and ``b``.

    Each of the three transforms errs by c_F = log₂(n)η_F relative in ℓ₂, and
    ‖F b‖_∞ ≤ ‖b‖₁; Parseval turns the errors of F a and F b into
    c_F‖a‖₂‖b‖₁ and c_F‖a‖₁‖b‖₂ after the inverse transform, which adds its own
    c_F‖a∗b‖₂ ≤ c_F‖a‖₂‖b‖₁; the pointwise product adds u‖a‖₂‖b‖₁.
    """
    eps_f = math.log2(nfft) * _FFT_ETA
    n2a, n1a = math.sqrt(_dot(a, a)), float(a.sum())
    n2b, n1b = (n2a, n1a) if b is a else (math.sqrt(_dot(b, b)), float(b.sum()))
    return ((2 * eps_f + UNIT_ROUNDOFF) * n2a * n1b + eps_f * n1a * n2b) * (1 + 4 * eps_f)


def _convolve(a, b, tilt=0.0):
    r"""Linear convolution of two non-negative arrays, with bounds on its error.

    Returns ``(c, err, log_tilted_err)``: the convolution, a bound on the ℓ₂
    norm of its error ‖ĉ − c‖₂, and the log of a bound on the tilted ℓ₂ norm
    ‖((ĉ_k − c_k) e^{λh·k})_k‖₂, with λh = ``tilt`` ≥ 0 the tilt per grid index
    (the tilt λ per unit loss times the grid spacing h).

    Short inputs are summed directly: every entry is a sum of non-negative
    terms, so its relative error is at most N·u/(1 − N·u), N = min(n_a, n_b),
    and both error norms are at most that factor times the norms of the result.

    Longer inputs use a real FFT. Its error is of order u‖a‖₂‖b‖₁ in *every*
    entry, so entries far below the largest come out as noise. Tilting fixes
    that where it matters: with a'_i = a_i e^{λh·i}, b'_j = b_j e^{λh·j}
    (normalised by their maxima), (a'∗b')_k = (a∗b)_k e^{λh·k}, so the FFT of the
    tilted arrays, untilted, errs by ∝ e^{−λh·k}: relatively small in the upper
    tail, where δ(ε) at small δ lives. With λ > 0 both convolutions are computed
    and each entry is taken from the one with the smaller error bound (the plain
    one in the bulk and below it, the tilted one above). On each region the
    error is part of that FFT's error vector, whose ℓ₂ norm is bounded; a
    weight is bounded by its largest value on the region.
    """
    na, nb = a.size, b.size
    n = na + nb - 1
    if min(na, nb) <= 64:
        m = min(na, nb)
        gamma = m * UNIT_ROUNDOFF / 2 / (1 - m * UNIT_ROUNDOFF / 2)
        c = np.maximum(np.convolve(a, b), 0.0)
        err = gamma * math.sqrt(_dot(c, c))
        log_tilted = -math.inf
        if err > 0:
            ct, top = _tilted(c, tilt)
            log_tilted = math.log(gamma) + top + 0.5 * math.log(_dot(ct, ct))
        return c, err, log_tilted
    nfft = _fft.next_fast_len(n, real=True)
    c0 = _fft_convolve(a, b, nfft)
    e0 = _fft_error_l2(a, b, nfft)  # ℓ₂ bound of the plain FFT's error; also a bound per entry
    if tilt <= 0.0 or e0 == 0.0:
        log_tilted = (math.log(e0) + max(tilt, 0.0) * (n - 1)) if e0 > 0 else -math.inf
        return c0, e0, log_tilted
    ta, la = _tilted(a, tilt)
    tb, lb = (ta, la) if b is a else _tilted(b, tilt)
    ct = _fft_convolve(ta, tb, nfft)
    et = _fft_error_l2(ta, tb, nfft)  # in tilted, normalised units: untilted it is et·e^{la+lb−tilt·k}
    # the tilted result is the better one for k > k_switch
    k_switch = math.floor((math.log(et) + la + lb - math.log(e0)) / tilt) if et > 0 else -1
    k_switch = min(max(k_switch, -1), n - 1)
    c = c0
    if k_switch < n - 1:
        k = np.arange(k_switch + 1, n)
        c = c0.copy()
        c[k_switch + 1:] = ct[k_switch + 1:] * np.exp(la + lb - tilt * k)
    # plain and tilted ℓ₂ norms of the error, region by region
    plain, log_t = (e0, [math.log(e0) + tilt * k_switch]) if k_switch >= 0 else (0.0, [])
    if et > 0 and k_switch < n - 1:
        plain += et * math.exp(la + lb - tilt * (k_switch + 1))
        log_t.append(math.log(et) + la + lb)
    return c, plain, float(np.logaddexp.reduce(log_t))


def _tilted(a, tilt):
    """a_i e^{tilt·i} divided by its largest entry, and the log of that entry."""
    with np.errstate(divide="ignore"):
        log_a = np.log(a) + tilt * np.arange(a.size)
    top = float(np.max(log_a))
    return np.exp(log_a - top), top


def _power_pipeline(x, count, nfft, start, width, mass, theta):
    r"""Entries start … start + width − 1 of x^{∗count} modulo nfft (clipped at 0), and the ℓ₂ bound on their error
    of :meth:`LossGrid.power` without aliasing (``mass`` ≥ ‖x‖₁, ``theta`` the relative error of each x_i)."""
    n = x.size
    if n > nfft:  # fold onto the circle first (a ring homomorphism: the power of the fold is the fold of the power)
        x = np.pad(x, (0, -n % nfft)).reshape(-1, nfft).sum(axis=0)
        theta += (n // nfft + 1) * UNIT_ROUNDOFF
    fx = _fft.rfft(x, nfft)
    p = np.ones_like(fx)
    base, k = fx, count
    while k:  # binary powering
        p, k = (p * base if k & 1 else p), k >> 1
        base = base * base if k else base
    c = _fft.irfft(p, nfft)
    c = np.maximum(np.roll(c, -(start % nfft))[:width], 0.0)
    eps_f = math.log2(nfft) * _FFT_ETA
    n2x = math.sqrt(_dot(x, x))
    e_max = eps_f * math.sqrt(nfft) * n2x
    rho = math.expm1((count - 1) * math.log1p(math.sqrt(5) * UNIT_ROUNDOFF))
    w = np.abs(p) ** 2
    n2p = math.sqrt(float(w[0] + 2 * w[1:].sum() - (w[-1] if nfft % 2 == 0 else 0.0)))
    grow = math.exp(min((count - 1) * math.log(mass + e_max), 700.0))
    err = (rho / (1 - rho) + eps_f) * n2p / math.sqrt(nfft) + count * grow * eps_f * n2x
    err += math.expm1(count * math.log1p(theta)) * mass ** count + nfft * 1e-300  # input error; underflow
    return c, err
