"""Which math op or which loss a call computes, in any spelling (``torch.log(x)``,
``x.log()``, ``F.cross_entropy(...)``, ``nn.CrossEntropyLoss()(...)``, ``self.criterion(...)``)."""

from __future__ import annotations

import ast
from typing import Any

from . import names as N
from .kinds import Module
from .source import keyword

_METHOD_OPS = {"log": "log", "log2": "log", "log10": "log", "log_": "log", "sqrt": "sqrt", "sqrt_": "sqrt",
               "rsqrt": "rsqrt", "rsqrt_": "rsqrt", "div": "div", "div_": "div", "true_divide": "div",
               "divide": "div"}


def op_of(m: Module, call: ast.Call) -> str | None:
    """The math op of a call, function or method spelling: "log", "sqrt", "rsqrt", "div", or None."""
    f = call.func
    if type(f) is ast.Attribute and f.attr not in _METHOD_OPS:
        return None  # torch.x.log / t.log(): the attribute is the op's name; skip the resolution
    if type(f) is not ast.Attribute and type(f) is not ast.Name:
        return None
    c = m.callee(call)
    if c[0] == "fn":
        q = c[1]
        if q in N.LOG:
            return "log"
        if q in N.SQRT:
            return "sqrt"
        if q in N.RSQRT:
            return "rsqrt"
        if q in N.DIV:
            return "div"
    elif c[0] == "meth":
        name = c[1]
        if name in ("log", "log2", "log10", "log_"):
            return "log"
        if name in ("sqrt", "sqrt_"):
            return "sqrt"
        if name in ("rsqrt", "rsqrt_"):
            return "rsqrt"
        if name in ("div", "div_", "true_divide", "divide"):
            return "div"
    return None


def divisor(m: Module, call: ast.Call) -> Any:
    """The denominator of ``torch.div(a, b)`` / ``a.div(b)``."""
    c = m.callee(call)
    args = [a for a in call.args if not isinstance(a, ast.Starred)]
    if c[0] == "meth":
        return args[0] if args else keyword(call, "other")
    return args[1] if len(args) > 1 else keyword(call, "other")


def loss_call(m: Module, call: ast.Call) -> tuple[str, Any] | None:
    """("cross_entropy" | "nll" | "bce", input expression) for a loss call, function or module."""
    c = m.callee(call)
    which = None
    if c[0] == "fn":
        q = c[1]
        which = "cross_entropy" if q in N.CROSS_ENTROPY_FN else "nll" if q in N.NLL_FN else "bce" if q in N.BCE_FN else None
    elif c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "inst":
        q = c[1][1]
        which = "cross_entropy" if q in N.CROSS_ENTROPY_MOD else "nll" if q in N.NLL_MOD else "bce" if q in N.BCE_MOD else None
    if which is None:
        return None
    return which, m.first_arg(call)


def loss_of(m: Module, call: ast.Call) -> tuple[str, Any, Any] | None:
    """(short loss name, input, target) for a call of any loss, function or module spelling
    (``F.mse_loss(a, b)``, ``nn.MSELoss()(a, b)``, ``self.criterion(a, b)``), or None."""
    f = call.func
    if type(f) not in (ast.Name, ast.Attribute, ast.Call):
        return None
    c = m.callee(call)
    short = None
    if c[0] == "fn":
        q = c[1]
        if q.startswith("torch.nn.functional."):
            short = N.LOSS_SHORT.get(q)
    elif c[0] == "obj" and isinstance(c[1], tuple) and c[1][0] == "inst":
        short = N.LOSS_SHORT.get(c[1][1])
    if short is None:
        return None
    args = [a for a in call.args if not isinstance(a, ast.Starred)]
    if len(args) != len(call.args):
        return None
    inp = args[0] if args else keyword(call, "input")
    tgt = args[1] if len(args) > 1 else keyword(call, "target")
    return short, inp, tgt
