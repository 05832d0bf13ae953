"""TD536 backward-inside-autocast: ``backward()`` called inside the ``autocast`` block."""

from __future__ import annotations

import ast

from .. import names as N
from ..registry import Hit, lint_rule
from ..source import text
from ..training import is_backward


@lint_rule(
    "backward-inside-autocast", "TD536", "info",
    "backward() called inside the autocast block; the AMP recipe runs only the forward pass and the loss under autocast",
    needles=[("autocast",), ("backward",)],
    fix="dedent the backward: with autocast(...): out = model(x); loss = crit(out, y)  then  scaler.scale(loss).backward()",
    confirm="torch's AMP documentation: 'Backward passes under autocast are not recommended'",
)
def check(m):
    """What it detects: a `backward()` call (`loss.backward()`,
    `scaler.scale(loss).backward()`) lexically inside a `with torch.autocast(...)` /
    `torch.cuda.amp.autocast()` / `torch.amp.autocast(...)` / `accelerator.autocast()` (Accelerate,
    Lightning Fabric) block that is not disabled, also through a name bound to one
    (`ctx = torch.autocast(...) if amp else nullcontext()`, then `with ctx:`),
    (`enabled=False`; a flag such as `enabled=args.amp` counts as on). Severity info: it works, but against the documented recipe.

    Why it happens: autocast chooses a precision per op for the forward pass; the
    backward ops already run in the dtype of their forward ops. Running `backward()`
    inside the context also casts the ops of anything computed there (custom autograd
    functions, gradient penalties, the scaler's bookkeeping), which the AMP
    documentation calls unsupported ("Backward passes under autocast are not
    recommended"); in gradient-penalty code it silently computes the penalty's graph in
    float16 (cause `fp16-overflow`).

    Example:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = criterion(model(x), y)
            scaler.scale(loss).backward()                # inside the block

    How to fix:
        with torch.autocast("cuda", dtype=torch.float16):
            loss = criterion(model(x), y)
        scaler.scale(loss).backward()
    """
    for site in m.w.calls:
        if not site.ctx.withs or not is_backward(m, site.node):
            continue
        for w in site.ctx.withs:
            if any(_autocast(m, item.context_expr) for item in w.items):
                yield Hit(site.node, f"backward() inside the autocast block on line {w.lineno}: the AMP recipe runs "
                                     "only the forward pass and the loss under autocast; move the backward out")
                break


def _autocast(m, e, named: bool = True) -> bool:
    if named and isinstance(e, ast.Name):
        # `ctx = torch.autocast(...) if amp else nullcontext()` ... `with ctx:` (nanoGPT, llm.c)
        arms = [a for d in m.defs(e) or () for a in ((d.body, d.orelse) if isinstance(d, ast.IfExp) else (d,))]
        return any(_autocast(m, a, named=False) for a in arms)
    if not isinstance(e, ast.Call):
        return False
    q = m.qualname(e.func)
    if q not in N.AUTOCAST:
        # Accelerate's and Lightning Fabric's own context: `with accelerator.autocast():`
        f = e.func
        return isinstance(f, ast.Attribute) and f.attr == "autocast" and not e.args and not e.keywords \
            and text(f.value).rsplit(".", 1)[-1].lower() in ("accelerator", "fabric")
    en = next((k.value for k in e.keywords if k.arg == "enabled"), None)
    # enabled=args.amp: wrong whenever the flag is on, which is what the flag is for
    return not (isinstance(en, ast.Constant) and not en.value)
