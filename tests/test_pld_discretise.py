"""Tests of dpnotes.pld.discretise: a pessimistic grid is an upper bound on δ(ε) at every ε.

Independent route: the one-step privacy curve of the Poisson-subsampled Gaussian
in closed form, evaluated in mpmath at 40 digits (not the package's code). With
x(m) = ½ + σ² log((e^m − 1 + q)/q) the output at which the remove loss
ℓ(x) = log(1 − q + q e^{(x−½)/σ²}) equals m,

* remove (P = (1−q)N(0,σ²) + qN(1,σ²), Q = N(0,σ²)): for ε > log(1−q),
  δ(ε) = (1−q)Φ̄(x/σ) + qΦ̄((x−1)/σ) − e^ε Φ̄(x/σ), x = x(ε); else 1 − e^ε;
* add (P = N(0,σ²), Q = the mixture): for ε < −log(1−q),
  δ(ε) = Φ(x/σ) − e^ε[(1−q)Φ(x/σ) + qΦ((x−1)/σ)], x = x(−ε); else 0.

At ε = 0 both are q(1 − 2Φ̄(1/(2σ))).

The grid points checked include the few next to each direction's support edge
(log(1−q) for remove, −log(1−q) for add), where the loss density has a
log-singular peak: there an 8-point quadrature of the connect-the-dots split fell
up to 10⁻³ relative below the truth (q = 10⁻⁴, σ = 0.8, h = 5·10⁻⁵), which this
test catches.
"""

import gc
import math
import re
import tracemalloc

import mpmath
import numpy as np
import pytest

from dpnotes._validation import DISCRETISATION_BYTES_PER_BIN, MAX_BYTES, MAX_SECONDS, discretisation_cost
from dpnotes.pld import discretise_loss_law, pld_subsampled_gaussian
from dpnotes.privacy_loss.laws import GaussianLossLaw, SubsampledGaussianLossLaw

QS = (1e-4, 1e-3, 1e-2, 0.05, 0.5)
SIGMAS = (0.5, 0.8, 1.1, 2.0, 4.0)
H_OVER_Q = (0.02, 0.2, 0.5)  # the grid spacing relative to the support edge ≈ q


def _subsampled_gaussian_delta(eps, q, sigma, remove):
    """The exact one-step δ(ε) of one direction, in mpmath (formulas in the module docstring)."""
    with mpmath.workdps(40):
        q, s, eps = mpmath.mpf(q), mpmath.mpf(sigma), mpmath.mpf(eps)
        l0 = mpmath.log1p(-q)

        def x_of(m):
            return mpmath.mpf(1) / 2 + s**2 * mpmath.log((mpmath.exp(m) - 1 + q) / q)

        if remove:
            if eps <= l0:
                return float(-mpmath.expm1(eps))
            x = x_of(eps)
            return float((1 - q) * mpmath.ncdf(-x / s) + q * mpmath.ncdf((1 - x) / s)
                         - mpmath.exp(eps) * mpmath.ncdf(-x / s))
        if eps >= -l0:
            return 0.0
        x = x_of(-eps)
        return float(mpmath.ncdf(x / s) - mpmath.exp(eps) * ((1 - q) * mpmath.ncdf(x / s)
                                                              + q * mpmath.ncdf((x - 1) / s)))


def test_exact_reference_at_zero():
    """The reference formulas agree with q(1 − 2Φ̄(1/(2σ))) at ε = 0 in both directions, and with 1 − e^ε below the remove edge."""
    q, s = 1e-3, 0.8
    at0 = float(q * (1 - 2 * mpmath.ncdf(-1 / (2 * mpmath.mpf(s)))))
    assert _subsampled_gaussian_delta(0.0, q, s, True) == pytest.approx(at0, rel=1e-14)
    assert _subsampled_gaussian_delta(0.0, q, s, False) == pytest.approx(at0, rel=1e-14)
    assert _subsampled_gaussian_delta(-0.01, q, s, True) == pytest.approx(-math.expm1(-0.01), rel=1e-14)
    assert _subsampled_gaussian_delta(0.01, q, s, False) == 0.0


