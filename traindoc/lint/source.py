"""How an expression reads, by syntax alone: its dotted text, a keyword argument, a
short form for messages, the source lines of a node, and the cheap pre-filter a rule runs
before resolving a call. Nothing here resolves names except :func:`describe`, which only
runs for a finding."""

from __future__ import annotations

import ast
from typing import Any

from .kinds import Module


def text(e: Any) -> str:
    """Dotted text of a Name/Attribute chain (``self.opt``), '' for anything else."""
    parts = []
    while isinstance(e, ast.Attribute):
        parts.append(e.attr)
        e = e.value
    if isinstance(e, ast.Call):  # self.optimizers() / opt[0]
        return text(e.func)
    if isinstance(e, ast.Subscript):
        return text(e.value)
    if isinstance(e, ast.Name):
        parts.append(e.id)
    return ".".join(reversed(parts))


def keyword(call: ast.Call, name: str) -> Any:
    """The value passed as ``name=`` to ``call``, or None."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def call_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def short(e: Any, width: int = 40) -> str:
    """Source text of an expression for a message (only ever called for a finding)."""
    try:
        s = ast.unparse(e)
    except Exception:  # noqa: BLE001 - a message must never fail the lint
        return "the value"
    return s if len(s) <= width else s[: width - 3] + "..."


def describe(m: Module, e: Any) -> str:
    """A short name for an expression in messages: `p` (line 12) or the op."""
    if isinstance(e, ast.Name):
        d = m.defs(e)
        if d and len(d) == 1 and isinstance(d[0], ast.AST) and hasattr(d[0], "lineno"):
            return f"`{e.id}` (assigned on line {d[0].lineno})"
        return f"`{e.id}`"
    if isinstance(e, ast.Attribute):
        return f"`.{e.attr}`"
    if isinstance(e, ast.Call):
        f = e.func
        nm = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "call"
        return f"`{nm}(...)`"
    return f"`{short(e)}`"


def may_be(call: ast.Call, names: Any) -> bool:
    """Cheap pre-filter before resolving a call: a method-style call ``a.b.NAME(...)`` whose
    NAME is not in ``names`` (a set, or a predicate) cannot be one of them; a plain-name
    call may be an alias (``from torch import load as tload``) and must be resolved."""
    f = call.func
    if type(f) is ast.Attribute:
        return f.attr in names if not callable(names) else names(f.attr)
    return type(f) is ast.Name


def segment(m: Module, node: Any) -> bytes:
    """The source lines of ``node`` (the whole file for None): a cheap text test before a walk."""
    lines = m.memo.get("source.lines")
    if lines is None:
        lines = m.memo["source.lines"] = m.source.splitlines()
    if node is None:
        return m.source
    return b"\n".join(lines[node.lineno - 1:(getattr(node, "end_lineno", None) or node.lineno)])
