"""What a name can be bound to, and where a node sits: the values of
:mod:`traindoc.lint.scope`'s pass, read by :mod:`traindoc.lint.kinds` and the rules."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class _Unknown:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()  # a binding whose value the pass cannot see (loop target, unpacking, +=)


class Elt:
    """Element ``index`` of what ``value`` (a call) returns, bound by unpacking:
    ``logits, aux = model(x)``. Kinds look through it to the callee's returned tuples."""

    __slots__ = ("value", "index")

    def __init__(self, value: ast.Call, index: int) -> None:
        self.value = value
        self.index = index


@dataclass(frozen=True)
class ImportRef:
    """A name bound by an import: ``F`` after ``import torch.nn.functional as F``."""

    q: str


class Param:
    """A function parameter: known through its annotation (``policy: Policy``) or, lazily,
    through what every call of the function in this file passes for it (and its default).
    A plain class with slots: one is made per parameter of every function."""

    __slots__ = ("fn", "name", "pos", "annotation", "default", "bound")

    def __init__(self, fn: Any, name: str, pos: int | None, annotation: ast.expr | None,
                 default: ast.expr | None, bound: bool) -> None:
        self.fn = fn  # the FunctionDef
        self.name = name
        self.pos = pos  # index among positional parameters (None: keyword-only)
        self.annotation = annotation
        self.default = default
        self.bound = bound  # a method: call sites do not pass the first parameter

    def __repr__(self) -> str:
        return f"Param({self.name!r})"


@dataclass
class Scope:
    node: ast.AST | None
    parent: "Scope | None"
    env: dict[str, tuple] = field(default_factory=dict)

    def lookup(self, name: str) -> tuple | None:
        s: Scope | None = self
        while s is not None:
            d = s.env.get(name)
            if d is not None:
                return d
            s = s.parent
        return None


class Ctx(NamedTuple):
    """Where a node sits: enclosing function and class, loops and ``with`` blocks (outermost first)."""

    func: Any = None
    cls: Any = None
    loops: tuple = ()
    withs: tuple = ()


class Site(NamedTuple):
    """A node with its context (a tuple: one is made per call in the file, so it must be cheap)."""

    node: ast.AST
    ctx: Ctx


def merge(a: dict, b: dict) -> dict:
    """Bindings after a branch: a name keeps every assignment that may reach it."""
    out = dict(a)
    for k, v in b.items():
        old = out.get(k)
        if old is None or old is v:
            out[k] = v
        else:
            out[k] = old + tuple(x for x in v if not any(x is y for y in old))
    return out
