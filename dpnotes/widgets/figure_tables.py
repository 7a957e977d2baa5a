"""Every slider position of a figure, precomputed: what a live slider reads instead of computing.

The static page embeds each figure's curves at every slider position, computed at build
time (:func:`dpnotes.widgets.static_html.payload`, float32). The same data, in the same
precision, ships with the package as one table per figure,
``dpnotes/data/figure_tables/<key>.npz``, written by ``tools/figure_tables.py`` (the package
never writes it). A live figure looks each slider position up in its table, so a move costs
an index computation instead of the figure's mathematics, and the live image draws exactly
the numbers of the static page.

A table is used only if its :func:`fingerprint` equals the figure's: the fingerprint covers
what decides the table's content and can be read without computing (the key, the slider
grids and defaults, the axis settings that set the display ranges, and the source of the
figure's function). A stale or missing table is ignored and the live figure computes with
:meth:`~dpnotes.widgets.spec.Figure.traces`, correct but slower. Changes in the mathematics
below a figure's function are not in the fingerprint: the tests compare every shipped table
with the curves recomputed (``tests/test_figure_tables.py``, ``tests/test_widgets.py``).
"""

import base64
import hashlib
import inspect
import json
from importlib import resources

import numpy as np

from .spec import Trace, grid_key

__all__ = ["FORMAT", "FigureTable", "fingerprint", "grid_key", "load_table", "table_arrays", "table_name"]

#: Version of the table layout; part of every fingerprint (2: slider values rounded by grid_key).
FORMAT = 2


def table_name(fig):
    """File name of ``fig``'s table inside ``dpnotes/data/figure_tables``."""
    return f"{fig.key}.npz"


def fingerprint(fig):
    """Hex SHA-256 of what decides ``fig``'s table without computing it, or None.

    Covers :data:`FORMAT`, the key, each slider's name, grid and default, ``x_log``,
    ``y_log`` and ``y_range`` (the display ranges depend on them) and the source text of
    ``fig.compute``. None if that source cannot be read (then no table is trusted).
    """
    try:
        source = inspect.getsource(fig.compute)
    except (OSError, TypeError):
        return None
    spec = {
        "format": FORMAT,
        "key": fig.key,
        "sliders": [[s.name, [_number(v) for v in s.values], _number(s.default)] for s in fig.sliders],
        "x_log": bool(fig.x_log),
        "y_log": bool(fig.y_log),
        "y_range": None if fig.y_range is None else [float(v) for v in fig.y_range],
        "compute": f"{fig.compute.__module__}.{fig.compute.__qualname__}",
        "source": source,
    }
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode("utf-8")).hexdigest()


def _number(v):
    """``v`` for JSON: an integer stays an integer (a figure may treat ``3`` and ``3.0`` apart), a
    float is rounded as a table key (:func:`grid_key`)."""
    return int(v) if isinstance(v, (int, np.integer)) and not isinstance(v, bool) else grid_key(v)



def table_arrays(fig, data):
    """The arrays of ``fig``'s table from its static payload ``data`` (for ``numpy.savez_compressed``).

    ``data`` is :func:`dpnotes.widgets.static_html.payload` of ``fig``: its float32 arrays are
    stored as they are, so a table holds the static page's numbers bit for bit.

    Returns
    -------
    dict
        ``values`` (every distinct array, concatenated, float32), ``offsets`` (int64, array
        ``i`` is ``values[offsets[i]:offsets[i + 1]]``), ``frames`` (int32, shape (positions,
        traces, 2): the x and y array of each trace at each position, positions in the
        row-major order of the slider grids) and ``meta`` (a JSON string: fingerprint, trace
        styles, display ranges, slider grids).
    """
    if data["key"] != fig.key:
        raise ValueError(f"data: payload of figure {data['key']!r}, not of {fig.key!r}")
    arrays = [np.frombuffer(base64.b64decode(a), dtype="<f4") for a in data["arrays"]]
    offsets = np.concatenate([[0], np.cumsum([len(a) for a in arrays])]).astype(np.int64)
    values = np.concatenate(arrays) if arrays else np.zeros(0, "<f4")
    meta = {
        "fingerprint": fingerprint(fig),
        "traces": data["traces"],
        "ranges": [data["xRange"], data["yRange"]],
        "sliders": [[s["name"], s["values"]] for s in data["sliders"]],
    }
    return {
        "values": values.astype("<f4"),
        "offsets": offsets,
        "frames": np.asarray(data["frames"], dtype=np.int32).reshape(len(data["frames"]), len(data["traces"]), 2),
        "meta": np.array(json.dumps(meta, sort_keys=True)),
    }


class FigureTable:
    """A figure's curves at every slider position, read from its shipped table.

    Attributes
    ----------
    ranges : tuple
        The display ranges ``((x0, x1), (y0, y1))``, as :meth:`Figure.display_ranges` gives.
    styles : list of dict
        Name, dash, mode and colour of each trace.
    """

    def __init__(self, arrays):
        meta = json.loads(str(arrays["meta"]))
        self.fingerprint = meta["fingerprint"]
        self.styles = meta["traces"]
        self.ranges = tuple(tuple(float(v) for v in r) for r in meta["ranges"])
        self._names = [name for name, _ in meta["sliders"]]
        self._index = [{grid_key(v): i for i, v in enumerate(values)} for _, values in meta["sliders"]]
        self._shape = [len(values) for _, values in meta["sliders"]]
        values = np.asarray(arrays["values"], dtype=np.float64)  # exact: every float32 is a float64
        offsets = arrays["offsets"]
        self._arrays = [values[offsets[i]:offsets[i + 1]] for i in range(len(offsets) - 1)]
        for a in self._arrays:
            a.flags.writeable = False
        self._frames = np.asarray(arrays["frames"])
        if self._frames.shape != (int(np.prod(self._shape)), len(self.styles), 2):
            raise ValueError(f"table: frames of shape {self._frames.shape} do not match the slider grids")

    def traces(self, params):
        """The traces at slider values ``params`` (a dict by slider name), or None if any value is off the grid."""
        flat = 0
        for name, index, n in zip(self._names, self._index, self._shape):
            i = index.get(grid_key(params[name])) if name in params else None
            if i is None:
                return None
            flat = flat * n + i
        return [Trace(s["name"], self._arrays[xi], self._arrays[yi], s["dash"], s["mode"], s["color"])
                for s, (xi, yi) in zip(self.styles, self._frames[flat])]


def load_table(fig):
    """``fig``'s shipped :class:`FigureTable` if it exists and its fingerprint is ``fig``'s, else None."""
    expected = fingerprint(fig)
    if expected is None:
        return None
    path = resources.files("dpnotes").joinpath("data", "figure_tables", table_name(fig))
    if not path.is_file():
        return None
    with path.open("rb") as f, np.load(f, allow_pickle=False) as npz:
        arrays = {name: npz[name] for name in ("values", "offsets", "frames", "meta")}
    table = FigureTable(arrays)
    return table if table.fingerprint == expected else None
