"""Output of a data check: the terminal summary (rich), GitHub workflow annotations and
the JSON document. Only draws: every number comes from the report."""

from __future__ import annotations

import math
from typing import Any

from rich.console import Console
from rich.table import Table

from ..findings import Finding
from ..report.terminal import esc

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
_BARS = " ▁▂▃▄▅▆▇█"


def cell(x: Any) -> str:
    """A cell of the column table: blank for None, integers (and integral floats under
    1e9) with thousands separators, other floats to 4 significant digits."""
    if x is None:
        return ""
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        if x.is_integer() and abs(x) < 1e9:
            return f"{int(x):,}"
        return f"{x:.4g}"
    if isinstance(x, int):
        return f"{x:,}"
    return str(x)


def column_rows(report) -> list[dict]:
    """One summary dict per column (the table, the JSON ``columns`` and the HTML)."""
    from .profile import ListProfile, NumericProfile

    counts: dict[str, list[str]] = {}
    for f in report.findings:
        for c in [f.location.get("column")] + list(f.location.get("columns", [])):
            if c and f.name not in counts.setdefault(c, []):
                counts[c].append(f.name)
    out = []
    for name, col in report.profile.columns.items():
        d: dict[str, Any] = {"column": name, "rows": col.n, "nulls": col.nulls, "findings": counts.get(name, [])}
        if isinstance(col, NumericProfile):
            d.update(type="int" if col.integer else "float", nonfinite=col.nonfinite, nan=col.nan,
                     posinf=col.posinf, neginf=col.neginf,
                     min=col.min if col.count else None, p50=col.quantile(0.5) if col.count else None,
                     p99_9=col.quantile(0.999) if col.count else None, max=col.max if col.count else None,
                     mean=col.mean if col.count else None, std=col.std if col.count else None)
        elif isinstance(col, ListProfile):
            v = col.values
            d.update(type="list", nonfinite=v.nonfinite if v else 0,
                     min=col.length_quantile(0.0), p50=col.length_quantile(0.5),
                     p99=col.length_quantile(0.99), p99_9=col.length_quantile(0.999),
                     max=int(col.length_array()[0][-1]) if col.lengths else None)
        else:
            d.update(type=col.type)
        out.append(d)
    return out


