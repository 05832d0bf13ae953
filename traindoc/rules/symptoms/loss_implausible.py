"""loss-implausible (TD109)."""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from .. import rule
from ..util import fmt

TOO_LOW = 0.05  # the end of the run against its start: a loss that fell 20x
# a loss that ends below -1000 (and 1000x its first value below zero): a Gaussian NLL with a
# learned variance goes negative honestly, by a few units, not by orders of magnitude
UNBOUNDED = 1000.0


@rule("loss-implausible", needs=("loss", "meta:target-in-input"))
def loss_implausible(run):
    """What it detects: a training loss that fell to under 5 % of its starting value while
    the loss's target is one of the model's inputs (found by exact comparison during the
    first steps, see `target-leakage`): a loss too good to be true.

    Why it happens: a model that can read the answer off its input reaches a near-zero
    training loss that no honest model of the task could, and learns nothing usable at
    inference time, when the answer is not among its inputs.

    How to confirm: evaluate on data where the target cannot be in the input (generation
    one token at a time); the loss is then far higher.

    How to fix: see `target-leakage`.

    A near-zero loss alone is not flagged: easy tasks, memorised small datasets and
    synthetic data reach it honestly; only the leak makes it implausible. Also, whatever
    the inputs: a loss that ends below -1000 and more than 1000x its first value below
    zero (a reconstruction loss divided by a per-feature variance that a constant column
    turned negative ran to -1e11): nothing a well-posed loss can reach.
    """
    loss = run.series("loss")
    v = loss.values[np.isfinite(loss.values)]
    if len(v) < 10:
        return []
    start, end = float(np.median(v[: max(3, len(v) // 20)])), float(np.median(v[-max(3, len(v) // 5):]))
    step = int(loss.steps[np.flatnonzero(np.isfinite(loss.values))[-1]])
    first = float(v[0])
    if end < -UNBOUNDED * max(abs(first), 1.0):
        return [Finding("loss-implausible", "error",
                        f"the loss fell from {fmt(first)} to {fmt(end)}, below -{fmt(UNBOUNDED)} and "
                        f"{fmt(-end / max(abs(first), 1e-12))}x its first value: "
                        "a loss bounded below (a squared error, a cross-entropy) cannot go there; the optimizer found "
                        "a way to lower it without bound (a term with a negative weight, a divisor at or below zero, "
                        "a log-likelihood whose variance collapses)",
                        location={"step": step}, evidence=[{"series": "loss", "first": first, "last": end}])]
    if not (start > 0 and end < TOO_LOW * start):
        return []
    ev = next((e for e in run.events() if e["kind"] == "target-in-input"), None)
    if ev is None:
        return []  # the monitor compared targets and inputs for 20 steps: no leak
    return [Finding("loss-implausible", "error",
                    f"the loss fell from {fmt(start)} to {fmt(end)} while {ev['message']}: too good to be true",
                    location={"step": step}, evidence=[{"series": "loss", "first": start, "last": end}])]
