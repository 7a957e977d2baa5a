"""The shipped figure tables: current, equal to the curves recomputed, and what the live figure draws."""

import base64
import dataclasses
import json
import re
from importlib import resources

import numpy as np
import pytest

from dpnotes.figures import FIGURES
from dpnotes.widgets import Figure, Slider, Trace
from dpnotes.widgets.figure_tables import FigureTable, fingerprint, load_table, table_arrays
from dpnotes.widgets.live import LiveFigure
from conftest import HTML
from figure_positions import slider_values

TABLES = resources.files("dpnotes").joinpath("data", "figure_tables")


def test_every_figure_has_a_current_table_and_no_other_table_ships():
    # the output of tools/figure_tables.py is up to date: every fingerprint is the current spec's
    stale = [key for key, fig in FIGURES.items() if load_table(fig) is None]
    assert not stale, f"stale or missing tables (run `make tables`): {stale}"
    shipped = {p.name for p in TABLES.iterdir() if p.name.endswith(".npz")}
    assert shipped == {f"{key}.npz" for key in FIGURES}


@pytest.mark.parametrize("key", sorted(FIGURES))
def test_table_holds_the_recomputed_curves_at_every_position(key, figure_payload):
    """Every position of the shipped table equals the figure recomputed now (the static page's float32 data).

    ``figure_payload`` is computed from ``fig.traces`` over the whole grid (shared with the widget tests)."""
    fig = FIGURES[key]
    shipped = load_table(fig)
    fresh = FigureTable(table_arrays(fig, figure_payload(key)))
    assert shipped.styles == fresh.styles
    assert shipped.ranges == fresh.ranges
    for params in slider_values(fig):
        for a, b in zip(shipped.traces(params), fresh.traces(params), strict=True):
            assert a.name == b.name
            # bit-identical on the machine that wrote the tables; a last-bit float32 difference elsewhere
            np.testing.assert_allclose(a.x, b.x, rtol=1e-6, atol=0, err_msg=f"{key} {params} {a.name}")
            np.testing.assert_allclose(a.y, b.y, rtol=1e-6, atol=0, err_msg=f"{key} {params} {a.name}")


def test_the_built_pages_draw_the_tables_numbers():
    """Every figure on the built site (``make book``; the static page computed by the build) embeds,
    at every slider position, the numbers of the shipped table: the live and static figures agree."""
    if not (HTML / "index.html").exists():
        pytest.fail("the book is not built: run `make book` first (make test does)")
    seen = set()
    for page in sorted(HTML.rglob("*.html")):
        for block in re.findall(r'class="dpnotes-data">(.*?)</script>', page.read_text(encoding="utf-8"), flags=re.S):
            data = json.loads(block.replace("<\\/", "</"))
            fig = FIGURES[data["key"]]
            shipped, page_table = load_table(fig), FigureTable(table_arrays(fig, data))
            assert shipped.styles == page_table.styles and shipped.ranges == page_table.ranges, fig.key
            for params in slider_values(fig):
                for a, b in zip(shipped.traces(params), page_table.traces(params), strict=True):
                    np.testing.assert_allclose(a.x, b.x, rtol=1e-6, atol=0, err_msg=f"{page.name} {fig.key} {params}")
                    np.testing.assert_allclose(a.y, b.y, rtol=1e-6, atol=0, err_msg=f"{page.name} {fig.key} {params}")
            seen.add(fig.key)
    assert seen, "no figure on the built site"


