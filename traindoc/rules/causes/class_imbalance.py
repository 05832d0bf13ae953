"""class-imbalance (TD205)."""

from __future__ import annotations

import math

from .. import rule
from ..evidence import features, finding
from ..util import fmt


@rule("class-imbalance", needs=("loss", "event:labels"))
def class_imbalance(run):
    """What it detects: a label distribution (recorded from the cross-entropy targets)
    where one class holds more than 85 % of the targets, and a training loss that settles
    near the entropy of that distribution: the model predicts the majority class.

    Why it happens: long-tailed real data (fraud, rare intents, defects) trained with an
    unweighted loss and uniform sampling.

    How to confirm: per-class recall on a validation set (the minority classes are
    never predicted); the loss plateau equals the label entropy printed here.

    How to fix: class weights in the loss (weight=, pos_weight=), a balanced sampler
    (WeightedRandomSampler), focal loss, or metrics that show the minority classes.
    """
    f = features(run)
    if not f.labels:
        return []
    total = sum(f.labels.values())
    major, cnt = max(f.labels.items(), key=lambda kv: kv[1])
    share = cnt / total
    if share < 0.85 or len(f.labels) < 2:
        return []
    h = f.prior_entropy
    near = math.isfinite(f.loss_last) and f.loss_last < 1.5 * h
    c = (0.55 if near else 0.35) + min(0.3, (share - 0.85) * 3)
    if f.first_bad is not None:
        # the run broke (NaN) before it could learn beyond the prior: sitting at the label
        # entropy then says little (a CTR model at step 60 does), so a warning at most
        c = min(c, 0.45)
    return [finding(
        "class-imbalance", c,
        f"class {major} is {share:.0%} of the training targets; the loss settles at {fmt(f.loss_last)}, "
        f"near the label entropy {fmt(h)}: the model can score well by predicting the majority class",
        evidence=[{"events": "labels", "majority_class": major, "share": round(share, 4), "classes": len(f.labels)},
                  {"series": "loss", "last": fmt(f.loss_last), "label_entropy": fmt(h)}],
        fix="weight the loss by inverse class frequency (weight=/pos_weight=) or resample (WeightedRandomSampler); "
            "report per-class recall",
        confirm="measure per-class recall on validation data: the minority classes are (almost) never predicted",
    )]
