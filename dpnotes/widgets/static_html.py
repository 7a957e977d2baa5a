"""Static-site rendering: every slider position computed at build time and embedded.

The page holds native ``<input type="range">`` sliders and a JSON block of
float32 curves (base64, x-grids shared); ``dpnotes-widget.js`` redraws the plot
from that data on the slider's ``input`` event, with no kernel.
"""

import base64
import html
import itertools
import json

import numpy as np

from .mpl import colors

__all__ = ["FIGURE_BUDGET_BYTES", "PAGE_BUDGET_BYTES", "payload", "render_html"]

#: Largest embedded data block per figure, and per page (checked in the build tests).
FIGURE_BUDGET_BYTES = 200_000
PAGE_BUDGET_BYTES = 800_000


def _encode(arr):
    data = np.ascontiguousarray(np.asarray(arr, dtype="<f4"))
    return base64.b64encode(data.tobytes()).decode("ascii")


def payload(fig):
    """The JSON-ready description of ``fig`` with all slider positions computed."""
    sliders = list(fig.sliders)
    grids = [s.values for s in sliders]
    arrays, index = [], {}

    def intern(arr):
        arr = np.asarray(arr, dtype=float)
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"figure {fig.key}: non-finite data cannot be embedded")
        code = _encode(arr)
        if code not in index:
            index[code] = len(arrays)
            arrays.append(code)
        return index[code]

    ranges = fig.axis_ranges()
    frames, styles = [], None
    for combo in itertools.product(*grids) if grids else [()]:
        params = {s.name: v for s, v in zip(sliders, combo)}
        traces = fig.traces(**params)
        if styles is None:
            styles = [
                {"name": t.name, "dash": t.dash, "mode": t.mode, "color": c}
                for t, c in zip(traces, colors(traces))
            ]
        elif [t.name for t in traces] != [s["name"] for s in styles]:
            raise ValueError(f"figure {fig.key}: traces must not change between slider positions")
        frames.append([[intern(t.x), intern(t.y)] for t in traces])
    return {
        "key": fig.key,
        "title": fig.title,
        "xLabel": fig.x_label,
        "yLabel": fig.y_label,
        "xLog": fig.x_log,
        "yLog": fig.y_log,
        "xRange": list(ranges[0]),
        "yRange": list(ranges[1]),
        "sliders": [
            {
                "name": s.name,
                "label": s.label,
                "values": list(s.values),
                "labels": [s.format(v) for v in s.values],
                "index": s.values.index(s.default),
            }
            for s in sliders
        ],
        "traces": styles,
        "arrays": arrays,
        "frames": frames,
    }


_counter = itertools.count()


def render_html(fig):
    """The ``<div class="dpnotes-widget">`` for the static site."""
    data = json.dumps(payload(fig), separators=(",", ":"), allow_nan=False)
    if len(data) > FIGURE_BUDGET_BYTES:
        raise ValueError(
            f"figure {fig.key}: embedded data is {len(data)} bytes, over the budget of "
            f"{FIGURE_BUDGET_BYTES}; use fewer slider positions or a coarser x-grid"
        )
    uid = f"dpw-{fig.key}-{next(_counter)}"
    controls = []
    for j, s in enumerate(fig.sliders):
        i = s.values.index(s.default)
        sid = f"{uid}-s{j}"
        controls.append(
            f'<div class="dpnotes-slider"><label for="{sid}">{html.escape(s.label)}</label>'
            f'<input type="range" id="{sid}" data-slider="{j}" min="0" max="{len(s.values) - 1}" '
            f'step="1" value="{i}" aria-valuetext="{html.escape(s.label)} = {s.format(s.default)}">'
            f'<span class="dpnotes-value">{s.format(s.default)}</span></div>'
        )
    readout = ", ".join(f"{s.label} = {s.format(s.default)}" for s in fig.sliders)
    safe_data = data.replace("</", "<\\/")
    caption = f'<p class="dpnotes-caption">{html.escape(fig.caption)}</p>' if fig.caption else ""
    return (
        f'<div class="dpnotes-widget" id="{uid}" data-key="{html.escape(fig.key)}">'
        f'<div class="dpnotes-controls">{"".join(controls)}</div>'
        f'<output class="dpnotes-readout" aria-live="polite">{html.escape(readout)}</output>'
        f'<div class="dpnotes-plot" role="img" aria-label="{html.escape(fig.title)}"></div>'
        f"{caption}"
        f'<script type="application/json" class="dpnotes-data">{safe_data}</script>'
        f"</div>"
    )
