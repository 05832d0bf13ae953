"""TD537 volatile-variable: ``Variable(x, volatile=True)``, ignored since PyTorch 0.4."""

from __future__ import annotations

import ast

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
        if q.endswith("Variable"):
            flag = "volatile=True" if isinstance(v, ast.Constant) else f"volatile={text(v)}"
            yield Hit(call, f"{flag} has been ignored since PyTorch 0.4: autograd records the graph; use "
                            "torch.no_grad()")
