"""overfit-batch: the first batch repeated at every step (model, loss and optimizer bugs)."""

from __future__ import annotations

import math

import torch

from ...numfmt import fmt
from ..hooks import map_tensors
from ..judge import unusable
from ..registry import INCONCLUSIVE, REFUTED, Experiment, Verdict, experiment

FITS = 0.25  # end / start at or below: the program can fit one batch
FAILS = 0.6  # at or above: it cannot


@experiment
class OverfitBatch(Experiment):
    """What it changes: the model's inputs at every training step are those of the first
    step (the same tensors, whatever produced them), and every loss function receives the
    first step's targets in the same call order: the program trains on one batch over
    and over, with its own model, loss, optimizer and learning rate.

    What it settles: whether the model, the loss and the optimizer can learn at all,
    apart from the data: `params-not-updated` and `loss-mismatch` (a frozen or detached
    model, a softmax fed to cross-entropy, a loss that does not fit the output cannot
    drive one batch's loss down), against the data and learning-rate causes (which a
    single batch is fitted despite).

    How it is judged: on the repeated batch's loss alone. At most a quarter of its
    starting value at the end (a working program memorises one batch): the model, loss
    and optimizer work, so `params-not-updated` and `loss-mismatch` are refuted. At least
    60 % of it: the program cannot fit one batch, which exploding gradients, a dead
    network or a rate far off cause as well: inconclusive, with the numbers (it never
    confirms on its own). A loss that can be negative (a Gaussian log-likelihood) cannot
    be judged by ratio: inconclusive. It is also the control of `shuffle-labels`.
    """

    name = "overfit-batch"
    changes = "one batch repeated"
    settles = {"params-not-updated": {}, "loss-mismatch": {}}
    needs_steps = 150

    def label(self, params) -> str:
        return "one batch repeated"

    def install(self, hooks, params, ctx) -> None:
        # the first call of each model (a GAN has two: the generator's noise must not reach
        # the discriminator) with all its tensors, replaced as a whole: a packed batch
        # (EmbeddingBag tokens + offsets) or the epoch's last, smaller batch stays
        # consistent with the first step's targets, whatever the shapes
        first: dict[int, dict[str, torch.Tensor]] = {}
        targets: list = []
        state = {"calls": 0}  # loss calls since the last backward()

        def on_input(module, args, kwargs):
            got = _tensors(args, kwargs)
            mine = first.get(id(module))
            if mine is None:
                if hooks.backwards == 0:  # the first step's forward (hand-written loops too)
                    first[id(module)] = {path: x.detach().clone() for path, x in got}
                return args, kwargs
            if {p for p, _ in got} != set(mine):
                hooks.notes["inputs-not-repeated"] += 1  # another call structure: left as it is
                return args, kwargs
            hooks.notes["repeated-batches"] += 1
            return map_tensors(args, kwargs, lambda p, x: mine[p])

        def on_target(name, input, target, kwargs):
            if not isinstance(target, torch.Tensor):
                return target
            i = state["calls"]
            state["calls"] += 1
            if hooks.backwards == 0:
                targets.append(target.detach().clone())
                return target
            if i < len(targets) and targets[i].dtype == target.dtype and targets[i].dim() == target.dim():
                return targets[i]
            return target

        def backward(loss):
            state["calls"] = 0
            return loss

        hooks.on_input.append(on_input)
        hooks.on_target.append(on_target)
        hooks.on_backward.append(backward)

    def judge(self, cause, base, var, params) -> Verdict:
        bad = unusable(var, var)
        if bad:
            return bad
        if not var.notes.get("repeated-batches"):
            return Verdict(INCONCLUSIVE, "the model's inputs could not be found (no training call of a module "
                                         "with parameters)")
        if var.first_bad is not None:
            return Verdict(INCONCLUSIVE, f"the loss on one repeated batch went non-finite at step {var.first_bad}")
        if var.start <= 0 or var.end < 0:
            return Verdict(INCONCLUSIVE, "the loss reaches zero or below: a ratio says nothing")
        r = var.end / var.start
        nums = f"one batch's loss {fmt(var.start)} -> {fmt(var.end)} in {var.steps} steps (x{fmt(r)})"
        if r <= FITS:
            return Verdict(REFUTED, f"the model, loss and optimizer can fit one batch: {nums}", effect=r)
        if r >= FAILS:
            # not specific: exploding gradients, a dead network or a rate far off fail it too
            return Verdict(INCONCLUSIVE, f"the program cannot fit even one batch: {nums}; a bug in the model, "
                                         f"the loss or the optimizer, or a rate far off (this narrows the "
                                         f"search, it does not name the cause)", effect=r)
        return Verdict(INCONCLUSIVE, f"one batch is fitted only partly: {nums}", effect=r if math.isfinite(r) else None)


def _tensors(args, kwargs):
    from ..hooks import tensors_in

    return tensors_in(args, kwargs)
