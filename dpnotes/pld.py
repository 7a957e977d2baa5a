r"""Privacy loss distributions on a grid, composed numerically by FFT.

A mechanism with output laws P (on a dataset) and Q (on a neighbour) has the
privacy loss Z = log(dP/dQ)(Y), Y ~ P, and

.. math:: \delta(\varepsilon) = \mathbb E\big[\max(0, 1 - e^{\varepsilon - Z})\big]
          + P(Z = \infty)

(seed 002, S2-02, second line). For independent composition the losses add,
so the distribution of the composed loss is the convolution of the
per-step distributions. This module puts each loss distribution on a uniform
grid ℓ_i = ``shift`` + i·h of loss values, h the grid spacing (a
:class:`LossGrid`), convolves grids with the FFT and
reads δ(ε) and ε(δ) off the result.

Every grid is a *bound*: a pessimistic grid has δ̂(ε) ≥ δ(ε) for every ε and an
optimistic grid δ̌(ε) ≤ δ(ε). Both properties survive composition, because
δ_{A∘B}(ε) = E_B[δ_A(ε − Z_B)] is monotone in δ_A and in the law of Z_B.
Two discretisations are offered:

``method="dots"`` (default)
    Upper: each bin (ℓ_j, ℓ_{j+1}] of the true loss is split between its two
    end points so that both its P-mass and its Q-mass are kept (the
    "connect-the-dots" construction of Doroshenko et al., 2022): δ̂ equals δ
    at every grid point and is its chord in between. Lower: the outputs with
    loss in a bin around each grid point are merged (a post-processing, which
    can only lower δ); the merged loss of bin j lies within O(h³) of ℓ_j
    because the bin edges are placed to balance the bin, and every merged loss
    is rounded down to ℓ_j plus the smallest residual (merged loss − ℓ_j) over
    the bins. The grid of the lower bound is therefore shifted by that (tiny,
    exactly computed) residual.
``method="round"``
    Round every loss up (pessimistic) or down (optimistic) to the grid
    ("privacy buckets"). Simple, but after T steps the two bounds are T·h apart
    in ε (each rounding moves the composed loss by about T·h/2), so a useful
    bracket for T = 10⁵ needs h ≈ 10⁻⁸. The dots/merge pair errs by O(T·h²).

Mass in the tails is never lost from an upper bound: mass above the grid goes
to the atom at +∞, mass below it to the lowest grid point; the lower bound
drops it.

Round-off. An FFT convolution errs by about u·‖a‖₂‖b‖₁ (u = 2⁻⁵³) in *every*
entry, so entries far below the largest are noise; after 10³–10⁵ steps that
noise sums to ~1e-11, not small against δ = 1e-10. Two things make the bounds
hold and stay tight there:

* every convolution carries a bound on the ℓ₂ norm of its error, from the
  standard error bound of the FFT (Higham 2002, Thm 24.2); bounds compose by
  Young's inequality ‖e∗b‖₂ ≤ ‖e‖₂‖b‖₁ and are read out on the entries above ε
  by Cauchy–Schwarz (:class:`LossGrid`). The bound is added to δ̂ and
  subtracted from δ̌, so both bounds are certified up to that analysis (the
  tests check it against exact summation);
* the FFTs are *exponentially tilted*: a_i e^{λℓ_i} convolves to (a∗b)_k e^{λℓ_k},
  so the tilted FFT, untilted, errs by ∝ e^{−λℓ}: relatively small in the upper
  tail where δ(ε) lives. The error is also carried in the tilted norm
  ‖e_i e^{λℓ_i}‖₂, which composes multiplicatively, and read out with weights
  e^{−λℓ_i}, so it is ≈ u × (the Chernoff bound on P(Z > ε)). λ is the Chernoff
  tilt of the target (:meth:`PrivacyLossDistribution.chernoff_tilt`); the plain
  FFT is computed too and serves the bulk.

Measured (tests): at δ = 1e-10 the bracket is 4e-5–6e-4 relative wide at
(q = 0.01, σ = 1, T = 10⁴), (q = 256/60000, σ = 1.1, T = 10⁵), (q = 1e-4,
σ = 0.5, T = 10³) and (q = 1, σ = 0.5, T = 1), and the upper end is within
1.2e-4 of dp-accounting. Without the tilt the round-off bound at (q = 0.01,
σ = 1, T = 10⁴) is ~1e-8 and the bracket 50 % wide; an *estimate* of the
round-off from the clipped negative noise (used before) still left it
0.5–3 % wide.

The source (seed 002, S2-01) calls the privacy loss "undefined" when the
supports of the two laws differ; it is better defined with an atom at +∞
holding P(dQ = 0), which enters δ(ε) additively for every ε (see
:func:`pld_from_probabilities`).

Used in: book/07-exact-answer
"""

import math
import warnings

import numpy as np
from scipy import fft as _fft
from scipy.special import log_ndtr, logsumexp, ndtr, ndtri

from ._validation import (
    check_bool,
    check_choice,
    check_count,
    check_delta,
    check_interval,
    check_noise_multiplier,
    check_nonnegative,
    check_positive,
    check_probability,
    check_steps,
    named_shapes,
    scalar_or_array,
)

__all__ = [
    "LossGrid",
    "PrivacyLossDistribution",
    "pld_gaussian",
    "pld_laplace",
    "pld_randomized_response",
    "pld_subsampled_gaussian",
    "pld_from_probabilities",
    "gaussian_delta_exact",
    "dpsgd_delta_pld",
    "dpsgd_epsilon_pld",
    "dpsgd_epsilon_bracket",
    "dpsgd_clt_mu",
    "dpsgd_grid_interval",
    "EpsilonBracket",
]

_EPS = np.finfo(float).eps
_REL_SLACK = 1e-8  # relative floating-point allowance on δ (per-bin quadrature and CDFs)
_DEFAULT_TAIL = 1e-16  # mass cut from each tail per construction/convolution
_MAX_TAIL = 1e-2  # the largest tail_mass accepted
_MAX_INTERVAL = 10.0  # the widest grid spacing of the losses accepted
_MAX_POINTS = 2**23  # the most grid points of one distribution (an FFT of 2²⁴ doubles, about 0.5 s)
_AUTO_TILT_DELTA = 1e-10  # the δ whose ε the default FFT tilt aims at
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(8)
_GL_NODES = 0.5 * (_GL_NODES + 1.0)  # on [0, 1]
_GL_WEIGHTS = 0.5 * _GL_WEIGHTS
# Quadrature inside a bin is trusted while the log-density changes by less than
# this across it; otherwise the bin falls back to plain rounding (always valid).
_MAX_LOG_SPREAD = 4.0


