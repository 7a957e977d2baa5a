"""Cold start (issue 29): ``import dpnotes`` loads no heavy dependency, and a public name still imports.

Deterministic (no wall clock): each check runs in a fresh interpreter and reads ``sys.modules``.
The times themselves are in ``make bench`` (the cold line).
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("scipy.integrate", "scipy.stats", "scipy.optimize", "sympy", "matplotlib", "ipywidgets", "plotly")


def _loaded_after(code):
    """The modules of HEAVY (and numpy, scipy) loaded in a fresh interpreter after running ``code``."""
    probe = f"import sys, json\n{code}\nprint(json.dumps(sorted(m for m in sys.modules if m in {list(HEAVY) + ['numpy', 'scipy']!r})))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True)
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


def test_import_dpnotes_loads_neither_numpy_nor_any_heavy_dependency():
    assert _loaded_after("import dpnotes") == set()


@pytest.mark.parametrize("call", [
    "from dpnotes import dpsgd_epsilon; dpsgd_epsilon(0.01, 1.0, 1000, 1e-5)",
    "from dpnotes import dpsgd_epsilon_pld; dpsgd_epsilon_pld(0.01, 1.0, 1000, 1e-5)",
    "from dpnotes.pld import dpsgd_epsilon_bracket; dpsgd_epsilon_bracket(0.01, 1.0, 100, 1e-5, rel_width=1e-2)",
    "from dpnotes import epsilon_from_rdp, rdp_gaussian; epsilon_from_rdp([2.0, 4.0, 8.0], rdp_gaussian([2.0, 4.0, 8.0], 2.0), 1e-5)",
])
def test_a_first_accounting_call_loads_no_heavy_dependency(call):
    loaded = _loaded_after(call)
    assert {"numpy", "scipy"} <= loaded  # the probe sees the imports the call made
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_the_lazy_namespace_serves_every_public_name_and_submodule():
    import dpnotes

    code = ("import dpnotes\nfor n in dpnotes.__all__: getattr(dpnotes, n)\n"
            "import dpnotes.pld\nassert dpnotes.pld.dpsgd_epsilon_pld is dpnotes.dpsgd_epsilon_pld")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
                   check=True)
    assert set(dpnotes.__all__) <= set(dir(dpnotes))
    assert dpnotes.pld.__name__ == "dpnotes.pld"  # a submodule as an attribute
    with pytest.raises(AttributeError, match="no_such_name"):
        dpnotes.no_such_name  # noqa: B018