@pytest.mark.parametrize("sigma", SIGMAS)
@pytest.mark.parametrize("q", QS)
def test_pessimistic_subsampled_gaussian_grid_is_above_the_exact_curve(q, sigma):
    """Every pessimistic grid's δ̂(ε) ≥ the exact δ(ε), both directions, at grid ε near the support edges and across the range."""
    failures = []
    for h_over_q in H_OVER_Q:
        h = min(h_over_q * q, 0.05)
        pl = pld_subsampled_gaussian(q, sigma, interval=h, pessimistic=True)
        for grid, remove in zip(pl.grids, (True, False)):
            edge = math.log1p(-q) if remove else -math.log1p(-q)
            k_edge = math.floor(edge / h)
            ks = set(range(k_edge - 6, k_edge + 3)) | {-1, 0, 1} | {round(e / h) for e in (0.05, 0.2, 0.5, 1.0, 2.0, 4.0)}
            for k in sorted(ks):
                eps = k * h
                exact = _subsampled_gaussian_delta(eps, q, sigma, remove)
                upper = float(grid.delta(eps))
                # 1e-13 relative: the float sums of the grid; the defects found were ≥ 2e-8 relative
                if upper < exact * (1 - 1e-13):
                    failures.append((h, "remove" if remove else "add", eps, upper / exact - 1))
    assert not failures, f"pessimistic δ̂(ε) below the exact δ(ε) (h, direction, ε, relative): {failures}"


# ---- cost: the quadrature in chunks, memory linear in the bins, and the estimate above the peak ----

LAWS = {"remove": lambda: SubsampledGaussianLossLaw(0.01, 1.0, True), "add": lambda: SubsampledGaussianLossLaw(0.01, 1.0, False),
        "gaussian": lambda: GaussianLossLaw(1.0)}
METHODS = [("dots", True), ("dots", False), ("round", True)]


def _peak_bytes(law, interval, method, pessimistic):
    """The traced peak of one discretisation (numpy's allocations included: tracemalloc counts them)."""
    gc.collect()
    tracemalloc.start()
    try:
        discretise_loss_law(law, interval=interval, pessimistic=pessimistic, method=method, tail_mass=1e-16)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("method, pessimistic", METHODS)
@pytest.mark.parametrize("name", sorted(LAWS))
def test_the_discretisation_memory_grows_by_at_most_its_rate_per_bin_and_stays_below_its_estimate(name, method, pessimistic):
    """pld_subsampled_gaussian(0.01, 1.0, interval=1e-6) took 2.3 GB: the bins' 8-node quadrature held n×8 arrays
    (about 470 bytes a bin). It now runs 2¹⁶ bins at a time: between 2·10⁵ and 4·10⁵ bins (three chunks and
    more) the traced peak grows by at most DISCRETISATION_BYTES_PER_BIN a bin, and stays below the estimate
    the cost check refuses on."""
    law = LAWS[name]()
    lo, hi = law.range(1e-16)
    peaks = {}
    for bins in (2e5, 4e5):
        h = (hi - lo) / bins
        peaks[bins] = _peak_bytes(law, h, method, pessimistic)
        assert peaks[bins] <= discretisation_cost([(lo, hi)], h, method, pessimistic)[1]
    assert (peaks[4e5] - peaks[2e5]) / 2e5 <= DISCRETISATION_BYTES_PER_BIN[method]


def test_the_quadrature_in_chunks_is_bit_identical_to_one_pass(monkeypatch):
    """Chunking changes no number: each bin's average depends on its own nodes only."""
    from dpnotes.pld import discretise

    law = SubsampledGaussianLossLaw(0.01, 1.0, True)
    lo, hi = law.range(1e-16)
    h = (hi - lo) / 3e5
    got = {}
    for chunk in (discretise._CHUNK_BINS, 10**9):
        monkeypatch.setattr(discretise, "_CHUNK_BINS", chunk)
        got[chunk] = [discretise_loss_law(law, interval=h, pessimistic=p, method="dots", tail_mass=1e-16).probs
                      for p in (True, False)]
    for a, b in zip(*got.values()):
        assert np.array_equal(a, b)


def test_a_discretisation_over_the_limits_is_refused_before_the_work_naming_the_interval_that_fits(monkeypatch):
    """pld_subsampled_gaussian(0.01, 1.0, interval=1e-6) was not refused (13.4 s, 2.3 GB before the chunking). Now the
    two directions' bins are priced together, before either is built; the message names the interval that fits,
    and that interval is allowed."""
    from dpnotes.pld import discretise

    monkeypatch.setattr(discretise, "_discretise", lambda *a: pytest.fail("built before the check"))
    with pytest.raises(ValueError, match=r"pld_subsampled_gaussian\(q = 0.01, sigma = 1\) at interval = 5e-07 .*needs "
                                         r"about 1\d\.\d s .*use a larger interval \(≥ (\S+)\)") as info:
        pld_subsampled_gaussian(0.01, 1.0, interval=5e-7)
    fits = float(re.search(r"≥ (\S+)\)", str(info.value)).group(1))
    laws = [SubsampledGaussianLossLaw(0.01, 1.0, r) for r in (True, False)]
    seconds, nbytes, _ = discretisation_cost([law.range(1e-16) for law in laws], fits * 1.001, "dots", True)
    assert seconds <= MAX_SECONDS and nbytes <= MAX_BYTES
    with pytest.raises(ValueError, match=r"discretise_loss_law\(GaussianLossLaw\) at interval = 2.2e-06 .*needs about"):
        discretise_loss_law(GaussianLossLaw(1.0), interval=2.2e-6, pessimistic=False, method="dots", tail_mass=1e-16)