def test_table_traces_are_the_static_pages_float32_and_close_to_exact():
    # a second route for one figure: its function evaluated now, in float64, next to the shipped float32
    fig = FIGURES["renyi-gaussian"]
    table = load_table(fig)
    params = {s.name: s.values[len(s.values) // 3] for s in fig.sliders}
    exact = fig.traces(**params)
    for t, e in zip(table.traces(params), exact, strict=True):
        assert t.name == e.name and t.dash == e.dash and t.mode == e.mode
        np.testing.assert_array_equal(t.y, t.y.astype("<f4"))  # float32 numbers, as on the static page
        np.testing.assert_allclose(t.y, e.y, rtol=1.2e-7, atol=0)  # within a float32 rounding of exact
    assert not table.traces(params)[0].y.flags.writeable


def test_off_grid_values_are_not_in_the_table():
    fig = FIGURES["renyi-rr"]
    table = load_table(fig)
    (s,) = fig.sliders
    assert table.traces({s.name: (s.values[0] + s.values[1]) / 2}) is None
    assert table.traces({}) is None


def test_a_stale_table_is_never_used():
    fig = FIGURES["renyi-rr"]
    (s,) = fig.sliders
    coarser = dataclasses.replace(fig, sliders=[dataclasses.replace(s, values=s.values[::2] if s.default in s.values[::2]
                                                          else s.values[1::2])])
    assert fingerprint(coarser) != fingerprint(fig) and load_table(coarser) is None
    other_function = dataclasses.replace(fig, compute=lambda **p: fig.compute(**p))
    assert fingerprint(other_function) != fingerprint(fig) and load_table(other_function) is None
    assert load_table(dataclasses.replace(fig, y_range=(0.0, 1.0))) is None
    assert load_table(dataclasses.replace(fig, key="no-such-figure")) is None  # missing: computed, silently


@pytest.mark.parametrize("key", sorted(FIGURES))
def test_a_last_bit_difference_in_the_grid_keeps_the_table(key):
    """numpy 1.26 and 2.x build some grids (geomspace) a last bit apart: the shipped table must still
    load, and answer at the other release's slider values, with the same traces."""
    fig = FIGURES[key]
    ulp = lambda v: v * (1 + 2.0**-52) if isinstance(v, float) else v  # one relative ulp up; 0.0 stays exact
    nudged = dataclasses.replace(fig, sliders=[
        dataclasses.replace(s, values=tuple(ulp(v) for v in s.values), default=ulp(s.default)) for s in fig.sliders])
    table = load_table(nudged)
    assert table is not None and fingerprint(nudged) == fingerprint(fig)
    params = {s.name: s.default for s in nudged.sliders}
    here, there = load_table(fig).traces({s.name: s.default for s in fig.sliders}), table.traces(params)
    assert there is not None and [t.name for t in here] == [t.name for t in there]
    for a, b in zip(here, there):
        np.testing.assert_array_equal(a.y, b.y)


def test_slider_values_stay_distinct_as_table_keys():
    from dpnotes.widgets.figure_tables import grid_key

    for key, fig in FIGURES.items():
        for s in fig.sliders:
            assert len({grid_key(v) for v in s.values}) == len(s.values), (key, s.name)


def test_without_a_table_the_live_figure_computes():
    def line(a):
        return [Trace("y", np.arange(3.0), np.arange(3.0) * a)]

    fig = Figure("no-table", "t", line, [Slider.linear("a", "a", 1, 3, 1, 1)], "x", "y")
    live = LiveFigure(fig)
    assert live.table is None
    live.sliders["a"].value = 3.0
    np.testing.assert_array_equal(live.canvas.lines[0].get_ydata(), [0.0, 3.0, 6.0])


@pytest.mark.parametrize("key", ["dpsgd-sigma", "convolution-laplace", "pld-histogram"])
def test_live_figure_reads_the_table_and_never_computes(key, monkeypatch):
    # three of the slowest figures to compute: shown, and moved to about six grid positions, without computing
    fig = FIGURES[key]
    table = load_table(fig)

    def refuse(**params):
        raise AssertionError(f"{key} computed at {params}")

    monkeypatch.setattr(fig, "compute", refuse)
    live = LiveFigure(fig, table=table)
    grid = list(slider_values(fig))
    for params in grid[:: max(1, len(grid) // 6)]:
        for name, value in params.items():
            live.sliders[name].value = value
        for line, trace in zip(live.canvas.lines, table.traces(live.params)):
            np.testing.assert_array_equal(line.get_ydata(), trace.y)


def test_every_position_of_every_table_is_found():
    # a SelectionSlider offers exactly the spec's values: each must be in the table
    for fig in FIGURES.values():
        table = load_table(fig)
        assert all(table.traces(params) is not None for params in slider_values(fig)), fig.key


def test_table_arrays_rejects_another_figures_payload(figure_payload):
    with pytest.raises(ValueError, match="data"):
        table_arrays(FIGURES["renyi-rr"], figure_payload("renyi-laplace"))


def test_payload_decoding_matches_base64():
    # the table's float32 values are the payload's bytes: the same numbers the static page draws
    from dpnotes.widgets.static_html import payload

    fig = FIGURES["renyi-laplace"]
    data = payload(fig)
    arrays = table_arrays(fig, data)
    first = np.frombuffer(base64.b64decode(data["arrays"][0]), "<f4")
    np.testing.assert_array_equal(arrays["values"][: arrays["offsets"][1]], first)
