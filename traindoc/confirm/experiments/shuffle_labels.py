"""shuffle-labels: targets permuted within each batch (label-misaligned)."""

from __future__ import annotations

import math

import torch

from ...numfmt import fmt
from ..judge import unusable
from ..registry import CONFIRMED, INCONCLUSIVE, REFUTED, Experiment, Verdict, experiment


SKEWED = 0.95  # the majority's share of the targets above which the prior fits them


def majority(target: torch.Tensor) -> float | None:
    """The share of the most common class among integer class targets, or of the more
    common value among 0/1 targets (binary or multi-label); None for other targets."""
    t = target.detach()
    if t.numel() == 0:
        return None
    if not t.is_floating_point() and t.dtype != torch.bool:
        _, counts = torch.unique(t, return_counts=True)
        return float(counts.max()) / t.numel()
    if not bool(((t == 0) | (t == 1)).all()):
        return None
    pos = float(t.float().mean())
    return max(pos, 1.0 - pos)


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
    inconclusive. Targets that are at least 95 % one class (or, in a 0/1 multi-label
    table, at least 95 % zeros) make a confirmation inconclusive: predicting the majority
    fits them as well as anything, so the loss sits at the label prior whether or not the
    targets belong to their inputs (`class-imbalance` explains the same curve).
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
            if hooks.notes["shuffled"] < 20:  # the label skew, from the first batches
                share = majority(target)
                if share is not None:
                    hooks.values["majority"] = max(hooks.values.get("majority", 0.0), share)
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
        if r <= 1.1 and var.notes.get("majority", 0.0) >= SKEWED:
            return Verdict(INCONCLUSIVE, f"the model learns as well from shuffled targets ({nums}), but "
                                         f"{var.notes['majority']:.1%} of the targets are one class (0 in a "
                                         f"multi-label table): predicting the majority fits them as well as anything, "
                                         f"aligned or not (class-imbalance explains the same curve)", effect=r)
        if r <= 1.1:
            return Verdict(CONFIRMED, f"the model learns as well from shuffled targets: {nums}", effect=r)
        if r >= 1.5 and (var.end - base.end) >= 0.1 * abs(base.start):
            return Verdict(REFUTED, f"the targets carry what the model learns: {nums}", effect=r)
        return Verdict(INCONCLUSIVE, nums, effect=r)