def sparkline(lens, cnt, width: int = 48) -> str:
    """Lengths histogram in ``width`` bins, log-scaled heights so that a single row at
    5 000 still shows next to a million rows at 200."""
    import numpy as np

    if not len(lens):
        return ""
    lo, hi = int(lens[0]), int(lens[-1])
    bins = np.zeros(width)
    idx = ((lens - lo) * (width - 1) // max(hi - lo, 1)).astype(int)
    np.add.at(bins, idx, cnt)
    h = np.log1p(bins)
    h = np.ceil(h / h.max() * (len(_BARS) - 1)).astype(int) if h.max() > 0 else h.astype(int)
    return "".join(_BARS[i] for i in h)


MAX_TABLE_ROWS = 60  # rich lays out a 10 000-row table in ~45 s; the JSON keeps every column


def print_summary(c: Console, report, source: str = "") -> None:
    prof = report.profile
    st = report.stats
    cached = f", {st['cached_units']} of {st['units']} units cached" if st.get("cached_units") else ""
    c.print(f"[bold]traindoc data check[/] {esc(source)}: {prof.rows:,} rows, {len(prof.columns)} columns"
            + (f", validation {report.val_profile.rows:,} rows" if report.val_profile else "")
            + f" in {st.get('seconds', 0):.2f} s{cached}")
    t = Table(show_edge=False, pad_edge=False, header_style="bold")
    for h in ("column", "type", "nulls", "NaN/Inf", "min", "P50", "P99.9", "max", "mean", "std", "findings"):
        t.add_column(h, justify="left" if h in ("column", "type", "findings") else "right")
    rows = column_rows(report)
    shown = rows
    if len(rows) > MAX_TABLE_ROWS:  # a wide table: the columns with findings first, then the first ones
        flagged = [d for d in rows if d["findings"]][:MAX_TABLE_ROWS]
        keep = {id(d) for d in flagged}
        rest = [d for d in rows if id(d) not in keep][:MAX_TABLE_ROWS - len(flagged)]
        keep |= {id(d) for d in rest}
        shown = [d for d in rows if id(d) in keep]
    for d in shown:
        bad = d.get("nonfinite") or 0
        t.add_row(esc(d["column"]), esc(d["type"]), cell(d["nulls"]) if d["nulls"] else "",
                  f"[red]{cell(bad)}[/]" if bad else "", cell(d.get("min")), cell(d.get("p50")),
                  cell(d.get("p99_9")), cell(d.get("max")), cell(d.get("mean")), cell(d.get("std")),
                  esc(", ".join(d["findings"])))
    c.print(t)
    if len(shown) < len(rows):
        c.print(f"[dim]... {len(rows) - len(shown):,} more columns without findings (all of them: --json)[/]")
    from .profile import ListProfile

    for name, col in prof.columns.items():
        if isinstance(col, ListProfile) and col.lengths:
            lens, cnt = col.length_array()
            c.print(f"[bold]{esc(name)}[/] lengths {int(lens[0]):,} {sparkline(lens, cnt)} {int(lens[-1]):,}  "
                    f"P50 {col.length_quantile(0.5):,}  P99 {col.length_quantile(0.99):,}  "
                    f"P99.9 {col.length_quantile(0.999):,}  max {int(lens[-1]):,}")
    if report.profile.label and report.profile.label.counts:
        counts = sorted(report.profile.label.counts.items(), key=lambda kv: -kv[1])
        total = sum(v for _, v in counts)
        c.print(f"[bold]{esc(str(prof.label_column))}[/] classes: " + ", ".join(
            f"{esc(str(k))} {v / total:.2%}" for k, v in counts[:8]) + (" ..." if len(counts) > 8 else ""))
    c.print()
    if not report.findings:
        c.print("[green]no findings[/]")
    for i, f in enumerate(report.findings, 1):
        print_finding(c, f, i)
    n_err = sum(f.severity == "error" for f in report.findings)
    n_warn = sum(f.severity == "warning" for f in report.findings)
    c.print(f"\n{n_err} error(s), {n_warn} warning(s)"
            + (": [bold red]blocking[/] (exit 1)" if n_err else ""))


def print_finding(c: Console, f: Finding, i: int) -> None:
    c.print(f"{i}. [{_STYLE[f.severity]}]{f.severity}[/] [bold]{f.name}[/] {f.code}: {esc(f.message)}")
    if f.location.get("file"):
        where = f.location["file"] + (f" row {f.location['file_row']:,}" if f.location.get("file_row") is not None else "")
        c.print(f"   [dim]where:[/]   {esc(where)}")
    if f.fix:
        c.print(f"   [dim]fix:[/]     {esc(f.fix)}")
    if f.confirm:
        c.print(f"   [dim]confirm:[/] {esc(f.confirm)}")


def _gh_escape(s: str, prop: bool = False) -> str:
    """GitHub workflow command escaping (``%``, CR, LF; and ``:`` ``,`` in properties)."""
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        s = s.replace(":", "%3A").replace(",", "%2C")
    return s


def github(findings: list[Finding]) -> str:
    """One ``::error``/``::warning``/``::notice`` line per finding: shown on the pull
    request and in the job summary. For CSV/JSONL the row is also given as a line."""
    lines = []
    level = {"error": "error", "warning": "warning", "info": "notice"}
    for f in findings:
        props = [f"title={_gh_escape(f'traindoc {f.name} ({f.code})', True)}"]
        file = f.location.get("file")
        if file:
            import os

            props.insert(0, f"file={_gh_escape(os.path.relpath(file), True)}")
            row = f.location.get("file_row")
            low = file.lower()
            if row is not None and low.endswith((".jsonl", ".ndjson", ".csv", ".tsv")):
                props.insert(1, f"line={row + (2 if low.endswith(('.csv', '.tsv')) else 1)}")
        text = f.message + (f" Fix: {f.fix}" if f.fix else "")
        lines.append(f"::{level[f.severity]} {','.join(props)}::{_gh_escape(text)}")
    return "\n".join(lines) + ("\n" if lines else "")


def json_doc(report) -> dict:
    from ..report.json_out import document

    data = {"rows": report.profile.rows, "columns": column_rows(report), "stats": report.stats}
    if report.val_profile is not None:
        data["val_rows"] = report.val_profile.rows
    return document(findings=report.findings, data=data)
