"""TD531 loss-arguments-swapped: ``criterion(target, output)`` for a loss whose arguments are not interchangeable."""

from __future__ import annotations

from .. import names as N
from ..flow import model_output
from ..ops import loss_of
from ..registry import Hit, lint_rule
from ..source import short


@lint_rule(
    "loss-arguments-swapped", "TD531", "error",
    "the model's output passed as the target (second argument) of cross_entropy / nll_loss / BCE, and the labels as input",
    needles=[("ross_entropy", "CrossEntropy", "nll_loss", "NLLLoss", "BCE", "binary_cross")],
    fix="the model output comes first: loss = criterion(output, target)",
    confirm="print the two shapes at the loss: the first is (N,) labels, the second (N, C) scores",
)
def check(m):
    """What it detects: a call of `cross_entropy`, `nll_loss`, `binary_cross_entropy`
    (with or without logits), as a function or a module, whose second argument is
    provably the output of a model (a call of a same-file `nn.Module`, an
    `nn.Sequential`, a torch.nn layer, directly or through one name) and whose first is
    not. Symmetric losses (MSE, L1) are not checked, nor is `kl_div`, whose target is a
    teacher's output in distillation.

    Why it happens: the input is the prediction and the target the labels;
    these losses treat them differently (log_softmax of the input, indices or
    probabilities for the target). Swapped, the call fails with a dtype or shape error,
    or, for BCE with float labels, silently trains the labels towards the model: the
    gradient flows into the target side only and the model never learns (cause
    `loss-mismatch`).

    Example:
        out = model(x)
        loss = F.cross_entropy(y, out)

    How to fix:
        loss = F.cross_entropy(out, y)
    """
    for site in m.w.calls:
        lc = loss_of(m, site.node)
        if lc is None or lc[0] not in N.ASYMMETRIC_LOSSES or lc[0] == "kl_div":
            continue
        _, inp, tgt = lc
        if inp is None or tgt is None:
            continue
        if model_output(m, tgt) and not model_output(m, inp):
            yield Hit(site.node, f"{lc[0]}({short(inp)}, {short(tgt)}): the second argument is the model's output "
                                 "and the first is not; the prediction comes first, the target second")
