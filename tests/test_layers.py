"""The package's layers: every import goes down (or sideways), never up; the flat namespace
re-exports exactly the math modules' ``__all__``; no private name crosses a package boundary.

Layers, bottom to top (README, "Module map"):

0. foundations: argument checks, log-space helpers, the order grid, data files
1. the mathematics: one module per topic (no plotting), and the flat namespace ``dpnotes``; a topic too
   large for one module is a subpackage (``dpnotes.pld``: one module per pipeline stage), whose modules
   all sit in this layer and may share private names among themselves, never outside the subpackage
2. widgets: slider specs and the static/live renderers
3. figures: the book's figures, built from the mathematics and the widgets
4. exercise kinds and the claims registry
5. the chapters' exercises
6. the entry points: the notebooks' ``dpnotes.exercises``, the command line ``dpnotes.cli`` (``python -m dpnotes``)
"""

import ast
import importlib
from pathlib import Path


import dpnotes

ROOT = Path(__file__).resolve().parents[1] / "dpnotes"

LAYERS = {
    "_validation": 0, "_logspace": 0, "orders": 0, "rounding": 0, "data": 0,
    "dpnotes": 1, "divergence": 1, "rdp": 1, "composition": 1, "conversion": 1, "privacy_loss": 1, "tradeoff": 1,
    "properties": 1, "subsampling": 1, "convolution": 1, "amplification": 1, "iteration": 1, "learning": 1,
    "lower_bounds": 1, "joint_dp": 1, "noise_comparison": 1, "pld": 1, "dpsgd": 1, "dpsgd_training": 1,
    "symbolic": 1, "published": 1,
    "widgets": 2,
    "figures": 3,
    "exercise_kinds": 4, "claims": 4,
    "chapter_exercises": 5,
    "exercises": 6, "cli": 6, "__main__": 6,
}
MATH = [name for name, layer in LAYERS.items() if layer == 1 and name not in ("dpnotes", "symbolic")] + ["orders"]


