"""lr-too-low."""

from __future__ import annotations

import math

import numpy as np

from .. import rule
from ..evidence import features, finding, focus_rank
from ..util import fmt

_ADAPTIVE = ("Adam", "AdamW", "RMSprop", "Adagrad", "Adamax", "NAdam", "RAdam", "Adadelta")


@rule("lr-too-low", needs=("loss",))
def lr_too_low(run):
    """What it detects: a learning rate so small that the loss barely moves: over the
    run the loss falls by less than 15 % while each update changes the weights by less
    than ~1e-4 of their norm (healthy runs: ~1e-3), or the learning rate itself is far
    below its optimizer's usual range (Adam below 1e-5, SGD below 1e-4); at such a rate, also
    a loss that still falls at its first pace when the run ends (no bend of convergence) and
    ends at 70 % of its start or above; at a usual rate, that straight line with a fall under
    15 % is a warning (the step size limits the progress; training far longer is the other fix).

    Why it happens: a fine-tuning learning rate used to train from scratch, a learning
    rate lowered "to be safe" after a NaN, a schedule that decays to zero too early or a
    warmup that never ends.

    Also a schedule that sets the learning rate to zero (or below 1e-4 of its peak) for
    60 % of the run or more (every param group), cutting off a loss that was still falling,
    after which it stops improving: a step decay with gamma 0,
    a schedule whose horizon is a few epochs while training runs many (a cosine or warmup
    schedule reaches 0 at its very end only). An error: the steps after it train nothing.

    How to confirm: an LR range test, or rerun with the learning rate x10 (then x100):
    the loss starts to fall.

    How to fix: raise the learning rate into the optimizer's usual range (Adam ~1e-3,
    SGD ~1e-2..1e-1) and check the schedule.
    """
    f = features(run)
    if f.first_bad is not None or len(f.loss) < 20 or not math.isfinite(f.rel_drop):
        return []
    stopped = _schedule_stopped(run, f)
    if stopped:
        return stopped
    ur = f.update_ratio
    adaptive = f.opt_class.startswith(_ADAPTIVE)
    low_lr = math.isfinite(f.lr) and (f.lr <= (1e-5 if adaptive else 1e-4))
    # at such a rate, a loss still falling at its first pace when the run ends, far from where it
    # would settle, is as telling as a flat one (bench/real 398: Adam 1e-5 decayed, 16 % in 600 steps)
    flat = f.rel_drop < 0.15 or (low_lr and _still_falling(f.loss))
    tiny_upd = math.isfinite(ur) and ur < 1e-4
    if not (low_lr or tiny_upd) and flat and math.isfinite(ur) and ur > 0 and _still_falling(f.loss):
        return _crawling(f, ur)
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


def _crawling(f, ur: float) -> list:
    """At a usual rate, a loss that still falls at its first pace when the run ends and ends
    at 70 % of its start or above: no bend of convergence anywhere, so the step size, not the
    landscape, limits progress (the same steps at a larger rate go further); a warning, as a
    longer run is the other fix (bench/real 438: Adam 1e-3, full batch, 100 steps, 0.68 ->
    0.58 in a straight line; at 1e-2 it bends by step 40 and settles at 0.35)."""
    return [finding(
        "lr-too-low", 0.35,
        f"the loss still falls at its first pace when the run ends ({fmt(f.loss_first)} -> {fmt(f.loss_last)} "
        f"over {f.steps} steps, no sign of converging) at a learning rate of {fmt(f.lr)} with {f.opt_class}: "
        "the step size limits the progress, not the problem; raise the rate (x3 to x10) or train far longer",
        evidence=[{"series": "loss", "first": fmt(f.loss_first), "last": fmt(f.loss_last), "drop": f"{f.rel_drop:.1%}"},
                  {"series": "lr", "value": fmt(f.lr), "optimizer": f.opt_class},
                  {"series": "update_ratio", "median": fmt(ur)}],
        fix="raise the learning rate (x3 to x10; an LR range test finds the range), or train for many more steps",
        confirm="rerun with the learning rate x10 for the same steps: the loss bends and ends far lower",
    )]


def _still_falling(loss: np.ndarray) -> bool:
    """The loss's last fifth still drops at half its first fifth's pace or more (no bend of
    convergence) and ends at 70 % of its start or above: an undertrained run, not a
    converged one (medians of fifths: batch noise averages out)."""
    if len(loss) < 50:
        return False
    m = [float(np.median(q)) for q in np.array_split(loss, 5)]
    first, last = m[0] - m[1], m[3] - m[4]
    return first > 0 and last >= 0.5 * first and m[4] >= 0.7 * m[0]


ZERO = 1e-4  # of the peak learning rate: a step that moves nothing
STOPPED_SHARE = 0.6  # of the run's steps: most of it trains nothing (a converged model at 0 for its last
# half, a user's choice, is left alone)


def _schedule_stopped(run, f) -> list:
    """Every param group's learning rate at ~0 for 60 % of the steps or more, from a step
    where the loss was still falling and after which it no longer improves (bench/real
    364: StepLR with gamma 0)."""
    lrs = run.matching("lr/", focus_rank(run))
    starts = []
    for key, s in sorted(lrs.items()):
        v, ok = s.values, np.isfinite(s.values)
        if ok.sum() < 20 or not (v[ok] > 0).any():
            return []
        peak = float(np.max(v[ok]))
        after = np.flatnonzero(~(ok & (v <= ZERO * peak)))  # (a warmup from 0 starts low and rises)
        start = int(after[-1]) + 1 if after.size else 0
        if start == 0 or start >= len(v) or len(v) - start < STOPPED_SHARE * len(v):
            return []  # a group that trains on (a head beside a frozen backbone): not stopped
        starts.append((int(s.steps[start]), key, float(v[start]), peak, (len(v) - start) / len(v)))
    if not starts:
        return []
    at, key, value, peak, share = max(starts)  # the last group to stop
    loss, lsteps = f.loss, f.loss_steps
    before, later = loss[lsteps <= at], loss[lsteps > at]
    if before.size < 6 or later.size < 5:
        return []
    k = max(3, before.size // 4)
    level, prev = float(np.median(before[-k:])), float(np.median(before[-2 * k:-k]))
    end = float(np.median(later[-max(3, later.size // 5):]))
    if prev - level < 0.02 * abs(prev):
        return []  # the loss had stopped falling before (a converged run, ReduceLROnPlateau): nothing cut off
    if level - end >= 0.1 * abs(level):
        return []  # the loss still improved after it (other parameters train on)
    return [finding(
        "lr-too-low", 0.8,
        f"the learning rate fell to {fmt(value)} ({fmt(value / peak)} of its peak {fmt(peak)}) "
        f"at step {at} and stayed there for the remaining {share:.0%} of the run; the loss stopped improving "
        f"({fmt(level)} then, {fmt(end)} at the end): the schedule stopped training",
        location={"step": at},
        evidence=[{"series": f"lr/{key}", "peak": fmt(peak), "from_step": at, "value": fmt(value)},
                  {"series": "loss", "at_fall": fmt(level), "last": fmt(end)}],
        fix="check the scheduler's arguments (a StepLR/MultiStepLR gamma of 0, a horizon shorter than the run: "
            "T_max, total_steps, milestones in epochs vs steps); keep the learning rate above ~1e-2 of its peak "
            "until the last epochs",
        confirm="print scheduler.get_last_lr() each epoch; rerun with the scheduler off: the loss keeps falling",
    )]
