"""TD543 clamped-residual-loss: an error clamped to a range and then squared, whose gradient
is zero wherever the error is outside it (error clipping where gradient clipping was meant)."""

from __future__ import annotations

import ast

from ..flow import single_def
from ..registry import Hit, lint_rule
from ..source import may_be, text
from ..walk import walk

_CLAMPS = frozenset({"torch.clamp", "torch.clip", "torch.Tensor.clamp", "torch.Tensor.clip"})


@lint_rule(
    "clamped-residual-loss", "TD543", "warning",
    "a residual (target - prediction) clamped to a range and then squared: outside the range its gradient is 0, "
    "so the samples with the largest errors teach nothing",
    needles=[("clamp", "clip"), ("**", "square", "pow", "*")],
    fix="use the Huber loss, which clips the gradient and not the error: F.huber_loss(pred, target, delta=1.0) "
        "(F.smooth_l1_loss); or clip the gradient norm",
    confirm="print the fraction of residuals outside the clamp's range: their gradient is exactly 0",
)
def check(m):
    """What it detects: `torch.clamp(err, -1, 1) ** 2` (also `torch.clip`, `err.clamp(...)`,
    `torch.square`, `.pow(2)`, `c * c`, through one name) where `err` is a difference
    (`target - q`, directly or through one name, or its `abs`), the clamp has an upper
    bound (a one-sided `clamp(R - v, min=0)` is a hinge, as in self-imitation learning's
    value loss, and is left alone) and the unclamped error is used nowhere else in the
    function. A hand-written Huber loss, which adds the linear part
    (`0.5 * q ** 2 + (abs_err - q)` with `q = abs_err.clamp(max=1)`), uses the error again
    and is not flagged. The finding points at the clamp.

    Why it happens: "error clipping" in the DQN paper means clipping the gradient of the
    squared error to [-1, 1], which is the Huber loss. Clamping the error itself makes the
    loss flat outside the range: the derivative of clamp there is 0, so every sample whose
    error exceeds the bound contributes no gradient at all. Early in training, when most
    errors are large, almost nothing is learned, and the samples the model gets most wrong
    are exactly the ones it ignores (cause `loss-mismatch`).

    Example:
        delta = target_q - q
        loss = torch.clamp(delta, -1, 1).pow(2).mean()  # no gradient where |delta| > 1

    How to fix:
        loss = F.huber_loss(q, target_q, delta=1.0)      # quadratic inside, linear outside
    """
    for site in m.w.calls:
        call = site.node
        if not may_be(call, {"clamp", "clip"}):
            continue
        c = m.callee(call)
        q = c[1] if c[0] == "fn" else "torch.Tensor." + c[1] if c[0] == "meth" else ""
        if q not in _CLAMPS:
            continue
        err = call.args[0] if c[0] == "fn" and call.args else c[2] if c[0] == "meth" else None
        if err is None or not _residual(m, err) or not _bounded_above(call, c[0] == "fn"):
            continue  # a one-sided clamp at 0 (max(R - v, 0) ** 2, self-imitation) is a hinge, by design
        fn = site.ctx.func if site.ctx.func is not None else m.tree
        squared = _squared(m, fn, call)
        if squared is None or _reused(fn, err, call):
            continue
        yield Hit(call, f"the error `{text(err) or ast.unparse(err)}` is clamped and then squared (line {squared.lineno}): the clamp's "
                        "gradient is 0 outside its range, so every sample whose error exceeds the bound contributes "
                        "no gradient; use F.huber_loss (it clips the gradient, not the error)")


def _bounded_above(call: ast.Call, fn: bool) -> bool:
    """The clamp has an upper bound: ``clamp(e, lo, hi)``, ``e.clamp(lo, hi)``, ``max=``
    (Huber's quadratic part ``|e|.clamp(max=1)`` included: its linear part is checked apart)."""
    pos = call.args[1:] if fn else call.args
    return len(pos) >= 2 or any(k.arg == "max" for k in call.keywords)


def _residual(m, e, depth: int = 2) -> bool:
    """``a - b``, ``abs(a - b)``, or a name bound to one."""
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Sub):
        return True
    if isinstance(e, ast.Call) and depth and (m.qualname(e.func) in ("torch.abs", "abs") or
                                              isinstance(e.func, ast.Attribute) and e.func.attr == "abs"):
        inner = e.args[0] if e.args else e.func.value
        return _residual(m, inner, depth - 1)
    if isinstance(e, ast.Name) and depth:
        d = single_def(m, e)
        return d is not None and _residual(m, d, depth - 1)
    return False


def _is_clamp_result(node, clamp, names: set) -> bool:
    return node is clamp or isinstance(node, ast.Name) and node.id in names


def _squared(m, fn, clamp):
    """The node that squares the clamp's result (directly or through a name it is bound to)."""
    names = {t.id for n in walk(fn) if isinstance(n, ast.Assign) and n.value is clamp
             for t in n.targets if isinstance(t, ast.Name)}
    for n in walk(fn):
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow) and isinstance(n.right, ast.Constant) \
                and n.right.value == 2 and _is_clamp_result(n.left, clamp, names):
            return n
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult) and _is_clamp_result(n.left, clamp, names) \
                and ast.dump(n.left) == ast.dump(n.right):
            return n
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and _is_clamp_result(f.value, clamp, names) and (
                    f.attr == "square" or f.attr == "pow" and n.args and isinstance(n.args[0], ast.Constant)
                    and n.args[0].value == 2):
                return n
            q = m.qualname(f) or ""
            if q in ("torch.square", "torch.pow") and n.args and _is_clamp_result(n.args[0], clamp, names) and (
                    q == "torch.square" or len(n.args) > 1 and isinstance(n.args[1], ast.Constant)
                    and n.args[1].value == 2):
                return n
    return None


def _reused(fn, err, clamp) -> bool:
    """The unclamped error appears again outside the clamp (a Huber loss's linear part)."""
    if not isinstance(err, ast.Name):
        return False
    inside = {id(x) for x in walk(clamp)}
    return any(isinstance(n, ast.Name) and n.id == err.id and isinstance(n.ctx, ast.Load) and id(n) not in inside
               for n in walk(fn))
