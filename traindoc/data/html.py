"""``--html FILE``: one self-contained page (inline SVG, no script) with the findings, the
column table, a histogram per numeric column (from its quantile sketch, P0.1 to P99.9
with the tails as two outer bars) and the exact length histogram of each list column.
Every string from the data (column names, file names, messages) is escaped."""

from __future__ import annotations

import html
import math

import numpy as np

from .render import cell, column_rows

BINS = 40


def _svg(counts: np.ndarray, labels: tuple[str, str], tails: tuple[int, int] = (0, 0)) -> str:
    """Bars with log-scaled heights (one row in a million still shows), tails in red."""
    w, h = 360, 80
    bars = [tails[0], *counts.tolist(), tails[1]] if any(tails) else counts.tolist()
    top = math.log1p(max(bars) or 1)
    bw = w / len(bars)
    rects = []
    for i, c in enumerate(bars):
        if not c:
            continue
        bh = max(1.0, h * math.log1p(c) / top)
        red = any(tails) and i in (0, len(bars) - 1)
        rects.append(f'<rect x="{i * bw:.1f}" y="{h - bh:.1f}" width="{max(bw - 1, 1):.1f}" height="{bh:.1f}" '
                     f'fill="{"#c0392b" if red else "#4a7ab5"}"><title>{int(c):,}</title></rect>')
    lo, hi = (html.escape(x) for x in labels)
    return (f'<svg width="{w}" height="{h + 14}" role="img">{"".join(rects)}'
            f'<text x="0" y="{h + 12}" font-size="10">{lo}</text>'
            f'<text x="{w}" y="{h + 12}" font-size="10" text-anchor="end">{hi}</text></svg>')


def numeric_hist(p) -> tuple[np.ndarray, tuple[int, int], float, float] | None:
    if p.digest is None or p.count < 2:
        return None
    lo, hi = p.quantile(0.001), p.quantile(0.999)
    if not hi > lo:
        lo, hi = p.min, p.max
    if not hi > lo:
        return None
    vals, cnt = p.digest.histogram()
    vals = np.clip(vals, p.min, p.max)
    below, above = int(cnt[vals < lo].sum()), int(cnt[vals > hi].sum())
    inside = (vals >= lo) & (vals <= hi)
    idx = np.minimum(((vals[inside] - lo) / (hi - lo) * BINS).astype(int), BINS - 1)
    return np.bincount(idx, weights=cnt[inside], minlength=BINS), (below, above), lo, hi


def length_hist(lp) -> tuple[np.ndarray, int, int]:
    lens, cnt = lp.length_array()
    lo, hi = int(lens[0]), int(lens[-1])
    idx = ((lens - lo) * (BINS - 1) // max(hi - lo, 1)).astype(int)
    return np.bincount(idx, weights=cnt, minlength=BINS), lo, hi


def page(report) -> str:
    from .profile import ListProfile, NumericProfile

    e = html.escape
    parts = ["<!doctype html><meta charset='utf-8'><title>traindoc data check</title>",
             "<style>body{font:14px system-ui,sans-serif;margin:2em;max-width:1100px}"
             "table{border-collapse:collapse}td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
             "td:first-child,th:first-child{text-align:left}.error{color:#c0392b}.warning{color:#b9770e}"
             ".info{color:#2874a6}.h{display:inline-block;margin:0 1.5em 1em 0;vertical-align:top}</style>",
             f"<h1>traindoc data check</h1><p>{report.profile.rows:,} rows, {len(report.profile.columns)} "
             f"columns, {report.stats.get('seconds', 0):.2f} s</p><h2>Findings</h2>"]
    if not report.findings:
        parts.append("<p>No findings.</p>")
    for f in report.findings:
        parts.append(f"<p><b class='{e(f.severity)}'>{e(f.severity)}</b> <b>{e(f.name)}</b> {e(f.code)}: "
                     f"{e(f.message)}<br><i>fix:</i> {e(f.fix)}<br><i>confirm:</i> <code>{e(f.confirm)}</code></p>")
    heads = ("column", "type", "nulls", "NaN/Inf", "min", "p50", "p99_9", "max", "mean", "std", "findings")
    parts.append("<h2>Columns</h2><table><tr>" + "".join(f"<th>{e(h)}</th>" for h in heads) + "</tr>")
    for d in column_rows(report):
        cells = [d["column"], d["type"], cell(d["nulls"]), cell(d.get("nonfinite")), *(cell(d.get(k)) for k in heads[4:10]),
                 ", ".join(d["findings"])]
        parts.append("<tr>" + "".join(f"<td>{e(str(c))}</td>" for c in cells) + "</tr>")
    parts.append("</table><h2>Distributions</h2>")
    for name, col in report.profile.columns.items():
        if isinstance(col, ListProfile) and col.lengths:
            counts, lo, hi = length_hist(col)
            parts.append(f"<div class='h'><b>{e(name)}</b> length (exact)<br>{_svg(counts, (f'{lo:,}', f'{hi:,}'))}</div>")
        elif isinstance(col, NumericProfile):
            hst = numeric_hist(col)
            if hst:
                counts, tails, lo, hi = hst
                note = f" ({tails[0]:,} below P0.1, {tails[1]:,} above P99.9 in red)" if any(tails) else ""
                parts.append(f"<div class='h'><b>{e(name)}</b>{e(note)}<br>{_svg(counts, (cell(lo), cell(hi)), tails)}</div>")
    return "".join(parts)


def write(report, path: str) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(page(report))
