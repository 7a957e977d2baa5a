"""dpnotes: the mathematics behind the book on differential-privacy accounting.

A flat public namespace: ``from dpnotes import rdp_gaussian, renyi_divergence``.
Layers: pure math modules (no plotting) at the bottom; ``dpnotes.figures`` and
``dpnotes.widgets`` build on them, never the other way round.
"""

from .divergence import *  # noqa: F401,F403
from .rdp import *  # noqa: F401,F403
from . import divergence as _divergence, rdp as _rdp

__all__ = [*_divergence.__all__, *_rdp.__all__]
__version__ = "0.1.0"
