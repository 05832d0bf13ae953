"""Code that does not train: under ``torch.no_grad()`` / ``inference_mode``, decorated with
one, or in a function named like evaluation."""

from __future__ import annotations

import ast
from typing import Any

from . import names as N
from .kinds import Module


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


_EVAL_WORDS = frozenset("eval evaluate evaluation val valid validate validation test testing predict prediction "
                        "inference infer sample sampling generate".split())


def eval_context(m: Module, ctx: Any) -> bool:
    """Code that does not train: under ``torch.no_grad()`` / ``inference_mode``, in a function
    decorated with one, or in a function (or an enclosing one) named like evaluation."""
    if enclosing_no_grad(m, ctx.withs):
        return True
    fn = ctx.func
    seen = 0
    while fn is not None and seen < 8:
        if decorated_no_grad(m, fn) or _name_words(fn.name) & _EVAL_WORDS:
            return True
        fn = m.w.func_ctx.get(id(fn), None)
        fn = fn.func if fn is not None else None
        seen += 1
    return False


def _name_words(name: str) -> set[str]:
    return set(name.lower().strip("_").split("_"))
