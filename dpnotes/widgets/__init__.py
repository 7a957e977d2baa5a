"""Figures with sliders, rendered live (Jupyter), precomputed (static site) or as PNG.

Builds on the math modules; nothing below ``dpnotes.widgets`` imports it.
"""

from .display import RENDER_MODES, mimebundle, show
from .spec import Figure, Slider, Trace

__all__ = ["RENDER_MODES", "Figure", "Slider", "Trace", "mimebundle", "show"]
