"""unstable-op (TD301)."""

from __future__ import annotations

from .. import rule
from ..evidence import features, finding, focus_rank
from ..util import fmt
from .nonfinite import born_in_backward, calm_onset, confident_before, half_model


@rule("unstable-op", needs=("loss",))
def unstable_op(run):
    """What it detects: the loss became NaN/Inf all at once in float32, without a rising
    loss or gradient norm before it; more likely so when the model had already become
    very confident (the regime where a hand-written exp overflows or a log reaches 0).

    Why it happens: softmax or log-sum-exp written by hand without subtracting the max,
    log(sigmoid(x)) or log(1 - p) instead of the fused losses, x / x.norm() on an all-zero
    vector, softmax over a fully masked row (-inf minus -inf), sqrt at 0.

    How to confirm: replay the step with anomaly detection (``traindoc`` replays a
    bundle; by hand: ``torch.autograd.set_detect_anomaly(True)`` on the saved batch) to
    name the first op that produced NaN from finite inputs.

    How to fix: use the fused, stable forms (F.cross_entropy, F.log_softmax,
    F.binary_cross_entropy_with_logits, F.normalize with eps, torch.logsumexp), add an eps
    where you divide or take a log, and guard fully masked rows.
    """
    f = features(run)
    if half_model(f):
        return []
    if born_in_backward(f):
        return [_backward_nan(run, f)]
    if f.first_bad is None or not calm_onset(f):
        return []
    c = 0.62 if confident_before(f) else 0.40
    why = (f"after the training loss had fallen {f.rel_drop:.0%} (a confident model, large logits)"
           if confident_before(f) else "with no rising loss or gradient norm before it")
    return [finding(
        "unstable-op", c,
        f"the loss turned non-finite at step {f.first_bad} in float32 {why}: an operation that is "
        "undefined for some inputs (exp overflow, log(0), 0/0, a fully masked softmax row) is a prime suspect",
        location={"step": f.first_bad},
        evidence=[{"series": "loss", "step": f.first_bad, "value": "non-finite"},
                  {"series": "loss", "drop_before": f"{f.rel_drop:.0%}",
                   "last_finite": fmt(float(f.loss[-1])) if len(f.loss) else "none"}],
        fix="replace hand-written softmax/log/normalisation with the fused stable forms "
            "(F.cross_entropy, torch.logsumexp, F.normalize(eps=...)) or add an eps; guard fully masked rows",
        confirm=f"replay step {f.first_bad} with torch.autograd.set_detect_anomaly(True) (or traindoc's replay of the "
                "step's bundle): the first op that turns finite inputs into NaN/Inf names the culprit",
    )]


def _backward_nan(run, f):
    g = f.grad_bad_first
    ls = run.series("loss", focus_rank(run))
    at = ls.values[ls.steps == g]
    loss_txt = fmt(float(at[0])) if at.size else "finite"
    return finding(
        "unstable-op", 0.72,
        f"a gradient went non-finite at step {g} while that step's loss was finite ({loss_txt}): the forward, "
        "inputs included, was finite and the backward of an op was not (sqrt or a norm at exactly 0, x ** p with "
        "p < 1 at 0, torch.where with NaN/Inf in the branch it did not select)",
        location={"step": g},
        evidence=[{"series": "grad_nonfinite", "step": g, "value": "> 0"},
                  {"series": "loss", "step": g, "value": loss_txt}],
        fix="add an eps inside the sqrt/norm (torch.sqrt(x + 1e-12), F.normalize(eps=...), "
            "torch.linalg.vector_norm on a clamped input), or mask the input of the op instead of its output",
        confirm=f"replay step {g} with torch.autograd.set_detect_anomaly(True): the backward op that returns "
                "NaN from finite values names the culprit",
    )
