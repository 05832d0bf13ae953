"""Small recognisers shared by several rules (a call to log, a loss call, a backward, ...)."""

from __future__ import annotations

import ast
from typing import Any

from . import names as N
from .kinds import Module


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
        return args[0] if args else _kw(call, "other")
    return args[1] if len(args) > 1 else _kw(call, "other")


def _kw(call: ast.Call, name: str) -> Any:
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


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


def short(e: Any, width: int = 40) -> str:
    """Source text of an expression for a message (only ever called for a finding)."""
    try:
        s = ast.unparse(e)
    except Exception:  # noqa: BLE001 - a message must never fail the lint
        return "the value"
    return s if len(s) <= width else s[: width - 3] + "..."


def is_backward(m: Module, call: ast.Call) -> bool:
    """``loss.backward()``, ``scaler.scale(loss).backward()``, ``accelerator.backward(loss)``,
    ``self.manual_backward(loss)``, ``torch.autograd.backward(...)``."""
    f = call.func
    if isinstance(f, ast.Attribute):
        if f.attr == "manual_backward":
            return True
        if f.attr == "backward":
            q = m.qualname(f)
            return q is None or q == "torch.autograd.backward"
    return False


def is_step(m: Module, call: ast.Call) -> bool:
    """An optimizer step: ``opt.step()``, ``scaler.step(opt)``, ``xm.optimizer_step(opt)``; not a scheduler's."""
    f = call.func
    if not isinstance(f, ast.Attribute):
        return False
    if f.attr == "optimizer_step":
        return True
    if f.attr != "step":
        return False
    recv = f.value
    k = m.kind(recv)
    if isinstance(k, tuple) and k[0] == "inst":
        q = k[1]
        if q.startswith("torch.optim.lr_scheduler") or "Scheduler" in q or "LR" in q.rsplit(".", 1)[-1]:
            return False
        return q.startswith("torch.optim.") or q.endswith(("GradScaler",)) or "optim" in q.lower()
    text = _text(recv).lower()
    if "sched" in text or "lr" == text.rsplit(".", 1)[-1] or "env" in text:
        return False
    if "scaler" in text:
        return True
    return any(w in text for w in ("opt", "optim", "optimizer", "optimiser"))


def is_clear(m: Module, node: ast.AST) -> bool:
    """Clears gradients: ``*.zero_grad(...)``, ``p.grad = None``, ``p.grad.zero_()``."""
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Attribute):
            if f.attr in ("zero_grad", "clear_grad", "zero_grad_"):
                return True
            if f.attr in ("zero_", "detach_", "fill_") and _text(f.value).endswith("grad"):
                return True
    return False


def _text(e: Any) -> str:
    """Dotted text of a Name/Attribute chain (``self.opt``), '' for anything else."""
    parts = []
    while isinstance(e, ast.Attribute):
        parts.append(e.attr)
        e = e.value
    if isinstance(e, ast.Call):  # self.optimizers() / opt[0]
        return _text(e.func)
    if isinstance(e, ast.Subscript):
        return _text(e.value)
    if isinstance(e, ast.Name):
        parts.append(e.id)
    return ".".join(reversed(parts))


def text(e: Any) -> str:
    return _text(e)


def grad_none_assign(stmt_targets: list) -> bool:
    """``p.grad = None`` (or ``param.grad = None``)."""
    return any(isinstance(t, ast.Attribute) and t.attr == "grad" for t in stmt_targets)


def enclosing_no_grad(m: Module, withs: tuple) -> bool:
    for w in withs:
        for item in w.items:
            e = item.context_expr
            if isinstance(e, ast.Call):
                q = m.qualname(e.func)
                if q in N.NO_GRAD and q != "torch.enable_grad":
                    return True
    return False


def decorated_no_grad(m: Module, fn: Any) -> bool:
    for d in getattr(fn, "decorator_list", ()):
        e = d.func if isinstance(d, ast.Call) else d
        q = m.qualname(e)
        if q in N.NO_GRAD and q != "torch.enable_grad":
            return True
    return False
