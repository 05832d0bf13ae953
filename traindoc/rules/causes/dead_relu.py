"""dead-relu (TD704)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import (below_raw_inputs, act_stat, carried_grads, early_update, features, finding, focus_rank,
                        param_modules)
from ..evidence.series import spikes
from .bad_init import constant_init_dominates, zero_init_dominates
from ..util import REGRESSION_LOSSES, fmt


@rule("dead-relu", needs=("act/",))
def dead_relu(run):
    """What it detects: ReLU layers where more than half of the units never activate on
    a whole batch, on the sampled steps after the first: they pass no gradient and, once
    dead, stay dead. An error when 90 % or more of a layer is dead (the layer passes almost
    no gradient); below that a warning at most, since the live units still learn.

    Why it happens: a learning rate spike or a huge early update that pushes biases far
    negative, negative bias initialisation, inputs on the wrong scale.

    Units alive at the start that die right after a gradient spike (30x the ten steps
    before it) died of that one update: the confidence drops by 60 %, whatever threw the step
    (an outlier batch, the rate, a missing clip) comes first.

    Units that die while the gradients are never cleared (`.grad` still holding earlier
    steps' gradients on 60 % of the sampled steps or more) are that fault's consequence: the
    confidence drops by 30 %, as it does after huge first updates (a learning rate first).

    How to confirm: the act/<module>/dead series (fraction of units with no positive
    output in the batch) stays high; evaluate the fraction on a larger batch.

    And: a ReLU (or a clamp at 0) on a regression output. The predictions given to an
    MSE/L1/Huber loss at its first call are never negative and exactly 0 in 10 % or more of
    the entries, while 5 % or more of the targets are negative: those targets are out of
    reach whatever the weights, and every clipped output passes no gradient (VoxelNet's RPN
    box residuals, a standardised regression target behind an output ReLU).

    How to fix: lower the learning rate (with warmup), use Kaiming init with zero biases,
    LeakyReLU/GELU, or normalisation before the activation; no activation after the last
    layer of a regression head.
    """
    head = _clipped_head(run)
    units = _dead_units(run)
    # one finding: the stronger (a head clipped at 0 and a dead hidden layer say the same)
    return max([head, units], key=lambda fs: fs[0].confidence if fs else -1.0)


def _dead_units(run) -> list:
    f = features(run)
    dead = act_stat(run, "dead", before=f.first_bad)
    worst, val = None, 0.0
    for mod, v in dead.items():
        later = v[1:] if len(v) > 1 else v
        m = float(np.median(later))
        if m > val:
            worst, val = mod, m
    if worst is None or val < 0.5:
        return []
    flat = not np.isfinite(f.rel_drop) or f.rel_drop < 0.3
    if val >= 0.9:
        c = 0.45 + 0.4 * (val - 0.5) / 0.5 + (0.15 if flat else 0.0)
    else:
        # the units still alive carry the gradient: capacity lost, learning not stopped. On
        # bench/real and bench/faults every run whose cause was dying ReLUs had >= 99 % of a
        # layer dead; 8 runs with 50-77 % dead had another cause or none (a warning at most)
        c = 0.2 + 0.15 * (val - 0.5) / 0.4 + (0.1 if flat else 0.0)
    if early_update(run) > 0.3:
        c *= 0.7  # the units died under updates that rewrote the weights: the learning rate comes first
    c, upstream = below_raw_inputs(run, c)
    spike = _died_after_spike(run, worst)
    if spike is not None:
        # one huge update pushed the units below zero: what made that step huge (an outlier
        # batch, a rate, a missing clip, summed gradients) is the cause; the deaths follow
        c *= 0.4
        upstream += (f"; the layer was alive at the start and died right after the gradient norm jumped "
                     f"{fmt(spike[1])}x at step {spike[0]}: whatever threw that step comes first")
    carried = carried_grads(run)
    if carried is not None and carried[0]:  # (stale on 60 % or more of the sampled steps)
        # .grad never cleared: every step applies the sum of all gradients so far, updates that
        # grow with the step count and push the units below zero (a consequence; bench/real 365)
        c *= 0.7
        upstream += (f"; .grad still held earlier steps' gradients on {len(carried[0])} of {carried[1]} sampled "
                     "steps (missing-zero-grad): the summed updates are what kills them")
    if constant_init_dominates(run) or zero_init_dominates(run):
        # every unit of the layer is a copy of the others (a constant or zero fill): they die
        # together, and the init is what to change (bench/real 394)
        c *= 0.5
        upstream += "; every weight tensor started as a constant fill, so the layer's units are one unit copied"
    blocked = _blocked_first_layer(run) if val >= 0.99 else None
    evidence = [{"series": f"act/{worst}/dead", "median": round(val, 3)},
                {"series": "loss", "drop": f"{f.rel_drop:.0%}" if np.isfinite(f.rel_drop) else "n/a"}]
    if blocked:
        # a fact about the run, not a risk: no gradient reached the first layer on any step
        evidence.append({"series": f"grad_norm/{blocked}", "blocked": "exactly 0 on every step"})
        upstream += (f"; the first layer ({blocked}) got a gradient of exactly 0 on every step: nothing below the "
                     "dead layer learns")
    return [finding(
        "dead-relu", c,
        f"{val:.0%} of the units of {worst} never activate on a batch (median over the sampled steps){upstream}",
        location={"module": worst},
        evidence=evidence,
        fix="lower the learning rate / add warmup, init biases at zero with Kaiming weights, or use LeakyReLU/GELU",
        confirm=f"evaluate the share of dead units of {worst} on a large batch; rerun with LeakyReLU: the loss falls",
    )]


def _died_after_spike(run, module: str) -> tuple[int, float] | None:
    """(step, ratio) of a gradient-norm spike (30x the median of the ten steps before it) at
    or before the first sampled step on which ``module`` was 90 %+ dead, the layer having
    been alive (at most 10 % silent) at the first sampled step; else None."""
    d = run.series(f"act/{module}/dead", focus_rank(run))
    f = features(run)
    if d.empty or f.grad_steps_values is None:
        return None
    ok = np.isfinite(d.values)
    v, st = d.values[ok], d.steps[ok]
    if not len(v) or v[0] > 0.1 or not (v >= 0.9).any():
        return None
    died = int(st[int(np.argmax(v >= 0.9))])
    gs, gv = (np.asarray(x) for x in f.grad_steps_values)
    hit = np.flatnonzero(spikes(gv, 30.0) & (gs <= died))
    if not len(hit):
        return None
    i = int(hit[0])
    return int(gs[i]), float(gv[i] / np.median(gv[max(0, i - 10):i]))


def _blocked_first_layer(run) -> str | None:
    """The first parameter module's weight when its gradient norm is exactly 0 on every
    recorded step (at least 5): a layer whose units are all dead passes no gradient down,
    so a dead layer in the middle freezes everything before it (bench/real 301: hidden
    biases at -2, the model ends predicting the base rate)."""
    mods = param_modules(run)
    if not mods:
        return None
    rank = focus_rank(run)
    first = mods[0][0]
    grads = {k: s for k, s in run.matching("grad_norm/", rank).items() if k.rsplit(".", 1)[0] == first}
    if not grads or any(len(s.values) < 5 or np.any(s.values != 0) for s in grads.values()):
        return None
    return sorted(grads)[-1]


def _clipped_head(run) -> list:
    rank = focus_rank(run)
    for name in REGRESSION_LOSSES:
        lo, zero, tlo, tneg = (run.series(f"loss_fn/{name}/{k}", rank).values
                               for k in ("input_min", "input_zero", "target_min", "target_neg"))
        if not (lo.size and zero.size and tlo.size and tneg.size):
            continue
        # a real-valued output is exactly 0 almost never; >= 0 with many exact zeros is a
        # clip at 0, and targets below 0 are then unreachable: a property of the model, not
        # a threshold on how training went
        if lo[0] >= 0 and zero[0] >= 0.1 and tneg[0] >= 0.05:
            return [finding(
                "dead-relu", 0.8,
                f"the predictions given to {name} are never negative and exactly 0 in {zero[0]:.0%} of the entries, "
                f"while {tneg[0]:.0%} of the targets are below 0 (min {fmt(tlo[0])}): a ReLU (or a clamp at 0) after "
                "the last layer; the negative targets are out of reach and every clipped output gets no gradient",
                evidence=[{"loss_function": name, "input_min": fmt(lo[0]), "input_zero_share": round(float(zero[0]), 4),
                           "target_min": fmt(tlo[0]), "target_negative_share": round(float(tneg[0]), 4)}],
                fix="remove the activation after the last layer of the regression head (or predict a transformed "
                    "target that is never negative)",
                confirm="print (pred == 0).float().mean() and (target < 0).float().mean() on one batch",
            )]
    return []
