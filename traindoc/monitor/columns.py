"""An extreme value in one column of a table the model is trained on (data-outlier).

A few data-entry artefacts (a heart rate of 10 000 000) in a column do not spike the loss
when the column was standardised with the data's own mean and std: they inflate that std
so much that every ordinary value is squashed into a few thousandths, and the column is
lost to the model in silence. Both halves are visible in the batches the model receives:
the column's spread within a typical batch (the median over batches of its std) is tiny
next to how far its extreme value lies from its batch's mean.

For the first ``STEPS`` training forwards whose first tensor argument is a float table
(B >= 16 rows, 2..``MAX_COLS`` columns), two reductions per column go into a list on the
device; at close, one read: for each column the median batch std and the largest
deviation, and the column where their ratio is largest is written as the event
``column-outlier`` when that ratio reaches ``RATIO`` (the rule decides what it means).

Cost: two sums, a min and a max over the batch (about 0.06 ms for a (256, 512) table on one
CPU thread) on the first 300 training forwards, 2F floats each kept on the device; on the
first 8, the std without the batch's extreme value too (an argmax and two masked sums); one
transfer at close.
"""

from __future__ import annotations

from typing import Any

import torch

STEPS = 300
MAX_COLS = 4096
RATIO = 1000.0  # recorded from here; a normal column's extreme is ~5 batch stds from the mean
REST_STEPS = 8  # batches whose std without their extreme value is measured too (four more passes)


