"""The wheel where students work: installed outside the checkout with the oldest and the newest
supported dependencies (tools/wheel_smoke.py), then used as a student would."""

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from dpnotes import dpsgd_epsilon

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import wheel_smoke  # noqa: E402

OUT = ROOT / "_build" / "smoke"


@pytest.fixture(scope="module")
def results():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "wheel_smoke.py"), "--out", str(OUT)],
                         capture_output=True, text=True, timeout=1500)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    return {name: json.loads((OUT / f"{name}.json").read_text()) for name in wheel_smoke.SETS}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(wheel_smoke.SETS))
def test_the_installed_wheel_works(results, name):
    r = results[name]
    assert str(OUT / name) in r["dpnotes"] and str(ROOT / "dpnotes") not in r["dpnotes"]  # not the checkout
    assert r["epsilon"] == pytest.approx(dpsgd_epsilon(0.01, 1.1, 1000, 1e-5), rel=1e-9)
    assert r["stale_tables"] == []  # every shipped figure table is read (numpy's last bit does not matter)
    assert "application/vnd.jupyter.widget-view+json" in r["bundle"]  # the live figure displays
    assert r["moved_traces"] > 0  # and a slider move reads the table without computing
    assert (r["check_number"], r["check_formula"]) == ("right", "right")


@pytest.mark.slow
def test_the_sets_span_the_supported_range(results):
    assert results["oldest"]["numpy"].startswith("1.26") and int(results["newest"]["numpy"].split(".")[0]) >= 2


def test_the_oldest_set_is_the_declared_floors():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    floors = dict(re.fullmatch(r"([A-Za-z0-9_-]+)>=([0-9.]+)", d).groups() for d in project["dependencies"])
    oldest = dict(r.split("==") for r in wheel_smoke.SETS["oldest"]["requirements"])
    assert set(floors) == set(oldest)
    for name, floor in floors.items():
        assert oldest[name].startswith(floor), (name, floor, oldest[name])
    assert project["requires-python"] == f">={wheel_smoke.SETS['oldest']['python']}"
