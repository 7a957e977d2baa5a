"""Static-site rendering: every slider position computed at build time and embedded.

The page holds native ``<input type="range">`` sliders and a JSON block of
float32 curves (base64, x-grids shared); ``dpnotes-widget.js`` redraws the plot
from that data on the slider's ``input`` event, with no kernel.
"""

import base64
import html
import itertools
import json
import re

import numpy as np

from .spec import trace_colors

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

    ranges = fig.display_ranges()
    frames, styles = [], None
    for combo in itertools.product(*grids) if grids else [()]:
        params = {s.name: v for s, v in zip(sliders, combo)}
        traces = fig.traces(**params)
        if styles is None:
            styles = [
                {"name": t.name, "dash": t.dash, "mode": t.mode, "color": c}
                for t, c in zip(traces, trace_colors(traces))
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
_RICH_TAGS = re.compile(r"&lt;(/?)(sub|sup)&gt;")
_DASHES = {"solid": "", "dash": "6 4", "dot": "2 3"}


def _rich(text):
    """``text`` escaped for HTML, keeping only the ``<sub>``/``<sup>`` markup that labels use."""
    return _RICH_TAGS.sub(r"<\1\2>", html.escape(text))


def _swatch(i, style):
    """A small inline SVG of trace ``i``'s line or marker (its colour is set by the script)."""
    if style["mode"] == "markers":
        mark = f'<circle cx="14" cy="6" r="4" fill="{style["color"]}" data-trace="{i}"/>'
    else:
        dash = _DASHES.get(style["dash"], "")
        dash = f' stroke-dasharray="{dash}"' if dash else ""
        mark = (f'<line x1="1" y1="6" x2="27" y2="6" stroke="{style["color"]}" stroke-width="2.5"'
                f'{dash} data-trace="{i}"/>')
    return f'<svg class="dpnotes-swatch" width="28" height="12" aria-hidden="true" focusable="false">{mark}</svg>'


def render_html(fig, data=None):
    """The ``<div class="dpnotes-widget">`` for the static site.

    Title and legend are HTML, so they wrap on a narrow screen; the plot region is an
    image labelled by the title and the current slider values; on paper the sliders
    give way to those values. ``data`` is :func:`payload` of ``fig`` if already computed.
    """
    data_obj = payload(fig) if data is None else data
    data = json.dumps(data_obj, separators=(",", ":"), allow_nan=False)
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
            f'<span class="dpnotes-value" aria-hidden="true">{s.format(s.default)}</span></div>'
        )
    legend = "".join(f"<li>{_swatch(i, style)}<span>{_rich(style['name'])}</span></li>"
                     for i, style in enumerate(data_obj["traces"]))
    readout = ", ".join(f"{s.label} = {s.format(s.default)}" for s in fig.sliders)
    safe_data = data.replace("</", "<\\/")
    caption = f'<p class="dpnotes-caption">{html.escape(fig.caption)}</p>' if fig.caption else ""
    return (
        f'<div class="dpnotes-widget" id="{uid}" data-key="{html.escape(fig.key)}">'
        f'<p class="dpnotes-title" id="{uid}-title">{_rich(fig.title)}</p>'
        f'<div class="dpnotes-controls">{"".join(controls)}</div>'
        f'<div class="dpnotes-plot" role="img" aria-labelledby="{uid}-title {uid}-readout"></div>'
        f'<ul class="dpnotes-legend" aria-label="Legend">{legend}</ul>'
        f'<output class="dpnotes-readout" id="{uid}-readout" aria-live="polite">{html.escape(readout)}</output>'
        f"{caption}"
        f'<script type="application/json" class="dpnotes-data">{safe_data}</script>'
        f"</div>"
    )
