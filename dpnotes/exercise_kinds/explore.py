"""Exercises answered by moving a figure's sliders, checked like a numeric answer.

The spec names the figure and the slider settings the question asks for; its ``answer``
reads the value off the figure's own function (:func:`figure_value`), so the checked number
is what the reader sees. Validation checks that the settings are positions of the static
site's sliders.
"""

from dataclasses import dataclass
from typing import ClassVar, Mapping

import numpy as np

from .numeric import Numeric

__all__ = ["Explore", "figure_value"]


def figure_value(figure, sliders, trace, x=None):
    """The y value of the trace whose name starts with ``trace`` (at ``x``, or at its last point).

    Reads the figure's own function (``dpnotes.figures``), so the value is the one plotted.
    """
    from ..figures import FIGURES  # the figures layer sits below the exercises

    for t in FIGURES[figure].traces(**sliders):
        if t.name.startswith(trace):
            xs, ys = np.asarray(t.x, float), np.asarray(t.y, float)
            if x is None:
                return float(ys[-1])
            hit = np.flatnonzero(np.isclose(xs, x, rtol=1e-9))
            if hit.size == 0:
                raise ValueError(f"trace {t.name!r} of {figure} has no point at x = {x}")
            return float(ys[hit[0]])
    raise ValueError(f"figure {figure} has no trace starting with {trace!r}")


@dataclass(frozen=True, kw_only=True)
class Explore(Numeric):
    """A numeric answer read off figure ``figure`` at the slider settings ``sliders``.

    Checked like a :class:`~dpnotes.exercise_kinds.Numeric` answer at ``sig_figs`` significant
    figures (3 by default, as the prompt says: a figure's hover label shows at least that many).
    """

    kind: ClassVar[str] = "explore"

    figure: str
    sliders: Mapping

    def __post_init__(self, *tolerances):
        super().__post_init__(*tolerances)
        if not isinstance(self.figure, str) or not self.figure:
            raise ValueError(f"{self.key}: figure must be a figure key")
        if not isinstance(self.sliders, Mapping) or not self.sliders:
            raise ValueError(f"{self.key}: sliders must map slider names to the positions the question asks for")
        object.__setattr__(self, "sliders", dict(self.sliders))

    def validate(self):
        """Also raise ``ValueError`` unless every setting is a position of the figure's slider."""
        from ..figures import FIGURES

        if self.figure not in FIGURES:
            raise ValueError(f"{self.key}: no figure {self.figure!r}")
        specs = {s.name: s for s in FIGURES[self.figure].sliders}
        for name, value in self.sliders.items():
            if name not in specs:
                raise ValueError(f"{self.key}: figure {self.figure} has no slider {name!r} (it has {sorted(specs)})")
            if not np.any(np.isclose(specs[name].values, value, rtol=1e-9)):
                raise ValueError(f"{self.key}: {name} = {value} is not a position of the slider "
                                 f"(positions: {specs[name].values})")
        super().validate()
