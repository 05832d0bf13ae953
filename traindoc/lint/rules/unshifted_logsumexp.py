"""TD515 unshifted-logsumexp: ``log(exp(x).sum())`` or ``log(1 + exp(x))`` written by hand."""

from __future__ import annotations

import ast

from ..ops import op_of
from ..registry import Hit, lint_rule


@lint_rule(
    "unshifted-logsumexp", "TD515", "error",
    "a hand-written logsumexp (log of a sum of exp) or softplus (log(1 + exp(x))) without the max subtracted",
    needles=[("exp",), ("log",)],
    fix="use torch.logsumexp(x, dim), torch.logaddexp(a, b) or F.softplus(x)",
    confirm="add 100 to x: the hand-written version returns inf, torch.logsumexp returns the right value",
)
def check(m):
    """What it detects: the log of a sum of exponentials whose arguments are not shifted by
    their maximum: `torch.log(torch.exp(x).sum(-1))`, `x.exp().sum(1).log()`,
    `torch.log(torch.exp(a) + torch.exp(b))`, and the hand-written softplus
    `torch.log(1 + torch.exp(x))` (or `torch.log1p(torch.exp(x))`), and `log(1 + sum(exp(x)))`
    of the multi-similarity and circle losses. A shifted argument (`x - x.max(...)`, a
    log-probability, a clamp from above, `-x.abs()`) is not flagged.

    Why it happens: float32 exp overflows to inf for arguments above 88.7
    (float16: 11.1). The log of inf is inf, the loss is inf, and the gradient
    exp(x) / sum(exp(x)) is inf / inf = NaN (cause `unstable-op`). The library functions
    subtract the maximum first and are exact for any finite input.

    Example:
        lse = torch.log(torch.exp(scores).sum(dim=-1))  # inf once a score exceeds ~88
        nll = lse - scores.gather(-1, y[:, None]).squeeze(-1)
        sp = torch.log(1 + torch.exp(z))                 # softplus by hand

    How to fix:
        lse = torch.logsumexp(scores, dim=-1)
        sp = F.softplus(z)                               # or torch.logaddexp(a, b)
    """
    for site in m.w.calls:
        call = site.node
        if _log1p_of_exp(m, call):
            yield Hit(call, "log1p(exp(x)) by hand: exp overflows to inf above 88 (float16: 11) and the loss turns "
                            "inf/NaN; use F.softplus(x)")
            continue
        if op_of(m, call) != "log":
            continue
        arg = m.subject(call)
        if arg is None:
            continue
        if m.kind(arg) == "sumexp":
            yield Hit(call, "log of a sum of exp without the max subtracted: exp overflows to inf above 88 "
                            "(float16: 11) and the loss turns inf/NaN; use torch.logsumexp")
        elif isinstance(arg, ast.BinOp) and type(arg.op) is ast.Add and _exp_sum(m, arg):
            yield Hit(call, "log(1 + exp(x)) / log(exp(a) + exp(b)) by hand: exp overflows to inf above 88; "
                            "use F.softplus or torch.logaddexp")


def _exp_sum(m, e: ast.BinOp) -> bool:
    sides = (e.left, e.right)
    exps = [s for s in sides if _expish(m, s)]
    if not exps:
        return False
    other = [s for s in sides if not _expish(m, s)]
    return not other or all(isinstance(s, ast.Constant) and isinstance(s.value, (int, float)) for s in other)


def _expish(m, e) -> bool:
    """An unshifted exp, a sum of them (the multi-similarity loss's ``log(1 + sum(exp(s)))``), or a
    product of such (circle loss: ``log(1 + sum_p exp(.) * sum_n exp(.))``): each overflows alike."""
    if isinstance(e, ast.BinOp) and type(e.op) is ast.Mult:
        return _expish(m, e.left) and _expish(m, e.right)
    return m.kind(e) in ("exp", "sumexp")


def _log1p_of_exp(m, call: ast.Call) -> bool:
    """``torch.log1p(torch.exp(x))`` / ``x.exp().log1p()``: softplus by hand, x not shifted."""
    f = call.func
    if not (isinstance(f, ast.Attribute) and f.attr == "log1p" or isinstance(f, ast.Name) and f.id == "log1p"):
        return False
    c = m.callee(call)
    arg = c[2] if c[0] == "meth" else call.args[0] if call.args and c[0] == "fn" and c[1] in _LOG1P else None
    return arg is not None and m.kind(arg) == "exp"


_LOG1P = frozenset({"torch.log1p", "numpy.log1p", "torch.special.log1p"})
