"""Reads that prove a tensor is (batch, classes): one value picked per sample and class
(``p.gather(1, y)``, ``p[rows, y]``, ``p.argmax(dim=1)``), shared by the rules about a softmax
taken over the batch dimension."""

from __future__ import annotations

import ast

from .rows import const as _const
from .source import keyword, text
from .walk import walk


# per-sample picks over the class axis (the predicted class, its confidence, a renormalised
# row): dim=1 exists only on a 2-D (or wider) tensor, so it proves dim 0 was the batch (dim=-1
# would not: on a 1-D tensor it is dim 0 again). Sums and means over dim 1 are left out:
# attention weights normalised over a sequence-first axis are summed over the other one.
_CLASS_REDUCERS = frozenset({"max", "argmax", "topk", "normalize"})


def _reduced_over_classes(node: ast.Call, name: str) -> bool:
    """``name.max(dim=1)``, ``name.argmax(1)``, ``torch.sum(name, 1)``, ``F.normalize(name * r,
    p=1, dim=1)``: a reduction over dim 1 of ``name`` (or of an arithmetic expression of it)."""
    f = node.func
    attr = f.attr if isinstance(f, ast.Attribute) else None
    if attr not in _CLASS_REDUCERS:
        return False
    on_name = isinstance(f.value, ast.Name) and f.value.id == name
    dim = keyword(node, "dim")
    if on_name and attr != "normalize":
        dim = dim if dim is not None else (node.args[0] if node.args and attr != "topk" else None)
    elif node.args and _mentions(node.args[0], name):
        dim = dim if dim is not None else (node.args[1] if len(node.args) > 1 and attr != "normalize" else None)
    else:
        return False
    return _const(dim, 1)


def chained_pick(scope: ast.AST, call: ast.Call) -> bool:
    """``call`` is the receiver of a reduction over dim 1 (``F.softmax(x, 0).argmax(dim=1)``),
    or the first argument of one (``torch.max(F.softmax(x, dim=0), dim=1)``)."""
    for node in walk(scope):
        f = node.func if isinstance(node, ast.Call) else None
        if isinstance(f, ast.Attribute) and f.value is call and f.attr in _CLASS_REDUCERS and f.attr != "normalize":
            dim = keyword(node, "dim")
            return _const(dim if dim is not None else node.args[0] if node.args and f.attr != "topk" else None, 1)
        if isinstance(f, ast.Attribute) and f.attr in _CLASS_REDUCERS and f.attr != "normalize" and node.args \
                and node.args[0] is call and text(f.value) == "torch":
            dim = keyword(node, "dim")
            return _const(dim if dim is not None else node.args[1] if len(node.args) > 1 and f.attr != "topk"
                          else None, 1)
    return False


def _mentions(e: ast.AST, name: str) -> bool:
    """``e`` is ``name`` or arithmetic on it (``name * ratio``, ``1e-6 + name``)."""
    if isinstance(e, ast.Name):
        return e.id == name
    if isinstance(e, ast.BinOp) and type(e.op) in (ast.Add, ast.Sub, ast.Mult, ast.Div):
        return _mentions(e.left, name) or _mentions(e.right, name)
    return False


def soft_cross_entropy(scope: ast.AST, name: str):
    """``torch.sum(targets * name, dim=1)`` / ``(targets * name).sum(1)``: log-probabilities
    weighted by soft targets and summed over dim 1, a cross-entropy per sample (log_softmax
    only: attention weights times values are summed over either axis)."""
    for node in walk(scope):
        f = node.func if isinstance(node, ast.Call) else None
        if not (isinstance(f, ast.Attribute) and f.attr == "sum"):
            continue
        if text(f.value) == "torch":
            expr = node.args[0] if node.args else None
            dim = keyword(node, "dim") or (node.args[1] if len(node.args) > 1 else None)
        else:
            expr, dim = f.value, keyword(node, "dim") or (node.args[0] if node.args else None)
        if _const(dim, 1) and isinstance(expr, ast.BinOp) and type(expr.op) is ast.Mult and any(
                isinstance(a, ast.Name) and a.id == name and not isinstance(b, ast.Constant)
                for a, b in ((expr.left, expr.right), (expr.right, expr.left))):
            yield node


def per_sample_reads(m, scope: ast.AST, name: str):
    """Uses of ``name`` in ``scope`` that read one value per (sample, class), proof of a 2-D
    tensor: ``name.gather(1, ...)``, ``torch.gather(name, 1, ...)``, ``name[rows, cols]``, a
    reduction over dim 1 (``name.max(dim=1)``, ``F.normalize(name * r, p=1, dim=1)``)."""
    for node in walk(scope):
        if isinstance(node, ast.Call):
            f = node.func
            dim = node.args[0] if node.args else keyword(node, "dim")  # x.gather(1, i), x.gather(dim=1, index=i)
            if (isinstance(f, ast.Attribute) and f.attr == "gather" and isinstance(f.value, ast.Name)
                    and f.value.id == name and isinstance(dim, ast.Constant) and dim.value in (1, -1)):
                yield node
            elif (isinstance(f, ast.Attribute) and f.attr == "gather" and len(node.args) >= 2
                  and isinstance(node.args[0], ast.Name) and node.args[0].id == name
                  and isinstance(node.args[1], ast.Constant) and node.args[1].value in (1, -1)):
                yield node
            elif _reduced_over_classes(node, name):
                yield node
        elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name
              and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2
              and not any(isinstance(e, ast.Slice) for e in node.slice.elts)):
            yield node
