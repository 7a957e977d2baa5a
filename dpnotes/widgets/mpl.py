"""Matplotlib rendering of a figure: the live widget's canvas and the PNG for print."""

import io
import re

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure as MplFigure
from PIL import Image

from .spec import trace_colors

_DASH = {"solid": "-", "dash": "--", "dot": ":"}


def mpl_text(text):
    """Plotly-style ``<sub>``/``<sup>`` markup as matplotlib mathtext."""
    text = re.sub(r"<sub>(.*?)</sub>", r"$_{\1}$", text)
    return re.sub(r"<sup>(.*?)</sup>", r"$^{\1}$", text)


class MplCanvas:
    """A matplotlib figure whose lines are updated in place.

    With a :class:`~dpnotes.widgets.figure_tables.FigureTable` (``table``) the curves and the
    display ranges are read from it at the slider positions it holds; otherwise they are
    computed by ``fig``.
    """

    def __init__(self, fig, params, width=6.4, height=4.4, dpi=100, table=None):
        self.fig = fig
        self.table = table
        traces = self.traces(params)
        # a bare Figure on its own Agg canvas: not registered with pyplot, freed with this object
        self.figure = MplFigure(figsize=(width, height), dpi=dpi)
        FigureCanvasAgg(self.figure)
        self.ax = self.figure.add_subplot()
        self.lines = []
        for trace, color in zip(traces, trace_colors(traces)):
            if trace.mode == "markers":
                (line,) = self.ax.plot(trace.x, trace.y, "o", color=color, label=mpl_text(trace.name), ms=5)
            else:
                (line,) = self.ax.plot(trace.x, trace.y, _DASH[trace.dash], color=color, label=mpl_text(trace.name), lw=1.8)
            self.lines.append(line)
        ax = self.ax
        ax.set_xlabel(mpl_text(fig.x_label))
        ax.set_ylabel(mpl_text(fig.y_label))
        ax.set_title(mpl_text(fig.title), fontsize=11)
        if fig.x_log:
            ax.set_xscale("log")
        if fig.y_log:
            ax.set_yscale("log")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
        x_range, y_range = table.ranges if table is not None else fig.display_ranges()
        ax.set_xlim(*x_range)
        ax.set_ylim(*y_range)
        self.figure.tight_layout()
        self._background = None

    def traces(self, params):
        """The curves at ``params``: from the table if it holds them, else computed."""
        traces = self.table.traces(params) if self.table is not None else None
        return traces if traces is not None else self.fig.traces(**params)

    def update(self, params):
        """New data for every line; the axes (fixed ranges) are not redrawn."""
        traces = self.traces(params)
        for line, trace in zip(self.lines, traces):
            line.set_data(trace.x, trace.y)
        return traces

    def png(self):
        """The current figure as PNG bytes (static parts drawn once, then blitted)."""
        canvas = self.figure.canvas
        if self._background is None:
            for line in self.lines:
                line.set_visible(False)
            canvas.draw()
            self._background = canvas.copy_from_bbox(self.figure.bbox)
            for line in self.lines:
                line.set_visible(True)
        canvas.restore_region(self._background)
        for line in self.lines:
            self.ax.draw_artist(line)
        rgba = np.asarray(canvas.buffer_rgba())
        buf = io.BytesIO()
        Image.fromarray(rgba).save(buf, format="png", compress_level=1)
        return buf.getvalue()

    def close(self):
        self.figure.clear()


def render_png(fig, params=None):
    """PNG bytes of ``fig`` at ``params`` (defaults if None), for print and PDF."""
    canvas = MplCanvas(fig, params or fig.defaults)
    try:
        buf = io.BytesIO()
        canvas.figure.savefig(buf, format="png", metadata={"Software": None})
        return buf.getvalue()
    finally:
        canvas.close()
