"""shuffle-labels: targets permuted within each batch (label-misaligned)."""

from __future__ import annotations

import math

import torch

from ...numfmt import fmt
from ..judge import unusable
from ..registry import CONFIRMED, INCONCLUSIVE, REFUTED, Experiment, Verdict, experiment


@experiment
class ShuffleLabels(Experiment):
    """What it changes: the target given to every training loss function
    (``F.cross_entropy``, ``nn.MSELoss`` and the other losses of
    ``torch.nn.functional``, also when called inside a Hugging Face model) is permuted
    along the batch axis with a fixed random permutation per call: each input meets
    another sample's target. The inputs and their order are unchanged.

    What it settles: `label-misaligned`: a model that learns as well from shuffled
    targets as from its own is not learning from the input-target relation, so the
    targets do not belong to their inputs.

    How it is judged: confirmed when the shuffled run's loss at the end is within 10 % of
    the baseline's or lower; refuted when it ends at least 1.5 times higher (by a tenth
    of the starting loss at least): the real targets carry what the model learns. A loss
    computed by hand (no loss function of ``torch.nn.functional``) cannot be shuffled:
    inconclusive.
    """

    name = "shuffle-labels"
    changes = "targets permuted within the batch"
    settles = {"label-misaligned": {}}
    needs_steps = 200  # too short a window and nothing is learned from either targets

    def label(self, params) -> str:
        return "targets shuffled"

    def install(self, hooks, params, ctx) -> None:
        gen = torch.Generator().manual_seed(4321)

        def on_target(name, input, target, kwargs):
            if not isinstance(target, torch.Tensor) or target.ndim == 0 or target.shape[0] < 2:
                return target
            perm = torch.randperm(target.shape[0], generator=gen).to(target.device)
            hooks.notes["shuffled"] += 1
            return target[perm]

        hooks.on_target.append(on_target)

    def judge(self, cause, base, var, params) -> Verdict:
        if not var.notes.get("shuffled"):
            return Verdict(INCONCLUSIVE, "no loss function of torch.nn.functional received the targets (a loss "
                                         "computed by hand): they could not be shuffled")
        bad = unusable(base, var)
        if bad:
            return bad
        if base.first_bad is not None or var.first_bad is not None:
            return Verdict(INCONCLUSIVE, "the loss went non-finite; shuffling targets says nothing about that")
        r = var.end / base.end if base.end > 0 else math.nan
        nums = f"end loss {fmt(base.end)} with the script's targets, {fmt(var.end)} with shuffled ones"
        if not math.isfinite(r):
            return Verdict(INCONCLUSIVE, nums)
        if r <= 1.1:
            return Verdict(CONFIRMED, f"the model learns as well from shuffled targets: {nums}", effect=r)
        if r >= 1.5 and (var.end - base.end) >= 0.1 * abs(base.start):
            return Verdict(REFUTED, f"the targets carry what the model learns: {nums}", effect=r)
        return Verdict(INCONCLUSIVE, nums, effect=r)