# --------------------------------------------------------------------------
# one direction: a (sub-)probability measure on shift + i·h (h = interval), plus an atom at +∞
# --------------------------------------------------------------------------
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
        self.shift = float(shift)
        self.interval = float(interval)
        self.probs = np.asarray(probs, dtype=float)
        self.inf_mass = float(inf_mass)
        self.pessimistic = bool(pessimistic)
        self.error = float(error)  # bound on ‖e‖₂, the FFT round-off carried by probs
        self.tilt = float(tilt)  # λ of the tilted error norm
        self.log_tilt_error = float(log_tilt_error)  # bound on log ‖e_i e^{λ ℓ_i}‖₂
        self.inf_error = float(inf_error)  # bound on the error of inf_mass

    def with_tilt(self, tilt):
        """This grid with its error measured in the λ-tilted norm (only for a grid without FFT error)."""
        tilt = float(check_nonnegative(tilt, "tilt"))
        if self.error > 0 and tilt != self.tilt:
            raise ValueError("tilt can only be chosen for a grid that carries no round-off yet")
        return LossGrid(self.shift, self.interval, self.probs, self.inf_mass, self.pessimistic,
                        self.error, tilt=tilt, log_tilt_error=self.log_tilt_error,
                        inf_error=self.inf_error)

    def log_mgf(self, tilt):
        """log Σ_i p_i e^{λ ℓ_i}, the log moment generating function of the finite part (λ a number or array)."""
        lams = np.asarray(tilt, dtype=float)
        keep = self.probs > 0
        if not np.any(keep):
            return scalar_or_array(np.full(lams.shape, -math.inf))
        log_p, ell = np.log(self.probs[keep]), self.losses[keep]
        return scalar_or_array(np.reshape([float(logsumexp(log_p + lam * ell)) for lam in lams.ravel()], lams.shape))

    def round_off(self, eps):
        """Bound on the floating-point error of δ(ε) from this grid (see the class docstring)."""
        lam, d, n = self.tilt, self.interval, self.probs.size
        k0 = max(math.floor((eps - self.shift) / d) + 1, 0)  # first grid loss > ε
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
        k = math.floor((eps - self.shift) / self.interval) + 1  # first index with ℓ_i > ε
        k = max(k, 0)
        n = self.probs.size
        if k < n:
            ell = self.shift + self.interval * np.arange(k, n)
            ok = ell > eps
            body = _dot(self.probs[k:][ok], -np.expm1(eps - ell[ok]))
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
        """δ(ε) of this grid (an upper bound if pessimistic, a lower bound if not)."""
        eps = np.asarray(epsilon, dtype=float)
        flat = [self._bound(float(e)) for e in eps.ravel()]
        return scalar_or_array(np.reshape(flat, eps.shape))

    def epsilon(self, delta):
        """Smallest ε ≥ 0 with δ(ε) ≤ δ (exact for the grid: δ is linear in e^ε between grid points)."""
        dl = np.asarray(delta, dtype=float)
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

    def truncated(self, tail_mass):
        """Cut the tails holding at most ``tail_mass`` each; keep the bound valid."""
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
        return LossGrid(self.shift + lo * self.interval, self.interval, kept, inf_mass,
                        self.pessimistic, self.error, tilt=self.tilt,
                        log_tilt_error=self.log_tilt_error, inf_error=self.inf_error)

    def compose(self, other, tail_mass=_DEFAULT_TAIL):
        """The grid of the composition (losses add): a convolution, cut to its bulk.

        The window kept is chosen from the *exact* tail masses of the
        convolution, Σ_{i+j>k} a_i b_j (prefix/suffix sums, one dot product per
        probe of a galloping search from each end, not from the FFT output), so
        FFT noise never decides what is cut; the cut mass goes to +∞ and to the
        lowest kept point (pessimistic) or is dropped.
        """
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
        _check_points(n, "the composition", "use a larger interval or tail_mass, or fewer steps")
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

    def self_compose(self, count, tail_mass=_DEFAULT_TAIL):
        """``count``-fold composition with itself by repeated squaring (round-off in the norm of ``tilt``)."""
        count = int(count)
        tail_mass = tail_mass / count  # a cut at one level is repeated up to `count` times
        result, base = None, self
        while count:
            if count & 1:
                result = base if result is None else result.compose(base, tail_mass)
            count >>= 1
            if count:
                base = base.compose(base, tail_mass)
        return result


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
_FFT_ETA = 16 * _EPS / 2


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
    return ((2 * eps_f + _EPS) * n2a * n1b + eps_f * n1a * n2b) * (1 + 4 * eps_f)


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
        gamma = m * _EPS / 2 / (1 - m * _EPS / 2)
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


