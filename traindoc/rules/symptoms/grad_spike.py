"""grad-spike (TD107)."""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from .. import rule
from ..util import find_spikes, fmt, skipped_steps

# Gradient norms are noisier than losses and heavy-tailed: on healthy bench/calib runs
# (rules.util.spike_z on log norm) z reached 6.2 (GRU with momentum) and single norms 4x
# the level before; bad batches gave 84x to 10 000x. A spike must be both.
WINDOW = 50
MIN_HISTORY = 20
TIERS = ((8.0, 10.0),)  # 8 sigma above the level of the 5 steps before, and 10x it
MAX_REPORTED = 5


def grad_series(run, rank: int):
    """The gradient norm before clipping when the script clips (the clipped norm hides
    the spike), else the norm the optimizer saw."""
    pre = run.series("grad_norm_preclip", rank)
    return ("grad_norm_preclip", pre) if not pre.empty else ("grad_norm", run.series("grad_norm", rank))


@rule("grad-spike", needs=("grad_norm",))
def grad_spike(run) -> list[Finding]:
    """What it detects: a sudden jump of the global gradient norm (before clipping, when
    the script clips): at least 10 times its level over the 5 steps before and 8 robust
    standard deviations of its own noise (log scale, over the 50 steps before) above it. Steps a GradScaler skipped are left out.

    Why it happens: a batch unlike the others (outliers, corrupt values, a rare long
    sequence), a sharp region of the loss surface met with too large a learning rate,
    recurrent or very deep nets without clipping, an op whose backward is unbounded near
    a point (sqrt or norm at zero, division by a small value).

    How to confirm: compare the loss at the same step (a loss spike too points at the
    batch; a calm loss with a large gradient points at the curvature or one op); read the
    per-parameter norms at that step to find the layer; replay the step.

    How to fix: clip the gradient norm (``torch.nn.utils.clip_grad_norm_``, e.g. max 1.0),
    lower the learning rate or lengthen warm-up, fix or drop the offending samples, add
    an epsilon where the backward divides by a norm.
    """
    out: list[Finding] = []
    multi = len(run.ranks) > 1
    for rank in run.ranks:
        name, s = grad_series(run, rank)
        keep = np.isfinite(s.values) & (s.values > 0) & ~np.isin(s.steps, list(skipped_steps(run, rank)))
        steps, vals = s.steps[keep], s.values[keep]
        if len(vals) <= MIN_HISTORY:
            continue
        spikes = find_spikes(vals, WINDOW, MIN_HISTORY, TIERS)
        found = []
        for sp in spikes[:MAX_REPORTED]:
            step = int(steps[sp["peak"]])
            top = _top_params(run, rank, step)
            where = f"; largest in {', '.join(top)}" if top else ""
            back = sp["back"]
            rec = ("stayed high" if back is None else f"back {int(steps[back]) - step} step(s) later")
            msg = (f"gradient norm jumped to {fmt(float(vals[sp['peak']]))} at step {step}, "
                   f"{fmt(sp['ratio'])}x the level of the steps before ({fmt(sp['base'])})"
                   + (f" on rank {rank}" if multi else "") + f"; {rec}{where}")
            found.append(Finding(
                "grad-spike", "warning", msg, location={"step": step, "rank": rank},
                evidence=[{"series": name, "step": step, "value": float(vals[sp["peak"]]),
                           "level_before": sp["base"], "z": round(sp["z"], 1),
                           "ratio": round(sp["ratio"], 2)}],
                confirm=f"read grad_norm/* at step {step} for the layer; replay step {step} when a bundle exists",
                confidence=round(min(1.0, np.log10(sp["ratio"]) / 3.0), 2),
            ))
        if len(spikes) > MAX_REPORTED:
            found[-1].message += f" ({len(spikes) - MAX_REPORTED} more not listed)"
        out.extend(found)
    return out


def _top_params(run, rank: int, step: int, k: int = 3) -> list[str]:
    """The parameters with the largest gradient norm at ``step`` (when recorded)."""
    vals = []
    for n, s in run.matching("grad_norm/", rank).items():
        i = np.searchsorted(s.steps, step)
        if i < len(s) and s.steps[i] == step and np.isfinite(s.values[i]):
            vals.append((float(s.values[i]), n))
    vals.sort(reverse=True)
    return [f"{n} ({fmt(v)})" for v, n in vals[:k]]
