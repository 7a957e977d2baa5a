"""Helpers shared by the figure tests: every slider position of a figure, and a trace by the start of its name."""

import itertools

import numpy as np

from dpnotes.figures import FIGURES


def slider_values(figure):
    """Yield the slider values {name: value} of every slider position of a figure (or its key)."""
    fig = FIGURES[figure] if isinstance(figure, str) else figure
    names = [s.name for s in fig.sliders]
    for combo in itertools.product(*[s.values for s in fig.sliders]):
        yield dict(zip(names, combo))


def positions(figure):
    """Yield (slider values, {trace name: Trace}) for every slider position of a figure (or its key)."""
    fig = FIGURES[figure] if isinstance(figure, str) else figure
    for params in slider_values(fig):
        yield params, {t.name: t for t in fig.traces(**params)}


def trace(traces, prefix):
    """The one trace whose name starts with ``prefix``."""
    (match,) = [t for name, t in traces.items() if name.startswith(prefix)]
    return match


def trace_y(traces, prefix):
    """The y-values of the one trace whose name starts with ``prefix``."""
    return np.asarray(trace(traces, prefix).y, float)
