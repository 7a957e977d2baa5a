"""The widget layer: one figure definition, three renderings that agree."""

import base64
import html as html_lib
import json
import re
import textwrap

import numpy as np
import pytest

from dpnotes.figures import FIGURES
from dpnotes.widgets import Figure, Slider, Trace, mimebundle
from dpnotes.widgets.live import LiveFigure
from dpnotes.widgets.mpl import render_png
from dpnotes.widgets.static_html import FIGURE_BUDGET_BYTES, payload, render_html


def _decode(b64):
    return np.frombuffer(base64.b64decode(b64), dtype="<f4").astype(float)


@pytest.mark.parametrize("key", sorted(FIGURES))
def test_static_payload_equals_the_figure_function(key, figure_payload):
    fig = FIGURES[key]
    data = figure_payload(key)
    arrays = [_decode(a) for a in data["arrays"]]
    grids = [s["values"] for s in data["sliders"]]
    rng = np.random.default_rng(1)
    for _ in range(10):
        idx = [int(rng.integers(len(g))) for g in grids]
        flat = 0
        for j, g in enumerate(grids):
            flat = flat * len(g) + idx[j]
        params = {s["name"]: g[i] for s, g, i in zip(data["sliders"], grids, idx)}
        for (xi, yi), trace in zip(data["frames"][flat], fig.traces(**params)):
            np.testing.assert_allclose(arrays[xi], trace.x, rtol=1e-6)
            np.testing.assert_allclose(arrays[yi], trace.y, rtol=1e-6)


@pytest.mark.parametrize("key", sorted(FIGURES))
def test_static_html_is_accessible_and_within_budget(key, figure_payload):
    html = render_html(FIGURES[key], figure_payload(key))
    assert html.startswith('<div class="dpnotes-widget"')
    n_sliders = len(FIGURES[key].sliders)
    assert len(re.findall(r'<input type="range"', html)) == n_sliders
    assert len(re.findall(r"<label for=", html)) == n_sliders
    data = re.search(r'<script type="application/json" class="dpnotes-data">(.*?)</script>', html).group(1)
    assert len(data) <= FIGURE_BUDGET_BYTES
    json.loads(data.replace("<\\/", "</"))
    # the plot is one image, named once by the title and the slider values, holding no control
    uid = re.match(r'<div class="dpnotes-widget" id="([^"]+)"', html).group(1)
    plot = re.search(r'<div class="dpnotes-plot" ([^>]*)></div>', html).group(1)
    assert plot == f'role="img" aria-labelledby="{uid}-title {uid}-readout"'
    assert html.count('role="img"') == 1 and html.count("aria-label=") == 1  # the legend's
    # the title and legend are HTML: only <sub>/<sup> survive from the labels' markup
    title = re.search(r'<p class="dpnotes-title" id="[^"]+">(.*?)</p>', html).group(1)
    assert re.sub(r"</?su[bp]>", "", title) == html_lib.escape(re.sub(r"</?su[bp]>", "", FIGURES[key].title))
    assert html.count("<li>") == len(FIGURES[key].traces())


def test_budget_is_enforced():
    big = Figure("big", "t", lambda n: [Trace("y", np.arange(5000.0), np.full(5000, n))],
                 [Slider.linear("n", "n", 1, 50, 1, 1)], "x", "y")
    with pytest.raises(ValueError, match="budget"):
        render_html(big)


def test_at_most_two_sliders_and_defaults_on_grid():
    s = [Slider.linear(c, c, 0, 1, 0.5, 0) for c in "abc"]
    with pytest.raises(ValueError, match="two sliders"):
        Figure("f", "t", lambda **k: [], s, "x", "y")
    with pytest.raises(ValueError, match="grid"):
        Slider("a", "a", (0.0, 1.0), 0.5)


@pytest.mark.parametrize("key", sorted(FIGURES))
def test_every_slider_position_is_valid(key, figure_payload):
    # sliders never offer a value that raises: all positions compute finite curves
    data = figure_payload(key)  # computes every position; raises on non-finite data
    assert len(data["frames"]) == np.prod([len(s.values) for s in FIGURES[key].sliders])


@pytest.mark.parametrize("key", sorted(FIGURES))
def test_png_for_print(key):
    png = render_png(FIGURES[key])
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000


@pytest.mark.parametrize("key", sorted(FIGURES))
def test_live_figure_updates_in_place(key):
    fig = FIGURES[key]
    live = LiveFigure(fig)
    image_before, lines = live.image.value, live.canvas.lines
    for s in fig.sliders:
        target = s.values[1] if s.default != s.values[1] else s.values[-1]
        live.sliders[s.name].value = target  # as a reader moving the slider
        assert live.params[s.name] == pytest.approx(target)
    assert live.canvas.lines is lines  # same artists: updated, not recreated
    assert live.image.value != image_before
    # the live figure draws the shipped table: the static page's float32 numbers of the exact curves
    for line, trace in zip(live.canvas.lines, fig.traces(**live.params), strict=True):
        y = line.get_ydata()
        np.testing.assert_array_equal(y, y.astype("<f4"))
        np.testing.assert_allclose(y, trace.y, rtol=1.2e-7, atol=0)


#: one figure of each figures module, the quick ones: in a kernel it is the widget plumbing that is
#: tested; every figure's live update is tested in process above
KERNEL_SAMPLE = ["renyi-gaussian", "composition-laplace-queries", "conversion-gaussian", "hypothesis-tradeoff",
                 "subsampling-rdp", "iteration-contraction", "convolution-discrete", "noise-rdp-curves",
                 "learning-theta-record", "foundations-tradeoff"]


