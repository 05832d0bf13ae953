"""Is the loss's target one of the model's inputs (the leak check of :mod:`.losses`): the
same memory, or a column of the input table that is a rescaled copy of a class target."""

from __future__ import annotations

from typing import Any

import torch


def affine_copy(x: torch.Tensor, t: torch.Tensor, level: float = 0.9999) -> torch.Tensor:
    """Per column of the table ``x`` [B, F]: a rescaled copy of a class target ``t`` [B]
    (|correlation| >= 0.9999: the label written into the table, then standardised with the
    features). Only for class targets (integers, or floats that are whole numbers): for a
    continuous target a smooth series' previous value, an honest feature, can correlate
    that well. ``level`` 0.9: a column computed from the label plus a little noise (the
    churn flag plus jitter: about 0.95). A few device ops, no sync; only during the leak
    check's first steps."""
    r, discrete = class_correlation(x, t)
    return (r >= level) & discrete


def class_correlation(x: torch.Tensor, t: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """|correlation| of each column of ``x`` [B, F] with the target ``t`` [B], and whether
    the target is a class target (a 0-d bool on the device: no sync)."""
    tf = t.reshape(-1).to(x.dtype)
    discrete = (tf == tf.round()).all() if t.is_floating_point() else torch.ones((), dtype=torch.bool, device=x.device)
    xc = x - x.mean(0)
    tc = tf - tf.mean()
    return ((xc * tc.reshape(-1, 1)).sum(0) / (xc.norm(dim=0) * tc.norm()).clamp_min(1e-12)).abs(), discrete


def equal_where_kept(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor:
    """[1.0] when the integer input ``x`` equals the class target ``t`` on every position the
    loss does not ignore (a negative target: minGPT's -1 on the prompt, -100), 8 at least
    (minGPT's adder with y = x), else [0.0]; on the device, no sync."""
    keep = t.reshape(-1) >= 0
    return (((x.reshape(-1) == t.reshape(-1)) | ~keep).all() & (keep.sum() >= 8)).reshape(1).float()


def same_memory(a: torch.Tensor, b: torch.Tensor) -> bool:
    """The same elements in the same memory (a view such as ``targets.view(-1)``)."""
    try:
        return (a.device == b.device and a.dtype == b.dtype and a.numel() == b.numel() and a.numel() > 0
                and a.data_ptr() == b.data_ptr())
    except (RuntimeError, NotImplementedError):  # tensors without storage (fake, meta)
        return False


SHIFTS = 4  # k = 0 (the input itself), 1 (the next token), 2 and 3 (shifted once too often)


def shift_shares(x: torch.Tensor, t: torch.Tensor) -> torch.Tensor | None:
    """For k in 0..SHIFTS-1, the share of the class targets ``t`` (those not ignored: >= 0)
    equal to the token of the integer input ``x`` [.., T] k positions ahead, with ``t`` laid
    out over x's rows: ``t[r, j] == x[r, j + k]`` over the positions j whose j + k is in the
    row, -1 where fewer than two are. ``t`` may be shorter per row than ``x``
    (``labels[:, 1:]`` flattened: T - 1 per row), the target of position j being scored
    against the logits of position j (the causal-LM convention).
    None when ``t`` does not divide into x's rows. A next-token target gives k = 1; labels
    shifted in the dataset and again in the loss, k = 2 (bench/real 330). SHIFTS device
    comparisons, no sync."""
    T = x.shape[-1]
    x2 = x.reshape(-1, T)
    rows = x2.shape[0]
    if t.numel() % rows:
        return None
    tp = t.numel() // rows
    if tp < 2 or tp > T:
        return None
    y = t.reshape(rows, tp)
    kept = y >= 0
    out: list[torch.Tensor] = []
    for k in range(SHIFTS):
        L = min(tp, T - k)  # the positions whose token k ahead is in the row
        if L < 2:
            out.append(torch.full((), -1.0, device=x.device))
            continue
        ok = kept[:, :L]
        out.append((((x2[:, k:k + L] == y[:, :L]) & ok).sum() / ok.sum().clamp_min(1)).float())
    return torch.stack(out)


class ThresholdSplits:
    """A binary target that one column of the table separates perfectly, batch after batch:
    every row of one class below every row of the other (the label is a threshold of that
    column: a regression set binarised with its own target left among the features, the
    OpenML bot's "a single threshold on the first axis"; bench/real 358). An honest strong
    feature misorders a few pairs in a batch of 64 rows; one that never does, over three
    batches (steps) or more, with the classes touching at the threshold, is the label
    written another way. Per table input, the columns that
    have separated every batch so far (a device AND, no sync); about 6 reductions per step
    during the leak check's first steps only."""

    MIN_ROWS = 16  # of each class in a batch: with fewer, a perfect split is luck
    MIN_BATCHES = 3

    def __init__(self) -> None:
        self._alive: dict[str, tuple[torch.Tensor, int, int]] = {}

    def flag(self, where: str, x: torch.Tensor, t: torch.Tensor, step: int) -> torch.Tensor:
        """[holds, column] for this step (floats on the device). A threshold leaves the two
        classes touching: the gap between them is about the column's spacing in the batch
        (under 3 x range / rows); two naturally separate clusters (binary Iris' petal length)
        leave a wide one, unless one class sits at a single value (an indicator of the label).
        Batches are counted by step (a batch seen by two losses is one)."""
        tf = t.reshape(-1)
        lo, hi = tf == tf.amin(), tf == tf.amax()
        lo2, hi2 = lo.reshape(-1, 1), hi.reshape(-1, 1)
        inf = torch.tensor(float("inf"), dtype=x.dtype, device=x.device)
        lo_max, lo_min = torch.where(lo2, x, -inf).amax(0), torch.where(lo2, x, inf).amin(0)
        hi_max, hi_min = torch.where(hi2, x, -inf).amax(0), torch.where(hi2, x, inf).amin(0)
        fit = (lo | hi).all() & (lo.sum() >= self.MIN_ROWS) & (hi.sum() >= self.MIN_ROWS)
        gap = torch.maximum(hi_min - lo_max, lo_min - hi_max)  # > 0: separated
        touching = gap < 3 * (x.amax(0) - x.amin(0)) / x.shape[0]
        # or one class at a single value (a price logged only when sold, 0 otherwise: bench/real
        # 137): an indicator of the label, however wide the gap; two natural clusters both spread
        flat = (lo_max == lo_min) | (hi_max == hi_min)
        sep = (gap > 0) & (touching | flat) & fit
        prev = self._alive.get(where)
        if prev is not None and prev[0].shape == sep.shape and prev[0].device == sep.device:
            sep, n = sep & prev[0], prev[1] + (step != prev[2])
        else:
            n = 1
        self._alive[where] = (sep, n, step)
        holds = sep.any().float() * float(n >= self.MIN_BATCHES)
        return torch.stack([holds, sep.int().argmax().float()])


def near_copy(cands: list, flags: list, name: str, where: str, x: torch.Tensor, t: torch.Tensor,
               varied: torch.Tensor) -> None:
    """A candidate of the leak check (losses.LossFns._check_leak): a column of the table correlated 0.9 or more with a
    binary target (computed from the label plus noise) while no other column reaches 0.7;
    after the exact and rescaled copies.
    Two-valued targets only: the order of class indices 0..C-1 is arbitrary, so an honest
    feature can correlate with it by that accident (bench/real 262's fixed column typer)."""
    two = ((t == t.amin()) | (t == t.amax())).all().float()  # (a flag on the device: no sync)
    r, discrete = class_correlation(x, t)
    # one column far ahead of the others: well-separated classes make every honest column strong (MorvanZhou 302)
    second = r.topk(2).values[1]
    near = (r >= 0.9) & discrete & (two > 0) & (second < 0.7)
    flags.append(torch.stack([near.any().float() * varied, near.int().argmax().float()]))
    cands.append((where, f"the target of {name} is nearly column \0 of the model's {where} "
                         "(|correlation| 0.9 or more with the class target: computed from the label?)"))


def threshold_candidate(cands: list, flags: list, name: str, where: str, flag: torch.Tensor, varied: Any) -> None:
    """The leak check's candidate after the near copy (losses.LossFns._check_leak): a binary
    target that one column splits (:class:`ThresholdSplits`'s flag for this step)."""
    flags.append(flag * (1 if varied is None else varied))
    cands.append((where, f"the target of {name} is a threshold of column \0 of the model's {where} (it "
                         "splits the classes in every batch checked: the label computed from it?)"))
