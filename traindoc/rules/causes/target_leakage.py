"""target-leakage (TD210)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import finding
from ..util import fmt


@rule("target-leakage", needs=("loss", "meta:target-in-input"))
def target_leakage(run):
    """What it detects: the loss's target is one of the model's own inputs, found by exact
    comparison during the first 20 training steps: an integer target equal to an integer
    input (a next-token target that was never shifted, `y = x`: the model only has to
    copy its input), or a target equal to a column of the table the model receives (the
    label left among the features); or a binary target correlated 0.9 or more with one
    column while no other column reaches 0.7 (a column computed from the label plus noise;
    two well-separated classes make every honest column strong together), or a binary target that one column
    separates perfectly, every row of one class below every row of the other, in each of
    the first three batches or more of 16+ rows per class (a regression set binarised with
    its own target left among the features), an error only when the loss then
    falls below 5 % of its start, a warning otherwise (a very strong honest feature). The training loss then falls far below what the task
    allows: nanoGPT with `y = x` reaches 0.007 on character-level Shakespeare, where the
    data's entropy keeps an honest model above ~1.

    Why it happens: an off-by-one in the batch code (`y = data[i:i+T]` instead of
    `data[i+1:i+1+T]`), a label column not dropped from the features, a target derived
    from an input.

    How to confirm: print `(x == y).float().mean()` for a batch, or train once with the
    suspected input replaced by noise: the loss then stays near the data's entropy.

    How to fix: shift the targets (`y = data[i+1:i+1+T]`), drop the label (and anything
    computed from it) from the inputs. An autoencoder whose integer targets are meant to
    be its inputs is the one legitimate case: then ignore this finding.
    """
    ev = next((e for e in run.events() if e["kind"] == "target-in-input"), None)
    if ev is None:
        return []  # the monitor compared targets and inputs for 20 steps: no leak
    loss = run.series("loss")
    v = loss.values[np.isfinite(loss.values)]
    start = float(np.median(v[: max(3, len(v) // 20)])) if len(v) else float("nan")
    end = float(np.median(v[-max(3, len(v) // 5):])) if len(v) else float("nan")
    low = len(v) >= 10 and end < 0.05 * start
    near = bool((ev.get("data") or {}).get("near"))
    # a column correlated 0.9+ with the label may be an honest, very strong feature: only the
    # loss falling far below what the task allows makes it the leak (an error), else a lead
    c = (0.85 if low else 0.45) if near else (0.92 if low else 0.7)
    tail = (f"; the loss fell from {fmt(start)} to {fmt(end)}, far below what a model that has to predict "
            f"could reach" if low else f"; the loss went from {fmt(start)} to {fmt(end)}")
    return [finding(
        "target-leakage", c, f"{ev['message']} (step {ev['step']}): the model can read the answer off its input"
        + tail,
        location={"step": ev["step"]},
        evidence=[{"event": "target-in-input", "step": ev["step"], "message": ev["message"]},
                  {"series": "loss", "first": start, "last": end}],
        fix="shift next-token targets (y = data[i+1:i+1+T]); drop the label and anything derived from it from the "
            "inputs",
        confirm="print (x == y).float().mean() for one batch; an honest target matches its input by chance only",
    )]