def _exact_mean_loss(q, sigma, remove):
    """E_P[Z] = KL(P‖Q) of one direction by adaptive quadrature over the output (scipy, not the package's code),
    split where the loss turns from flat (≈ log(1 − q)) to linear in x."""
    from scipy import integrate
    from scipy.stats import norm

    def loss(x):  # ℓ(x) = log(1 − q + q e^{(x − ½)/σ²}), in log space
        return np.logaddexp(math.log1p(-q), math.log(q) + (x - 0.5) / sigma**2)

    if remove:
        f = lambda x: loss(x) * ((1 - q) * norm.pdf(x, 0, sigma) + q * norm.pdf(x, 1, sigma))  # noqa: E731
    else:
        f = lambda x: -loss(x) * norm.pdf(x, 0, sigma)  # noqa: E731
    knee = 0.5 + sigma**2 * math.log((1 - q) / q)
    cuts = sorted({-40 * sigma, 0.0, 1.0, knee, 1 + 40 * sigma})
    return sum(integrate.quad(f, a, b, epsabs=1e-16, epsrel=1e-11, limit=400)[0] for a, b in zip(cuts, cuts[1:]))


@pytest.mark.parametrize("q, sigma, h, most", [
    (1e-3, 2.0, 6.57e-5, (1.0, 80.0)), (1e-3, 2.0, 2.91e-5, (0.2, 25.0)), (1e-3, 1.1, 2e-5, (2.5, 200.0)),
    (1e-2, 1.0, 2e-4, (0.65, 20.0)), (1e-3, 4.0, 2e-5, (0.2, 2.0))])
def test_the_merged_lower_grid_gives_away_little_mean_loss(q, sigma, h, most):
    """The merged lower bound is a post-processing, so its mean loss is at most KL(P‖Q) = E_P[Z] (data processing);
    what it gives away per step, times T, is most of the T-fold lower ε's error. With one balancing pass of the bin
    edges the remove direction gave away 5.7h² at q = 10⁻³, σ = 2, h = 6.6·10⁻⁵ (1.3h² at h = 2.9·10⁻⁵): the bins
    next to the support edge kept residuals of 0.01–0.06h. Three passes give away at most ``most``·h² (remove,
    add), each below what one pass gave at these settings (remove 5.7, 1.3, 5.3, 0.93, 0.92; add 172, 117, 313,
    45, 52), against the exact mean by quadrature."""
    grids = pld_subsampled_gaussian(q, sigma, interval=h, pessimistic=False, tail_mass=1e-22).grids
    for g, remove, bound in zip(grids, (True, False), most):
        exact = _exact_mean_loss(q, sigma, remove)
        mean = float(np.sum(g.losses * g.probs))
        assert mean <= exact + 1e-15
        assert exact - mean <= bound * h * h


@pytest.mark.parametrize("q, sigma, h_over_q", [(1e-3, 0.8, 0.1), (0.01, 0.8, 0.06), (0.05, 0.85, 0.2)])
@pytest.mark.parametrize("remove", [True, False])
def test_the_aligned_edge_bin_solves_its_equation_in_mpmath(q, sigma, h_over_q, remove):
    """The edge bin (L, b] (remove; [b, U) add) found by a vectorised sectioning has merged loss
    ℓ_e = log(P/Q) of that bin equal to b − h/2 (b + h/2), checked with the bin's masses in mpmath."""
    from dpnotes.pld.discretise import _edge_bin  # white-box: the aligned edge bin

    h = h_over_q * q
    ell_e, lower = _edge_bin(SubsampledGaussianLossLaw(q, sigma, remove), h)
    assert lower == remove
    with mpmath.workdps(40):
        b = mpmath.mpf(ell_e) + (h / 2 if remove else -h / 2)
        m = b if remove else -b  # the remove loss at the edge output x: log(1 − q + q e^{(2x − 1)/(2σ²)})
        x = mpmath.mpf(1) / 2 + sigma**2 * mpmath.log((mpmath.exp(m) - (1 - q)) / q)
        n0, n1 = mpmath.ncdf(x / sigma), mpmath.ncdf((x - 1) / sigma)
        p_mass, q_mass = ((1 - q) * n0 + q * n1, n0) if remove else (n0, (1 - q) * n0 + q * n1)
        merged = mpmath.log(p_mass / q_mass)
        assert abs(float(merged) - ell_e) <= 1e-9 * h
