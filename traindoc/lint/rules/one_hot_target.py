"""TD524 one-hot-target: ``F.one_hot(y)`` passed as the target of cross_entropy / nll_loss."""

from __future__ import annotations

import ast

from .. import names as N
from ..ops import loss_of
from ..registry import Hit, lint_rule


@lint_rule(
    "one-hot-target", "TD524", "warning",
    "one-hot targets (F.one_hot) passed to CrossEntropyLoss / NLLLoss, which take class indices",
    needles=[("one_hot",), ("cross_entropy", "CrossEntropyLoss", "nll_loss", "NLLLoss")],
    fix="pass the class indices (a LongTensor of shape (N,)) directly: F.cross_entropy(logits, y)",
    confirm="print target.shape and target.dtype at the loss: (N, C) instead of (N,)",
)
def check(m):
    """What it detects: the target of `F.cross_entropy` / `nn.CrossEntropyLoss` or
    `F.nll_loss` / `nn.NLLLoss` is built with `F.one_hot(...)` (directly or through a
    name, with `.float()` / `.to(...)` in between). Severity: error for an integer one-hot
    or any one-hot given to nll_loss (they fail or compute the wrong thing), warning for a
    float one-hot given to cross_entropy.

    Why it happens: these losses take class indices. An integer (N, C) one-hot is
    read as N x C class indices and fails with a shape error; nll_loss has no
    probability-target mode at all. Since PyTorch 1.10 cross_entropy accepts float
    (N, C) targets as class probabilities, so a float one-hot gives the same loss, but
    `ignore_index` does not apply to probability targets (padding tokens count in the
    loss), it is slower and uses C times the memory for targets, and the code breaks on
    older versions (cause `loss-mismatch`).

    Example:
        target = F.one_hot(y, num_classes=10).float()
        loss = F.cross_entropy(logits, target)

    How to fix:
        loss = F.cross_entropy(logits, y)                # y: class indices, dtype long
        # soft labels on purpose: keep the float targets and say so (label_smoothing= may be enough)
    """
    for site in m.w.calls:
        lc = loss_of(m, site.node)
        if lc is None or lc[0] not in ("cross_entropy", "nll_loss") or lc[2] is None:
            continue
        how = _one_hot(m, lc[2], 3)
        if not how:
            continue
        if lc[0] == "nll_loss" or how == "int":
            yield Hit(site.node, f"{lc[0]} given a one-hot target: it expects class indices of shape (N,); an "
                                 "integer (N, C) one-hot fails or is read as indices; pass the labels", severity="error")
        else:
            yield Hit(site.node, "cross_entropy given a float one-hot target: it is read as class probabilities "
                                 "(ignore_index does not apply, C times the memory); pass the class indices")


_FLOAT = frozenset({"float", "double", "half", "bfloat16", "to", "type"})


def _one_hot(m, e, depth: int) -> str:
    """"int" / "float" when ``e`` is a one-hot tensor, else ""."""
    if isinstance(e, ast.Name) and depth:
        d = m.defs(e)
        if d and len(d) == 1 and isinstance(d[0], ast.expr):
            return _one_hot(m, d[0], depth - 1)
        return ""
    if not isinstance(e, ast.Call):
        return ""
    c = m.callee(e)
    if c[0] == "fn" and c[1] in N.ONE_HOT:
        return "int"
    if c[0] == "meth" and depth:
        inner = _one_hot(m, c[2], depth - 1)
        if inner and c[1] in _FLOAT:
            return "float" if c[1] != "to" or _float_arg(m, e) else inner
        if inner and c[1] in ("cuda", "cpu", "view", "reshape", "squeeze", "contiguous", "detach"):
            return inner
    return ""


def _float_arg(m, call) -> bool:
    for a in [*call.args, *(k.value for k in call.keywords if k.arg == "dtype")]:
        q = m.qualname(a) or ""
        if q in ("torch.float", "torch.float32", "torch.float16", "torch.half", "torch.bfloat16", "torch.double",
                 "torch.float64"):
            return True
    return False
