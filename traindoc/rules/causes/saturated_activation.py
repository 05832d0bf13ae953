"""saturated-activation (TD705)."""

from __future__ import annotations

import math

import numpy as np

from .. import rule
from ..evidence import below_raw_inputs, act_stat, early_update, features, finding, focus_rank, module_order
from ..util import fmt


@rule("saturated-activation", needs=("act/",))
def saturated_activation(run):
    """What it detects: sigmoid/tanh layers with more than half of their outputs pinned at
    the ends of their range (sigmoid < 0.01 or > 0.99, |tanh| > 0.99) on the sampled
    steps: their gradients are ~0 and the layers before them stop learning. The model's
    output layer counts only while the loss falls by less than 30 % (a classifier's
    confident output sigmoid is success; a regression's output tanh pinned at +-1 under
    targets in raw units is not), or whatever the loss did when a regression loss's targets
    lie outside the activation's range (a tanh asked for ratings 1-4).

    Why it happens: inputs on a large scale, an initialisation too large for the fan-in,
    a learning rate that blew the pre-activations up.

    A layer unsaturated at the first sampled step and pinned after first updates that each
    moved the weights by 30 %+ of their norm is their consequence: the confidence halves.

    How to confirm: the act/<module>/saturated series; a histogram of the
    pre-activations shows most of the mass beyond |x| = 3.

    How to fix: standardise the inputs, use a variance-preserving init (Xavier for
    tanh/sigmoid), add normalisation before the activation, or use ReLU-family
    activations.
    """
    f = features(run)
    sat = act_stat(run, "saturated", before=f.first_bad)
    order = module_order(run)
    last = order[-1][0] if order else None
    worst, val = None, 0.0
    stalled = not (math.isfinite(f.rel_drop) and f.rel_drop > 0.3)
    beyond = _targets_beyond(run, order[-1][1] if order else "")
    for mod, v in sat.items():
        if (mod == last or mod.endswith("(output)")) and not stalled and beyond is None:
            # a confident classifier's output sigmoid sits at 0/1: that is success; an output
            # tanh pinned at +-1 while the loss does not fall cannot reach its targets
            continue
        m = float(np.median(v))
        if m > val:
            worst, val = mod, m
    if worst is None or val < 0.5:
        return []
    c = 0.5 + 0.45 * (val - 0.5) / 0.5
    out = worst == last or worst.endswith("(output)")  # the model's own output, pinned while the loss stays put
    if math.isfinite(f.rel_drop) and f.rel_drop > 0.5 and not (out and beyond is not None):
        c = min(c, 0.45)  # the loss fell by more than half: saturated but learning (a warning)
    c, upstream = below_raw_inputs(run, c)
    first = run.series(f"act/{worst}/saturated", focus_rank(run))
    if not first.empty and first.values[0] <= 0.1 and early_update(run) > 0.3:
        # unsaturated at the start, pinned after first updates that rewrote the weights (each
        # moved them by 30 %+ of their norm): what made the steps that large comes first
        c *= 0.5
        upstream += ("; the layer was not saturated at the start: the first updates, each "
                     f"{fmt(early_update(run))} of the weights' norm, blew its inputs up")
    return [finding(
        "saturated-activation", c,
        f"{val:.0%} of the outputs of {worst} sit at the ends of the activation's range (median over sampled steps)"
        + (f": it is the model's output, and its regression targets reach {fmt(beyond)}, beyond the activation's "
           "range: it cannot reach them and passes back ~0 gradient" if out and beyond is not None else
           f": it is the model's output, bounded to its range while the loss hardly fell ({f.rel_drop:.0%}), so it "
           "cannot reach targets outside it and passes back ~0 gradient" if out else "") + upstream,
        location={"module": worst},
        evidence=[{"series": f"act/{worst}/saturated", "median": round(val, 3)}],
        fix="use a linear output layer for targets outside the activation's range (or scale the targets into it)"
            if out else "standardise the inputs, use Xavier init for tanh/sigmoid, or normalise before the activation",
        confirm=f"histogram the pre-activations of {worst}: most of the mass lies beyond |x| = 3",
    )]


_RANGE = {"Tanh": (-1.0, 1.0), "Sigmoid": (0.0, 1.0), "Hardtanh": (-1.0, 1.0), "Hardsigmoid": (0.0, 1.0)}


def _targets_beyond(run, last_class: str) -> float | None:
    """The regression target (MSE, L1, Huber) furthest outside the range of the model's
    output activation (a tanh asked for ratings 1-4, bench/real 426: the loss falls as the
    output climbs to 1, then stays), or None when they are all within it."""
    lo, hi = _RANGE.get(last_class, (None, None))
    if lo is None:
        return None
    far = None
    for name in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
        tmin, tmax = (run.series(f"loss_fn/{name}/target_{k}", focus_rank(run)).values for k in ("min", "max"))
        for t in ([float(np.median(tmax))] if len(tmax) else []) + ([float(np.median(tmin))] if len(tmin) else []):
            if (t > hi + 0.05 or t < lo - 0.05) and (far is None or abs(t) > abs(far)):
                far = t
    return far


def output_saturated(run, f) -> bool:
    """The model's last layer is a sigmoid/tanh pinned at the ends of its range on most
    sampled steps while the loss did not fall by 30 %: gradients collapse to ~0 after the
    first steps (what exploding-gradient would otherwise read as an explosion at init)."""
    order = module_order(run)
    if not order or math.isfinite(f.rel_drop) and f.rel_drop > 0.3:
        return False
    v = act_stat(run, "saturated", before=f.first_bad).get(order[-1][0])
    return v is not None and len(v) > 0 and float(np.median(v)) >= 0.5
