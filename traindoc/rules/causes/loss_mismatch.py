"""loss-mismatch (TD401)."""

from __future__ import annotations

import math

from .. import rule
from ..util import fmt
from ._stats import features, finding, last_module_class


@rule("loss-mismatch", needs=("loss",))
def loss_mismatch(run):
    """What it detects: a loss that does not fit the model's output: a cross-entropy/NLL
    loss that goes negative (NLLLoss on raw logits, unbounded below), or a model that
    ends in Softmax/Sigmoid whose loss then stalls on a floor far above zero
    (softmax before CrossEntropyLoss, sigmoid before BCEWithLogitsLoss).

    Why it happens: CrossEntropyLoss and BCEWithLogitsLoss apply (log-)softmax/sigmoid
    themselves; NLLLoss expects log-probabilities; a classifier head copied from an
    inference script keeps its final Softmax.

    How to confirm: check the loss against the model's last layer; on one batch, the
    loss of a perfect prediction is not ~0 (a floor) or the loss is negative.

    How to fix: feed logits to CrossEntropyLoss/BCEWithLogitsLoss (remove the final
    Softmax/Sigmoid from the training graph), or use log_softmax + NLLLoss.
    """
    f = features(run)
    if len(f.loss) < 10:
        return []
    last = last_module_class(run)
    if f.labels and f.loss_min < -0.05:
        return [finding(
            "loss-mismatch", 0.9,
            f"the classification loss went negative (min {fmt(f.loss_min)}): NLLLoss/cross-entropy got raw scores, "
            "not log-probabilities, and the optimizer pushes them without bound",
            evidence=[{"series": "loss", "min": fmt(f.loss_min), "first": fmt(f.loss_first)}],
            fix="use F.cross_entropy on the logits, or apply log_softmax before NLLLoss",
            confirm="compute the loss of one batch by hand: a proper cross-entropy is never negative",
        )]
    if last in ("Softmax", "Sigmoid", "LogSigmoid") and f.first_bad is None and math.isfinite(f.noise):
        floor = f.loss_last
        stalled = f.noise < 0.05 or f.rel_drop < 0.1
        if floor > 0.3 and stalled:
            return [finding(
                "loss-mismatch", 0.7,
                f"the model ends in {last} and its loss stalls at {fmt(floor)}: a loss that applies "
                f"{'softmax' if last == 'Softmax' else 'sigmoid'} itself is given probabilities, which caps how low it can go",
                location={"module": last},
                evidence=[{"model": "last module", "class": last}, {"series": "loss", "last": fmt(floor), "min": fmt(f.loss_min)}],
                fix=f"remove the final {last} from the training graph and feed logits to CrossEntropyLoss/BCEWithLogitsLoss "
                    "(apply it only at inference)",
                confirm="overfit one batch: with the extra squashing the loss cannot get near 0",
            )]
    return []
