"""overfitting (TD801)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import features, finding
from ..util import fmt
from .label_misaligned import never_generalised


@rule("overfitting", needs=("loss", "loss/eval"))
def overfitting(run):
    """What it detects: the validation loss (loss/eval, recorded when a loss function runs
    without gradients) reaches its minimum and then rises by more than 10 % over at least
    a third of the evaluations, while the training loss keeps falling.

    Why it happens: capacity far above what the data supports, too many epochs, no
    regularisation (weight decay, dropout, augmentation), no early stopping.

    Also: a classifier whose training loss fell to a tenth of the chance level (the entropy
    of its label distribution) or below while its validation loss never went below nine
    tenths of it nor below nine tenths of its first value (at least 5 evaluations): it fits its training rows and nothing that
    carries to new ones, whatever the validation curve's shape (weight decay can pull a
    memorising model's validation loss back down without it ever generalising).

    A warning at most when the validation loss ends below the training loss (the median of
    its last tenth): there is no gap between them to blame, and the rise may be noise (with a
    summed training loss and a mean validation loss the scales differ: the same applies).

    How to confirm: the gap between the training and the validation loss grows; a model
    trained on more data or with weight decay does not show the rise.

    How to fix: stop early at the validation minimum (the step is given), add weight
    decay/dropout/augmentation, get more data, or shrink the model.
    """
    f = features(run)
    ev = run.series("loss/eval")
    v = ev.values[np.isfinite(ev.values)]
    steps = ev.steps[np.isfinite(ev.values)]
    if len(v) < 5 or len(f.loss) < 10:
        return []
    i = int(np.argmin(v))
    if i > len(v) - 1 - max(2, len(v) // 3):
        return _memorised(f, v)
    rise = (v[-1] - v[i]) / max(abs(v[i]), 1e-12)
    tail = v[i:]
    monotone = float(np.mean(np.diff(tail) > 0)) if len(tail) > 2 else 0.0
    train_at_min = f.loss[np.searchsorted(f.loss_steps, steps[i]) - 1] if steps[i] > f.loss_steps[0] else f.loss_first
    train_falls = f.loss_last < train_at_min
    if rise < 0.1 or not train_falls:
        return _memorised(f, v)
    tail = float(np.median(f.loss[-max(1, len(f.loss) // 10):]))
    # a validation loss that ends below the training loss leaves no generalisation gap to blame:
    # its rise may be noise around a level dropout or a weighted training loss keep higher
    # (bench/real 328's fixed version; every overfitting program there ends far above). A lead
    # at most: a validation set cleaner than the training one can still turn up
    below = float(v[-1]) < tail
    c = min(0.9, 0.5 + 0.3 * min(rise, 1.0) + 0.2 * monotone) if not below else 0.45
    if never_generalised(run, f) is not None:
        c = 0.45  # it never generalised to rise from: validation labels unlike the training ones (label-misaligned)
    return [finding(
        "overfitting", c,
        f"the validation loss bottomed out at {fmt(float(v[i]))} (step {int(steps[i])}) and rose {rise:.0%} to "
        f"{fmt(float(v[-1]))} while the training loss kept falling to {fmt(f.loss_last)}",
        location={"step": int(steps[i])},
        evidence=[{"series": "loss/eval", "min": float(v[i]), "step": int(steps[i]), "last": float(v[-1])},
                  {"series": "loss", "at_eval_min": fmt(float(train_at_min)), "last": fmt(f.loss_last)}],
        fix=f"stop early (best validation loss at step {int(steps[i])}), add weight decay/dropout/augmentation, "
            "or use more data / a smaller model",
        confirm="plot training against validation loss: the gap widens after the minimum",
    )]


def _memorised(f, v: np.ndarray) -> list:
    """Training loss at a tenth of the chance level or below, every validation loss at nine
    tenths of it or above (the label histogram's entropy: classification only)."""
    from .label_misaligned import chance_level

    ch = chance_level(f) if f.labels else None
    if ch is None or not np.isfinite(f.loss_last) or not f.loss_min >= 0:
        return []  # (a loss that goes negative is no cross-entropy: its level says nothing of memorising)
    h, what = ch
    if f.loss_last > 0.1 * h or float(np.min(v)) < 0.9 * h or float(np.min(v)) < 0.9 * float(v[0]):
        return []  # (and never better than its first value: a summed validation loss falls from far above)
    return [finding(
        "overfitting", 0.6,
        f"the training loss fell to {fmt(f.loss_last)} while the validation loss stayed at the chance level or above "
        f"({fmt(h)}, {what}; never below 90 % of it): min {fmt(float(np.min(v)))}, last {fmt(float(v[-1]))}; the "
        "model memorises its training rows and learns nothing that carries to new ones (or the validation labels "
        "do not belong to their inputs)",
        evidence=[{"series": "loss/eval", "min": fmt(float(np.min(v))), "last": fmt(float(v[-1])), "chance": fmt(h)},
                  {"series": "loss", "last": fmt(f.loss_last)}],
        fix="shrink the model (global pooling instead of a wide flattened head), add data, augmentation, dropout or "
            "weight decay; check that the validation inputs are preprocessed like the training ones",
        confirm="print the accuracy on the training and the validation rows: ~100 % against chance",
    )]
