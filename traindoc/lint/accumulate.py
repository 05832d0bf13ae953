"""Where a training loop keeps the loss tensor: the accumulations running-loss-keeps-graph reports.

Shared helpers of that rule (kept apart so that the rule's file stays readable): which
statements add a backpropagated name to a total, and which names are that loss.
"""

from __future__ import annotations

import ast

from .source import short, text
from .walk import walk


def accumulations(loop: ast.AST, names: set[str], m=None) -> list[tuple]:
    """``(node, total, loss name, "+=" | "+" | "setitem" | "append" | "add_" | "update" | "add")`` for
    each statement of ``loop`` that adds a backpropagated name to a total: ``t += loss``, ``t = t +
    loss``, ``hist[step] = loss`` (``hist`` made outside the loop), ``t.append(loss)``,
    ``t.add_(loss)``, ``meter.update(loss, n)`` / ``meter.update([ce, kl])``."""
    found = []
    for n in walk(loop):
        t = type(n)
        if t is ast.AugAssign and type(n.op) is ast.Add:
            v = loss_name(n.value, names)
            if v:
                found.append((n, text(n.target), v, "+="))
        elif t is ast.Assign and len(n.targets) == 1 and isinstance(n.value, ast.BinOp) \
                and type(n.value.op) is ast.Add and text(n.targets[0]):
            tgt = text(n.targets[0])
            sides = (n.value.left, n.value.right)
            if any(text(s) == tgt for s in sides):
                other = sides[1] if text(sides[0]) == tgt else sides[0]
                v = loss_name(other, names)
                if v:
                    found.append((n, tgt, v, "+"))
        elif t is ast.Assign and len(n.targets) == 1 and isinstance(n.targets[0], ast.Subscript) \
                and _outlives(m, n.targets[0].value, loop):
            # history[step] = loss: a dict (or list) made before the loop keeps every step's loss
            v = loss_name(n.value, names)
            if v:
                found.append((n, text(n.targets[0].value), v, "setitem"))
        elif t is ast.Call and isinstance(n.func, ast.Attribute) and n.func.attr == "append" and len(n.args) == 1:
            a = n.args[0]
            # the loss itself, or a record holding it: outputs.append({"loss": loss}), hist.append((step, loss))
            held = a.values if isinstance(a, ast.Dict) else a.elts if isinstance(a, (ast.Tuple, ast.List)) else [a]
            v = next((x.id for x in held if isinstance(x, ast.Name) and x.id in names), "")
            if v:
                found.append((n, text(n.func.value), v, "append"))
        elif t is ast.Call and isinstance(n.func, ast.Attribute) and n.func.attr == "add_" and len(n.args) == 1 \
                and isinstance(n.args[0], ast.Name) and n.args[0].id in names:
            # total.add_(loss): a tensor total added to in place keeps each step's graph
            found.append((n, text(n.func.value) or short(n.func.value), n.args[0].id, "add_"))
        elif t is ast.Call and isinstance(n.func, ast.Attribute) and n.func.attr in ("update", "add") and n.args \
                and m is not None and sums(m, n.func.value, n.func.attr):
            # meter.update(loss, n), meter.update([ce, kl]), stats.add("loss", loss)
            v = next((loss_name(x, names) for a in n.args for x in (a, *getattr(a, "elts", ()))
                      if loss_name(x, names)), "")
            if v:
                found.append((n, text(n.func.value), v, n.func.attr))
    return found


# By name only for ``.update`` (AverageMeter and its copies); loggers named tracker/stats
# (labml's tracker.add) convert what they are given, so ``.add`` needs a class of the file.
_METER_WORDS = ("meter", "avg", "average", "running")


def sums(m, recv, method: str) -> bool:
    """``recv.update(...)`` adds its values up: an AverageMeter-like name, or an instance of
    a class of this file whose ``update``/``add`` sums into an attribute."""
    name = (text(recv) or "").rsplit(".", 1)[-1].lower()
    if method == "update" and any(w in name for w in _METER_WORDS):
        return True
    k = m.kind(recv)
    if not (isinstance(k, tuple) and k[0] == "local"):
        return False
    fn = m.method(k[1], method)
    return fn is not None and any(type(x) is ast.AugAssign and type(x.op) is ast.Add
                                  or type(x) is ast.Assign and isinstance(x.value, ast.BinOp)
                                  and type(x.value.op) is ast.Add for x in walk(fn))


def loss_name(e, names: set[str]) -> str:
    """``loss`` or ``loss * k`` / ``k * loss`` / ``loss / k``: the backpropagated name, or ''."""
    if isinstance(e, ast.Name):
        return e.id if e.id in names else ""
    if output_loss(e):
        return text(e) if text(e) in names else ""
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) and e.value.id in names:
        return short(e)  # losses[key]
    if isinstance(e, ast.BinOp) and type(e.op) in (ast.Mult, ast.Div):
        return loss_name(e.left, names) or (loss_name(e.right, names) if type(e.op) is ast.Mult else "")
    return ""


def output_loss(e) -> bool:
    """``outputs.loss``: the loss a model returns on its output object (Hugging Face)."""
    return isinstance(e, ast.Attribute) and e.attr == "loss" and isinstance(e.value, ast.Name)


def _outlives(m, container, loop) -> bool:
    """``container`` (``hist`` of ``hist[step] = loss``) is ``self.x`` or a name bound only
    outside ``loop``: it survives the iteration. A dict made inside the loop
    (``logs = {}; logs["loss"] = loss; wandb.log(logs)``) dies with it."""
    if isinstance(container, ast.Attribute):
        return isinstance(container.value, ast.Name) and container.value.id == "self"
    if not isinstance(container, ast.Name) or m is None:
        return False
    d = m.defs(container)
    inside = {id(x) for x in walk(loop)}
    return bool(d) and not any(id(x) in inside for x in d)