def _top(module):
    """The first component under dpnotes ("dpnotes" for the package itself; "pld" for dpnotes.pld.grid)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "dpnotes"


def _imported_module(node, package):
    """The absolute name of the module an ``ast.ImportFrom`` in ``package`` imports from."""
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        return ".".join(base + ([node.module] if node.module else []))
    return node.module or ""


def _imports():
    """(importing module, imported module, imported names) for every import in the package, nested ones too."""
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        module = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        package = module if rel.name == "__init__" else module.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                target = _imported_module(node, package)
                if target.startswith("dpnotes"):
                    yield module, target, [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("dpnotes"):
                        yield module, alias.name, []


def test_every_module_has_a_layer():
    tops = {_top(m) for m, _, _ in _imports()} | {_top(t) for _, t, _ in _imports()}
    assert tops <= set(LAYERS), sorted(tops - set(LAYERS))


def test_no_import_goes_up_a_layer():
    up = [f"{m} (layer {LAYERS[_top(m)]}) imports {t} (layer {LAYERS[_top(t)]})"
          for m, t, _ in _imports() if LAYERS[_top(t)] > LAYERS[_top(m)]]
    assert not up, "\n".join(up)


def test_the_flat_namespace_re_exports_exactly_the_math_modules():
    expected = [n for name in MATH for n in importlib.import_module(f"dpnotes.{name}").__dict__.get("__all__", [])]
    assert sorted(dpnotes.__all__) == sorted(expected) and len(set(expected)) == len(expected)
    for name in dpnotes.__all__:
        assert getattr(dpnotes, name) is not None


def test_no_private_name_crosses_a_package_boundary():
    crossing = [f"{m} imports {t}.{n}" for m, t, names in _imports() for n in names
                if n.startswith("_") and _top(m) != _top(t) and not n.startswith("__")]
    assert not crossing, "\n".join(crossing)


def test_the_pld_subpackage_is_one_mathematics_module():
    """dpnotes.pld/*.py are layer 1 (as "pld"), and its __init__ re-exports exactly the public names they define."""
    pld = importlib.import_module("dpnotes.pld")
    stages = sorted(p.stem for p in (ROOT / "pld").glob("*.py") if p.stem != "__init__")
    assert stages == ["constructors", "discretise", "distribution", "dpsgd", "grid"]
    assert all(LAYERS[_top(f"dpnotes.pld.{stage}")] == 1 for stage in stages)
    defined = {name for stage in stages for name, obj in vars(importlib.import_module(f"dpnotes.pld.{stage}")).items()
               if not name.startswith("_") and getattr(obj, "__module__", None) == f"dpnotes.pld.{stage}"}
    assert sorted(pld.__all__) == sorted(defined)
    assert all(getattr(pld, name).__module__.startswith("dpnotes.pld.") for name in pld.__all__)


def test_no_private_pld_name_is_imported_outside_the_subpackage():
    """Package code and the benchmarks use only dpnotes.pld's public names (the tests may test private helpers)."""
    inside = lambda module: module == "dpnotes.pld" or module.startswith("dpnotes.pld.")  # noqa: E731
    crossing = [f"{m} imports {t}.{n}" for m, t, names in _imports() for n in names
                if inside(t) and not inside(m) and n.startswith("_")]
    for path in sorted((ROOT.parent / "benchmarks").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and inside(node.module or ""):
                crossing += [f"{path.name} imports {node.module}.{a.name}" for a in node.names if a.name.startswith("_")]
    assert not crossing, "\n".join(crossing)


def _private_names_across_modules(paths, root):
    """"m imports t._x" / "m uses t._x" for every private name of a dpnotes module used in another module.

    Imports (``from .t import _x``, nested ones too) and attribute uses of an imported
    module (``from . import t`` … ``t._x``). Importing public names from the private
    foundation modules (``_validation``, ``_logspace``) is not a private name crossing.
    """
    out = []
    for path in paths:
        rel = path.relative_to(root).with_suffix("")
        module = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        package = module if rel.name == "__init__" else module.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = {}  # local name -> the dpnotes object it was imported as
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _imported_module(node, package)
                if not target.startswith("dpnotes"):
                    continue
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__") and target != module:
                        out.append(f"{module} imports {target}.{a.name}")
                    bound[a.asname or a.name] = f"{target}.{a.name}"
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.startswith("dpnotes"):
                        bound[a.asname or a.name.split(".")[0]] = a.asname and a.name or a.name.split(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                parts, value = [], node.value
                while isinstance(value, ast.Attribute):
                    parts.append(value.attr)
                    value = value.value
                if isinstance(value, ast.Name) and value.id in bound:
                    target = ".".join([bound[value.id], *reversed(parts)])
                    if target != module:
                        out.append(f"{module} uses {target}.{node.attr}")
    return out


def test_no_private_name_crosses_a_module():
    """No module imports (or reaches into) another module's private name, inside a subpackage too."""
    paths = sorted(ROOT.rglob("*.py"))
    paths += sorted((ROOT.parent / "tools").glob("*.py")) + sorted((ROOT.parent / "benchmarks").glob("*.py"))
    crossing = sorted(set(_private_names_across_modules(paths, ROOT.parent)))
    assert not crossing, "\n".join(crossing)


def test_the_private_name_scan_sees_imports_and_attribute_uses(tmp_path):
    pkg = tmp_path / "dpnotes" / "sub"
    pkg.mkdir(parents=True)
    (pkg / "a.py").write_text("_x = 1\ndef _f():\n    return _x\n")
    (pkg / "b.py").write_text("from .a import _f\nfrom . import a\nimport dpnotes.sub.a as aa\n"
                              "def g():\n    from dpnotes.sub.a import _x\n    return a._x + aa._x + _f()\n")
    found = _private_names_across_modules(sorted(pkg.glob("*.py")), tmp_path)
    assert sorted(found) == ["dpnotes.sub.b imports dpnotes.sub.a._f", "dpnotes.sub.b imports dpnotes.sub.a._x",
                             "dpnotes.sub.b uses dpnotes.sub.a._x", "dpnotes.sub.b uses dpnotes.sub.a._x"]