def _std_mean(d: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per-column std and mean from two sums of the table shifted by its first row (shifted,
    the sum of squares does not cancel for a column far from zero). ``torch.std_mean(d, 0)``
    gives the same but is not vectorised along dim 0 on CPU: 0.8 ms for (256, 512) against
    0.05 ms for this (two (B, F) temporaries: the shifted table and its square)."""
    ref = d[0]
    c = d - ref
    n = d.shape[0]
    s1 = c.sum(0)
    var = ((c * c).sum(0) - s1 * s1 / n).clamp_min(0) / (n - 1)
    return var.sqrt(), s1 / n + ref


def column_scale_ratio(t: torch.Tensor) -> torch.Tensor:
    """For a (B, K) regression target: the root mean square of its largest column over that of
    its median column, as a 1-element tensor on its device (0 when the median column is all
    zeros). Squared errors weigh each column by its scale squared: at 100 the largest column
    counts 10 000 times a typical one in an MSE."""
    rms = t.detach().float().pow(2).mean(0).sqrt()
    med = rms.median()
    return torch.where(med > 0, rms.max() / med.clamp_min(1e-30), torch.zeros_like(med)).reshape(1)


def _rest_std(d: torch.Tensor, mu: torch.Tensor) -> torch.Tensor:
    """Per-column std of the batch without its most extreme value. One corrupt reading in a
    full batch (every step the same 8000 rows) inflates the batch's own std as much as the
    normalisation's, so the batch std cannot show it; the std of the rest can. Masked sums,
    not ``sum - extreme`` (which cancels to noise next to a 1e15 reading)."""
    n = d.shape[0]
    keep = torch.ones_like(d, dtype=torch.bool)
    keep[(d - mu).abs().argmax(0), torch.arange(d.shape[1], device=d.device)] = False
    m1 = torch.where(keep, d, 0.0).sum(0) / (n - 1)
    return (torch.where(keep, (d - m1) ** 2, 0.0).sum(0) / (n - 2)).sqrt()


class ColumnSpread:
    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self.stds: list[torch.Tensor] = []
        self.rest: list[torch.Tensor] = []  # _rest_std of the first REST_STEPS batches
        self.devs: list[torch.Tensor] = []
        self.steps: list[int] = []
        self.width: int | None = None

    def note(self, x: Any) -> None:
        """A training forward's first tensor argument."""
        if len(self.stds) >= STEPS or not isinstance(x, torch.Tensor) or x.dim() != 2 or not x.is_floating_point() \
                or x.shape[0] < 16 or not 2 <= x.shape[1] <= MAX_COLS or self.width not in (None, x.shape[1]):
            return
        self.width = x.shape[1]
        d = x.detach()
        d = d if d.dtype in (torch.float32, torch.float64) else d.float()
        s, mu = _std_mean(d)
        lo, hi = d.amin(0), d.amax(0)  # (aminmax over dim 0 is ~25x slower here: not vectorised)
        self.stds.append(s)
        if len(self.rest) < REST_STEPS:
            self.rest.append(_rest_std(d, mu))
        self.devs.append(torch.maximum(hi - mu, mu - lo))
        self.steps.append(self.mon.step)

    def summary(self) -> None:
        """At close: the column whose extreme lies furthest out, in typical batch stds."""
        stds, devs, rest, self.stds, self.devs, self.rest = self.stds, self.devs, self.rest, [], [], []
        if len(stds) < 10:
            return
        got = furthest(stds, devs, RATIO, rest)
        if got is None:
            return
        j, r, data, at = got
        self.mon.writer.event(
            self.steps[at], "column-outlier",
            f"column {j} of the model's input: a value {r:.3g} typical batch stds from its batch's mean",
            {**data, "columns": self.width})


def furthest(spreads: list[torch.Tensor], devs: list[torch.Tensor], ratio_at: float,
             rest: list[torch.Tensor] | None = None) -> tuple | None:
    """At close, from per-batch column spreads and largest deviations (one read): the column
    whose largest deviation is furthest out in its median spread (or in the median spread of
    the rest of the batch, ``rest``, where that is smaller and not 0), when that is
    ``ratio_at`` or more: ``(column, ratio, event data, index of the batch that held it)``,
    else None."""
    s = torch.stack(spreads).double().cpu()
    d = torch.nan_to_num(torch.stack(devs).double().cpu(), nan=0.0, posinf=0.0)
    spread = s.nanmedian(0).values
    if rest:
        r = torch.stack(rest).double().cpu().nanmedian(0).values
        spread = torch.where((r > 0) & (r < spread), r, spread)
    top, at = d.max(0)
    ratio = torch.where(spread > 0, top / spread, torch.zeros_like(top))
    j = int(ratio.argmax())
    r = float(ratio[j])
    if not r >= ratio_at:
        return None
    wide = d[:, j] / float(spread[j]) >= ratio_at / 10  # the batches that held such a value
    return j, r, {"column": j, "deviation": float(top[j]), "spread": float(spread[j]), "ratio": r,
                  "batches": len(spreads), "batches_with_it": int(wide.sum())}, int(at[j])


TARGET_RATIO = 1000.0  # max |t - median| over the median absolute deviation; Gaussian targets: ~8
_REGRESSION = frozenset({"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"})


class TargetSpread:
    """The same question for a regression loss's target (a box size in pixels among fractions,
    a 1e9 placeholder), with robust statistics: a few such rows in most batches inflate a
    batch's std, not its median absolute deviation. For the first ``STEPS`` calls of an
    MSE/L1/Huber loss with a (B, K) or (B,) float target (16 <= B <= 65 536, K <= 64): per column, the
    batch median's absolute deviation (MAD) and the largest deviation; at close, the event
    ``target-outlier`` for the column whose largest deviation is ``TARGET_RATIO`` typical
    MADs or more. Cost: two medians over (B, K), a few microseconds, on 300 calls."""

    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self.mads: list[torch.Tensor] = []
        self.devs: list[torch.Tensor] = []
        self.steps: list[int] = []
        self.shape: tuple | None = None
        self.name = ""

    def note(self, name: str, t: torch.Tensor) -> None:
        if len(self.mads) >= STEPS or name not in _REGRESSION or not t.is_floating_point() or t.dim() not in (1, 2) \
                or not 16 <= t.shape[0] <= 65536 or (t.dim() == 2 and not 1 <= t.shape[1] <= 64) \
                or self.shape not in (None, tuple(t.shape[1:])) or self.name not in ("", name):
            return
        self.shape, self.name = tuple(t.shape[1:]), name
        d = t.detach().float().reshape(t.shape[0], -1)
        dev = (d - d.median(0).values).abs()
        self.mads.append(dev.median(0).values)
        self.devs.append(dev.amax(0))
        self.steps.append(self.mon.step)

    def summary(self) -> None:
        mads, devs, self.mads, self.devs = self.mads, self.devs, [], []
        if len(mads) < 10:
            return
        got = furthest(mads, devs, TARGET_RATIO)
        if got is None:
            return
        j, r, data, at = got
        self.mon.writer.event(
            self.steps[at], "target-outlier",
            f"column {j} of the {self.name} target: a value {r:.3g} typical deviations from its batch's median",
            {"loss_function": self.name, **data, "columns": self.shape[0] if self.shape else 1})