# --------------------------------------------------------------------------
# the two-direction object
# --------------------------------------------------------------------------
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
    >>> up = pld_gaussian(2.0).self_compose(4)          # μ = √4/2 = 1
    >>> lo = pld_gaussian(2.0, pessimistic=False).self_compose(4)
    >>> exact = gaussian_delta_exact(1.0, 1.0)
    >>> bool(lo.delta(1.0) <= exact <= up.delta(1.0))
    True
    >>> round(up.epsilon(1e-5), 3)
    4.377
    """

    def __init__(self, grids):
        grids = tuple(grids)
        if not 1 <= len(grids) <= 2:
            raise ValueError("a PrivacyLossDistribution holds 1 or 2 grids")
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

    def compose(self, other, tail_mass=_DEFAULT_TAIL):
        """Composition with another PLD of the same interval and kind."""
        if not isinstance(other, PrivacyLossDistribution):
            raise TypeError(f"other must be a PrivacyLossDistribution (got {type(other).__name__})")
        tail_mass = _check_tail_mass(tail_mass)
        if len(self.grids) == len(other.grids):
            pairs = zip(self.grids, other.grids)
        else:  # a symmetric mechanism serves both directions
            one, two = (self, other) if len(self.grids) == 1 else (other, self)
            pairs = ((one.grids[0], g) for g in two.grids)
        return PrivacyLossDistribution([a.compose(b, tail_mass) for a, b in pairs])

    def self_compose(self, count, tail_mass=_DEFAULT_TAIL, *, tilt="auto"):
        r"""``count``-fold composition (repeated squaring; count ≥ 1).

        ``tilt`` (λ ≥ 0, one value or one per grid) tilts every FFT by e^{λℓ}:
        the round-off of δ(ε) is then bounded by ≈ u·e^{−λε}E[e^{λZ_T}] (Z_T the
        composed loss) instead of
        ≈ u·E[1], which is what makes δ ≈ 1e-10 resolvable after 10⁵ steps.
        ``"auto"`` is :meth:`chernoff_tilt` for δ = 1e-10, the smallest δ the book
        uses (larger δ are served by the untilted FFT, which is also computed);
        λ = 0 is one FFT per convolution instead of two.
        """
        count = int(check_count(count, "count"))
        tail_mass = _check_tail_mass(tail_mass)
        if isinstance(tilt, str):
            tilt = _choose_tilt(self, count, tilt, delta=_AUTO_TILT_DELTA)
        tilts = np.broadcast_to(np.asarray(tilt, dtype=float), (len(self.grids),))
        return PrivacyLossDistribution([g.with_tilt(t).self_compose(count, tail_mass)
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
            raise ValueError("give exactly one of delta and epsilon")
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

    def delta(self, epsilon):
        """δ(ε), maximised over the directions."""
        vals = [np.asarray(g.delta(epsilon)) for g in self.grids]
        return scalar_or_array(np.maximum.reduce(vals))

    def epsilon(self, delta):
        """Smallest ε ≥ 0 with δ(ε) ≤ δ, maximised over the directions."""
        delta = check_delta(delta)
        vals = [np.asarray(g.epsilon(delta)) for g in self.grids]
        return scalar_or_array(np.maximum.reduce(vals))


# --------------------------------------------------------------------------
# continuous loss laws: masses of loss intervals, log density, atoms
# --------------------------------------------------------------------------
def _norm_mass(a, b):
    """Φ(b) − Φ(a) for a ≤ b, accurate to a few ulps relative also in the tails."""
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    out = np.empty(a.shape)
    left = b <= 0
    right = a >= 0
    mid = ~(left | right)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lb, la = log_ndtr(b[left]), log_ndtr(a[left])
        out[left] = np.where(np.isneginf(lb), 0.0, np.exp(lb) * -np.expm1(la - lb))
        ra, rb = log_ndtr(-a[right]), log_ndtr(-b[right])
        out[right] = np.where(np.isneginf(ra), 0.0, np.exp(ra) * -np.expm1(rb - ra))
        out[mid] = 1.0 - ndtr(a[mid]) - ndtr(-b[mid])
    return np.maximum(out, 0.0)


class _GaussianLoss:
    """Z ~ N(μ²/2, μ²) under P (Gaussian mechanism, μ = sensitivity/σ)."""

    def __init__(self, mu):
        self.mu = mu
        self.mean = 0.5 * mu * mu
        self.support = (-math.inf, math.inf)
        self.atoms = ()

    def mass(self, a, b):
        return _norm_mass((np.asarray(a) - self.mean) / self.mu, (np.asarray(b) - self.mean) / self.mu)

    def q_mass(self, a, b):  # under Q the loss is N(−μ²/2, μ²)
        return _norm_mass((np.asarray(a) + self.mean) / self.mu, (np.asarray(b) + self.mean) / self.mu)

    def log_density(self, ell):
        z = (ell - self.mean) / self.mu
        return -0.5 * z * z

    def range(self, tail):
        z = -ndtri(tail)
        return self.mean - z * self.mu, self.mean + z * self.mu


class _LaplaceLoss:
    """Laplace mechanism, t = Δ/b: atoms ½e^{−t} at −t and ½ at t, density ¼e^{(ℓ−t)/2} between."""

    def __init__(self, t):
        self.t = t
        self.support = (-t, t)
        self.atoms = ((-t, 0.5 * math.exp(-t)), (t, 0.5))

    def mass(self, a, b):  # continuous part only
        a = np.clip(a, -self.t, self.t)
        b = np.clip(b, -self.t, self.t)
        return 0.5 * np.exp((b - self.t) / 2) * -np.expm1((a - b) / 2)

    def q_mass(self, a, b):  # continuous part: ∫ ¼e^{(ℓ−t)/2} e^{−ℓ} dℓ
        a = np.clip(a, -self.t, self.t)
        b = np.clip(b, -self.t, self.t)
        return 0.5 * np.exp(-(self.t + a) / 2) * -np.expm1((a - b) / 2)

    def log_density(self, ell):
        return 0.5 * ell

    def range(self, tail):
        return -self.t, self.t


class _SubsampledGaussianLoss:
    """Poisson-subsampled Gaussian, 0 < q < 1, sensitivity 1.

    remove: P = (1−q)N(0,σ²) + qN(1,σ²), Q = N(0,σ²), loss ℓ(x) = log(1−q+q e^{(x−½)/σ²}) ↑ in x.
    add:    P = N(0,σ²), Q = the mixture, loss ℓ(x) = −log(1−q+q e^{(x−½)/σ²}) ↓ in x.
    """

    def __init__(self, q, sigma, remove):
        self.q, self.sigma, self.remove = q, sigma, remove
        self.l0 = math.log1p(-q)  # log(1 − q): infimum of the remove loss
        self.support = (self.l0, math.inf) if remove else (-math.inf, -self.l0)
        self.atoms = ()

    def _x(self, m):
        """x with log(1 − q + q e^{(x−½)/σ²}) = m, for m > log(1−q); −∞ at the edge."""
        m = np.asarray(m, float)
        with np.errstate(divide="ignore", invalid="ignore"):
            inner = np.log(np.expm1(np.maximum(m - self.l0, 0.0)))
            x = 0.5 + self.sigma**2 * (self.l0 + inner - math.log(self.q))
        x = np.where(m <= self.l0, -np.inf, x)
        return np.where(np.isposinf(m), np.inf, x)

    def mass(self, a, b):
        s = self.sigma
        if self.remove:
            xa, xb = self._x(a), self._x(b)
            return ((1 - self.q) * _norm_mass(xa / s, xb / s)
                    + self.q * _norm_mass((xa - 1) / s, (xb - 1) / s))
        xa, xb = self._x(-np.asarray(b, float)), self._x(-np.asarray(a, float))
        return _norm_mass(xa / s, xb / s)

    def q_mass(self, a, b):
        """Q-mass of the loss interval (a, b]: the mass of the same outputs under the other law."""
        s = self.sigma
        if self.remove:
            xa, xb = self._x(a), self._x(b)
            return _norm_mass(xa / s, xb / s)
        xa, xb = self._x(-np.asarray(b, float)), self._x(-np.asarray(a, float))
        return (1 - self.q) * _norm_mass(xa / s, xb / s) + self.q * _norm_mass((xa - 1) / s, (xb - 1) / s)

    def log_density(self, ell):
        s2 = self.sigma**2
        m = ell if self.remove else -ell
        x = self._x(m)
        with np.errstate(divide="ignore", invalid="ignore"):
            # |dx/dm| = σ² e^m / (e^m − (1−q)); for remove the mixture density is φ_σ(x)·e^m
            log_jac = math.log(s2) + m - (self.l0 + np.log(np.expm1(m - self.l0)))
            out = -0.5 * x * x / s2 + log_jac + (m if self.remove else 0.0)
        return np.where(np.isfinite(out), out, -np.inf)

    def range(self, tail):
        z = -ndtri(tail / 2)
        s = self.sigma
        lo_x, hi_x = -z * s, 1 + z * s
        m_lo = float(np.log1p(-self.q + self.q * math.exp((lo_x - 0.5) / s**2)))
        m_hi = float(np.logaddexp(math.log1p(-self.q), math.log(self.q) + (hi_x - 0.5) / s**2))
        if self.remove:
            return m_lo, m_hi
        return -m_hi, -m_lo


def _bin_average(law, lo, hi, fn):
    """E[fn(Z, lo) | lo < Z ≤ hi] by Gauss–Legendre in the loss; and a reliability flag."""
    slo, shi = law.support
    a = np.maximum(lo, slo)
    b = np.minimum(hi, shi)
    width = np.maximum(b - a, 0.0)
    nodes = a[:, None] + width[:, None] * _GL_NODES[None, :]
    logf = law.log_density(nodes)
    top = np.max(logf, axis=1, keepdims=True)
    with np.errstate(invalid="ignore", over="ignore"):
        wts = _GL_WEIGHTS[None, :] * np.exp(logf - top)
        avg = np.sum(wts * fn(nodes, lo[:, None]), axis=1) / np.sum(wts, axis=1)
        spread = top[:, 0] - np.min(logf, axis=1)
    ok = np.isfinite(avg) & np.isfinite(top[:, 0]) & (spread < _MAX_LOG_SPREAD) & (width > 0)
    ok &= (lo >= slo) & (hi <= shi)  # a bin across an edge of the support: the density is not smooth
    return np.where(ok, avg, np.nan), ok


def _discretise(law, interval, pessimistic, method, tail):
    """A LossGrid for one direction of a mechanism with loss law ``law``."""
    d = interval
    lo_l, hi_l = law.range(tail)
    _check_points((hi_l - lo_l) / d, f"interval = {d:g}", f"use a larger interval (≥ {(hi_l - lo_l) / _MAX_POINTS:.3g})")
    if max(abs(lo_l), abs(hi_l)) / d > 2.0**52:
        raise ValueError(f"interval = {d:g} is too small for losses up to {max(abs(lo_l), abs(hi_l)):.3g}: the grid "
                         f"indices would exceed 2⁵² (use interval ≥ {max(abs(lo_l), abs(hi_l)) / 2.0**52:.3g})")
    j0 = math.floor(lo_l / d) - 1
    j1 = math.ceil(hi_l / d) + 1
    n = j1 - j0 + 1
    grid = d * np.arange(j0, j1 + 1)
    probs = np.zeros(n)
    inf_mass = 0.0
    use_dots = method == "dots"

    if pessimistic or not use_dots:
        # bins (ℓ_j, ℓ_{j+1}], j = 0..n−2, plus the two tails
        pm = law.mass(grid[:-1], grid[1:])
        below = float(law.mass(-np.inf, grid[0]))
        above = float(law.mass(grid[-1], np.inf))
        if pessimistic:
            if use_dots:
                w, ok = _bin_average(law, grid[:-1], grid[1:],
                                     lambda x, l: -np.expm1(l - x) / -math.expm1(-d))
                w = np.where(ok, np.clip(w, 0.0, 1.0), 1.0)
                # where quadrature is unreliable (the log-density varies too much, e.g. at an
                # edge of the support) the split that keeps P- and Q-mass comes from the
                # Q-mass: w = (P(bin) − e^{ℓ_j} Q(bin)) / (P(bin)(1 − e^{−h})), h = d the spacing
                bad = np.nonzero(~ok & (pm > 0))[0]
                if bad.size:
                    qm = law.q_mass(grid[bad], grid[bad + 1])
                    wb = (pm[bad] - np.exp(grid[bad]) * qm) / (pm[bad] * -math.expm1(-d))
                    w[bad] = np.where(np.isfinite(wb), np.clip(wb, 0.0, 1.0), 1.0)
            else:
                w = np.ones(n - 1)
            probs[1:] += pm * w
            probs[:-1] += pm * (1.0 - w)
            probs[0] += below
            inf_mass += above
        else:
            probs[:-1] += pm
            probs[-1] += above
        shift = j0 * d
        for z, m in law.atoms:
            k = math.floor(z / d)
            k = k - 1 if k * d > z else (k + 1 if (k + 1) * d <= z else k)  # k·d ≤ z < (k+1)·d
            if pessimistic:
                if z == k * d:
                    probs[k - j0] += m
                elif use_dots:
                    w1 = -math.expm1(k * d - z) / -math.expm1(-d)
                    probs[k - j0] += m * (1 - w1)
                    probs[k + 1 - j0] += m * w1
                else:
                    probs[k + 1 - j0] += m
            else:
                probs[k - j0] += m
        return LossGrid(shift, d, probs, inf_mass, pessimistic).truncated(tail)

    # ---- lower bound by merging: bins around each grid point, edges balanced ----
    edges0 = np.concatenate([grid - d / 2, [grid[-1] + d / 2]])
    r0, ok0 = _merged_residual(law, edges0, grid)
    t = np.where(ok0, -2.0 * r0, 0.0)
    # edge shifts g_j (``gamma``) with g_j + g_{j+1} = t_j (first order: residual_j ≈ r0_j + (g_j + g_{j+1})/2)
    sign = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)  # (−1)^j
    h = np.concatenate([[0.0], np.cumsum(-sign * t)])  # H_j, j = 0..n
    sgn_e = np.concatenate([sign, [-sign[-1]]])
    pm0 = law.mass(edges0[:-1], edges0[1:])
    wgt = pm0 / max(pm0.sum(), 1e-300)
    g0 = -np.sum(wgt * (h[:-1] - sgn_e[:-1] * t / 2))
    gamma = sgn_e * (g0 + h)
    gamma = np.clip(gamma, -d / 4, d / 4)
    gamma[0] = gamma[-1] = 0.0
    edges = edges0 + gamma
    r, ok = _merged_residual(law, edges, grid)
    pm = law.mass(edges[:-1], edges[1:])
    lower_edge_res = edges[:-1] - grid  # merged loss ≥ lower edge: always-valid residual
    r = np.where(ok, np.maximum(r, lower_edge_res), lower_edge_res)
    # the common residual: the smallest one among bins that carry real mass
    heavy = ok & (pm > 1e-9 * max(pm.max(), 1e-300))
    r_min = float(np.min(r[heavy])) if np.any(heavy) else 0.0
    r_min = min(r_min, 0.0) - 16 * _EPS * (abs(grid).max() + d)  # margin for round-off
    down = r < r_min
    probs[~down] += pm[~down]
    idx = np.nonzero(down)[0]
    idx = idx[idx > 0]
    np.add.at(probs, idx - 1, pm[idx])
    probs[-1] += float(law.mass(edges[-1], np.inf))  # mass above the top edge: ≥ ℓ_top + d/2
    for z, m in law.atoms:
        k = round(z / d)
        if z - k * d < r_min:
            k -= 1
        probs[k - j0] += m
    return LossGrid(j0 * d + r_min, d, probs, 0.0, False).truncated(tail)


def _merged_residual(law, edges, grid):
    """The residuals log(P(bin_j)/Q(bin_j)) − ℓ_j (dQ = e^{−Z}dP), bin_j = (edges_j, edges_{j+1}]."""
    avg, ok = _bin_average(law, edges[:-1], edges[1:],
                           lambda x, l: np.exp(-(x - l)))
    lo_res = edges[:-1] - grid
    with np.errstate(divide="ignore", invalid="ignore"):
        r = lo_res - np.log(avg)
        ok = ok & np.isfinite(r)
        bad = np.nonzero(~ok)[0]
        if bad.size:  # quadrature unreliable: the masses themselves
            rb = (np.log(law.mass(edges[bad], edges[bad + 1]))
                  - np.log(law.q_mass(edges[bad], edges[bad + 1])) - grid[bad])
            good = np.isfinite(rb)
            r[bad[good]] = rb[good]
            ok[bad[good]] = True
    return np.where(ok, r, lo_res), ok


def _atoms_grid(atoms, interval, pessimistic, method):
    """LossGrid of a purely atomic loss law (randomized response, finite pmfs)."""
    class _Atomic:
        pass
    law = _Atomic()
    finite = [(z, m) for z, m in atoms if np.isfinite(z) and m > 0]
    inf_mass = sum(m for z, m in atoms if z == np.inf)
    zs = [z for z, _ in finite] or [0.0]
    law.atoms = finite
    law.support = (min(zs), max(zs))
    law.mass = lambda a, b: np.zeros(np.broadcast(np.asarray(a), np.asarray(b)).shape)
    law.q_mass = law.mass
    law.log_density = lambda ell: np.full(np.shape(ell), -np.inf)
    law.range = lambda tail: (min(zs), max(zs))
    g = _discretise(law, interval, pessimistic, method, 0.0)
    g.inf_mass += inf_mass  # exact in both bounds
    return g


# --------------------------------------------------------------------------
# constructors
# --------------------------------------------------------------------------
def _check_tail_mass(tail_mass):
    """tail_mass ∈ (0, 10⁻²]: the mass cut from each tail (a cut of 0 would keep an infinite grid)."""
    return float(check_interval(tail_mass, "tail_mass", 0.0, _MAX_TAIL, closed_low=False))


def _check_points(n, what, remedy):
    """Refuse, before any work, a grid of more than :data:`_MAX_POINTS` points."""
    if not n <= _MAX_POINTS:
        raise ValueError(f"{what} needs about {n:.3g} grid points (limit {_MAX_POINTS}); {remedy}")


def _check_method(method):
    check_choice(method, "method", ("dots", "round"))


@named_shapes
def pld_gaussian(sigma, sensitivity=1.0, *, interval=1e-3, pessimistic=True,
                 method="dots", tail_mass=_DEFAULT_TAIL):
    r"""Discretised PLD of the Gaussian mechanism N(Δ, σ²) vs N(0, σ²).

    The loss is itself Gaussian: with μ = Δ/σ,

    .. math:: Z \sim \mathcal N(\mu^2/2,\ \mu^2).

    Parameters
    ----------
    sigma : float, σ > 0
    sensitivity : float, Δ > 0
    interval : float, grid spacing h > 0 of the losses
    pessimistic : bool, True for an upper bound on δ(ε), False for a lower bound
    method : {"dots", "round"}, see the module docstring
    tail_mass : float, mass cut from each tail (kept in the bound)

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If σ ≤ 0, Δ ≤ 0, interval ≤ 0 or method is unknown.

    References
    ----------
    Balle & Wang (2018), Thm 8 (the analytic Gaussian δ); seed 002, S2-02.

    Examples
    --------
    >>> up = pld_gaussian(1.0, interval=1e-2)
    >>> lo = pld_gaussian(1.0, interval=1e-2, pessimistic=False)
    >>> exact = gaussian_delta_exact(1.0, 1.0)
    >>> bool(lo.delta(1.0) <= exact <= up.delta(1.0)), round(exact, 4)
    (True, 0.1269)
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    sigma = float(check_positive(sigma, "sigma"))
    sens = float(check_positive(sensitivity, "sensitivity"))
    interval = float(check_interval(interval, "interval", 0.0, _MAX_INTERVAL, closed_low=False))
    _check_method(method)
    tail_mass = _check_tail_mass(tail_mass)
    mu = sens / sigma
    _check_points((mu * mu + 80.0 * mu + 1.0) / interval, f"sensitivity/sigma = {mu:.3g} at interval = {interval:g}",
                  "use a larger interval or sigma")
    law = _GaussianLoss(mu)
    return PrivacyLossDistribution([_discretise(law, interval, pessimistic, method, tail_mass)])


