"""mean-reduction: a summed loss divided by its element count (loss-reduction)."""

from __future__ import annotations

import torch

from ..judge import fixes
from ..registry import INCONCLUSIVE, Experiment, Verdict, experiment

_CLASS_LOSSES = ("cross_entropy", "nll_loss")


@experiment
class MeanReduction(Experiment):
    """What it changes: the output of every loss function called with
    ``reduction='sum'`` (``nn.CrossEntropyLoss(reduction="sum")``, ``F.mse_loss(...,
    reduction="sum")``...) is divided by the number of elements it summed (the targets for
    cross-entropy and NLL, the input's elements otherwise): the mean. Losses summed by
    hand (``((p - y) ** 2).sum()``) are not seen.

    What it settles: `loss-reduction`.

    How it is judged: the losses of the changed run are multiplied back by the divisor,
    so both runs are compared in the script's units. The mean confirms the cause when the
    loss no longer goes non-finite, or ends at most half as high; it refutes it when
    nothing changes (Adam and other scale-free optimizers barely notice the sum, so a
    summed loss is rarely the cause under them).
    """

    name = "mean-reduction"
    changes = "loss divided by its element count"
    settles = {"loss-reduction": {}}

    def label(self, params) -> str:
        return "loss averaged instead of summed"

    def install(self, hooks, params, ctx) -> None:
        divisors: list[int] = []

        def on_loss(name, out, input, target, kwargs):
            if kwargs.get("reduction") != "sum" or not isinstance(out, torch.Tensor):
                return out
            n = target.numel() if name in _CLASS_LOSSES and isinstance(target, torch.Tensor) else input.numel()
            if n > 1:
                divisors.append(n)
                hooks.notes["averaged"] += 1
                hooks.values["divisor"] = float(sorted(divisors[-1000:])[len(divisors[-1000:]) // 2])
                return out / n
            return out

        hooks.on_loss.append(on_loss)

    def judge(self, cause, base, var, params) -> Verdict:
        k = var.notes.get("divisor")
        if not var.notes.get("averaged") or not k:
            return Verdict(INCONCLUSIVE, "no loss function was called with reduction='sum' (a loss summed by "
                                         "hand is not changed by this experiment)")
        return fixes(base, var.scaled(float(k)), self.label(params))
