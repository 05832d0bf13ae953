"""Which calls run, in which order, and what a name holds: calls indexed by loop and by
function, a scope's training events in evaluation order (same-file helpers expanded),
exclusive branches, the single definition of a name, model outputs and module classes."""

from __future__ import annotations

import ast
from typing import Any

from .kinds import Module
from .source import text
from .walk import walk


def local_function(m: Module, call: ast.Call) -> Any:
    """The same-file function (or method) a call runs, or None."""
    c = m.callee(call)
    if c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "func":
        return c[1][1]
    return None


def helper_function(m, call: ast.Call):
    """The same-file function a call runs; for ``obj.meth(...)`` on an object the file cannot
    type (a parameter), the one method of that name among the file's classes."""
    fn = local_function(m, call)
    if fn is None and isinstance(call.func, ast.Attribute):
        cands = m.w.functions.get(call.func.attr, ())
        if len(cands) == 1 and cands[0].args.args and cands[0].args.args[0].arg == "self":
            fn = cands[0]
    return fn


def params_given(fn, call: ast.Call) -> list[tuple[str, str]]:
    """``(argument name, parameter name)`` for the plain-name arguments of a call of ``fn``."""
    params = [a.arg for a in fn.args.args]
    if params and params[0] in ("self", "cls") and isinstance(call.func, ast.Attribute):
        params = params[1:]
    out = [(a.id, p) for a, p in zip(call.args, params) if isinstance(a, ast.Name)]
    out += [(k.value.id, k.arg) for k in call.keywords if k.arg in params and isinstance(k.value, ast.Name)]
    return out


def calls_index(m: Module) -> tuple[dict, dict]:
    """Calls grouped by enclosing loop and by enclosing function (built once per file)."""
    got = m.memo.get("flow.calls")
    if got is None:
        by_loop: dict[int, list] = {}
        by_func: dict[int, list] = {}
        for s in m.w.calls:
            by_func.setdefault(id(s.ctx.func), []).append(s)
            for lp in s.ctx.loops:
                by_loop.setdefault(id(lp), []).append(s)
        got = m.memo["flow.calls"] = (by_loop, by_func)
    return got


def _order(n: ast.AST) -> tuple:
    """Evaluation order: a call finishes after its arguments (``scaler.scale(loss).backward()``)."""
    return (n.end_lineno or n.lineno, n.end_col_offset or 0, n.lineno, n.col_offset)


def ordered_events(m: Module, scope: Any, classify: Any, depth: int = 2, key: str = "",
                   own_level: bool = False, untyped: bool = False) -> list[tuple]:
    """``(event, node, anchor)`` for the calls of a loop (``scope`` a For/While) or a function,
    in evaluation order, where ``classify(call)`` gives a non-empty event; calls of this
    file's functions are expanded in place (``depth`` levels), their events anchored at the
    call site. ``own_level``: leave out calls inside nested loops (of the scope and of the
    functions expanded), which repeat on their own. ``untyped``: also expand
    ``obj.meth()`` on an object the file cannot type, when one class of the file has that
    method (helper_function). Memoised per (key, scope)."""
    memo = m.memo.setdefault("flow.events." + key, {}) if key else None
    mk = (id(scope), depth, own_level, untyped)
    if memo is not None and mk in memo:
        return memo[mk]
    by_loop, by_func = calls_index(m)
    is_loop = isinstance(scope, (ast.For, ast.AsyncFor, ast.While))
    sites = by_loop.get(id(scope), []) if is_loop else by_func.get(id(scope), [])
    if own_level:
        sites = [s for s in sites if (s.ctx.loops[-1] is scope if is_loop else not s.ctx.loops)]
    out: list[tuple] = []
    for site in sorted(sites, key=lambda s: _order(s.node)):
        call = site.node
        ev = classify(call)
        if ev:
            out.append((ev, call, call))
        elif depth > 0:
            fn = helper_function(m, call) if untyped else local_function(m, call)
            if fn is not None and fn is not scope:
                out.extend((e, n, call) for e, n, _ in ordered_events(m, fn, classify, depth - 1, key, own_level,
                                                                      untyped))
    if memo is not None:
        memo[mk] = out
    return out


def exclusive_branches(scope: Any, a: ast.AST, b: ast.AST) -> bool:
    """``a`` and ``b`` sit in different branches of one ``if`` (never both run in one pass)."""
    def within(stmts, n):
        return any(x is n for s in stmts for x in walk(s))
    for n in walk(scope):
        if isinstance(n, ast.If) and n.orelse:
            if within(n.body, a) and within(n.orelse, b) or within(n.body, b) and within(n.orelse, a):
                return True
    return False


def single_def(m: Module, e: Any) -> Any:
    """The one expression assigned to the name ``e`` (None when zero or several reach it)."""
    if isinstance(e, ast.Name):
        d = m.defs(e)
        if d and len(d) == 1 and isinstance(d[0], ast.expr):
            return d[0]
    return None


def model_output(m: Module, e: Any, depth: int = 2) -> bool:
    """``e`` is provably what a model returns: a call of a same-file nn.Module class instance,
    an ``nn.Sequential`` or a torch.nn layer (not a loss), or the ``.logits`` of a call (a
    Hugging Face model's output), directly or through one name."""
    if isinstance(e, ast.Name) and depth:
        d = single_def(m, e)
        return d is not None and model_output(m, d, depth - 1)
    if isinstance(e, ast.Attribute) and e.attr == "logits" and isinstance(e.value, ast.Call):
        return True  # model(**batch).logits: a Hugging Face model's output
    if not isinstance(e, ast.Call):
        return False
    c = m.callee(e)
    if c[0] != "obj" or not isinstance(c[1], tuple):
        return False
    k = c[1]
    if k[0] in ("local", "seq"):
        return True
    return k[0] == "inst" and k[1].startswith("torch.nn.") and not k[1].endswith("Loss") and k[1][9:10].isupper()


def is_module_class(m: Module, cls: ast.ClassDef) -> bool:
    """A class of this file that derives from ``torch.nn.Module`` (or a base named like a module)."""
    for c in m._mro(cls):
        for b in c.bases:
            q = m.qualname(b) or ""
            if q.startswith(("torch.nn.", "lightning.")) or text(b).endswith(("Module", "Model", "Net")):
                return True
    return False


def returned_element(m: Module, e: Any) -> list | None:
    """Element ``e.index`` of every tuple returned by the file's function that ``e.value``
    calls (an :class:`Elt`: ``x, y = make_data()``), or None when one return is not such a tuple."""
    d = m.defs(e.value.func) if isinstance(e.value.func, ast.Name) else None
    fn = d[0] if d and len(d) == 1 and isinstance(d[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    rets = m.w.returns.get(id(fn)) if fn is not None else None
    if not rets or not all(isinstance(r, ast.Tuple) and len(r.elts) > e.index for r in rets):
        return None
    return [r.elts[e.index] for r in rets]
