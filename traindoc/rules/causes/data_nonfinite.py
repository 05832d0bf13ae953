"""data-nonfinite (TD201)."""

from __future__ import annotations

from .. import rule
from ..evidence import features, finding
from ..util import fmt
from .nonfinite import born_in_backward, calm_onset, confident_before, half_model


@rule("data-nonfinite", needs=("loss",))
def data_nonfinite(run):
    """What it detects: the loss became NaN/Inf all at once, from a calm run (no rising
    loss, no growing gradient norm before it, float32 tensors): the signature of a batch
    that carried NaN or Inf in its features or targets.

    Why it happens: missing values never imputed, log/division of a raw column in
    preprocessing (log(0) = -inf), a corrupt file, a join that produced NaN.

    How to confirm: replay the step (the batch's sample indices are in the run) and
    look at the samples; ``traindoc data check`` on the training files reports every
    non-finite value with its row and column in seconds.

    How to fix: impute or drop the rows, guard the transform (log1p, clip), and keep
    ``traindoc data check`` in CI so the next dump is checked before training.
    """
    f = features(run)
    if f.first_bad is None or not calm_onset(f) or half_model(f):
        return []
    # A calm onset is shared with unstable-op; data comes first in the diagnostic order,
    # unless the model had become confident (the regime of exp/log overflow).
    c = 0.30 if confident_before(f) else 0.47
    backward = born_in_backward(f)
    if backward:
        c = 0.2  # the loss of the step whose gradient broke was finite: the inputs were too
    idx = run.batch_indices(f.first_bad)
    loc = {"step": f.first_bad}
    ev = [{"series": "loss", "step": f.first_bad, "value": "non-finite",
           "before": fmt(float(f.loss[-1])) if len(f.loss) else "none"}]
    if idx is not None:
        loc["samples"] = [int(i) for i in idx[:64]]
        ev.append({"batch": f"{len(idx)} samples drawn at step {f.first_bad}", "first": [int(i) for i in idx[:8]]})
    return [finding(
        "data-nonfinite", c,
        f"the loss turned non-finite at step {f.first_bad} out of a calm run (loss {fmt(float(f.loss[-1])) if len(f.loss) else '?'} "
        "the step before, no growth in loss or gradient norm): " + (
            f"a gradient was non-finite already at step {f.grad_bad_first} with a finite loss, so bad inputs are "
            "less likely than an op's backward; a batch with NaN/Inf in a masked-out position is still possible"
            if backward else "a batch with NaN/Inf inputs or targets is the first suspect"),
        location=loc, evidence=ev,
        fix="find the NaN/Inf values (traindoc data check PATH) and impute, drop or guard them (log1p, clip) in preprocessing",
        confirm=f"check the samples of step {f.first_bad} for non-finite values (traindoc data check on the training data); "
                "if they are finite the cause is an unstable op inside the model (replay the step)",
    )]
