"""Shared plotly plumbing for the report's figures: escaping, a light layout, the
anomaly/sampling marks, log floors.

Escaping: plotly.js renders a small HTML subset (``<b>``, ``<a href>``, ``<br>``) in
trace names, tick labels and hover text, so every string that came from the user's code
or data (module and parameter names, messages) goes through :func:`esc` first; plotly.js
shows ``&lt;`` as ``<``. plotly's own JSON encoder writes ``<`` as ``\\u003c`` inside the
``<script>`` it emits, so no string can close that tag.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

import numpy as np

SEVERITY_COLOR = {"error": "#c62828", "warning": "#ef6c00", "info": "#0277bd"}
LINE_POINTS = 4000     # points per line: the browser stays fluid, spikes survive (min/max)
MARK_POINTS = 2000     # anomaly markers per kind; the first is always kept
HEAT_COLUMNS = 600     # step buckets of a heatmap


def esc(value: Any) -> str:
    """For the page's HTML: escapes & < > " '."""
    return html.escape(str(value), quote=True)


def label(value: Any, limit: int | None = None) -> str:
    """For plotly text (names, ticks, hover): escapes & < > only, because plotly.js
    decodes ``&lt; &gt; &amp;`` and numeric entities but shows ``&quot;`` as is; a quote
    cannot start a tag. ``limit`` shortens the text (before escaping) with an ellipsis."""
    text = str(value)
    if limit is not None and len(text) > limit:
        text = text[: limit - 1] + "…"
    return html.escape(text, quote=False)


@dataclass
class Plot:
    """One figure of the report, or the note that says why it is absent."""

    key: str
    title: str
    fig: Any = None            # plotly.graph_objects.Figure, or None
    note: str = ""             # plain text; shown when fig is None (escaped by the page)
    caption: list[str] = field(default_factory=list)   # plain-text lines under the figure


def figure(title_y: str, height: int = 360, log_y: bool = False):
    import plotly.graph_objects as go

    fig = go.Figure()
    fig.update_layout(
        template="plotly_white",
        height=height,
        margin=dict(l=70, r=20, t=30, b=45),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, font=dict(size=11)),
        hovermode="closest",
        xaxis=dict(title="step"),
        yaxis=dict(title=title_y, type="log" if log_y else "linear", exponentformat="power"),
    )
    return fig


def overlay_axis(fig) -> None:
    """A hidden 0..1 axis over the plot: marks sit on its top/bottom strips whatever the
    data's range or scale."""
    fig.update_layout(yaxis2=dict(overlaying="y", range=[0, 1], visible=False, fixedrange=True))


def mark(fig, steps: list[int], y: float, name: str, color: str, symbol: str,
         hover: list[str] | None = None, size: int = 9) -> None:
    """Markers at ``steps`` on the overlay strip at height ``y`` (0..1)."""
    import plotly.graph_objects as go

    if not steps:
        return
    fig.add_trace(go.Scatter(
        x=steps, y=[y] * len(steps), yaxis="y2", mode="markers", name=name,
        marker=dict(color=color, symbol=symbol, size=size, line=dict(width=1, color=color)),
        hovertext=hover, hoverinfo="text" if hover else "x+name",
    ))


def thin(steps: list[int], k: int = MARK_POINTS) -> list[int]:
    """At most ``k`` of ``steps`` (sorted), evenly spread, keeping the first."""
    if len(steps) <= k:
        return steps
    idx = np.unique(np.concatenate([[0], np.linspace(0, len(steps) - 1, k - 1).astype(int)]))
    return [steps[i] for i in idx]


def log_floor(values: np.ndarray) -> float | None:
    """Where to draw zeros on a log scale: a decade under the smallest positive value.
    None when nothing is positive."""
    pos = values[np.isfinite(values) & (values > 0)]
    if len(pos) == 0:
        return None
    return float(10 ** np.floor(np.log10(pos.min()) - 1))


def wants_log(values: np.ndarray, ratio: float = 1e3) -> bool:
    """A log axis reads better when all finite values are positive and span ``ratio``."""
    v = values[np.isfinite(values)]
    return len(v) > 1 and bool(np.all(v > 0)) and float(v.max() / v.min()) > ratio


def scale_buttons(fig, log_first: bool) -> None:
    """Linear/log switch for the main y axis."""
    order = ["log", "linear"] if log_first else ["linear", "log"]
    # Bottom right, under the x axis: the top right belongs to plotly's mode bar.
    fig.update_layout(updatemenus=[dict(
        type="buttons", direction="right", x=1.0, xanchor="right", y=0, yanchor="top",
        pad=dict(t=28, r=0), showactive=True, font=dict(size=10),
        buttons=[dict(label=t, method="relayout", args=[{"yaxis.type": t}]) for t in order],
    )])


def wrap(text: Any, width: int = 90) -> str:
    """Plotly text for a long message: escaped, broken into lines of ``width``."""
    import textwrap

    return "<br>".join(label(line) for line in textwrap.wrap(str(text), width) or [""])


LEGEND_PER_ROW = 6     # entries of a horizontal legend per row at the page's width


def room_for_legend(fig) -> None:
    """A horizontal legend above the plot grows upwards into the top margin, where
    plotly.js also draws its mode bar (top right, shown on hover): make the margin hold
    the legend's rows and, above them, the mode bar."""
    if fig.layout.legend.orientation != "h":
        return
    n = sum(1 for t in fig.data if t.showlegend is not False and t.type != "heatmap")  # heatmaps: no entry
    if n < 2:       # one trace: plotly shows no legend
        return
    rows = -(-n // LEGEND_PER_ROW)
    fig.update_layout(margin_t=max(fig.layout.margin.t or 0, 36 + 21 * rows))


def to_div(fig, div_id: str) -> str:
    """The figure as a <div> and its <script>; plotly.js itself is embedded once per page."""
    import plotly.io as pio

    room_for_legend(fig)
    return pio.to_html(fig, full_html=False, include_plotlyjs=False, div_id=div_id,
                       config={"displaylogo": False, "responsive": True,
                               "modeBarButtonsToRemove": ["select2d", "lasso2d"]})
