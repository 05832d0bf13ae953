"""grad-nonfinite (TD102)."""

from __future__ import annotations

import math

import numpy as np

from ...findings import Finding
from .. import rule


@rule("grad-nonfinite", needs=("grad_nonfinite",))
def grad_nonfinite(run) -> list[Finding]:
    """What it detects: a gradient held NaN or Inf when the optimizer was about to step
    (steps that a GradScaler skipped are counted apart: skipping them is its job). Names
    the parameters whose gradients went non-finite first.

    Why it happens: the loss was already non-finite; an op is finite in the forward pass
    but not in the backward (sqrt at 0, a division by a tiny norm); gradients overflowed
    (exploding gradients, float16 without loss scaling).

    How to confirm: compare with the loss at the same step: a finite loss with a
    non-finite gradient points to the backward of one op; replay the step.

    How to fix: clip gradients (``clip_grad_norm_``), add an epsilon inside sqrt/norm
    divisions, use a GradScaler under float16.
    """
    out = []
    for rank in run.ranks:
        s = run.series("grad_nonfinite", rank)
        if s.empty:
            continue
        skipped = run.series("scaler/skipped", rank)
        skipped_steps = set(skipped.steps[skipped.values > 0].tolist()) if not skipped.empty else set()
        bad = s.values > 0
        steps = [int(x) for x in s.steps[bad]]
        real = [x for x in steps if x not in skipped_steps]
        n_skipped = len(steps) - len(real)
        total = len(s.steps)
        if real:
            first = real[0]
            params = []
            for name, ser in run.matching("grad_norm/", rank).items():
                i = np.searchsorted(ser.steps, first)
                if i < len(ser.steps) and ser.steps[i] == first and not math.isfinite(ser.values[i]):
                    params.append(name)
            loss = run.series("loss", rank)
            j = np.searchsorted(loss.steps, first)
            loss_val = float(loss.values[j]) if j < len(loss.steps) and loss.steps[j] == first else float("nan")
            msg = (f"non-finite gradients at step {first}" + (f" on rank {rank}" if len(run.ranks) > 1 else "")
                   + (f" in {len(params)} parameter(s)" if params else " (the logged global norm; no per-parameter norms)")
                   + (f" while the loss was finite ({loss_val:.4g})" if math.isfinite(loss_val) else "")
                   + f"; {len(real)} step(s) in all")
            out.append(Finding(
                "grad-nonfinite", "error", msg,
                location={"step": first, "rank": rank, **({"param": params[0]} if params else {})},
                evidence=[{"series": "grad_nonfinite", "step": first, "value": int(s.values[bad][0])},
                          {"params": params[:10]}],
            ))
        if n_skipped and total and n_skipped / total > 0.2:
            out.append(Finding(
                "grad-nonfinite", "warning",
                f"the GradScaler skipped {n_skipped} of {total} steps for non-finite gradients",
                location={"step": steps[0], "rank": rank},
                evidence=[{"series": "scaler/skipped", "count": n_skipped, "of": total}],
            ))
    return out
