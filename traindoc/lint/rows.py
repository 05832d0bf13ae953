"""Expressions about a tensor's rows (the batch): constants, the batch size spelt out, and
reshapes that keep or drop the rows. Shared by the rules that decide whether dim 0 is a
batch (softmax-over-batch-dim)."""

from __future__ import annotations

import ast

from .walk import walk


def one_score_per_node(fn, call) -> bool:
    """The forward squeezes or flattens before its softmax (``x.squeeze(-1)``, ``x.view(-1)``):
    one score per node, and a softmax over dim 0 is a distribution over the nodes (a policy
    that picks a node, attention pooling), which is meant."""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.lineno <= call.lineno
               and (n.func.attr in ("squeeze", "flatten", "ravel")
                    or n.func.attr in ("view", "reshape") and len(n.args) == 1 and minus_one(n.args[0]))
               for n in walk(fn))


def true(e) -> bool:
    return isinstance(e, ast.Constant) and e.value is True


def const(e, v) -> bool:
    return isinstance(e, ast.Constant) and e.value == v and type(e.value) is int


def minus_one(e) -> bool:
    return isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub) and const(e.operand, 1)


def size0(e) -> bool:
    """``x.size(0)``, ``x.shape[0]``, ``len(x)``: the batch size."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "size":
        return bool(e.args) and const(e.args[0], 0)
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Attribute) and e.value.attr == "shape":
        return const(e.slice, 0)
    return isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "len"
