"""Binary targets: the positive rates of multi-label targets and dense maps, and the
predicted against the true positive rate of a binary loss on sampled steps.

``MultiLabelCounts``: rows and positives per tag of a binary cross-entropy's (N, K) target,
summed on the device and read once at close as the ``labels-multi`` event. A dense map
(segmentation masks, heatmaps: (N, C, H, W), or a (N, H, W) mask) counts each element as a
row and its channels as the tags, on sampled steps.

``PositiveRates``:

An unweighted binary cross-entropy over rare positives (cell centres in a heatmap, fraud
rows, rare tags) can settle on "everything is negative": the loss looks low (a model that
predicts every element absent pays only the rare positives' cost) and nothing in it says
the positives are never found. The share of elements the model predicts positive (logit
above 0, or probability above 0.5) next to the share of positive targets says it directly:
a healthy model's two shares are of the same order. Two reductions and one stack per
sampled step, read with the step's transfer (no sync); the first binary loss call of a step
only.
"""

from __future__ import annotations

from typing import Any

import torch


class MultiLabelCounts:
    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self.counts: torch.Tensor | None = None
        self.dense = False

    def add(self, t: torch.Tensor) -> None:
        """Another tag count than the first one seen (a second head) is not mixed in. One
        reduction, no sync, int64 counts. A dense map (3+ dims) is counted on sampled steps
        only (a statistic: a segmentation batch holds millions of elements), its channels
        (dim 1 of 4+ dims; a (N, H, W) mask is one channel) as the tags, in place (no copy)."""
        if t.dim() >= 3:
            if not self.mon.rec.sampled:
                return
            self.dense = True
            dims = tuple(d for d in range(t.dim()) if d != 1) if t.dim() >= 4 else tuple(range(t.dim()))
            pos = (t >= 0.5).sum(dim=dims).reshape(-1)
        else:
            pos = (t >= 0.5).sum(0)
        mc = self.counts
        if mc is not None and (mc.numel() != pos.numel() + 1 or mc.device != t.device):
            return
        row = torch.cat([torch.full((1,), t.numel() // pos.numel(), dtype=torch.int64, device=t.device), pos.long()])
        self.counts = row if mc is None else mc + row

    def summary(self) -> None:
        """At close: the tags' positive rates as an event ``labels-multi`` (rows, tags, mean
        and median rate, share of tags under 1 %, and ``prior_entropy``: the mean binary
        entropy of the tags, the per-element BCE of a model that learned only each tag's
        frequency). A summary, not the K counts: K may be tens of thousands."""
        mc, self.counts = self.counts, None
        if mc is None:
            return
        c = mc.double().cpu()  # close: one read
        rows, pos = float(c[0]), c[1:]
        if rows <= 0 or pos.numel() < (1 if self.dense else 2):
            return
        p = (pos / rows).clamp(0, 1)
        q = p.clamp(1e-12, 1 - 1e-12)
        h = -(p * q.log() + (1 - p) * (1 - q).log())
        what = f"{pos.numel()} channel(s) over {int(rows)} elements" if self.dense else \
            f"{pos.numel()} tags over {int(rows)} rows"
        self.mon.writer.event(self.mon.step, "labels-multi", what,
                              {"rows": rows, "tags": int(pos.numel()), "mean_rate": float(p.mean()),
                               "median_rate": float(p.median()), "rare_share": float((p < 0.01).double().mean()),
                               "prior_entropy": float(h.mean()), "dense": self.dense})


class PositiveRates:
    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self._step = -1

    def on_call(self, name: str, input: Any, target: Any) -> None:
        mon = self.mon
        if not (mon.rec.sampled and mon.step != self._step and isinstance(input, torch.Tensor)
                and isinstance(target, torch.Tensor) and input.is_floating_point() and target.is_floating_point()
                and input.numel() and input.numel() == target.numel()):
            return
        self._step = mon.step
        thr = 0.0 if name.endswith("with_logits") else 0.5
        rates = torch.stack([(input.detach() > thr).float().mean(), (target.detach() >= 0.5).float().mean()])
        mon.recorder.defer(mon.step, [f"loss_fn/{name}/pred_pos", f"loss_fn/{name}/target_pos"], [rates])
