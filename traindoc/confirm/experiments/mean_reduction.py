"""mean-reduction: a summed loss divided by its element count (loss-reduction)."""

from __future__ import annotations

import torch

from ...monitor.optim import TERMS
from ..judge import fixes
from ..registry import INCONCLUSIVE, Experiment, Verdict, experiment

_CLASS_LOSSES = ("cross_entropy", "nll_loss")


@experiment
class MeanReduction(Experiment):
    """What it changes: the output of every loss function called with
    ``reduction='sum'`` (``nn.CrossEntropyLoss(reduction="sum")``, ``F.mse_loss(...,
    reduction="sum")``...) is divided by the number of elements it summed (the targets for
    cross-entropy and NLL, the input's elements otherwise): the mean. A loss backpropagated
    as the sum of 8 or more loss-function calls (a criterion per time step, added up) is
    divided by their number (calls of one loss function: a detector's box + class terms
    are not a sum of this kind). Losses summed by hand (``((p - y) ** 2).sum()``) are not seen.

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

        terms: list[float] = []  # values of the loss-function calls since the last backward
        kinds: set[str] = set()  # and the functions (a sum of one function's calls only)

        def on_loss(name, out, input, target, kwargs):
            if kwargs.get("reduction") != "sum" or not isinstance(out, torch.Tensor):
                if isinstance(out, torch.Tensor) and out.numel() == 1:
                    terms.append(float(out.detach()))  # (a sync a call: fine in a short experiment)
                    kinds.add(name)
                return out
            n = target.numel() if name in _CLASS_LOSSES and isinstance(target, torch.Tensor) else input.numel()
            if n > 1:
                divisors.append(n)
                hooks.notes["averaged"] += 1
                hooks.values["divisor"] = float(sorted(divisors[-1000:])[len(divisors[-1000:]) // 2])
                return out / n
            return out

        def on_backward(loss):
            # a loss summed over many calls (a criterion per time step, added up): the
            # backpropagated value is about their count x their mean; divide it by the count
            k, vals, one_fn = len(terms), list(terms), len(kinds) == 1
            terms.clear()
            kinds.clear()
            if k < TERMS or not one_fn or loss.numel() != 1:
                return loss
            mean = sum(vals) / k
            if mean <= 0 or not 0.8 <= float(loss.detach()) / (k * mean) <= 1.25:
                return loss
            divisors.append(k)
            hooks.notes["averaged"] += 1
            hooks.values["divisor"] = float(sorted(divisors[-1000:])[len(divisors[-1000:]) // 2])
            return loss / k

        hooks.on_loss.append(on_loss)
        hooks.on_backward.append(on_backward)

    def judge(self, cause, base, var, params) -> Verdict:
        k = var.notes.get("divisor")
        if not var.notes.get("averaged") or not k:
            return Verdict(INCONCLUSIVE, "no loss function was called with reduction='sum' and no loss summed "
                                         "many loss-function calls (a loss summed by hand is not changed by "
                                         "this experiment)")
        return fixes(base, var.scaled(float(k)), self.label(params))