@named_shapes
def pld_laplace(scale, sensitivity=1.0, *, interval=1e-3, pessimistic=True,
                method="dots", tail_mass=_DEFAULT_TAIL):
    r"""Discretised PLD of the Laplace mechanism Lap(Δ, b) vs Lap(0, b).

    The loss has atoms ½e^{−Δ/b} at −Δ/b and ½ at Δ/b and density
    ¼e^{(ℓ−Δ/b)/2} on (−Δ/b, Δ/b); for 0 ≤ ε < Δ/b

    .. math:: \delta(\varepsilon) = 1 - e^{(\varepsilon - \Delta/b)/2}.

    Parameters
    ----------
    scale : float, b > 0
    sensitivity : float, Δ > 0
    interval, pessimistic, method, tail_mass : see :func:`pld_gaussian`

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If b ≤ 0, Δ ≤ 0, interval ≤ 0 or method is unknown.

    References
    ----------
    Koskela, Jälkö, Honkela (2020), Sec. 6 (the Laplace PLD); seed 002, S2-02.

    Examples
    --------
    >>> up = pld_laplace(1.0, interval=1e-3)
    >>> round(up.delta(0.5), 3)  # 1 − e^{−1/4}
    0.221
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    b = float(check_positive(scale, "scale"))
    sens = float(check_positive(sensitivity, "sensitivity"))
    interval = float(check_interval(interval, "interval", 0.0, _MAX_INTERVAL, closed_low=False))
    _check_method(method)
    tail_mass = _check_tail_mass(tail_mass)
    _check_points((2.0 * sens / b + 1.0) / interval, f"sensitivity/scale = {sens / b:.3g} at interval = {interval:g}",
                  "use a larger interval or scale")
    law = _LaplaceLoss(sens / b)
    return PrivacyLossDistribution([_discretise(law, interval, pessimistic, method, tail_mass)])


@named_shapes
def pld_randomized_response(p, *, interval=1e-3, pessimistic=True, method="dots"):
    r"""Discretised PLD of binary randomized response (truth reported with probability p).

    The loss takes ℓ = log(p/(1−p)) with probability p and −ℓ with 1 − p, so

    .. math:: \delta(\varepsilon) = \max\big(0,\ p - e^{\varepsilon}(1-p)\big)
              \quad (p \ge \tfrac12).

    Parameters
    ----------
    p : float, p ∈ (0, 1)
    interval, pessimistic, method : see :func:`pld_gaussian`

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If p ∉ (0, 1), interval ≤ 0 or method is unknown.

    References
    ----------
    Warner (1965); seed 002, S2-11 (randomized response as the canonical (ε, δ) pair).

    Examples
    --------
    >>> round(pld_randomized_response(0.75).delta(0.5), 4)  # 0.75 − e^{0.5}·0.25
    0.3378
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    p = float(check_interval(p, "p", 0, 1, closed_low=False, closed_high=False))
    interval = float(check_interval(interval, "interval", 0.0, _MAX_INTERVAL, closed_low=False))
    _check_method(method)
    ell = math.log(p) - math.log1p(-p)
    return PrivacyLossDistribution([_atoms_grid([(ell, p), (-ell, 1 - p)], interval,
                                                pessimistic, method)])


