"""Shared reasoning for the causes of a non-finite loss (used by several rules).

A NaN/Inf loss can come from bad data (data-nonfinite), an unstable operation
(unstable-op), float16 (fp16-overflow), a learning rate that blew the weights up
(lr-too-high) or exploding gradients. The series separate the last three from the first
two: the former announce themselves (float16 tensors or values near 65504, a loss that
climbs, a gradient norm that grows by orders of magnitude); the first two strike out of
a calm run, and only a replay of the step tells them apart.
"""

from __future__ import annotations

import numpy as np

from ..evidence import Features, onset


def calm_onset(f: Features) -> bool:
    """The run went non-finite from a calm state: no growth of the loss or the gradient
    norm in the steps before (within 3x and 10x of their earlier values)."""
    if f.first_bad is None:
        return False
    o = onset(f)
    return o.get("loss_growth", 1.0) < 3.0 and o.get("grad_growth", 1.0) < 10.0


def half_model(f: Features) -> bool:
    return bool(f.dtypes & {"float16"})


def confident_before(f: Features) -> bool:
    """The model had become very confident before the NaN (training loss down by more
    than 80 % over at least 30 steps): the regime where logits have grown and a
    hand-written exp/log over- or underflows. A NaN in the first few dozen steps is more
    often the first bad row the loader drew."""
    return f.first_bad is not None and len(f.loss) >= 30 and f.rel_drop > 0.8


def born_in_backward(f: Features) -> bool:
    """A gradient went non-finite on a step whose loss was finite, before any loss did:
    the forward (inputs included) computed finite values and the backward of some op
    did not (sqrt or a norm at exactly 0, pow with a fractional exponent at 0, torch.where
    with a NaN in the branch it did not select: 0 * inf = NaN). NaN/Inf in the inputs
    would have made the loss itself non-finite first, so this argues against bad data."""
    if f.grad_bad_first is None or f.scaler or f.extra.get("imported"):
        return False  # an imported log knows no scaler: its NaN grad_norm may be a skipped fp16 step
    if not (f.first_bad is None or f.grad_bad_first < f.first_bad):
        return False
    # from a calm state: exploding gradients overflow the norm a step before the loss, after
    # growing; an op's backward breaks at once
    g = f.grad_steps_values
    before = g[1][g[0] < f.grad_bad_first] if g is not None else None
    if before is not None and len(before) >= 4:
        early = float(np.median(before[: max(1, len(before) // 2)]))
        late = float(np.max(before[-3:]))
        if early > 0 and late > 10 * early:
            return False
    return True