def test_live_widgets_in_a_kernel():
    """Drive live widgets in a real kernel: set slider values, read the figure's data."""
    from jupyter_client.manager import start_new_kernel

    km, kc = start_new_kernel(kernel_name="python3")
    try:
        code = textwrap.dedent("""
            import numpy as np
            from dpnotes.figures import FIGURES
            from dpnotes.widgets.live import LiveFigure
            report = {}
            for key in KEYS:
                fig = FIGURES[key]
                live = LiveFigure(fig)
                before = [l.get_ydata().copy() for l in live.canvas.lines]
                png = live.image.value
                for s in fig.sliders:
                    live.sliders[s.name].value = s.high
                after = [l.get_ydata() for l in live.canvas.lines]
                expected = [t.y for t in fig.traces(**live.params)]
                report[key] = (any(not np.allclose(a, b) for a, b in zip(before, after)),
                               all(np.allclose(a, e, rtol=1.2e-7, atol=0) for a, e in zip(after, expected)),
                               live.image.value != png)
            print(report)
        """).replace("KEYS", repr(KERNEL_SAMPLE))
        kc.execute_interactive(code, timeout=120, output_hook=_collect)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
    report = eval(_OUT[-1])  # noqa: S307 (our own kernel's repr of a dict of bools)
    assert set(report) == set(KERNEL_SAMPLE) <= set(FIGURES)
    for key, (changed, equal, redrawn) in report.items():
        assert changed and equal and redrawn, key


_OUT = []


def _collect(msg):
    if msg["msg_type"] == "stream":
        _OUT.append(msg["content"]["text"])
    elif msg["msg_type"] == "error":
        raise AssertionError("\n".join(msg["content"]["traceback"]))


@pytest.mark.parametrize("key", sorted(FIGURES))
def test_live_sliders_offer_exactly_the_spec_values(key):
    """The spec is authoritative: a live slider takes the static page's values and no others
    (an integer order stays an integer)."""
    fig = FIGURES[key]
    live = LiveFigure(fig)
    for s in fig.sliders:
        widget = live.sliders[s.name]
        assert [v for _, v in widget.options] == list(s.values)
        assert widget.value == s.default


def _execute_figure_notebook():
    """Run a two-cell notebook showing one figure the way the book build does (jupyter-cache's
    executor, as myst-nb calls it, in a fresh kernel); returns the display outputs."""
    import nbformat
    from jupyter_cache.executors.utils import single_nb_execution

    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                           "language": "python"}})
    nb.cells = [nbformat.v4.new_code_cell("from dpnotes.figures import FIGURES\nfrom dpnotes.widgets import show"),
                nbformat.v4.new_code_cell('show(FIGURES["renyi-rr"])\nFIGURES["renyi-rr"]')]
    result = single_nb_execution(nb, cwd=None, timeout=120, allow_errors=False)
    assert result.err is None, result.exc_string
    return [out for out in nb.cells[1].outputs if out.output_type in {"display_data", "execute_result"}]


def test_the_book_builds_kernels_show_static_figures(monkeypatch):
    """The mode is chosen explicitly: the build's extension makes its kernels register the static
    display (book/_ext/static_kernel.py via PYTHONSTARTUP). Any other kernel shows live widgets
    (``test_live_widgets_in_a_kernel``; ``Figure._repr_mimebundle_`` is the live bundle, below)."""
    import importlib.util
    from pathlib import Path
    from unittest import mock

    path = Path(__file__).resolve().parents[1] / "book" / "_ext" / "dpnotes_sphinx.py"
    spec = importlib.util.spec_from_file_location("dpnotes_sphinx", path)
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    monkeypatch.setenv("PYTHONSTARTUP", "")  # restored after the test; the extension sets it as the build does
    ext.setup(mock.MagicMock())
    static = _execute_figure_notebook()
    assert len(static) == 2  # show(fig) and the cell's value
    for out in static:
        assert out.data["text/html"].startswith('<div class="dpnotes-widget"') and 'data-key="renyi-rr"' in out.data["text/html"]
        assert base64.b64decode(out.data["image/png"])[:8] == b"\x89PNG\r\n\x1a\n"
        assert "application/vnd.jupyter.widget-view+json" not in out.data


def test_mimebundle_takes_the_mode_explicitly():
    fig = FIGURES["renyi-rr"]
    with pytest.raises(ValueError, match="mode"):
        mimebundle(fig, "print")
    assert mimebundle(fig, "static")["text/html"].startswith('<div class="dpnotes-widget"')
    assert "application/vnd.jupyter.widget-view+json" in mimebundle(fig, "live")
    assert "application/vnd.jupyter.widget-view+json" in fig._repr_mimebundle_()


def test_live_bundle_without_ipywidgets_8_repr():
    """ipywidgets 7 (Colab ships 7.7) has no ``Widget._repr_mimebundle_``: the live figure builds the
    widget-view bundle that ipywidgets 7's own ``_ipython_display_`` sends (protocol version 2.0)."""
    live = LiveFigure(FIGURES[next(iter(FIGURES))])

    class Widget7:  # the part of an ipywidgets 7 widget the bundle reads
        model_id = live.widget.model_id

        def __repr__(self):
            return "VBox(...)"

    live.widget = Widget7()
    bundle = live._repr_mimebundle_()
    view = bundle["application/vnd.jupyter.widget-view+json"]
    assert view == {"version_major": 2, "version_minor": 0, "model_id": Widget7.model_id}
    assert bundle["text/plain"] == "VBox(...)"
