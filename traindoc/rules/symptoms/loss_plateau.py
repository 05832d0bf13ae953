"""loss-plateau (TD104)."""

from __future__ import annotations

import math

import numpy as np

from ...findings import Finding
from .. import rule
from ..util import adversarial, fmt, log_view, smooth_window, train_loss
from .loss_oscillation import swing

# On healthy bench/calib runs the last quarter's median loss was at most 0.26x the
# first steps' (logistic regression, which converges to a high-ish loss), usually under
# 0.05x; runs with a learning rate 1e4x too low, or with random labels, stayed at
# 0.97-1.0x. Flat means the last quarter improved less than 2 % on the one before.
MIN_STEPS = 50
FLAT_MAX_GAIN = 0.02     # relative improvement of the last quarter over the third
STILL_HIGH = 0.6         # last quarter median / start median at or above which the loss "is still high"
CHANCE_MARGIN = 0.05     # within 5 % of the label entropy = no better than predicting the class priors


def label_entropy(run, rank: int) -> tuple[float, int] | None:
    """Entropy (nats) of the class histogram the loss functions saw, and the class count:
    the cross-entropy of a model that only learned the priors."""
    counts = np.zeros(0)
    for ev in run.events(rank):
        if ev["kind"] == "labels" and ev["data"]:
            for label, c in (ev["data"].get("counts") or {}).items():  # {"class": count}
                k = int(label)
                if k >= len(counts):
                    counts = np.pad(counts, (0, k + 1 - len(counts)))
                counts[k] += c
    if counts.sum() <= 0 or len(counts) < 2:
        return None
    p = counts[counts > 0] / counts.sum()
    return float(-(p * np.log(p)).sum()), int(len(counts))


@rule("loss-plateau", needs=("loss",))
def loss_plateau(run) -> list[Finding]:
    """What it detects: the training loss stopped decreasing while it is still high: over
    the last quarter of the run it improved less than 2 % on the quarter before, and it
    is either still at 60 % or more of where it started or no better than predicting the
    class frequencies (the entropy of the labels the loss saw, for classification losses).
    A loss that swings widely is reported as ``loss-oscillation`` instead.

    Why it happens: a learning rate far too low; gradients that vanish before the first
    layers; labels that do not match their inputs (nothing to learn); dead ReLUs or
    saturated activations; parameters left out of the optimizer or frozen; a loss that
    does not fit the output (MSE on class indices, softmax before cross-entropy).

    How to confirm: overfit one batch (a model that cannot drive one batch's loss near
    zero has a bug, not a tuning problem); shuffle the labels (the same curve means the
    labels carry no signal); an LR range test; read the per-layer gradient norms and the
    update-to-weight ratios (healthy: around 1e-3 per step).

    How to fix: follow the cause traindoc ranks first; raising the learning rate only
    helps when the cause is ``lr-too-low``.
    """
    out: list[Finding] = []
    if adversarial(run):
        return out  # a GAN's losses settle at the game's balance: flat is what they should do
    for rank in run.ranks[:1]:  # ranks share the weights: the trend of one is the trend
        steps, vals = train_loss(run, rank)
        n = len(vals)
        if n < MIN_STEPS:
            continue
        view, raw_log = log_view(vals)
        q, w = n // 4, smooth_window(n)
        start = float(np.median(view[:w]))
        third, last = float(np.median(view[-2 * q : -q])), float(np.median(view[-q:]))
        gain = 1.0 - math.exp(last - third)
        if gain >= FLAT_MAX_GAIN or swing(vals) is not None:
            continue
        kept = math.exp(last - start)
        last_raw, start_raw = float(np.median(vals[-q:])), float(np.median(vals[:w]))
        chance = label_entropy(run, rank)
        at_chance = chance is not None and last_raw >= chance[0] * (1 - CHANCE_MARGIN) and last_raw <= math.log(chance[1]) * 1.5
        if not (kept >= STILL_HIGH or at_chance):
            continue
        why = []
        if kept >= STILL_HIGH:
            why.append(f"{fmt(100 * kept)} % of its starting value {fmt(start_raw)}" if raw_log else
                       f"about where it started ({fmt(start_raw)}; a loss that is not positive)")
        if at_chance:
            why.append(f"no better than predicting the class frequencies (label entropy {fmt(chance[0])} "
                       f"over {chance[1]} classes)")
        a = int(steps[n - 2 * q])
        msg = (f"loss flat at {fmt(last_raw)} from step {a} to {int(steps[-1])} "
               f"({fmt(100 * gain)} % lower over the last quarter), still " + " and ".join(why))
        ev = [{"series": "loss", "step": int(steps[0]), "value": start_raw, "what": "median of the first steps"},
              {"series": "loss", "step": int(steps[-1]), "value": last_raw, "what": "median of the last quarter"}]
        if chance is not None:
            ev.append({"labels": chance[1], "entropy": chance[0]})
        out.append(Finding(
            "loss-plateau", "warning", msg, location={"step": a, "rank": rank}, evidence=ev,
            confirm="overfit a single batch; train once with shuffled labels; run an LR range test",
            confidence=round(min(1.0, kept), 2) if raw_log else 0.5,
        ))
    return out
