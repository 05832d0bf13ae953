"""Terminal rendering with rich: reads like a senior engineer's note (the cause, the
evidence, the fix, how to confirm), one finding at a time."""

from __future__ import annotations

import re
import sys
from typing import Any, Iterable, TextIO

from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from ..findings import ERROR, INFO, WARNING, Finding
from ..numfmt import fmt

_STYLE = {ERROR: "bold red", WARNING: "yellow", INFO: "cyan"}
_INDENT = 5


# C0/C1 control characters other than newline and tab: an ESC from a column name or a code
# line would otherwise reach the terminal raw (rich strips only BEL, BS, VT, FF and CR)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(s: Any) -> str:
    """``s`` as text with control characters shown escaped (``\\x1b``)."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(s))


def esc(s: Any) -> str:
    """A string from the user's code, data or paths, for a rich markup string: never markup."""
    return escape(printable(s))


def console(file: TextIO | None = None) -> Console:
    return Console(file=file or sys.stdout, highlight=False, soft_wrap=False)


def _value(v: Any) -> str:
    if isinstance(v, float):
        return fmt(v)
    if isinstance(v, (list, tuple)):
        items = [_value(x) for x in v[:8]]
        return "[" + ", ".join(items) + (", ..." if len(v) > 8 else "") + "]"
    return str(v)


def _where(f: Finding) -> str:
    loc = f.location
    parts = []
    for key in ("rank", "step", "module", "op", "param", "column", "file", "line"):
        if loc.get(key) is not None:
            parts.append(f"{key} {loc[key]}")
    for key in ("samples", "rows"):
        if loc.get(key):
            s = loc[key]
            parts.append(f"{key} " + ", ".join(map(str, s[:8])) + (f" ... ({len(s)})" if len(s) > 8 else ""))
    return ", ".join(parts)


def _evidence(e: dict[str, Any]) -> str:
    """One evidence item as prose-like text: ``loss: first 2.3, last 2.29``."""
    e = dict(e)
    head = e.pop("series", None) or e.pop("meta", None) or e.pop("events", None) or e.pop("batch", None) or ""
    rest = ", ".join(f"{k.replace('_', ' ')} {_value(v)}" for k, v in e.items())
    return f"{head}: {rest}" if head and rest else (head or rest)


def _line(c: Console, label: str, text: str) -> None:
    # a two-column grid gives wrapped lines a hanging indent under the text column
    g = Table.grid(padding=(0, 1))
    g.add_column(style="dim", width=8, no_wrap=True)
    g.add_column(overflow="fold")
    g.add_row(label, Text(printable(text)))  # a str cell would be parsed as markup
    c.print(Padding(g, (0, 0, 0, _INDENT)))


def render_finding(c: Console, f: Finding, index: int | None = None, detail: bool = True) -> None:
    """``index. name (confidence, severity): message``, then where / evidence / fix /
    confirm indented under it. ``detail=False`` prints the head line and the confirm
    only (for the less likely alternatives)."""
    head = f"{index}. " if index is not None else ""
    conf = f"{f.confidence:.0%}, " if f.confidence is not None else ""
    c.print(Text.assemble(head, (f.name, "bold"), f" {f.code} (", conf, (f.severity, _STYLE[f.severity]), "): ",
                          printable(f.message)))
    where = _where(f)
    if where:
        _line(c, "where", where)
    if f.evidence and detail:
        for e in f.evidence[:4]:
            _line(c, "evidence", _evidence(e))
    if f.fix and detail:
        _line(c, "fix", f.fix)
    if f.confirm:
        _line(c, "confirm", f.confirm)


def render_findings(c: Console, title: str, findings: Iterable[Finding], numbered: bool = True,
                    detail_first: int | None = None) -> None:
    """A titled list; with ``detail_first=k`` only the first k findings show their
    evidence and fix (the others: head line and how to confirm)."""
    items = list(findings)
    if not items:
        return
    c.print(f"[bold]{esc(title)}[/]")
    for i, f in enumerate(items, 1):
        detail = detail_first is None or i <= detail_first
        render_finding(c, f, i if numbered else None, detail=detail)
