"""Pure parts of the report: decimation, bucketing, model order, text escaping."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from traindoc.report.downsample import bucket_max, bucket_mean, minmax_indices, spread, step_edges
from traindoc.report.order import module_classes, module_order, sort_modules, sort_params
from traindoc.report.page import doc_html, inline
from traindoc.report.plotkit import label, log_floor, thin, wants_log

floats = st.floats(allow_nan=True, allow_infinity=True, width=64)


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, st.integers(0, 3000), elements=floats), st.integers(2, 500))
def test_minmax_keeps_extremes_ends_and_bounds(values, max_points):
    idx = minmax_indices(values, max_points)
    n = len(values)
    assert np.all(np.diff(idx) > 0) and (n == 0 or (idx[0] == 0 and idx[-1] == n - 1))
    assert len(idx) <= max(n, 0) and (n <= max_points or len(idx) <= max_points + 2)
    fin = np.isfinite(values)
    if fin.any():
        kept = values[idx]
        assert np.nanmax(np.where(np.isfinite(kept), kept, np.nan)) == values[fin].max()
        assert np.nanmin(np.where(np.isfinite(kept), kept, np.nan)) == values[fin].min()


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 50), st.integers(0, 5000), st.integers(1, 700))
def test_step_edges_cover_every_step_once(first, span, cols):
    last = first + span
    e = step_edges(first, last, cols)
    assert e[0] == first and e[-1] == last + 1 and np.all(np.diff(e) > 0)
    assert len(e) - 1 <= cols


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_bucket_max_and_mean_match_brute_force(data):
    n = data.draw(st.integers(1, 400))
    steps = np.array(sorted(data.draw(st.sets(st.integers(0, 1000), min_size=n, max_size=n))))
    values = data.draw(arrays(np.float64, len(steps), elements=floats))
    edges = step_edges(int(steps[0]), int(steps[-1]), data.draw(st.integers(1, 50)))
    mx, bad = bucket_max(steps, values, edges)
    mean = bucket_mean(steps, values, edges)
    for j in range(len(edges) - 1):
        v = values[(steps >= edges[j]) & (steps < edges[j + 1])]
        f = v[np.isfinite(v)]
        assert bad[j] == len(v) - len(f)
        if len(f):
            assert mx[j] == f.max()
            with np.errstate(over="ignore"):   # the brute force overflows on huge draws; so may the bucket
                want = f.mean()
            assert mean[j] == pytest.approx(want, rel=1e-9, abs=1e-300) or not np.isfinite(want)
        else:
            assert np.isnan(mx[j]) and np.isnan(mean[j])


@given(st.lists(st.integers(0, 10_000), unique=True, max_size=300).map(sorted), st.integers(2, 20))
def test_spread_keeps_ends_and_requested(items, k):
    must = items[len(items) // 2: len(items) // 2 + 1]
    out = spread(items, k, must)
    assert out == sorted(set(out)) and set(out) <= set(items)
    if items:
        assert items[0] in out and items[-1] in out and set(must) <= set(out)
        assert len(out) <= max(k, 3)


def test_thin_keeps_first_and_bounds():
    s = list(range(10_000))
    t = thin(s, 100)
    assert t[0] == 0 and len(t) <= 100 and t == sorted(t)


def test_log_helpers():
    assert log_floor(np.array([0.0, 0.03, 5.0])) == pytest.approx(1e-3)
    assert log_floor(np.array([0.0, np.nan])) is None
    assert wants_log(np.array([1e-4, 1.0])) and not wants_log(np.array([-1.0, 1e5])) and not wants_log(np.array([1.0, 2.0]))


META = {
    "model/model": {"name": "model", "modules": [["", "Sequential", 0], ["enc", "Sequential", 0],
                                                 ["enc.0", "Linear", 10], ["enc.1", "ReLU", 0], ["head", "Linear", 3]]},
    "model/linear1": {"name": "linear1", "modules": [["", "Linear", 4]]},
}


def test_module_order_across_models_and_root_leaf():
    assert module_order(META) == ["model", "enc", "enc.0", "enc.1", "head", "linear1"]
    assert module_classes(META)["enc.1"] == "ReLU" and module_classes(META)["linear1"] == "Linear"
    assert sort_modules(["head", "zzz", "enc.1", "enc.0"], module_order(META)) == ["enc.0", "enc.1", "head", "zzz"]
    params = ["head.bias", "head.weight", "enc.0.bias", "enc.0.weight", "linear1.weight", "opt0.group0.param3"]
    assert sort_params(params, module_order(META)) == [
        "enc.0.weight", "enc.0.bias", "head.weight", "head.bias", "linear1.weight", "opt0.group0.param3"]


def test_label_escapes_markup_for_plotly_and_shortens():
    assert label('<b>x</b> & "q"') == '&lt;b&gt;x&lt;/b&gt; &amp; "q"'
    assert label("a" * 50, 10) == "a" * 9 + "…"


def test_doc_and_inline_escape_everything_but_their_own_markup():
    assert inline("use ``<script>`` & `x<y`") == "use <code>&lt;script&gt;</code> &amp; <code>x&lt;y</code>"
    html = doc_html("What it detects: a <b>thing</b>\n  over two lines.\n\nHow to fix: call ``f()``.")
    assert html == ("<p><b>What it detects:</b> a &lt;b&gt;thing&lt;/b&gt; over two lines.</p>"
                    "<p><b>How to fix:</b> call <code>f()</code>.</p>")


def test_room_for_legend_grows_with_the_entries_and_skips_single_traces():
    import plotly.graph_objects as go

    from traindoc.report.plotkit import figure, room_for_legend

    def top(n, kind=go.Scatter):
        fig = figure("y")
        for i in range(n):
            fig.add_trace(kind(x=[0, 1], y=[i, i]) if kind is go.Scatter else kind(z=[[i]]))
        room_for_legend(fig)
        return fig.layout.margin.t

    assert top(1) == 30 and top(1, go.Heatmap) == 30 and top(2, go.Heatmap) == 30   # no legend drawn
    assert top(2) == 57 and top(7) == 78 and top(13) > top(7)
