"""exploding-gradient (TD703)."""

from __future__ import annotations

import math

import numpy as np

from .. import rule
from ..util import fmt
from ._stats import features, finding, module_order, onset

_RECURRENT = ("RNN", "LSTM", "GRU")


@rule("exploding-gradient", needs=("grad_norm",))
def exploding_gradient(run):
    """What it detects: a gradient norm that jumps by orders of magnitude: steps whose
    norm is more than 30x the run's median, recurring, or a norm that grows 100x before
    the loss goes non-finite; more likely in recurrent nets and deep nets without
    normalisation, and when no gradient clipping is recorded.

    Why it happens: backpropagation multiplies by each layer's (or each time step's)
    Jacobian; gains above 1 compound (recurrent weights with a spectral radius above 1,
    deep plain nets, residual streams without normalisation).

    How to confirm: log the gradient norm per layer (traindoc records grad_norm/*): the
    spikes start in the recurrent/deep part; rerun with clip_grad_norm_(params, 1.0): the
    run stabilises.

    How to fix: clip the gradient norm (torch.nn.utils.clip_grad_norm_), add
    normalisation (LayerNorm), use gated recurrent units (LSTM/GRU), initialise recurrent
    weights orthogonally with gain <= 1, lower the learning rate.
    """
    f = features(run)
    g = f.grad
    if len(g) < 10 or not math.isfinite(f.grad_med) or f.grad_med <= 0:
        return []
    clipped = run.has("grad_norm_preclip", run.ranks[0])
    ratio = g / f.grad_med
    spikes = int(np.sum(ratio > 30))
    o = onset(f)
    grow = o.get("grad_growth", 1.0)
    recurrent = any(c.startswith(_RECURRENT) for _, c in module_order(run))
    s = 0.0
    if spikes >= 2:
        s = 1.0 + 0.15 * math.log10(max(f.grad_max / f.grad_med, 1))
    if f.first_bad is not None and grow >= 100:
        s = max(s, 1.0)
    if s == 0.0:
        return []
    c = 0.45 * s * (1.3 if recurrent else 1.0) * (0.5 if clipped else 1.0)
    return [finding(
        "exploding-gradient", min(c, 0.9),
        f"the gradient norm jumps by orders of magnitude: max {fmt(f.grad_max)} against a median of {fmt(f.grad_med)}"
        f" ({spikes} step(s) above 30x the median)" + (" in a recurrent net" if recurrent else "")
        + ("" if clipped else ", and no gradient clipping was recorded"),
        location={"step": int(run.series("grad_norm").steps[int(np.nanargmax(run.series("grad_norm").values))])}
        if spikes else {"step": f.first_bad},
        evidence=[{"series": "grad_norm", "median": fmt(f.grad_med), "max": fmt(f.grad_max), "spikes_over_30x": spikes},
                  {"series": "grad_norm_preclip", "recorded": clipped}],
        fix="clip the gradient norm (torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)); add normalisation; "
            "for RNNs use LSTM/GRU and recurrent init with gain <= 1",
        confirm="rerun with clip_grad_norm_ at 1.0: the spikes and the instability go away",
    )]
