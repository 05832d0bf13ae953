"""loss-divergence (TD106)."""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from .. import rule
from ..util import adversarial, fmt, gross_divergence, log_view, smooth_window, trailing_median, train_loss

# On healthy bench/calib runs the smoothed loss ended at most 1.33x above its best (noise
# around a converged value); runs whose learning rate grew until they diverged ended 38x
# to 800x above it. A sustained doubling is far from both.
MIN_STEPS = 50
MIN_POINTS_SPARSE = 10
RATIO_MIN = 2.0


@rule("loss-divergence", needs=("loss",))
def loss_divergence(run) -> list[Finding]:
    """What it detects: the training loss trends upward: its running median (over 5 % of
    the run) ends at least twice as high as the lowest it reached, after the low point.
    A single spike does not count (the median ignores it); the finite part of a run that
    later went NaN does. A run too short for a trend (under 50 steps, e.g. full-batch LBFGS)
    counts when its training or evaluation loss ends 1000x above its lowest point and above
    where it started.

    Why it happens: the learning rate is too high for the current stage (often after
    warm-up ends, or a schedule that increases it), the weights grow without bound (no
    weight decay with a scale-invariant loss), the optimizer state went stale after a
    spike, or the data distribution changed (a new shard, a curriculum step).

    How to confirm: plot the learning rate against the loss (``traindoc report``); rerun
    from the checkpoint before the low point with half the learning rate: divergence
    that disappears is the learning rate; an LR range test bounds the usable rate.

    In an adversarial run (a GAN, see ``adversarial`` in rules/util.py) a warning at most:
    the generator's loss rises whenever the discriminator improves.

    How to fix: lower the peak learning rate or decay it earlier, add warm-up, clip
    gradients, add weight decay; if it coincides with a data change, check that data.
    """
    out: list[Finding] = []
    for rank in run.ranks[:1]:  # ranks share the weights: the trend of one is the trend
        steps, vals = train_loss(run, rank)
        n = len(vals)
        # a logged point every >= 5 steps is already an average over its interval (the HF
        # Trainer, Lightning's metrics.csv): 10 of them show a trend that 50 raw steps do
        sparse = n >= 2 and float(np.median(np.diff(steps))) >= 5
        short = n < (MIN_POINTS_SPARSE if sparse else MIN_STEPS)
        found = _blow_up(run, rank) if short else _trend(run, rank, steps, vals)
        if found is not None:
            out.append(found)
    return out


def _blow_up(run, rank: int) -> Finding | None:
    """A run too short for a trend whose loss still went three decades up (that needs none)."""
    g = gross_divergence(run, rank)
    if g is None:
        return None
    return Finding(
        "loss-divergence", "error",
        f"{g['series']} blew up from {fmt(g['best'])} at step {g['best_step']} to {fmt(g['last'])} at "
        f"step {g['last_step']} ({fmt(g['last'] / g['best'])}x; it started at {fmt(g['first'])})",
        location={"step": g["best_step"], "rank": rank},
        evidence=[{"series": g["series"], "step": g["best_step"], "value": g["best"], "what": "lowest"},
                  {"series": g["series"], "step": g["last_step"], "value": g["last"], "what": "last"}],
        confirm="rerun from a checkpoint before the low point with half the learning rate",
        confidence=0.9)


def _trend(run, rank: int, steps: np.ndarray, vals: np.ndarray) -> Finding | None:
    """The running median ending RATIO_MIN above its low point, reached at least a window
    before the end; an error when it also ends above where it started."""
    n = len(vals)
    view, raw_log = log_view(vals)
    w = smooth_window(n)
    sm = trailing_median(view, w)[w - 1 :]
    best = int(np.argmin(sm))
    ratio = float(np.exp(sm[-1] - sm[best]))
    if ratio < RATIO_MIN or best >= len(sm) - w:
        return None
    best_i, end_i = best + w - 1, n - 1
    first = float(np.median(vals[:w]))
    last = float(np.median(vals[-w:]))
    low = float(np.median(vals[max(0, best_i - w + 1) : best_i + 1]))
    above = last > first
    game = adversarial(run)
    msg = (f"loss trended upward from {fmt(low)} at step {int(steps[best_i])} to {fmt(last)} at step "
           f"{int(steps[end_i])} (" + (f"running median, {fmt(ratio)}x" if raw_log else
                                       f"running median, +{fmt(last - low)} on a loss that is not positive")
           + ")" + ("; it ends above where it started" if above else "")
           + ("; an adversarial run (a GAN: the first loss reaches a second optimizer's parameters, which step on "
              "a loss of their own): its losses need not fall, so this is a warning" if game else ""))
    return Finding(
        "loss-divergence", "error" if above and not game else "warning", msg,
        location={"step": int(steps[best_i]), "rank": rank},
        evidence=[{"series": "loss", "step": int(steps[best_i]), "value": low, "what": "running-median low"},
                  {"series": "loss", "step": int(steps[end_i]), "value": last, "what": "running median at the end"},
                  {"series": "loss", "step": int(steps[0]), "value": first, "what": "running median at the start"}]
        + _lr_evidence(run, rank, int(steps[best_i]), int(steps[end_i])),
        confirm="rerun from a checkpoint before the low point with half the learning rate",
        confidence=round(min(1.0, np.log2(ratio) / 5.0), 2) if raw_log else 0.5,
    )

def _lr_evidence(run, rank: int, a: int, b: int) -> list[dict]:
    """How the (first group's) learning rate moved over the divergence: it often explains it."""
    lrs = run.matching("lr/", rank)
    if not lrs:
        return []
    name, s = sorted(lrs.items())[0]
    ia, ib = np.searchsorted(s.steps, a), min(np.searchsorted(s.steps, b), len(s) - 1)
    if ia >= len(s):
        return []
    return [{"series": f"lr/{name}", "step": a, "value": float(s.values[ia]),
             "then": float(s.values[ib]), "at": int(s.steps[ib])}]
