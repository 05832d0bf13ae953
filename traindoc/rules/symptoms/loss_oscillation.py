"""loss-oscillation (TD105)."""

from __future__ import annotations

import math

import numpy as np

from ...findings import Finding
from .. import rule
from ..evidence.model import module_order
from ..util import fmt, smooth_window, train_loss

# Calibration (bench/calib): see the README table. Healthy runs that had converged swung
# by P90/P10 up to SWING_HEALTHY over their last half, but by little against where they
# started; learning rates far too high swung by more than RATIO_MIN *and* by a large
# part of the starting loss, with no downward trend.
MIN_STEPS = 50
RATIO_MIN = 2.0          # P90 / P10 of the loss over the last half of the run
SCALE_MIN = 0.25         # (P90 - P10) as a fraction of the loss at the start
TREND_MAX_GAIN = 0.05    # the last quarter improved less than this on the quarter before


def swing(vals: np.ndarray) -> dict | None:
    """The swing of a finite loss series over its last half when it oscillates without
    trending (None otherwise): P10, P90, their ratio, and the starting loss."""
    n = len(vals)
    if n < MIN_STEPS or vals.min() <= 0:
        return None  # ratios are meaningless for losses that reach zero or below
    q, w = n // 4, smooth_window(n)
    half = vals[n // 2 :]
    lo, hi = float(np.percentile(half, 10)), float(np.percentile(half, 90))
    start = float(np.median(vals[:w]))
    gain = 1.0 - float(np.median(vals[-q:])) / float(np.median(vals[-2 * q : -q]))
    if gain >= TREND_MAX_GAIN or hi / lo < RATIO_MIN or (hi - lo) < SCALE_MIN * start:
        return None
    return {"p10": lo, "p90": hi, "ratio": hi / lo, "start": start, "gain": gain}


@rule("loss-oscillation", needs=("loss",))
def loss_oscillation(run) -> list[Finding]:
    """What it detects: over the second half of the run the training loss swings up and
    down without trending: its 90th percentile is at least twice its 10th, the swing is at
    least a quarter of the starting loss, and the last quarter is no more than 5 % lower
    than the quarter before. (Noise around a converged, small loss is not an oscillation:
    the swing is small next to where the loss started.)

    Why it happens: a learning rate too high for the curvature (each step overshoots the
    valley), features on very different scales (one direction much steeper than the
    others), a summed loss whose gradient grows with the batch or sequence length, batches
    that differ wildly (unshuffled data sorted by class or source), or momentum too high.

    How to confirm: halve the learning rate for a short rerun (an oscillation from the
    learning rate shrinks at once); run an LR range test; check feature scales with
    ``traindoc data check``; check the loss reduction.

    How to fix: lower the learning rate (or add warm-up and decay), normalise the inputs,
    use a mean reduction, shuffle the data.
    """
    out: list[Finding] = []
    for rank in run.ranks[:1]:  # ranks share the weights
        steps, vals = train_loss(run, rank)
        sw = swing(vals)
        if sw is None:
            continue
        a = int(steps[len(vals) // 2])
        msg = (f"loss swings between {fmt(sw['p10'])} and {fmt(sw['p90'])} (P10-P90, {fmt(sw['ratio'])}x) "
               f"from step {a} to {int(steps[-1])} without trending down (started at {fmt(sw['start'])})")
        drop = sum(c.startswith(("Dropout", "AlphaDropout")) for _, c in module_order(run))
        if drop:  # NYU-DLSP20's Bayesian-NN notebook: 20 points, input dropout, full batch
            msg += (f"; the model has {drop} dropout layer(s): its training loss is measured with units dropped, "
                    "so part of the swing is dropout's own noise (most on small batches): compare the loss in "
                    "eval mode before lowering the learning rate")
        out.append(Finding(
            "loss-oscillation", "warning", msg, location={"step": a, "rank": rank},
            evidence=[{"series": "loss", "steps": [a, int(steps[-1])], "p10": sw["p10"], "p90": sw["p90"],
                       "start": sw["start"], "last_quarter_gain": round(sw["gain"], 3)}],
            confirm="rerun a few hundred steps with half the learning rate: an LR oscillation shrinks at once",
            confidence=round(min(1.0, math.log2(sw["ratio"]) / 4.0), 2),
        ))
    return out
