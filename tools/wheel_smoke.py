"""Install the wheel outside the repository, with the oldest and the newest supported dependencies, and use it.

For each set below: a fresh venv under ``--out`` (kept while its requirements are unchanged), the
dependencies installed from the registry, the freshly built wheel installed over them, then
``smoke.py`` run in Python's isolated mode from an empty folder, so nothing of the checkout can be
imported. The smoke run computes an ε, shows a live figure (its display bundle) and moves a slider
read from the shipped table without computing, and answers a numeric and a formula exercise with
``check``. It prints one JSON line, which this tool checks and writes to ``<out>/<set>.json``.

Usage: python tools/wheel_smoke.py [--out _build/smoke] [oldest|newest ...]
"""

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYENV = Path.home() / ".pyenv" / "versions"

#: the supported range: the floors of pyproject.toml on the oldest Python, and the newest releases
SETS = {
    "oldest": {"python": "3.11", "requirements": [
        "numpy==1.26.4", "scipy==1.11.4", "sympy==1.12", "mpmath==1.3.0", "matplotlib==3.8.4",
        "Pillow==10.3.0", "ipywidgets==7.7.1", "scikit-learn==1.3.2"]},
    "newest": {"python": "3.13", "requirements": [
        "numpy", "scipy", "sympy", "mpmath", "matplotlib", "Pillow", "ipywidgets", "scikit-learn"]},
}

SMOKE = r'''
import json, sys
import numpy as np
import dpnotes
from dpnotes import dpsgd_epsilon
from dpnotes.exercises import check
from dpnotes.figures import FIGURES
from dpnotes.widgets.figure_tables import load_table
from dpnotes.widgets.live import LiveFigure

out = {"python": sys.version.split()[0], "numpy": np.__version__, "dpnotes": dpnotes.__file__}
out["epsilon"] = dpsgd_epsilon(0.01, 1.1, 1000, 1e-5)
out["stale_tables"] = [key for key, fig in FIGURES.items() if load_table(fig) is None]
fig = FIGURES["subsampling-rdp"]
live = LiveFigure(fig)
out["bundle"] = sorted(live._repr_mimebundle_())
slider = fig.sliders[0]

def refuse(**params):
    raise AssertionError("the slider move computed instead of reading the table")

object.__setattr__(fig, "compute", refuse)  # a move must read the shipped table
out["moved_traces"] = len(live.set(**{slider.name: slider.values[-1]}))
rate = 0.2 * (np.exp(2 / (2 * 2.0**2)) - 1)
out["check_number"] = check("subsampling-claim24", float(np.log(1 + rate))).status
out["check_formula"] = check("subsampling-order-two", "log(1 + q**2 * (exp(1 / sigma**2) - 1))").status
print(json.dumps(out))
'''


def _python(version):
    """The interpreter for ``version`` (pyenv's, else one on the PATH)."""
    found = sorted(PYENV.glob(f"{version}.*/bin/python3")) if PYENV.exists() else []
    exe = str(found[-1]) if found else shutil.which(f"python{version}")
    if not exe:
        raise SystemExit(f"python {version} not found (pyenv or python{version} on the PATH)")
    return exe


def build_wheel(dest):
    """Build the wheel from a copy of the package's files (no build/ folder in the checkout)."""
    shutil.rmtree(dest, ignore_errors=True)
    src = Path(tempfile.mkdtemp(prefix="dpnotes-src-"))
    files = subprocess.run(["git", "ls-files", "dpnotes"], cwd=ROOT, check=True, capture_output=True,
                           text=True).stdout.split()
    for name in ["pyproject.toml", "README.md", "LICENSE", "LICENSE-TEXT.md", *files]:
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / name, src / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(dest), str(src)], check=True, capture_output=True)
    shutil.rmtree(src)
    (wheel,) = Path(dest).glob("dpnotes-*.whl")
    return wheel


def env_for(name, spec, out):
    """The venv of a set, created and filled once per requirements list."""
    env = out / name
    stamp = env / ".requirements"
    wanted = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()
    if not (stamp.exists() and stamp.read_text() == wanted):
        shutil.rmtree(env, ignore_errors=True)
        subprocess.run([_python(spec["python"]), "-m", "venv", str(env)], check=True)
        pip = [str(env / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run(pip + spec["requirements"], check=True)
        stamp.write_text(wanted)
    return env


def smoke(name, out, wheel):
    """Install ``wheel`` into the set's venv and run the smoke script; returns its JSON result."""
    env = env_for(name, SETS[name], out)
    py = str(env / "bin" / "python")
    subprocess.run([py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
                    "--force-reinstall", str(wheel)], check=True)
    with tempfile.TemporaryDirectory() as empty:
        run = subprocess.run([py, "-I", "-c", SMOKE], cwd=empty, capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        raise RuntimeError(f"{name}: the smoke run failed\n{run.stderr}")
    result = json.loads(run.stdout.strip().splitlines()[-1])
    (out / f"{name}.json").write_text(json.dumps(result, indent=1))
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "_build" / "smoke"))
    parser.add_argument("sets", nargs="*", help=f"which sets (default: all of {', '.join(SETS)})")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    wheel = build_wheel(out / "wheel")
    unknown = set(args.sets) - set(SETS)
    if unknown:
        parser.error(f"unknown set(s) {sorted(unknown)}: choose from {list(SETS)}")
    for name in args.sets or list(SETS):
        result = smoke(name, out, wheel)
        print(f"{name}: python {result['python']}, numpy {result['numpy']}: epsilon {result['epsilon']:.9g}, "
              f"stale tables {result['stale_tables']}, checks {result['check_number']}/{result['check_formula']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
