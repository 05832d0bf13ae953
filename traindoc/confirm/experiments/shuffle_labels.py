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


# regression losses whose value for a constant prediction has a closed form over a batch
_SQUARED = ("mse_loss", "MSELoss", "smooth_l1_loss", "huber_loss")
_ABSOLUTE = ("l1_loss", "L1Loss")


def constant_floor(name: str, target: torch.Tensor, kwargs: dict | None = None) -> float | None:
    """The loss of the best constant prediction per output position over this batch, for a
    mean-reduced regression loss (mean squared deviation from the batch mean; for L1, the
    mean absolute deviation from the batch median); None for other losses or targets."""
    if not isinstance(target, torch.Tensor) or not target.is_floating_point() or target.shape[0] < 2 \
            or (kwargs or {}).get("reduction", "mean") != "mean":
        return None
    t = target.detach().float()
    base = name.rsplit(".", 1)[-1]
    if base in _SQUARED:
        return float((t - t.mean(0)).pow(2).mean())
    if base in _ABSOLUTE:
        return float((t - t.median(0).values).abs().mean())
    return None


def _floor(var) -> float | None:
    """The mean constant-prediction floor of the first batches, when one regression loss
    function received every target (a sum with other terms is not comparable)."""
    n, total = var.notes.get("floor-n", 0), var.notes.get("floor-sum", math.nan)
    fns = var.notes.get("loss-fns") or []
    if not n or len(fns) != 1 or not math.isfinite(total):
        return None
    return total / n


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
                floor = constant_floor(name, target, kwargs)  # and what predicting the mean target scores
                hooks.values["floor-sum"] = hooks.values.get("floor-sum", 0.0) + (floor if floor is not None else math.nan)
                hooks.values["floor-n"] = hooks.values.get("floor-n", 0) + 1
                hooks.values.setdefault("loss-fns", [])
                if name not in hooks.values["loss-fns"]:
                    hooks.values["loss-fns"].append(name)
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
        floor = _floor(var)
        if r <= 1.1 and floor is not None and base.end >= 0.9 * floor:
            return Verdict(INCONCLUSIVE, f"the model learns as well from shuffled targets ({nums}), but no better "
                                         f"than predicting the mean target ({fmt(floor)}): it learned nothing from "
                                         "its inputs with either, so alignment is not what this tests", effect=r)
        if r <= 1.1:
            return Verdict(CONFIRMED, f"the model learns as well from shuffled targets: {nums}", effect=r)
        if r >= 1.5 and (var.end - base.end) >= 0.1 * abs(base.start):
            return Verdict(REFUTED, f"the targets carry what the model learns: {nums}", effect=r)
        return Verdict(INCONCLUSIVE, nums, effect=r)
