"""Elementary functions in log space, without overflow or cancellation (shared by the math modules)."""

import numpy as np
from scipy.special import gammaln

__all__ = ["amplified_epsilon", "log_expm1", "log_phi", "log_psi"]


def log_expm1(x):
    """log(e^x − 1) for x > 0, without overflow or cancellation."""
    x = np.asarray(x, dtype=float)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        big = x + np.log1p(-np.exp(-np.maximum(x, 30.0)))
        small = np.log(np.expm1(np.minimum(x, 30.0)))
    return np.where(x > 30.0, big, small)


def amplified_epsilon(q, eps0):
    """log(1 + q(e^{ε₀} − 1)), the ε of an ε₀-DP step run on a Poisson subsample of rate q, without overflow:
    ε₀ + log(q + (1 − q)e^{−ε₀}) once ε₀ ≥ 1 (e^{ε₀} overflows from ε₀ ≈ 709)."""
    eps0 = np.asarray(eps0, float)
    small = np.minimum(eps0, 1.0)
    big = np.maximum(eps0, 1.0)
    return np.where(eps0 < 1.0, np.log1p(q * np.expm1(small)), big + np.log(q + (1.0 - q) * np.exp(-big)))


_POWERS_MAX_SIZE = 65_536  # up to this many arguments, the powers table (20 numbers each) is built at once


def _polynomial(x, coeffs):
    """Σ_k coeffs[k] x^k: a table of powers and one dot product for small arrays (two numpy calls instead of
    2·len(coeffs)), Horner's rule beyond; for |x| < 1 and the factorially decreasing coefficients used here
    the terms shrink fast, so both sum to the same relative precision."""
    x = np.asarray(x, dtype=float)
    if x.size <= _POWERS_MAX_SIZE:
        powers = np.cumprod(np.broadcast_to(x[..., None], x.shape + (coeffs.size - 1,)), axis=-1)
        return coeffs[0] + powers @ coeffs[1:]
    out = np.full_like(x, coeffs[-1])
    for c in coeffs[-2::-1]:
        out *= x
        out += c
    return out


# Both series are used for |x| < 1 only; n ≤ 21 leaves a relative error below 2(n − 1)/n! < 10⁻¹⁹ there.
# φ(ℓ) = e^ℓ(ℓ − 1) + 1 = Σ_{n≥2} (n − 1) ℓⁿ / n!   (|ℓ| < 1: series)
_PHI_COEFFS = np.array([(n - 1) / np.exp(gammaln(n + 1)) for n in range(2, 22)])
# ψ(v) = e^v − 1 − v = Σ_{n≥2} vⁿ / n!               (|v| < 1: series)
_PSI_COEFFS = np.array([1.0 / np.exp(gammaln(n + 1)) for n in range(2, 22)])


def log_phi(ell):
    """log(e^ℓ(ℓ − 1) + 1); the argument is ≥ 0 and 0 only at ℓ = 0 (where the value is −∞)."""
    size = np.abs(ell)
    inside = size < 1.0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if np.all(inside):  # the common case in the integrands: the series alone
            return 2.0 * np.log(size) + np.log(_polynomial(ell, _PHI_COEFFS))
        small = 2.0 * np.log(size) + np.log(_polynomial(np.clip(ell, -1, 1), _PHI_COEFFS))
        big = ell + np.log(ell + np.expm1(-np.maximum(ell, 1.0)))
        neg = np.log1p(np.exp(np.minimum(ell, -1.0)) * (np.minimum(ell, -1.0) - 1.0))
    return np.where(inside, small, np.where(ell >= 1.0, big, neg))


def log_psi(v):
    """log(e^v − 1 − v); the argument is ≥ 0 and 0 only at v = 0 (where the value is −∞)."""
    size = np.abs(v)
    inside = size < 1.0
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if np.all(inside):
            return 2.0 * np.log(size) + np.log(_polynomial(v, _PSI_COEFFS))
        small = 2.0 * np.log(size) + np.log(_polynomial(np.clip(v, -1, 1), _PSI_COEFFS))
        vb = np.maximum(v, 1.0)
        big = vb + np.log1p(-(1.0 + vb) * np.exp(-vb))
        vn = np.minimum(v, -1.0)
        neg = np.log(np.expm1(vn) - vn)
    return np.where(inside, small, np.where(v >= 1.0, big, neg))
