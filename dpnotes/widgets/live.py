"""Live Jupyter rendering: ipywidgets sliders redrawing a reused matplotlib figure.

The curves at each slider position are read from the figure's shipped table (the static
page's data, see :mod:`dpnotes.widgets.figure_tables`); without a current table they are
computed.
"""

import ipywidgets as widgets

from .figure_tables import load_table
from .mpl import MplCanvas

__all__ = ["LiveFigure"]


class LiveFigure:
    """Sliders over the spec's values and an image updated in place on every change.

    ``table`` is the figure's :class:`~dpnotes.widgets.figure_tables.FigureTable`; by default
    the shipped one if current, ``False`` to compute every position.
    """

    def __init__(self, fig, table=None):
        self.fig = fig
        self.params = dict(fig.defaults)
        self.table = load_table(fig) if table is None else (table or None)
        self.canvas = MplCanvas(fig, self.params, table=self.table)
        self.sliders = {s.name: self._slider(s) for s in fig.sliders}
        self.image = widgets.Image(value=self.canvas.png(), format="png")
        self.readout = widgets.HTML(self._readout())
        for w in self.sliders.values():
            w.observe(self._changed, names="value")
        self.widget = widgets.VBox([widgets.HBox(list(self.sliders.values())), self.readout, self.image])

    def _slider(self, s):
        """A slider over exactly the spec's values (the grid the static page offers too)."""
        return widgets.SelectionSlider(
            options=[(s.format(v), v) for v in s.values], value=s.default, description=s.label,
            continuous_update=True, style={"description_width": "initial"}, layout=widgets.Layout(width="22em"),
        )

    def _readout(self):
        return ", ".join(f"{s.label} = {s.format(self.params[s.name])}" for s in self.fig.sliders)

    def _changed(self, change):
        name = next(k for k, w in self.sliders.items() if w is change["owner"])
        self.set(**{name: change["new"]})

    def set(self, **params):
        """Move to new slider values and redraw in place; returns the traces drawn."""
        self.params.update(params)
        traces = self.canvas.update(self.params)
        self.image.value = self.canvas.png()
        self.readout.value = self._readout()
        return traces

    def _repr_mimebundle_(self, include=None, exclude=None):
        own = getattr(self.widget, "_repr_mimebundle_", None)
        if own is not None:  # ipywidgets 8
            return own(include=include, exclude=exclude)
        # ipywidgets 7 (Colab's) has no _repr_mimebundle_: the bundle its _ipython_display_ sends
        return {
            "text/plain": repr(self.widget),
            "application/vnd.jupyter.widget-view+json": {
                "version_major": 2, "version_minor": 0, "model_id": self.widget.model_id,
            },
        }
