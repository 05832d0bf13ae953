"""Weights kept as plain tensor attributes of an ``nn.Module``: ``self.keys =
torch.randn(slots, dim)`` in ``__init__`` (not ``nn.Parameter``, not ``register_buffer``)
and multiplied with activations in another method (``q @ self.keys.t()``, ``F.linear``;
a fixed latent passed to the generator is an input, not a weight). The module does not register it: ``model.parameters()`` never
yields it, so no optimizer trains it, and ``.to(device)`` / ``state_dict()`` skip it. Only
random draws count (``randn``, ``rand``, ``empty``, ``normal``): a learned weight's start;
``zeros`` / ``ones`` / ``arange`` are fixed masks, scales or running state. Used by the rule
``optimizer-misses-params`` (bench/real 335: a memory bank's keys and values)."""

from __future__ import annotations

import ast

from .flow import is_module_class
from .registry import Hit
from .source import call_name, short
from .walk import walk

_RANDOM = frozenset({"randn", "rand", "empty", "normal", "randn_like", "rand_like"})
# where a weight is used: multiplied with activations (a fixed latent or a state is passed to a call instead)
_PRODUCTS = frozenset({"matmul", "mm", "bmm", "einsum", "linear", "addmm", "cdist", "cosine_similarity", "mv"})
_WRAPS = frozenset({"Parameter", "register_buffer", "register_parameter", "ParameterList", "ParameterDict"})


def plain_tensor_attrs(m) -> list[Hit]:
    out: list[Hit] = []
    for cls in (n for n in walk(m.tree) if isinstance(n, ast.ClassDef)):
        if not is_module_class(m, cls):
            continue
        methods = [f for f in cls.body if isinstance(f, ast.FunctionDef)]
        init = next((f for f in methods if f.name == "__init__"), None)
        if init is None:
            continue
        registered = {_arg_name(c) for f in methods for c in walk(f) if isinstance(c, ast.Call)
                      and call_name(c) in _WRAPS}
        for a in (s for s in walk(init) if isinstance(s, ast.Assign) and len(s.targets) == 1):
            t = a.targets[0]
            if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"):
                continue
            calls = [c for c in walk(a.value) if isinstance(c, ast.Call)]
            if not calls or not any(call_name(c) in _RANDOM and "torch" in ast.unparse(c.func) for c in calls) \
                    or any(call_name(c) in _WRAPS for c in calls) or t.attr in registered:
                continue
            if any(_in_product(n, t.attr) for f in methods if f is not init for n in walk(f)):
                out.append(Hit(a, f"self.{t.attr} = {short(a.value)} in {cls.name}.__init__ is a plain tensor, not an "
                                  "nn.Parameter: model.parameters() never yields it, so the optimizer never trains it "
                                  "(and .to(device) and state_dict() skip it); wrap it in nn.Parameter (or "
                                  "register_buffer for a fixed one)"))
    return out


def _in_product(n: ast.AST, attr: str) -> bool:
    """``n`` is a matrix product (``@``, matmul, einsum, F.linear) one of whose operands
    reads ``self.<attr>`` (``q @ self.keys.t()``)."""
    if isinstance(n, ast.BinOp) and isinstance(n.op, ast.MatMult):
        parts: list = [n.left, n.right]
    elif isinstance(n, ast.Call) and call_name(n) in _PRODUCTS:
        parts = list(n.args)
    else:
        return False
    return any(isinstance(x, ast.Attribute) and x.attr == attr and isinstance(x.value, ast.Name) and x.value.id == "self"
               for p in parts for x in walk(p))


def _arg_name(c: ast.Call) -> str | None:
    """The attribute a registration names: ``register_buffer("keys", ...)`` -> keys,
    ``nn.Parameter(self.keys)`` -> keys."""
    a = c.args[0] if c.args else None
    if isinstance(a, ast.Constant) and isinstance(a.value, str):
        return a.value
    if isinstance(a, ast.Attribute):
        return a.attr
    return None
