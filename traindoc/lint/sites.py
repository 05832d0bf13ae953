"""Which calls of a file run which of its functions: the index behind ``Module.call_sites``.

Resolved by syntax only (``f(...)``, ``Class(...)``, ``self.m(...)``, ``crit = FocalLoss();
crit(...)``), never through kinds: the index is built in the middle of a kind query and must
not depend on one. A second pass adds calls through a parameter that every call of its
function fills with a new instance of the same class of this file (``def train_epoch(...,
loss_fn, ...): loss_fn(prob, y)`` called as ``train_epoch(..., BCELoss(), ...)``): the loss
module's ``forward`` then sees what the loop passes it. Cost: one walk over the file's calls
per pass, once per file.
"""

from __future__ import annotations

import ast
from typing import Any

from .bindings import Param


def build(m: Any) -> dict[int, list]:
    """id(function) -> the calls in the file that run it."""
    index: dict[int, list] = {}
    through_param = []
    for site in m.w.calls:
        target = _syntactic_target(m, site)
        if target is not None:
            index.setdefault(id(target), []).append(site.node)
        elif type(site.node.func) is ast.Name:
            d = m.defs(site.node.func)
            if d and len(d) == 1 and isinstance(d[0], Param):
                through_param.append((site.node, d[0]))
    for call, p in through_param:
        cls = _instance_class(m, p, index)
        fn = cls and (m.method(cls, "__call__") or m.method(cls, "forward"))
        if fn is not None:
            index.setdefault(id(fn), []).append(call)
    return index


def _instance_class(m: Any, p: Param, index: dict[int, list]) -> ast.ClassDef | None:
    """The class of this file that every call of ``p``'s function passes a new instance of."""
    calls = index.get(id(p.fn), [])
    found = None
    for call in calls:
        if any(isinstance(x, ast.Starred) for x in call.args) or any(k.arg is None for k in call.keywords):
            return None
        i = None if p.pos is None else p.pos - (1 if p.bound else 0)
        v = call.args[i] if i is not None and 0 <= i < len(call.args) else \
            next((k.value for k in call.keywords if k.arg == p.name), None)
        if not (isinstance(v, ast.Call) and type(v.func) is ast.Name):
            return None
        d = m.defs(v.func)
        if not (d and len(d) == 1 and isinstance(d[0], ast.ClassDef)) or found not in (None, d[0]):
            return None
        found = d[0]
    return found


def _syntactic_target(m: Any, site: Any) -> Any:
    f = site.node.func
    if type(f) is ast.Name:
        d = m.defs(f)
        if d and len(d) == 1:
            if isinstance(d[0], (ast.FunctionDef, ast.AsyncFunctionDef)):
                return d[0]
            if isinstance(d[0], ast.ClassDef):
                return m.method(d[0], "__init__")  # Trainer(model, ...) runs __init__
            if isinstance(d[0], ast.Call) and type(d[0].func) is ast.Name:
                # crit = FocalLoss(); crit(out, y) runs __call__ (an nn.Module's forward)
                c = m.defs(d[0].func)
                if c and len(c) == 1 and isinstance(c[0], ast.ClassDef):
                    return m.method(c[0], "__call__") or m.method(c[0], "forward")
    elif type(f) is ast.Attribute and type(f.value) is ast.Name and site.ctx.cls is not None:
        d = m.defs(f.value)
        if d and len(d) == 1 and isinstance(d[0], tuple) and d[0][0] == "self":
            return m.method(d[0][1], f.attr)
    return None
