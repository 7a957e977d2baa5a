"""Live Jupyter rendering: ipywidgets sliders redrawing a reused matplotlib figure."""

import ipywidgets as widgets

from .mpl import MplCanvas

__all__ = ["LiveFigure"]


class LiveFigure:
    """Sliders over the spec's values and an image updated in place on every change."""

    def __init__(self, fig):
        self.fig = fig
        self.params = dict(fig.defaults)
        self.canvas = MplCanvas(fig, self.params)
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
        """Recompute at new slider values and redraw in place; returns the traces."""
        self.params.update(params)
        traces = self.canvas.update(self.params)
        self.image.value = self.canvas.png()
        self.readout.value = self._readout()
        return traces

    def _repr_mimebundle_(self, include=None, exclude=None):
        return self.widget._repr_mimebundle_(include=include, exclude=exclude)
