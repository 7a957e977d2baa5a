"""Every figure of the book, by key (the static widget's ``data-key``).

Figures call the math modules; the math never imports them.
"""

from . import renyi

FIGURES = {**renyi.FIGURES}

__all__ = ["FIGURES"]
