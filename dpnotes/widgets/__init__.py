"""Figures with sliders, rendered live (Jupyter), precomputed (static site) or as PNG.

Builds on the math modules; nothing below ``dpnotes.widgets`` imports it.
"""

from .display import render_mode, show
from .spec import Figure, Slider, Trace

__all__ = ["Figure", "Slider", "Trace", "render_mode", "show"]
