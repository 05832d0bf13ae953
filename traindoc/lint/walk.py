"""``ast.walk`` for the rules, each subtree's walk kept for the file being linted.

The rules walk the same functions and loop bodies again and again (a quarter of lint's
time went to ``ast.walk``'s generators, 88 000 walks over 222 files). The first walk of a
node stores its descendants, in ``ast.walk``'s order (breadth first); later walks of that
node iterate the stored tuple. The engine clears the store after each file; each entry
holds its node, so an id cannot be reused by another node while it is stored.
"""

from __future__ import annotations

import ast
from collections import deque

_AST = ast.AST
_store: dict[int, tuple[ast.AST, tuple[ast.AST, ...]]] = {}


def _nodes(node: ast.AST) -> tuple[ast.AST, ...]:
    out = []
    todo = deque([node])
    pop, push = todo.popleft, todo.append
    while todo:
        n = pop()
        out.append(n)
        for name in n._fields:
            v = getattr(n, name, None)
            if v.__class__ is list:
                for x in v:
                    if isinstance(x, _AST):
                        push(x)
            elif isinstance(v, _AST):
                push(v)
    return tuple(out)


def walk(node: ast.AST) -> tuple[ast.AST, ...]:
    """``node`` and every node below it, in ``ast.walk``'s order."""
    hit = _store.get(id(node))
    if hit is not None and hit[0] is node:
        return hit[1]
    nodes = _nodes(node)
    _store[id(node)] = (node, nodes)
    return nodes


def clear() -> None:
    _store.clear()
