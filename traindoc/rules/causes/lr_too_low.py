"""lr-too-low."""

from __future__ import annotations

import math

from .. import rule
from ..evidence import features, finding
from ..util import fmt

_ADAPTIVE = ("Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta")


@rule("lr-too-low", needs=("loss",))
def lr_too_low(run):
    """What it detects: a learning rate so small that the loss barely moves: over the
    run the loss falls by less than 15 % while each update changes the weights by less
    than ~1e-4 of their norm (healthy runs: ~1e-3), or the learning rate itself is far
    below its optimizer's usual range (Adam below 1e-5, SGD below 1e-4).

    Why it happens: a fine-tuning learning rate used to train from scratch, a learning
    rate lowered "to be safe" after a NaN, a schedule that decays to zero too early or a
    warmup that never ends.

    How to confirm: an LR range test, or rerun with the learning rate x10 (then x100):
    the loss starts to fall.

    How to fix: raise the learning rate into the optimizer's usual range (Adam ~1e-3,
    SGD ~1e-2..1e-1) and check the schedule.
    """
    f = features(run)
    if f.first_bad is not None or len(f.loss) < 20 or not math.isfinite(f.rel_drop):
        return []
    flat = f.rel_drop < 0.15
    ur = f.update_ratio
    adaptive = f.opt_class.startswith(_ADAPTIVE)
    low_lr = math.isfinite(f.lr) and (f.lr <= (1e-5 if adaptive else 1e-4))
    tiny_upd = math.isfinite(ur) and ur < 1e-4
    if not flat or not (low_lr or tiny_upd):
        return []
    if not low_lr and ur == 0:
        return []  # no update at all at a normal rate: a zero gradient (saturated, cut off), not the rate
    # tiny updates at a normal learning rate mean tiny gradients (dead units, vanishing or
    # cut-off gradients): then the learning rate is only a weak suspect
    c = 0.55 + 0.2 * low_lr + 0.2 * tiny_upd if low_lr else 0.35
    ev = [{"series": "loss", "first": fmt(f.loss_first), "last": fmt(f.loss_last), "drop": f"{f.rel_drop:.1%}"},
          {"series": "lr", "value": fmt(f.lr), "optimizer": f.opt_class}]
    if math.isfinite(ur):
        ev.append({"series": "update_ratio", "median": fmt(ur), "healthy": "~1e-3"})
    return [finding(
        "lr-too-low", c,
        f"the learning rate ({fmt(f.lr)} with {f.opt_class}) is too low: the loss fell only {f.rel_drop:.1%} "
        f"over {f.steps} steps" + (f" and updates moved the weights by {fmt(ur)} of their norm" if math.isfinite(ur) else ""),
        evidence=ev,
        fix="raise the learning rate into the usual range for the optimizer (Adam ~1e-3, SGD ~1e-2..1e-1)",
        confirm="run an LR range test, or rerun with the learning rate x10: the loss starts to fall",
    )]
