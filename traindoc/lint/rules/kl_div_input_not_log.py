"""TD532 kl-div-input-not-log: kl_div given probabilities as input (it expects log-probabilities)."""

from __future__ import annotations

from ..ops import loss_of
from ..registry import Hit, lint_rule
from ..source import describe, keyword


@lint_rule(
    "kl-div-input-not-log", "TD532", "error",
    "F.kl_div / KLDivLoss given probabilities as input (it expects log-probabilities), or log targets without log_target=True",
    needles=[("kl_div", "KLDivLoss")],
    fix="F.kl_div(F.log_softmax(student, -1), F.softmax(teacher, -1), reduction='batchmean') "
        "(or log targets with log_target=True)",
    confirm="compute the loss for two identical distributions: it should be 0 and is not",
)
def check(m):
    """What it detects: the input (first argument) of `F.kl_div` / `nn.KLDivLoss` is a
    softmax or sigmoid output, and, for the function, a target that is a log_softmax
    output without `log_target=True`. Inputs and targets the rule cannot trace are never
    flagged.

    Why it happens: `kl_div(input, target)` computes
    `target * (log(target) - input)`: it assumes `input` is already a log-probability.
    Given probabilities, it computes a different quantity with no minimum at
    input = target (it can go negative and keeps pushing probabilities up), so
    distillation or a VAE-style regulariser trains towards nonsense; given log targets
    without `log_target=True`, it takes the log of negative numbers (NaN) or treats them
    as probabilities (cause `loss-mismatch`, `loss-nonfinite`).

    Example:
        loss = F.kl_div(F.softmax(student, -1), F.softmax(teacher, -1))

    How to fix:
        loss = F.kl_div(F.log_softmax(student, -1), F.softmax(teacher, -1), reduction="batchmean")
    """
    for site in m.w.calls:
        call = site.node
        lc = loss_of(m, call)
        if lc is None or lc[0] != "kl_div":
            continue
        _, inp, tgt = lc
        if inp is not None and m.kind(inp) in ("softmax", "sigmoid", "probsum"):
            yield Hit(call, f"kl_div's input {describe(m, inp)} is a probability; it expects log-probabilities "
                            "(its formula is target * (log target - input)); use log_softmax")
        elif tgt is not None and m.kind(tgt) == "log_softmax" and m.callee(call)[0] == "fn":
            lt = keyword(call, "log_target")
            if lt is None or getattr(lt, "value", None) is False:
                yield Hit(call, f"kl_div's target {describe(m, tgt)} is a log-probability but log_target=True is "
                                "not passed: it is read as probabilities (NaN from log of negatives)")
