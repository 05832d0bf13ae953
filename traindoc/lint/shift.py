"""Whether ``exp(e)`` cannot overflow: ``e`` is shifted by its maximum, a log-probability,
or clamped from above. Decides ``"exp0"`` (safe) from ``"exp"`` for the kinds of calls."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from . import names as N
from .walk import walk

if TYPE_CHECKING:  # kinds imports this module (through call_kinds): the type alone, no import cycle at run time
    from .kinds import Module


def shifted(m: Module, e: Any, depth: int = 3) -> bool:
    """exp(e) cannot overflow: ``e`` is ``x - max(x)``, a log-probability, or clamped from above."""
    if e is None or depth == 0:
        return False
    if m.kind(e) in ("log_softmax",):
        return True
    if isinstance(e, ast.Name):
        d = m.defs(e)
        return bool(d) and all(isinstance(x, ast.expr) and shifted(m, x, depth - 1) for x in d)
    if isinstance(e, ast.BinOp):
        if type(e.op) is ast.Sub:
            # x - max(x) <= 0; but a difference of two maxima or log-sum-exps (merging the
            # lse of two blocks: block_lse - lse) is unbounded above
            return _mentions_max(m, e.right, 3) and not _mentions_max(m, e.left, 3)
        if type(e.op) in (ast.Div, ast.Mult):  # (x - max) / temperature
            return shifted(m, e.left, depth - 1)
    if isinstance(e, ast.UnaryOp) and type(e.op) is ast.USub:
        o = e.operand  # -|x| <= 0: exp(-x.abs()) cannot overflow
        if isinstance(o, ast.Call):
            c = m.callee(o)
            return c[0] == "fn" and c[1] in ("torch.abs", "numpy.abs") or c[0] == "meth" and c[1] == "abs"
        return False
    if isinstance(e, ast.Call):
        c = m.callee(e)
        name = c[1] if c[0] in ("fn", "meth") else ""
        if isinstance(name, str) and name.rsplit(".", 1)[-1] in ("clamp", "clip", "clamp_max"):
            return any(kw.arg == "max" for kw in e.keywords) or name.endswith("clamp_max") or len(e.args) >= (
                2 if c[0] == "meth" else 3
            )
        if c[0] == "meth" and c[1] in N.M_PRESERVE:
            return shifted(m, c[2], depth - 1)
    return False


def _mentions_max(m: Module, e: Any, depth: int) -> bool:
    """The subtrahend names a maximum or a log-sum-exp: ``x.max(...)``, ``x.amax``,
    ``logsumexp``, a helper such as ``safe_amax(x)``, a variable such as ``x_max`` or
    ``lse``. Lenient on purpose: a shift the rule cannot read must not be reported."""
    for n in walk(e):
        t = type(n)
        nm = n.attr if t is ast.Attribute else n.id if t is ast.Name else ""
        low = nm.lower()
        if "max" in low or "lse" in low or "logsumexp" in low:
            return True
        if t is ast.Name and depth > 0:
            d = m.defs(n)
            if d and len(d) == 1 and isinstance(d[0], ast.expr) and _mentions_max(m, d[0], depth - 1):
                return True
    return False
