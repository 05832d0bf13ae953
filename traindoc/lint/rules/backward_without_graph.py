"""TD520 backward-without-graph: backward() on a loss computed under no_grad or from detached outputs."""

from __future__ import annotations

import ast

from .. import names as N
from ..flow import single_def
from ..grad_mode import decorated_no_grad
from ..ops import loss_of
from ..registry import Hit, lint_rule


@lint_rule(
    "backward-without-graph", "TD520", "error",
    "backward() on a loss computed under torch.no_grad() (or inference_mode) or from .detach()ed model outputs",
    needles=[("backward",), ("no_grad", "inference_mode", "detach", ".data")],
    fix="compute the training forward pass and loss outside torch.no_grad(), on the model output itself (no .detach())",
    confirm="print loss.requires_grad and loss.grad_fn before backward(): False / None",
)
def check(m):
    """What it detects: `loss.backward()` (also `scaler.scale(loss).backward()`) where
    `loss` was assigned inside the same `with torch.no_grad():` / `torch.inference_mode()`
    block, or in a function decorated with one (and not re-enabled with
    `torch.enable_grad()`), and a loss whose input is a `.detach()`ed or `.data` tensor
    (`loss = criterion(out.detach(), y)` then `loss.backward()`). A GAN's
    `D(fake.detach())` is not flagged: the detach is inside the model call, which still
    has a graph through D.

    Why it happens: under no_grad no graph is recorded and a detached tensor has
    none, so the loss has no `grad_fn`. `backward()` then raises "element 0 of tensors does
    not require grad and does not have a grad_fn", or, when some other term of the loss
    still has a graph, silently trains only that term while the model that produced the
    detached output gets no gradient (cause `params-not-updated`).

    Example:
        with torch.no_grad():
            out = model(x)
            loss = criterion(out, y)
            loss.backward()                              # no graph

    How to fix:
        out = model(x)                                   # grad mode for the training pass
        loss = criterion(out, y)
        loss.backward()
        # keep torch.no_grad() for evaluation and for targets (EMA teachers, replay buffers)
    """
    grad_withs = None
    for site in m.w.calls:
        call = site.node
        name = _loss_name(call)
        if name is None:
            continue
        d = m.defs(name)
        if not d or not all(isinstance(x, ast.expr) for x in d):
            continue
        if grad_withs is None:
            grad_withs = _grad_mode_withs(m)
        where = _under_no_grad(m, site, d, grad_withs)
        if where:
            yield Hit(call, f"backward() on `{name.id}`, computed {where}: no autograd graph was recorded "
                            "(RuntimeError, or no gradient for that part of the loss)")
            continue
        one = single_def(m, name)
        if isinstance(one, ast.Call):
            lc = loss_of(m, one)
            if lc and _detached(lc[1]):
                yield Hit(call, f"backward() on `{name.id}` (line {one.lineno}), a loss of a detached tensor: "
                                "no gradient reaches the model that produced it")


def _loss_name(call: ast.Call):
    f = call.func
    if not isinstance(f, ast.Attribute) or f.attr != "backward":
        return None
    r = f.value
    if isinstance(r, ast.Call) and isinstance(r.func, ast.Attribute) and r.func.attr == "scale" and r.args:
        r = r.args[0]
    return r if isinstance(r, ast.Name) else None


def _grad_mode_withs(m) -> list:
    """(with node, 'off' | 'on') for every grad-mode ``with`` of the file."""
    out = []
    for s in m.w.withs:
        for item in s.node.items:
            e = item.context_expr
            if isinstance(e, ast.Call):
                q = m.qualname(e.func)
                if q in N.NO_GRAD:
                    on = q == "torch.enable_grad" or (q.endswith("set_grad_enabled") and not (
                        e.args and isinstance(e.args[0], ast.Constant) and e.args[0].value is False))
                    out.append((s.node, "on" if on else "off"))
    return out


def _inside(node, w) -> bool:
    return w.lineno < node.lineno <= (w.end_lineno or w.lineno) and w.body[0].lineno <= node.lineno


def _under_no_grad(m, site, defs, withs) -> str:
    call = site.node
    # innermost grad-mode block around the backward call
    around = [(w, mode) for w, mode in withs if _inside(call, w)]
    if around:
        w, mode = max(around, key=lambda x: x[0].lineno)
        if mode == "off" and all(_inside(d, w) for d in defs) and not any(
                mode2 == "on" and _inside(d, w2) for d in defs for w2, mode2 in withs if w2 is not w):
            return f"inside the torch.no_grad() block on line {w.lineno}"
        return ""
    fn = site.ctx.func
    if fn is not None and decorated_no_grad(m, fn):
        if not any(mode == "on" and _inside(d, w) for d in defs for w, mode in withs):
            return f"in `{fn.name}`, decorated with torch.no_grad()"
    return ""


def _detached(e) -> bool:
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "detach" and not e.args:
        return True
    return isinstance(e, ast.Attribute) and e.attr == "data"
