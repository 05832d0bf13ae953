"""Terminal rendering with rich: reads like a senior engineer's note (cause, evidence,
fix, how to confirm)."""

from __future__ import annotations

import sys
from typing import Iterable, TextIO

from rich.console import Console
from rich.markup import escape

from ..findings import ERROR, INFO, WARNING, Finding

_STYLE = {ERROR: "bold red", WARNING: "yellow", INFO: "cyan"}


def console(file: TextIO | None = None) -> Console:
    return Console(file=file or sys.stdout, highlight=False, soft_wrap=False)


def _where(f: Finding) -> str:
    loc = f.location
    parts = []
    for key in ("rank", "step", "module", "op", "param", "column", "file", "line"):
        if loc.get(key) is not None:
            parts.append(f"{key} {loc[key]}")
    if loc.get("samples"):
        s = loc["samples"]
        parts.append("samples " + ", ".join(map(str, s[:8])) + (" ..." if len(s) > 8 else ""))
    if loc.get("rows"):
        r = loc["rows"]
        parts.append("rows " + ", ".join(map(str, r[:8])) + (" ..." if len(r) > 8 else ""))
    return ", ".join(parts)


def render_finding(c: Console, f: Finding, index: int | None = None) -> None:
    head = f"{index}. " if index is not None else ""
    conf = f" ({f.confidence:.0%})" if f.confidence is not None else ""
    c.print(f"{head}[{_STYLE[f.severity]}]{f.severity}[/] [bold]{f.name}[/] {f.code}{conf}: {escape(f.message)}")
    where = _where(f)
    if where:
        c.print(f"   [dim]where:[/]   {escape(where)}")
    if f.evidence:
        ev = "; ".join(
            escape(", ".join(f"{k}={v}" for k, v in e.items())) for e in f.evidence[:4]
        )
        c.print(f"   [dim]evidence:[/] {ev}")
    if f.fix:
        c.print(f"   [dim]fix:[/]     {escape(f.fix)}")
    if f.confirm:
        c.print(f"   [dim]confirm:[/] {escape(f.confirm)}")


def render_findings(c: Console, title: str, findings: Iterable[Finding], numbered: bool = True) -> None:
    items = list(findings)
    if not items:
        return
    c.print(f"[bold]{escape(title)}[/]")
    for i, f in enumerate(items, 1):
        render_finding(c, f, i if numbered else None)
