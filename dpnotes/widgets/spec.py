"""One definition per figure: a pure function of slider values to curves.

A :class:`Figure` holds the function and its :class:`Slider` specs; the three
renderings (live ipywidgets, precomputed static HTML, PNG) all call the same
function, so no plotting code is written per output format.
"""

from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np

__all__ = ["PALETTE", "Slider", "Trace", "Figure", "trace_colors"]

#: Trace colours in order, for traces without their own (every renderer uses these)
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f")


def trace_colors(traces):
    """Each trace's colour: its own, else the palette in order."""
    return [t.color or PALETTE[i % len(PALETTE)] for i, t in enumerate(traces)]



def grid_key(v):
    """A slider value as a grid position: rounded to 12 significant digits.

    Slider grids are built by numpy (``geomspace``, ``linspace``), whose last bit differs between
    numpy releases (1.26 and 2.x); a position that kept every bit would make the shipped tables
    stale, or unreadable, on the other release. Grid values are far more than 1e-12 apart relatively.
    """
    return float(f"{float(v):.12g}")

@dataclass(frozen=True)
class Slider:
    """A named parameter with the finite grid of values the static site offers.

    The live widget and the static page both offer exactly ``values`` (the live
    figure reads them from the table the static page's data ships in, see
    :mod:`dpnotes.widgets.figure_tables`). ``log`` marks a logarithmic grid.
    """

    name: str
    label: str
    values: tuple
    default: float
    log: bool = False
    fmt: str = ".3g"

    @classmethod
    def linear(cls, name, label, low, high, step, default, fmt=".3g"):
        n = int(round((high - low) / step)) + 1
        values = tuple(float(v) for v in np.round(np.linspace(low, high, n), 12))
        return cls(name, label, values, float(default), False, fmt)

    @classmethod
    def logspace(cls, name, label, low, high, n, default, fmt=".3g"):
        # the default joins the grid; a grid value equal to it up to numpy's last bit (geomspace
        # differs between releases) is the same position, so the grid is the same on every release
        by_key = {grid_key(v): float(v) for v in np.geomspace(low, high, n)}
        by_key[grid_key(default)] = float(default)
        return cls(name, label, tuple(sorted(by_key.values())), float(default), True, fmt)

    def __post_init__(self):
        if self.default not in self.values:
            raise ValueError(f"slider {self.name}: default {self.default} is not on its grid")
        if list(self.values) != sorted(self.values):
            raise ValueError(f"slider {self.name}: values must increase")

    @property
    def low(self):
        return self.values[0]

    @property
    def high(self):
        return self.values[-1]

    def format(self, value):
        return format(value, self.fmt)


@dataclass(frozen=True)
class Trace:
    """One curve of a figure: ``x`` and ``y`` arrays plus its style."""

    name: str
    x: np.ndarray
    y: np.ndarray
    dash: str = "solid"  # solid | dash | dot
    mode: str = "lines"  # lines | markers
    color: str | None = None


@dataclass
class Figure:
    """A parameterised figure.

    ``compute(**params)`` returns a list of :class:`Trace` with the same names
    and styles for every slider position (only the data move).
    """

    key: str
    title: str
    compute: Callable[..., Sequence[Trace]]
    sliders: Sequence[Slider]
    x_label: str
    y_label: str
    x_log: bool = False
    y_log: bool = False
    y_range: tuple | None = None
    caption: str = ""
    claims: tuple = ()  # IDs of the claims (dpnotes/data/claims.toml) the figure shows
    defaults: dict = field(init=False)
    _ranges: tuple | None = field(init=False, default=None, repr=False, compare=False)

    def __post_init__(self):
        if len(self.sliders) > 2:
            raise ValueError(f"figure {self.key}: at most two sliders (data budget)")
        self.defaults = {s.name: s.default for s in self.sliders}

    def display_ranges(self):
        """The (x, y) ranges every renderer draws: :meth:`axis_ranges` with a margin.

        A linear axis gets 5% of its span on each side; a logarithmic y axis a factor
        1.3, a logarithmic x axis none. Computed once per figure.
        """
        if self._ranges is None:
            (x0, x1), (y0, y1) = self.axis_ranges()
            self._ranges = (_padded(x0, x1, self.x_log, 1.0), _padded(y0, y1, self.y_log, 1.3))
        return self._ranges

    def axis_ranges(self):
        """Fixed (x, y) data ranges over the slider corners and defaults.

        Axes that stay put let a reader see curves move; ``y_range`` overrides.
        """
        import itertools

        corners = itertools.product(*[(s.low, s.default, s.high) for s in self.sliders])
        xs, ys = [], []
        for combo in corners:
            for t in self.traces(**dict(zip((s.name for s in self.sliders), combo))):
                xs.append(np.asarray(t.x, float))
                ys.append(np.asarray(t.y, float))
        x, y = np.concatenate(xs), np.concatenate(ys)
        if self.y_log:
            y = y[y > 0]
        x_range = (float(np.min(x)), float(np.max(x)))
        y_range = self.y_range or (float(np.min(y)), float(np.max(y)))
        return x_range, y_range

    def traces(self, **params):
        """Curves at the given slider values (defaults for those not given)."""
        values = {**self.defaults, **params}
        return list(self.compute(**values))

    def _repr_mimebundle_(self, include=None, exclude=None):
        from .display import mimebundle

        return mimebundle(self, "live")


def _padded(lo, hi, log, factor):
    if log:
        return lo / factor, hi * factor
    pad = 0.05 * (hi - lo or 1.0)
    return lo - pad, hi + pad
