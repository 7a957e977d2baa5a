"""Display bundles of a figure, for the rendering mode the caller names.

``"live"`` (Jupyter, nbval: the default of ``Figure._repr_mimebundle_``) is an ipywidgets
figure; ``"static"`` (the book's build) is the precomputed HTML widget plus a PNG at the
default values for print. The package never guesses the mode from its environment: the
book's build registers the static bundle as the IPython display of every figure in the
kernels it starts (``book/_ext/static_kernel.py``, run through ``PYTHONSTARTUP`` by
``book/_ext/dpnotes_sphinx.py``), by :func:`register_static_display`.
"""

import base64

from .mpl import render_png
from .static_html import render_html

__all__ = ["RENDER_MODES", "mimebundle", "register_static_display", "show"]

#: The rendering modes :func:`mimebundle` accepts.
RENDER_MODES = ("live", "static")


def mimebundle(fig, mode):
    """The display bundle for ``fig`` rendered in ``mode`` (one of :data:`RENDER_MODES`)."""
    if mode not in RENDER_MODES:
        raise ValueError(f"mode must be one of {RENDER_MODES}, got {mode!r}")
    if mode == "static":
        summary = f"<figure {fig.key}: {fig.title}; sliders: {', '.join(s.name for s in fig.sliders)}>"
        return {
            "text/html": render_html(fig),
            "image/png": base64.b64encode(render_png(fig)).decode("ascii"),
            "text/plain": summary,
        }
    from .live import LiveFigure

    return LiveFigure(fig)._repr_mimebundle_()


def _static_bundle(fig, include=None, exclude=None):
    return mimebundle(fig, "static")


def register_static_display(shell):
    """Make the IPython ``shell`` display every figure in the static mode (the book's build).

    Registers, by name (nothing is imported), a mimebundle printer for
    :class:`dpnotes.widgets.spec.Figure`; IPython prefers it to the figure's own live
    ``_repr_mimebundle_``. Only ``shell`` is changed.
    """
    shell.display_formatter.mimebundle_formatter.for_type_by_name("dpnotes.widgets.spec", "Figure", _static_bundle)


def show(fig):
    """Display ``fig`` (live sliders in Jupyter, precomputed sliders on the site)."""
    from IPython.display import display

    display(fig)