@named_shapes
def pld_from_probabilities(p_probs, q_probs, *, interval=1e-3, pessimistic=True, method="dots"):
    r"""Discretised PLD of two pmfs on the same finite outcome set (one direction, P ‖ Q).

    Outcomes with Q(y) = 0 < P(y) carry loss +∞; outcomes with P(y) = 0 carry no P-mass.

    .. math:: \delta(\varepsilon) = \sum_{y} \max(0,\ P(y) - e^{\varepsilon} Q(y))
              = \sum_{y: Q(y)>0} P(y) \max(0, 1 - e^{\varepsilon - \ell_y}) + \sum_{y: Q(y) = 0} P(y),
              \qquad \ell_y = \log\frac{P(y)}{Q(y)}

    Parameters
    ----------
    p_probs, q_probs : array_like, the masses P(y) and Q(y), non-negative, same length
    interval, pessimistic, method : see :func:`pld_gaussian`

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If the arrays differ in shape or hold negative entries.

    References
    ----------
    Seed 002, S2-01 (privacy loss; the seed calls it undefined when supports
    differ — the +∞ atom repairs that) and S2-02.

    Examples
    --------
    >>> pl = pld_from_probabilities([0.5, 0.5, 0.0], [0.25, 0.25, 0.5], interval=1e-2)
    >>> round(pl.delta(0.0), 6)  # Σ max(0, P(y) − Q(y)) = 0.5
    0.5
    >>> round(pld_from_probabilities([0.5, 0.5], [1.0, 0.0]).delta(5.0), 6)  # P-mass where Q(y) = 0
    0.5
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    p = check_nonnegative(p_probs, "p_probs")
    q = check_nonnegative(q_probs, "q_probs")
    if p.shape != q.shape or p.ndim != 1:
        raise ValueError("p_probs and q_probs must be 1-D arrays of the same length")
    interval = float(check_interval(interval, "interval", 0.0, _MAX_INTERVAL, closed_low=False))
    _check_method(method)
    atoms = []
    for py, qy in zip(p, q):
        if py > 0:
            atoms.append((math.inf if qy == 0 else math.log(py) - math.log(qy), float(py)))
    return PrivacyLossDistribution([_atoms_grid(atoms, interval, pessimistic, method)])


@named_shapes
def pld_subsampled_gaussian(q, sigma, *, interval=1e-4, pessimistic=True, method="dots",
                            tail_mass=_DEFAULT_TAIL):
    r"""Discretised PLD of the Poisson-subsampled Gaussian (sensitivity 1), both directions.

    remove: P = (1−q)N(0,σ²) + qN(1,σ²) vs Q = N(0,σ²); add: the reverse. With
    ℓ(x) = log(1 − q + q e^{(x − 1/2)/σ²}) the loss of the remove direction at output x,

    .. math:: Z_{\rm remove} = \ell(Y),\quad Y \sim P;\qquad
              Z_{\rm add} = -\ell(Y),\quad Y \sim \mathcal N(0,\sigma^2).

    δ(ε) and ε(δ) of the result are the worse of the two directions.

    Parameters
    ----------
    q : float, sampling rate q ∈ [0, 1]
    sigma : float, noise multiplier σ > 0
    interval, pessimistic, method, tail_mass : see :func:`pld_gaussian`

    Returns
    -------
    PrivacyLossDistribution

    Raises
    ------
    ValueError
        If q ∉ [0, 1], σ ≤ 0, interval ≤ 0 or method is unknown.

    References
    ----------
    Koskela, Jälkö, Honkela (2020); Zhu, Dong, Wang (2022), "Optimal accounting of
    differential privacy via characteristic function" (both directions); seed 004, S4-17.

    Examples
    --------
    >>> pl = pld_subsampled_gaussian(0.01, 1.0).self_compose(100)
    >>> round(float(pl.epsilon(1e-5)), 2)
    0.72
    """
    pessimistic = check_bool(pessimistic, "pessimistic")
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    interval = float(check_interval(interval, "interval", 0.0, _MAX_INTERVAL, closed_low=False))
    _check_method(method)
    tail_mass = _check_tail_mass(tail_mass)
    if q == 0.0:
        return PrivacyLossDistribution([LossGrid(0.0, interval, np.ones(1), 0.0, pessimistic)])
    if q == 1.0:
        return pld_gaussian(sigma, interval=interval, pessimistic=pessimistic, method=method,
                            tail_mass=tail_mass)
    grids = [_discretise(_SubsampledGaussianLoss(q, sigma, remove), interval, pessimistic,
                         method, tail_mass) for remove in (True, False)]
    return PrivacyLossDistribution(grids)


# --------------------------------------------------------------------------
# the analytic Gaussian curve and DP-SGD front ends
# --------------------------------------------------------------------------
@named_shapes
def gaussian_delta_exact(epsilon, mu):
    r"""δ(ε) of a Gaussian pair at distance μ (μ-GDP), in log space.

    .. math:: \delta(\varepsilon) = \Phi\Big(-\frac{\varepsilon}{\mu} + \frac{\mu}{2}\Big)
              - e^{\varepsilon}\,\Phi\Big(-\frac{\varepsilon}{\mu} - \frac{\mu}{2}\Big)

    T-fold composition of the Gaussian mechanism with σ is μ = √T/σ.

    Parameters
    ----------
    epsilon : float or array, ε ∈ [−∞, ∞] (δ = 0 at ε = ∞)
    mu : float or array, μ > 0

    Returns
    -------
    float or ndarray

    References
    ----------
    Balle & Wang (2018), Thm 8; Dong, Roth, Su (2022), Cor. 2.13.

    Examples
    --------
    >>> round(gaussian_delta_exact(1.0, 1.0), 6)
    0.126937
    """
    eps = check_interval(epsilon, "epsilon", -np.inf, np.inf)
    mu = check_positive(mu, "mu")
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        a = log_ndtr(-eps / mu + mu / 2)
        b = eps + log_ndtr(-eps / mu - mu / 2)
        out = np.where(np.isneginf(a), 0.0, np.exp(a) * -np.expm1(np.minimum(b - a, 0.0)))  # a = −∞: δ = 0
    # ε = +∞: δ = 0; ε = −∞: δ = 1 − e^ε·… → 1 (the ∞ − ∞ above is their limit, not NaN)
    out = np.where(np.isposinf(eps), 0.0, np.where(np.isneginf(eps), 1.0, out))
    return scalar_or_array(np.maximum(out, 0.0))


@named_shapes
def dpsgd_clt_mu(q, sigma, steps):
    r"""μ of the Gaussian-DP central limit for DP-SGD (an approximation, not a bound).

    .. math:: \mu = q\sqrt{T}\sqrt{e^{1/\sigma^2} - 1}

    As T → ∞ with q√T fixed, T steps of the subsampled Gaussian tend to μ-GDP,
    whose curve is :func:`gaussian_delta_exact`. At finite T the CLT curve can
    lie *below* the certified lower bound (the tests show one), so it is no
    upper bound on δ.

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For parameters outside their ranges.

    References
    ----------
    Bu, Dong, Long, Su (2020), "Deep learning with Gaussian differential privacy", Thm 5;
    Dong, Roth, Su (2022), Thm 3.5.

    Examples
    --------
    >>> round(dpsgd_clt_mu(0.01, 1.0, 1000), 6)
    0.414522
    """
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    return q * math.sqrt(steps) * math.sqrt(math.expm1(min(1.0 / sigma**2, 700.0)))


@named_shapes
def dpsgd_grid_interval(q, sigma, steps):
    r"""The grid spacing h the DP-SGD PLD routes start from: the O(T·h²) error of the bracket near 10⁻⁴·ε.

    .. math:: h = \min\Big(\sqrt{5\cdot 10^{-5}\,\hat\varepsilon/T},\ s/4,\ 0.05\Big),\quad
              s = \min\big(q\sqrt{e^{1/\sigma^2} - 1},\ 1/\sigma\big),\quad
              \hat\varepsilon = \max(4\mu + \mu^2/2,\ 10^{-3}),\ \mu = s\sqrt T

    (s the standard deviation of one step's privacy loss, ε̂ a rough guess of ε).

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ in :data:`dpnotes._validation.SIGMA_RANGE`
    steps : int, T ≥ 1

    Returns
    -------
    float

    References
    ----------
    Koskela et al. (2020); Gopi, Lee & Wutschitz (2021) (the grid error is quadratic in h).

    Examples
    --------
    >>> round(dpsgd_grid_interval(0.01, 1.0, 1000), 6)
    0.000295
    """
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    s = max(_step_loss_std(q, sigma), 1e-12)
    mu = s * math.sqrt(steps)
    eps_guess = max(mu * 4.0 + 0.5 * mu * mu, 1e-3)
    d = math.sqrt(5e-5 * eps_guess / steps)
    return float(min(d, s / 4, 0.05))


def _step_loss_std(q, sigma):
    """About the standard deviation of one DP-SGD step's privacy loss: min(q√(e^{1/σ²} − 1), 1/σ)."""
    return min(q * math.sqrt(math.expm1(min(1.0 / sigma**2, 700.0))), 1.0 / sigma)


def _check_dpsgd_cost(q, sigma, steps, interval):
    """Refuse before any work a DP-SGD composition whose grid would exceed :data:`_MAX_POINTS` points.

    The composed loss has mean ≈ T·s²/2 and standard deviation ≈ √T·s (s the per-step loss
    standard deviation of :func:`dpsgd_grid_interval`); the grid spans about mean + 40 standard deviations.
    """
    s = _step_loss_std(q, sigma)
    width = steps * s * s / 2 + 40.0 * math.sqrt(steps) * s + 40.0 * s
    _check_points(width / interval, f"steps = {steps:g} at interval = {interval:.3g}",
                  "use fewer steps, a larger interval, or an RDP or CLT route (dpnotes.dpsgd)")


def _choose_tilt(pld, steps, tilt, **target):
    """λ per grid: the Chernoff tilt for ``tilt="auto"``, else the given value(s)."""
    if isinstance(tilt, str):
        if tilt != "auto":
            raise ValueError(f"tilt must be 'auto' or a number ≥ 0 (got {tilt!r})")
        return pld.chernoff_tilt(steps, **target)
    t = check_nonnegative(tilt, "tilt", allow_inf=False)
    if t.ndim > 1 or t.ndim == 1 and t.size != len(pld.grids):
        raise ValueError(f"tilt must be one number or one per grid ({len(pld.grids)}; got shape {t.shape})")
    return t if t.ndim else float(t)


class EpsilonBracket(tuple):
    """A pair (lower, upper) of bounds on ε, with ``width_met``: whether the target relative width was reached."""

    def __new__(cls, lower, upper, width_met):
        self = super().__new__(cls, (float(lower), float(upper)))
        self.width_met = bool(width_met)
        return self

    def __getnewargs__(self):
        return self[0], self[1], self.width_met

    lower = property(lambda self: self[0], doc="the lower bound on ε")
    upper = property(lambda self: self[1], doc="the upper bound on ε")


@named_shapes
def dpsgd_epsilon_bracket(q, sigma, steps, delta, *, interval=None, rel_width=1e-3,
                          tail_mass=_DEFAULT_TAIL, max_refinements=3, tilt="auto"):
    r"""Lower and upper bounds on the ε of DP-SGD (Poisson rate q, noise σ, T steps) at δ.

    Both bounds come from discretised PLDs of the subsampled Gaussian composed T
    times (upper: connect-the-dots, lower: merged bins; see the module). With
    ``interval=None`` the grid spacing is chosen, then refined until
    upper − lower ≤ ``rel_width``·upper (at most ``max_refinements`` times, and
    not once refining stops shrinking the bracket). The FFTs are tilted by the
    Chernoff λ of the target δ, so round-off stays far below δ (module docstring).

    .. math:: \varepsilon(\delta) = \min\{\varepsilon \ge 0 : \max_{\rm dir}
              \delta_T(\varepsilon) \le \delta\}

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    delta : float, δ ∈ (0, 1)
    interval : float, optional, a fixed grid spacing (no refinement)
    rel_width : float, target relative width of the bracket
    tail_mass : float, mass cut from each tail per step (kept in the bounds)
    max_refinements : int
    tilt : "auto" or float ≥ 0, the FFT tilt λ ("auto": the Chernoff tilt of δ)

    Returns
    -------
    EpsilonBracket
        (lower, upper), lower ≤ true ε ≤ upper; its ``width_met`` is False (and a
        ``RuntimeWarning`` is raised) when refinement stopped above ``rel_width``.

    Raises
    ------
    ValueError
        For parameters outside their ranges.

    References
    ----------
    Koskela et al. (2020); Doroshenko et al. (2022); seed 004, S4-17 ("today's tight accounting").

    Examples
    --------
    >>> lo, up = dpsgd_epsilon_bracket(0.01, 1.0, 1000, 1e-5)
    >>> round(lo, 3), round(up, 3), bool(up - lo < 1e-3 * up)
    (1.828, 1.828, True)
    """
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    delta = float(check_delta(delta))
    rel_width = float(check_interval(rel_width, "rel_width", 1e-8, 1.0))
    tail_mass = _check_tail_mass(tail_mass)
    max_refinements = int(check_count(max_refinements, "max_refinements", minimum=0))
    if max_refinements > 10:
        raise ValueError(f"max_refinements must be ≤ 10 (got {max_refinements})")
    if q == 0.0:
        return EpsilonBracket(0.0, 0.0, True)
    auto = interval is None
    d = dpsgd_grid_interval(q, sigma, steps) if auto else float(check_interval(interval, "interval", 0.0, _MAX_INTERVAL, closed_low=False))
    _check_dpsgd_cost(q, sigma, steps, d)
    for attempt in range(max_refinements + 1):
        up = pld_subsampled_gaussian(q, sigma, interval=d, tail_mass=tail_mass / steps)
        lo = pld_subsampled_gaussian(q, sigma, interval=d, pessimistic=False,
                                     tail_mass=tail_mass / steps)
        lam = _choose_tilt(up, steps, tilt, delta=delta)
        e_up = float(up.self_compose(steps, tail_mass, tilt=lam).epsilon(delta))
        e_lo = float(lo.self_compose(steps, tail_mass, tilt=lam).epsilon(delta))
        width, last = e_up - e_lo, (width if attempt else math.inf)
        if not auto or not math.isfinite(e_up) or width <= rel_width * max(e_up, 1e-300):
            break
        if width > 0.7 * last:  # not shrinking: round-off, not the grid, sets the width
            break
        step = max(min(math.sqrt(0.5 * rel_width * e_up / width), 0.7), 0.1)
        try:
            _check_dpsgd_cost(q, sigma, steps, d * step)
        except ValueError:
            break  # a finer grid would be too large: report the bracket reached
        d *= step
    met = not auto or not math.isfinite(e_up) or e_up - e_lo <= rel_width * max(e_up, 1e-300)
    if not met:
        warnings.warn(f"the ε bracket [{e_lo:.6g}, {e_up:.6g}] is {(e_up - e_lo) / e_up:.2g} wide, above rel_width = "
                      f"{rel_width:g}: round-off or the grid-size limit stops refinement (both ends stay valid bounds)",
                      RuntimeWarning, stacklevel=2)
    return EpsilonBracket(min(e_lo, e_up), e_up, met)


@named_shapes
def dpsgd_epsilon_pld(q, sigma, steps, delta, **kwargs):
    r"""Certified upper bound on the ε of DP-SGD at δ, from the numerically composed PLD.

    .. math:: \varepsilon = \min\{\varepsilon \ge 0 : \max_{\rm dir}\delta_T(\varepsilon) \le \delta\}

    Same parameters as :func:`dpsgd_epsilon_bracket` (the bracket is computed to
    choose the grid; its upper end is returned).

    Returns
    -------
    float

    References
    ----------
    Koskela et al. (2020); Doroshenko et al. (2022).

    Examples
    --------
    >>> round(dpsgd_epsilon_pld(256 / 60000, 1.1, 1000, 1e-5), 2)
    0.6
    """
    return dpsgd_epsilon_bracket(q, sigma, steps, delta, **kwargs)[1]


@named_shapes
def dpsgd_delta_pld(q, sigma, steps, epsilon, *, interval=None, tail_mass=_DEFAULT_TAIL, tilt="auto"):
    r"""Certified upper bound on the δ of DP-SGD at ε (the worse adjacency direction).

    .. math:: \delta(\varepsilon) = \max_{\rm dir}\ \mathbb E\big[\max(0, 1 - e^{\varepsilon - Z_T})\big]
              + P(Z_T = \infty)

    (Z_T the privacy loss of the T composed steps)

    Parameters
    ----------
    q : float, q ∈ [0, 1]
    sigma : float, σ > 0
    steps : int, T ≥ 1
    epsilon : float, ε ≥ 0
    interval : float, optional grid spacing (default: automatic)
    tail_mass : float
    tilt : "auto" or float ≥ 0, the FFT tilt λ ("auto": the Chernoff tilt of ε)

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For parameters outside their ranges.

    References
    ----------
    Seed 002, S2-02; Koskela et al. (2020).

    Examples
    --------
    >>> d = dpsgd_delta_pld(0.01, 1.0, 1000, 1.828)
    >>> bool(9e-6 < d < 1.1e-5)
    True
    """
    q = float(check_probability(q, "q"))
    sigma = check_noise_multiplier(sigma)
    steps = check_steps(steps)
    epsilon = float(check_nonnegative(epsilon, "epsilon"))
    tail_mass = _check_tail_mass(tail_mass)
    if q == 0.0:
        return 0.0
    d = dpsgd_grid_interval(q, sigma, steps) if interval is None else float(check_interval(interval, "interval", 0.0, _MAX_INTERVAL, closed_low=False))
    _check_dpsgd_cost(q, sigma, steps, d)
    up = pld_subsampled_gaussian(q, sigma, interval=d, tail_mass=tail_mass / steps)
    lam = _choose_tilt(up, steps, tilt, epsilon=epsilon)
    return float(up.self_compose(steps, tail_mass, tilt=lam).delta(epsilon))
