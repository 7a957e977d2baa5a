"""The sympy derivation of the Gaussian divergence against the numerical route."""

import numpy as np
import pytest
import sympy as sp
from scipy import stats

from dpnotes import renyi_divergence
from dpnotes.symbolic.gaussian import derive_rdp_gaussian


@pytest.mark.claim("S4-02")
def test_s4_02_derivation_matches_closed_form():
    steps = derive_rdp_gaussian()
    result = steps[-1][1]
    alpha, sigma, delta = sp.symbols("alpha sigma a", positive=True)
    fn = sp.lambdify((alpha, sigma, delta), result)
    for a, s, d in [(2.0, 1.0, 1.0), (7.3, 0.6, 1.7), (1.2, 4.0, 0.3)]:
        numeric = renyi_divergence(stats.norm(d, s), stats.norm(0, s), a)
        assert np.isclose(fn(a, s, d), numeric, rtol=1e-9)


def test_each_step_is_consistent():
    steps = derive_rdp_gaussian()
    # the integral step exponentiated then logged must give the result times (α − 1)
    alpha = sp.Symbol("alpha", positive=True)
    integral, result = steps[-2][1], steps[-1][1]
    assert sp.simplify(sp.log(integral) - (alpha - 1) * result) == 0
