"""bad-init (TD701)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..util import fmt
from ._stats import act_stat, finding, param_modules


@rule("bad-init", needs=("act/",))
def bad_init(run):
    """What it detects: at the first sampled step (before training has changed the
    weights much), the standard deviation of the layers' outputs grows or shrinks with
    depth by more than 30x from the first weight layer to the last hidden one: each
    layer multiplies the signal's scale by a factor far from 1.

    Why it happens: weights drawn with a fixed std (normal(0, 1), normal(0, 0.01))
    instead of one scaled by the fan-in (Kaiming for ReLU, Xavier for tanh), custom init
    functions copied from another architecture.

    How to confirm: print the std of each layer's output on one batch at init: a
    variance-preserving init keeps it within ~3x of 1 across depth.

    How to fix: nn.init.kaiming_normal_ (ReLU) or xavier_uniform_ (tanh/sigmoid), or
    the layers' default init; add normalisation layers in deep nets.
    """
    sd = act_stat(run, "std")
    mods = [m for m, c in param_modules(run) if m in sd and not c.startswith("Embedding")]
    if len(mods) < 3:
        return []
    hidden = mods[:-1]  # the output layer's scale is the task's
    s0 = [float(sd[m][0]) for m in hidden]
    first, last = s0[0], s0[-1]
    if first <= 0 or last <= 0 or not np.isfinite(first) or not np.isfinite(last):
        return []
    ratio = last / first
    if 1 / 30 <= ratio <= 30:
        return []
    if first > 20 and ratio < 1:
        return []  # a huge first layer that then shrinks: the inputs' scale (data-unnormalized)
    grows = ratio > 1
    c = min(0.9, 0.5 + 0.1 * abs(np.log10(ratio)) - 0.15)
    return [finding(
        "bad-init", c,
        f"activations {'grow' if grows else 'shrink'} with depth at initialisation: output std {fmt(first)} after "
        f"{hidden[0]} and {fmt(last)} after {hidden[-1]} ({fmt(ratio)}x over {len(hidden)} layers)",
        location={"module": hidden[-1]},
        evidence=[{"series": f"act/{m}/std", "first_sample": fmt(v)} for m, v in list(zip(hidden, s0))[:: max(1, len(hidden) // 4)]],
        fix="initialise with a fan-in-scaled init (kaiming_normal_ for ReLU, xavier_uniform_ for tanh) or the defaults",
        confirm="print each layer's output std on one batch at init: with a correct init it stays within ~3x of 1",
    )]
