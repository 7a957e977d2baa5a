"""Choose the rendering of a figure by where it is shown.

The book's build sets ``DPNOTES_RENDER=static`` for its kernels (see
``book/_ext/dpnotes_sphinx.py``): the output is then the precomputed HTML widget
plus a PNG at the default values for print. Anywhere else (Jupyter, nbval) a
live ipywidgets figure is shown.
"""

import base64
import os

from .mpl import render_png
from .static_html import render_html

__all__ = ["mimebundle", "render_mode", "show"]


def render_mode():
    """``"static"`` during the book build, ``"live"`` otherwise."""
    return "static" if os.environ.get("DPNOTES_RENDER") == "static" else "live"


def mimebundle(fig):
    """The display bundle for ``fig`` in the current mode."""
    summary = f"<figure {fig.key}: {fig.title}; sliders: {', '.join(s.name for s in fig.sliders)}>"
    if render_mode() == "static":
        return {
            "text/html": render_html(fig),
            "image/png": base64.b64encode(render_png(fig)).decode("ascii"),
            "text/plain": summary,
        }
    from .live import LiveFigure

    return LiveFigure(fig)._repr_mimebundle_()


def show(fig):
    """Display ``fig`` (live sliders in Jupyter, precomputed sliders on the site)."""
    from IPython.display import display

    display(fig)
