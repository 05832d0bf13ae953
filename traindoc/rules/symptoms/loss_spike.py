"""loss-spike (TD103)."""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from .. import rule
from ..util import find_spikes, fmt, skipped_steps

# Calibrated on bench/calib (healthy runs of MLPs, logistic regression, CNNs, GRU and
# transformer LMs with SGD, momentum, Adam and AdamW, batch 8 to 64, cosine schedules with
# warm-up, dropout, several seeds; and the same with one bad batch). z is the jump over
# the level of the 5 steps before, in units of the loss's own noise around its trend
# (rules.util.spike_z). Healthy runs reached z 13 only with a 1.98x bump while learning
# fast, and otherwise z <= 6.3; bad batches gave z 30-230 at 2.2x to 30 000x.
WINDOW = 50        # steps of history the noise is measured over
MIN_HISTORY = 20   # no verdict before this many finite losses
TIERS = ((8.0, 2.0),    # at least 2x the level before, 8 sigma above it
         (30.0, 1.5))   # or a smaller jump that is extreme for this run's noise
MAX_REPORTED = 5   # episodes listed one by one; the rest are counted


@rule("loss-spike", needs=("loss",))
def loss_spike(run) -> list[Finding]:
    """What it detects: a sudden jump of the training loss far outside its recent
    distribution: at least twice the level of the 5 steps before and 8 robust standard
    deviations of the loss's own noise (median absolute deviation of log(loss) around its
    trend over the 50 steps before) above it, or 1.5 times and 30 deviations. Consecutive spiky steps
    form one episode, reported at its peak with its size and how many steps the loss took
    to come back. Steps a GradScaler skipped are left out.

    Why it happens: one bad batch (an outlier sample, corrupt or mislabelled data), an
    update too large for the curvature (learning rate too high for this stage, Adam's
    second-moment estimate lagging a sudden large gradient, epsilon too small), a
    numerically unstable op that nearly overflowed.

    How to confirm: look up the batch indices recorded at the spike step and replay the
    step; if the same batch spikes from an earlier model state it is the data, if other
    batches spike from this state it is the optimizer state (PaLM's triage).

    How to fix: for bad data, fix or drop the samples and add a data check; for unstable
    optimization, lower the peak learning rate or lengthen warm-up, clip gradients, raise
    Adam's epsilon or lower beta2; skipping the batch (as PaLM did) is a last resort.
    """
    out: list[Finding] = []
    multi = len(run.ranks) > 1
    for rank in run.ranks:
        s = run.series("loss", rank)
        keep = np.isfinite(s.values) & ~np.isin(s.steps, list(skipped_steps(run, rank)))
        steps, vals = s.steps[keep], s.values[keep]
        if len(vals) <= MIN_HISTORY:
            continue
        spikes = find_spikes(vals, WINDOW, MIN_HISTORY, TIERS)
        found = []
        for sp in spikes[:MAX_REPORTED]:
            step = int(steps[sp["peak"]])
            back = sp["back"]
            rec = ("did not come back within the run" if back is None else
                   f"back to its trend {int(steps[back]) - step} step(s) later")
            base = f" from {fmt(sp['base'])}" if sp["base"] is not None else ""
            msg = (f"loss spiked to {fmt(float(vals[sp['peak']]))} at step {step}{base} "
                   f"({fmt(sp['ratio'])}x, robust z {sp['z']:.0f})"
                   + (f" on rank {rank}" if multi else "") + f"; {rec}")
            evidence = [{"series": "loss", "step": step, "value": float(vals[sp["peak"]]),
                         "level_before": sp["base"], "z": round(sp["z"], 1),
                         "ratio": round(sp["ratio"], 2),
                         "episode": [int(steps[sp["first"]]), int(steps[sp["last"]])]}]
            idx = run.batch_indices(step, rank)
            if idx is not None:
                evidence.append({"batch": f"{len(idx)} dataset indices recorded for step {step}",
                                 "first": idx[:8].tolist()})
            found.append(Finding(
                "loss-spike", "warning", msg, location={"step": step, "rank": rank}, evidence=evidence,
                confirm=(f"replay step {step} (its bundle, when traindoc captured one) and run the same "
                         f"batch from an earlier checkpoint"),
                confidence=round(min(1.0, sp["z"] / 20.0), 2),
            ))
        if len(spikes) > MAX_REPORTED:
            found[-1].message += f" ({len(spikes) - MAX_REPORTED} more spike episode(s) not listed)"
        if found:
            found[0].evidence.append({"series": "loss", "spike_episodes": len(spikes)})
        out.extend(found)
    return out
