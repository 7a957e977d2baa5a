"""The command line (dpnotes/cli.py), run as users run it: ``python -m dpnotes …`` in a subprocess."""

import re
import subprocess
import sys

import pytest

from dpnotes import dpsgd_epsilon, dpsgd_delta
from dpnotes.rounding import outward

NUMBER = r"([0-9.]+(?:e[-+]?\d+)?)"


def _run(*args):
    return subprocess.run([sys.executable, "-m", "dpnotes", *args], capture_output=True, text=True, timeout=300)


def test_epsilon_is_the_package_value_rounded_up():
    out = _run("epsilon", "--q", "0.01", "--sigma", "1.1", "--steps", "1000", "--delta", "1e-5")
    assert out.returncode == 0, out.stderr
    shown = float(re.search(rf"epsilon = {NUMBER}", out.stdout).group(1))
    exact = dpsgd_epsilon(0.01, 1.1, 1000, 1e-5)
    assert exact <= shown <= exact * (1 + 1e-5)


def test_epochs_give_ceil_epochs_over_q_steps():
    out = _run("epsilon", "--q", "0.01", "--sigma", "1.1", "--epochs", "2.5", "--delta", "1e-5")
    assert "T = 250" in out.stdout, out.stdout + out.stderr


def test_bracket_is_rounded_outward_and_contains_the_rdp_route_below():
    out = _run("epsilon", "--q", "0.01", "--sigma", "1.1", "--steps", "1000", "--delta", "1e-5", "--route", "bracket")
    assert out.returncode == 0, out.stderr
    lo, hi = map(float, re.search(rf"\[{NUMBER}, {NUMBER}\]", out.stdout).groups())
    assert 0 < lo < hi < dpsgd_epsilon(0.01, 1.1, 1000, 1e-5)  # the RDP route is an upper bound, looser


def test_delta_is_the_package_value_rounded_up():
    out = _run("delta", "--q", "0.01", "--sigma", "1.1", "--steps", "1000", "--epsilon", "2")
    shown = float(re.search(rf"delta = {NUMBER}", out.stdout).group(1))
    exact = dpsgd_delta(0.01, 1.1, 1000, 2.0)
    assert exact <= shown <= exact * (1 + 1e-5)


@pytest.mark.parametrize("args, name", [
    (["epsilon", "--q", "2", "--sigma", "1.1", "--steps", "10", "--delta", "1e-5"], "q"),
    (["epsilon", "--q", "0.01", "--sigma", "-1", "--steps", "10", "--delta", "1e-5"], "sigma"),
    (["epsilon", "--q", "0.01", "--sigma", "1", "--steps", "10", "--delta", "1.5"], "delta"),
    (["epsilon", "--q", "0.01", "--sigma", "1", "--delta", "1e-5"], "--steps"),
    (["epsilon", "--q", "0.01", "--sigma", "1", "--steps", "5", "--epochs", "1", "--delta", "1e-5"], "--steps"),
])
def test_bad_input_exits_2_naming_the_argument(args, name):
    out = _run(*args)
    assert out.returncode == 2 and out.stdout == ""
    assert name in out.stderr.splitlines()[-1], out.stderr


def test_help_lists_the_commands():
    out = _run("--help")
    assert out.returncode == 0 and all(c in out.stdout for c in ("epsilon", "delta", "sigma"))


@pytest.mark.parametrize("value", [1.23456789, 0.000123456789, 98765.4321, 1.0, 2.5e-300])
def test_outward_rounding_keeps_a_bound_on_its_side(value):
    # the command line prints through dpnotes.rounding (6 significant digits); exact decimal comparison
    from decimal import Decimal
    up, down = outward(value, "upper", significant=6), outward(value, "lower", significant=6)
    assert up >= Decimal(value) >= down
    assert abs(float(up) - value) <= 1e-5 * value


def test_sigma_reaches_the_target_and_is_nearly_the_smallest():
    out = _run("sigma", "--epsilon", "3", "--delta", "1e-5", "--q", "0.01", "--epochs", "20")
    assert out.returncode == 0, out.stderr
    sigma = float(re.search(rf"sigma = {NUMBER}", out.stdout).group(1))
    steps = 2000  # ceil(20 / 0.01)
    assert "T = 2000" in out.stdout
    assert dpsgd_epsilon(0.01, sigma, steps, 1e-5) <= 3.0  # printed rounded up: still reaches the target
    assert dpsgd_epsilon(0.01, sigma / 1.003, steps, 1e-5) > 3.0  # and within about 0.1 % of the smallest
