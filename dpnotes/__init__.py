"""dpnotes: the mathematics behind the book on differential-privacy accounting.

A flat public namespace: ``from dpnotes import rdp_gaussian, epsilon_from_rdp``.
Layers: pure math modules (no plotting) at the bottom; ``dpnotes.figures`` and
``dpnotes.widgets`` build on them, never the other way round.
"""

from importlib import import_module as _import

_MATH_MODULES = (
    "divergence",  # the numerical Rényi divergence (the independent route)
    "rdp",  # closed forms of the basic mechanisms
    "orders",  # the order grid
    "composition",
    "conversion",
    "privacy_loss",
    "tradeoff",  # trade-off functions (the hypothesis-testing reading of DP)
    "properties",
    "subsampling",
    "convolution",
    "amplification",
    "iteration",
    "learning",
    "lower_bounds",
    "joint_dp",
    "noise_comparison",
    "pld",
    "dpsgd",  # the accounting routes of DP-SGD (imports pld lazily for route="pld")
    "published",  # published ε of DP-SGD runs, recomputed (data: data/published_numbers.json)
)

__all__ = []
for _name in _MATH_MODULES:
    _module = _import(f".{_name}", __name__)
    for _attr in _module.__all__:
        globals()[_attr] = getattr(_module, _attr)
    __all__ += list(_module.__all__)

__version__ = "0.1.0"
