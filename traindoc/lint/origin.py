"""Where a value's kind comes from: the op that made ``pred`` a softmax output.

A finding points at the line where a pitfall does harm (the cross_entropy that receives a
softmax); the line to change is often elsewhere (the softmax in ``forward``). ``origin``
follows the same paths as :meth:`Module.kind` (names, parameters, unpacked returns, a
model's ``forward``) back to the call that produced the kind, so the finding can cite it
as evidence. It stops (None) wherever the path forks: two definitions, two returns.
"""

from __future__ import annotations

import ast
from typing import Any

from .bindings import Elt, Param


def origin(m, e: Any, want: str, depth: int = 8) -> ast.AST | None:
    """The expression (usually a call) that gives ``e`` the kind ``want``, or None."""
    while depth > 0 and e is not None:
        depth -= 1
        if isinstance(e, ast.Name):
            d = m.defs(e)
            e = d[0] if d and len(d) == 1 else None
        elif isinstance(e, Param):
            vals = m.arg_values(e) or ()
            e = vals[0] if len(vals) == 1 else None
        elif isinstance(e, Elt):
            e = _one(returned(m, e.value), e.index)
        elif isinstance(e, ast.Subscript):
            e = e.value  # probs[:, 1:]
        elif isinstance(e, ast.Attribute):
            e = e.value if m.kind(e.value) == want else None  # probs.data
        elif isinstance(e, ast.Call):
            inner = next((a for a in m.operands(e) if m.kind(a) == want), None)
            if inner is not None:
                e = inner  # a pass-through: .view(), .float(), torch.squeeze(x)
                continue
            rets = returned(m, e)
            if rets is None:
                return e  # the op itself: F.softmax(...), self.softmax(out), x.exp()
            e = _one(rets, None)
        else:
            return e if isinstance(e, ast.AST) and hasattr(e, "lineno") else None
    return None


def returned(m, call: ast.Call):
    """The returned expressions of a same-file function or model ``call`` runs, or None."""
    c = m.callee(call)
    k = c[1] if c[0] == "obj" and isinstance(c[1], tuple) else None
    fn = k[1] if k and k[0] == "func" else m.method(k[1], "forward") if k and k[0] == "local" else None
    return m.w.returns.get(id(fn)) if fn is not None else None


def _one(rets, index):
    """The single returned expression (element ``index`` of a returned tuple), or None."""
    if not rets or len(rets) != 1:
        return None
    r = rets[0]
    if index is None:
        return r
    if isinstance(r, (ast.Tuple, ast.List)) and len(r.elts) > index:
        return r.elts[index]
    return None
