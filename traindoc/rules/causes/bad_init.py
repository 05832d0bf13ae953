"""bad-init (TD701)."""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from .. import rule
from ..evidence import act_stat, finding, focus_rank, param_modules
from ..util import fmt


@rule("bad-init", needs=("loss",))
def bad_init(run):
    """What it detects: at the first sampled step (before training has changed the
    weights much), the standard deviation of the layers' outputs grows or shrinks with
    depth by more than 30x from the first weight layer to the last hidden one: each
    layer multiplies the signal's scale by a factor far from 1.

    Why it happens: weights drawn with a fixed std (normal(0, 1), normal(0, 0.01))
    instead of one scaled by the fan-in (Kaiming for ReLU, Xavier for tanh), custom init
    functions copied from another architecture.

    Also: weight tensors that start at exactly 0 and never move (an all-zero init: every
    unit computes the same thing and, behind a ReLU or a product, gets a zero gradient),
    read from the sampled parameter norms; this needs no activation statistics, so it
    works for models built from raw tensors. And, from the replay of a step-0 bundle
    (``traindoc.forensics.findings``): an op that overflows to Inf on finite inputs of
    |x| >= 50 in the first forward, before any update (exp of an FFM's +-100 logits drawn
    from U(0, 1)): ranked above the op, which is only where the scale shows.

    How to confirm: print the std of each layer's output on one batch at init: a
    variance-preserving init keeps it within ~3x of 1 across depth.

    How to fix: nn.init.kaiming_normal_ (ReLU) or xavier_uniform_ (tanh/sigmoid), or
    the layers' default init; add normalisation layers in deep nets.
    """
    zero = zero_stuck(run)
    if zero:
        return [_zero_init(zero)]
    return _scale_with_depth(run)


def _zero_init(zero: list[str]) -> Finding:
    return finding(
        "bad-init", 0.9,
        f"{len(zero)} parameter tensor(s) start at exactly 0 and never change ({', '.join(zero[:3])}): an all-zero "
        "init makes every unit of a layer compute the same thing, and behind a ReLU or a product the gradient "
        "is 0 too, so they never leave it",
        location={"param": zero[0]},
        evidence=[{"series": f"param_norm/{p}", "value": 0.0} for p in zero[:3]],
        fix="initialise weights randomly (nn.init.kaiming_normal_ / xavier_uniform_, or the layers' defaults); "
            "only biases may start at 0",
        confirm="print each weight's norm before training: a weight matrix at exactly 0 cannot break its symmetry",
    )


def _scale_with_depth(run) -> list[Finding]:
    """The output std at the first sampled step, from the first weight layer to the last
    hidden one, when it changes by more than 30x."""
    if not run.matching("act/", focus_rank(run)):
        return []
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


def zero_stuck(run) -> list[str]:
    """Parameters whose norm is exactly 0 on every sampled step while the run trained (at
    least 3 samples), weights before biases; [] when some weight moved off 0 or none is 0."""
    rank = focus_rank(run)
    norms = run.matching("param_norm/", rank)
    out = []
    for p, s in norms.items():
        v = s.values[np.isfinite(s.values)]
        if len(v) >= 3 and np.all(v == 0):
            out.append(p)
    if not out or all(p.endswith("bias") for p in out):
        return []  # zero biases are the usual init
    return sorted(out, key=lambda p: p.endswith("bias"))
