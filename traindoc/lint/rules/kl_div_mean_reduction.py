"""TD533 kl-div-mean-reduction: kl_div / KLDivLoss with the default reduction='mean'."""

from __future__ import annotations

import ast

from ..registry import Hit, lint_rule
from ..source import keyword


@lint_rule(
    "kl-div-mean-reduction", "TD533", "warning",
    "F.kl_div / nn.KLDivLoss with reduction='mean' (the default): it divides by the number of classes too, not the KL",
    needles=[("kl_div", "KLDivLoss")],
    fix="pass reduction='batchmean' (the KL divergence averaged over the batch), or 'sum' and divide yourself",
    confirm="compare with reduction='batchmean': the 'mean' value is smaller by the number of classes",
)
def check(m):
    """What it detects: a call of `F.kl_div` (any import spelling) or a construction of
    `nn.KLDivLoss` without `reduction`, or with `reduction="mean"`. Calls that pass the
    legacy `size_average` / `reduce` are flagged when they spell 'mean' (every one given
    is `True`: PyTorch maps that to `reduction='mean'`); `**kwargs` are not flagged.

    Why it happens: the KL divergence of a batch is the sum over classes,
    averaged over samples (`reduction="batchmean"`). `"mean"` averages over every
    element, so the loss is the KL divided by the number of classes (vocabulary size for
    a language model): PyTorch's own documentation and a runtime warning say it does not
    return the true KL. A distillation or VAE term weighted against another loss is then
    thousands of times weaker than intended and its weight, tuned on it, does not
    transfer (cause `loss-reduction`).

    Example:
        loss = F.kl_div(F.log_softmax(s, -1), F.softmax(t, -1))        # reduction='mean'

    How to fix:
        loss = F.kl_div(F.log_softmax(s, -1), F.softmax(t, -1), reduction="batchmean")
    """
    for site in m.w.calls:
        call = site.node
        c = m.callee(call)
        if c[0] != "fn" or c[1] not in ("torch.nn.functional.kl_div", "torch.nn.KLDivLoss"):
            continue
        if any(k.arg is None for k in call.keywords):
            continue
        legacy = [k.value for k in call.keywords if k.arg in ("size_average", "reduce")]
        if legacy and not all(isinstance(v, ast.Constant) and v.value is True for v in legacy):
            continue  # size_average=False is 'sum', reduce=False 'none'; a variable: unknown
        is_fn = c[1].endswith("kl_div")
        if is_fn and len(call.args) > 2 or not is_fn and call.args:
            continue  # reduction (or legacy arguments) by position
        red = keyword(call, "reduction")
        if red is None and legacy:
            what = "F.kl_div" if is_fn else "nn.KLDivLoss"
            yield Hit(call, f"{what} with size_average=True/reduce=True is reduction='mean' (the legacy arguments' "
                            "spelling): it averages over classes as well as samples, so the loss is the KL divided "
                            "by the number of classes; use reduction='batchmean'")
        elif red is None or isinstance(red, ast.Constant) and red.value == "mean":
            what = "F.kl_div" if is_fn else "nn.KLDivLoss()"
            yield Hit(call, f"{what} with reduction='mean' averages over classes as well as samples: the loss is the "
                            "KL divided by the number of classes; use reduction='batchmean'")
