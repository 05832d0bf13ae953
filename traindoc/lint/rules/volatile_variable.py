"""TD537 volatile-variable: ``Variable(x, volatile=True)``, ignored since PyTorch 0.4."""

from __future__ import annotations

import ast

from ..bindings import Param
from ..registry import Hit, lint_rule
from ..source import keyword, text


@lint_rule(
    "volatile-variable", "TD537", "warning",
    "Variable(..., volatile=True): the flag has had no effect since PyTorch 0.4, so autograd records the graph",
    needles=[("volatile",)],
    fix="run the code under `with torch.no_grad():` (or torch.inference_mode()) and drop Variable",
    confirm="print(out.requires_grad) for the evaluation output: True",
)
def check(m):
    """What it detects: `torch.autograd.Variable(..., volatile=True)` (any import
    spelling), also with a flag (`volatile=validation`, `volatile=not train`): the code
    relies on it for the evaluation pass, where it does nothing. `volatile=False` is not
    flagged (it asks for what happens anyway).

    Why it happens: `volatile` was the pre-0.4 way to disable autograd for
    inference. Since 0.4 it is ignored (with a warning that is easy to miss), so code
    written for it builds the full autograd graph during evaluation: about twice the
    memory and a slower loop, and an accumulated evaluation loss keeps every batch's
    graph until it runs out of memory.

    Example:
        x = Variable(x, volatile=True)
        out = model(x)

    How to fix:
        with torch.no_grad():
            out = model(x)
    """
    for site in m.w.calls:
        call = site.node
        v = keyword(call, "volatile")
        if v is None or isinstance(v, ast.Constant) and not v.value:
            continue  # volatile=False asked for the default; a flag (volatile=not train) relies on it
        q = m.qualname(call.func) or ""
        if not q.endswith("Variable"):
            continue
        flag = "volatile=True" if isinstance(v, ast.Constant) else f"volatile={text(v)}"
        callers = _callers_turning_on(m, v) or []
        lines = ", ".join(str(c.lineno) for c in callers[:3])
        where = (f" around the forward of the call on line {lines} that turns it on" if len(callers) == 1 else
                 f" around the forwards of the calls on lines {lines} that turn it on" if callers else "")
        yield Hit(call, f"{flag} has been ignored since PyTorch 0.4: autograd records the graph; use "
                        f"torch.no_grad(){where}",
                  related=tuple((c, f"`{text(c.func)}(...)` turns {v.id} on") for c in callers[:3]))


def _callers_turning_on(m, v) -> list | None:
    """The calls of the enclosing helper that pass a true (or non-constant) value for the
    parameter ``v`` names; None when ``v`` is not a parameter, the helper has no call in the
    file, a call hides its arguments, or the helper's default is on (every call turns it on)."""
    d = m.defs(v) if isinstance(v, ast.Name) else None
    if not d or len(d) != 1 or not isinstance(d[0], Param):
        return None
    p = d[0]
    if p.default is not None and not (isinstance(p.default, ast.Constant) and not p.default.value):
        return None
    calls = m.call_sites(p.fn)
    values = m.arg_values(p)
    if not calls or values is None or len(values) != len(calls):
        return None
    return [c for c, x in zip(calls, values) if not (isinstance(x, ast.Constant) and not x.value)]
