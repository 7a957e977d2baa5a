"""Joint differential privacy (S2-09): exact enumeration on tiny instances."""

import itertools

import numpy as np
import pytest

from dpnotes.joint_dp import (
    full_output_epsilon,
    joint_dp_epsilon,
    noisy_count_mechanism,
    own_record_mechanism,
    privacy_profile,
    view_pmf,
)


@pytest.mark.claim("S2-09")
def test_s2_09_own_record_is_jointly_private_but_not_private():
    for n in (2, 3, 4):
        assert joint_dp_epsilon(own_record_mechanism, n) == 0.0
        assert full_output_epsilon(own_record_mechanism, n) == np.inf
        # not even with a δ < 1: the two output laws have disjoint supports
        assert full_output_epsilon(own_record_mechanism, n, delta=0.5) == np.inf
    assert joint_dp_epsilon(own_record_mechanism, 3, domain=4) == 0.0


@pytest.mark.claim("S2-09")
@pytest.mark.parametrize("p", [0.5, 0.6, 0.75, 0.9])
def test_s2_09_noisy_count_joint_epsilon_is_randomized_response(p):
    mech = noisy_count_mechanism(p)
    expected = np.log(p / (1 - p))
    for n in (2, 3, 4):
        assert joint_dp_epsilon(mech, n) == pytest.approx(expected, abs=1e-12)
        assert full_output_epsilon(mech, n) == np.inf


@pytest.mark.claim("S2-09")
def test_s2_09_without_personal_outputs_joint_equals_full():
    # every agent sees only the shared noisy count: the −i view is the whole output
    def shared_only(records, p=0.8):
        pmf = noisy_count_mechanism(p)(records)
        return view_pmf({tuple(s for (_, s) in y): w for y, w in pmf.items()})

    for n in (2, 3):
        assert joint_dp_epsilon(shared_only, n) == pytest.approx(full_output_epsilon(shared_only, n), abs=1e-12)
        assert joint_dp_epsilon(shared_only, n) == pytest.approx(np.log(4.0), abs=1e-12)


@pytest.mark.claim("S2-09")
def test_s2_09_hockey_stick_equals_supremum_over_events():
    rng = np.random.default_rng(0)
    for _ in range(20):
        a, b = rng.dirichlet(np.ones(5)), rng.dirichlet(np.ones(5))
        p, q = dict(enumerate(a)), dict(enumerate(b))
        for eps in (0.0, 0.3, 1.0):
            brute = max(sum(a[list(E)]) - np.exp(eps) * sum(b[list(E)])
                        for r in range(6) for E in itertools.combinations(range(5), r))
            assert privacy_profile(p, q, eps)[0] == pytest.approx(brute, abs=1e-14)
        assert privacy_profile(p, q, 0)[1] == pytest.approx(np.max(np.log(a / b)), abs=1e-14)


@pytest.mark.claim("S2-09")
def test_s2_09_joint_epsilon_with_delta_is_below_pure():
    mech = noisy_count_mechanism(0.9)
    pure = joint_dp_epsilon(mech, 3)
    approx = joint_dp_epsilon(mech, 3, delta=0.05)
    assert approx < pure
    # check the returned ε: δ(ε) ≤ 0.05 on every neighbouring −i view
    for x in itertools.product((0, 1), repeat=3):
        x2 = (1 - x[0],) + x[1:]
        p, q = view_pmf(mech(x), 0), view_pmf(mech(x2), 0)
        assert privacy_profile(p, q, approx + 1e-9)[0] <= 0.05 + 1e-12


def test_joint_dp_validation():
    with pytest.raises(ValueError, match="p"):
        noisy_count_mechanism(0.3)
    with pytest.raises(ValueError, match="n_agents"):
        joint_dp_epsilon(own_record_mechanism, 1)
    with pytest.raises(ValueError, match="delta"):
        joint_dp_epsilon(own_record_mechanism, 2, delta=1.0)


def test_invalid_distributions_and_oversized_enumerations_are_refused():
    with pytest.raises(ValueError, match="p_view"):
        privacy_profile({0: 0.7, 1: 0.7}, {0: 0.5, 1: 0.5}, 0.0)
    with pytest.raises(ValueError, match="q_view"):
        privacy_profile({0: 1.0}, {0: -0.5, 1: 1.5}, 0.0)
    with pytest.raises(TypeError, match="p_view"):
        privacy_profile([0.5, 0.5], {0: 1.0}, 0.0)
    with pytest.raises(ValueError, match="mechanism"):
        joint_dp_epsilon(lambda x: {((0,), (0,)): 0.5}, 2)  # its outputs sum to 0.5
    with pytest.raises(TypeError, match="mechanism"):
        joint_dp_epsilon("own record", 2)
    with pytest.raises(ValueError, match="n_agents"):
        joint_dp_epsilon(own_record_mechanism, 40)  # 2⁴⁰·40 neighbouring pairs
    with pytest.raises(ValueError, match="records"):
        own_record_mechanism((0, -1))
