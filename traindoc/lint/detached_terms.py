"""Helpers of backward-without-graph: a loss term cut from the graph inside a sum that
is backpropagated (``loss = rec + lam * F.bce(d, ones).detach()``), what counts as
detached, and one hit per node."""

from __future__ import annotations

import ast
from typing import Any

from .flow import single_def
from .kinds import Module
from .ops import loss_of
from .registry import Hit
from .source import short
from .walk import walk


def detached_loss_term(m: Module, e: Any) -> ast.Call | None:
    """The ``.detach()`` of a loss function's output among the terms of the sum ``e`` (in
    it, or bound to a name it adds): that term's value is in the loss but it sends no
    gradient, so whatever produced it is not trained by it."""
    if not isinstance(e, ast.BinOp):
        return None
    for n in walk(e):
        if isinstance(n, ast.Name):
            n = single_def(m, n)
        if _detached_loss(m, n):
            return n
    return None


def _detached_loss(m: Module, n: Any) -> bool:
    return isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "detach" \
        and isinstance(n.func.value, ast.Call) and loss_of(m, n.func.value) is not None


def detached(e: Any) -> bool:
    """``x.detach()`` or ``x.data``: a tensor with no graph behind it."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "detach" and not e.args:
        return True
    return isinstance(e, ast.Attribute) and e.attr == "data"


def once(seen: set, at: Any, message: str):
    """One hit per node (a loss helper backpropagated at several places reports once)."""
    if id(at) not in seen:
        seen.add(id(at))
        yield Hit(at, message)


def item_term(m: Module, name: ast.Name, graph_word) -> ast.Call | None:
    """In an arithmetic binding of the backpropagated ``name`` (following its own earlier
    bindings: ``loss = loss - ...`` in a loop, then ``loss = loss / n``), ``X.item()`` of a
    value named for the graph (``graph_word``: log_probs, loss, logits): a float in the loss."""
    todo, seen = list(m.defs(name) or ()), set()
    while todo and len(seen) < 12:
        d = todo.pop()
        if id(d) in seen or not isinstance(d, ast.BinOp):
            continue
        seen.add(id(d))
        for n in walk(d):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "item" \
                    and not n.args and graph_word(short(n.func.value, 200)):
                return n
            if isinstance(n, ast.Name) and n.id == name.id:
                todo.extend(m.defs(n) or ())
    return None
