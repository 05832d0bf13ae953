"""Identical training inputs with different class labels, seen at the loss (label-conflict),
and evaluation rows identical to rows just trained on (data-leakage by content).

For the first steps of a run, each row of the model's input batch gets a fingerprint on
the device, and the class label the loss compares its output with rides along with the
step's transfer. On the host, rows are grouped by fingerprint: a group whose rows carry
more than one label is a conflict no model can resolve, and the conditional entropy of
the labels within the groups is a floor under the training cross-entropy (a group split
60/40 costs at least 0.67 nats a row, whatever the model). The rule ``label-conflict``
compares that floor with the loss the run reached.

What counts as a row: every tensor argument of the model's training forward must have the
batch as its first dimension (a recurrent state of shape (layers, B, H) passed in makes
the rows incomplete: nothing is counted), and the loss must be a mean cross_entropy /
nll_loss with one integer class per row, or a binary cross-entropy whose float targets are
exactly 0 or 1, one per row (a batch with any other value is left out). Per-token targets,
soft float targets (mixup, label smoothing, regression), per-sample losses
(``reduction='none'``: weighted by a return or a mask) and targets equal to the row
positions (a contrastive ``arange(B)``) are not counted.

Fingerprints are exact: each input element's bits (as integers), combined with three
random integer weight vectors modulo a prime below 2**24, so that the three hashes are
exact in the float32 transfer (72 bits together; no rounding, no order dependence).

The same fingerprints of the rows of any training loss, with the step each row was last
trained on, and of the rows the model runs without gradients (evaluation batches of two
rows or more, at most ``EVAL_ROWS``, half the element budget) tell whether every
evaluation of the run re-used rows trained on since the previous one (see ``overlap``).

Cost: the first ``STEPS`` steps, ``ROWS`` rows or ``ELEMS`` input elements only: a few
passes over the batch and a float64 matmul on its device (rows in chunks: temporaries of
about 16 MB), 4 floats a row in the transfer, a dictionary on the host; then nothing.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from .columns import ColumnSpread, TargetSpread

STEPS = 300  # steps during which rows are fingerprinted
ROWS = 200_000  # rows fingerprinted at most
EVAL_ROWS = 50_000  # rows evaluated without gradients fingerprinted at most
ELEMS = 64 << 20  # input elements hashed over the run at most (about 5 ms of CPU a million)
_P = 16_777_213  # a prime below 2**24: every hash is exact in float32
_BITS = {torch.float32: torch.int32, torch.float64: torch.int64, torch.float16: torch.int16,
         torch.bfloat16: torch.int16}


class LabelConflicts:
    """Owned by the monitor: ``note_inputs`` at each training forward, ``on_target`` at each
    loss function, ``summary`` once at close."""

    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self._pending: tuple | None = None  # the latest training forward's fingerprints and rows
        self._weights: dict[tuple, torch.Tensor] = {}  # (row length, device, argument) -> (4, D, 3) float64
        self.groups: dict[tuple, dict[int, int]] = {}  # fingerprint -> label -> rows
        self.rows = 0  # rows sent to the host
        self.elems = 0  # input elements hashed
        self._over = False
        self._missed = False  # a training forward came after the window closed
        self.trained: dict[tuple, int] = {}  # fingerprint -> the last step it was trained on
        self.counts: dict[tuple, int] = {}  # fingerprint -> training rows seen with it
        self.fwds: dict[int, int] = {}  # step -> training forwards of the model in it
        self.train_steps: set[int] = set()
        self.evals: list[tuple] = []  # per forward without gradients: see _eval
        self.eval_rows = 0
        self._prev_eval = -1
        self.columns = ColumnSpread(mon)  # an extreme value in one column (read at close, with these)
        self.targets = TargetSpread(mon)  # and in one column of a regression target
        self.perms: dict[int, int] = {}  # torch.randperm(n) calls by n: an epoch's permutation (patches)
        self.batch_repeats = 0  # training rows whose input an earlier row of the same batch had
        self.reruns = 0  # training steps whose rows were the previous training step's, all of them
        self._last: tuple[int, frozenset] | None = None
        self.width = 0  # input elements of a training row (the widest seen)
        self.input_shapes: set[tuple] = set()  # shapes of the training forwards' tensors (8 at most; reach.py)

    def note_inputs(self, args: tuple, kwargs: dict) -> None:
        """A training forward: its rows are fingerprinted now (whatever the loss, even one
        written by hand: the evaluation overlap needs them) and kept for the loss's labels."""
        self._pending = None
        if self._over:
            self._missed = True  # trained on rows the fingerprints do not cover
            return
        if self.mon.step >= STEPS or self.rows >= ROWS:
            self._over = self._missed = True
            return
        step = self.mon.step
        self.fwds[step] = self.fwds.get(step, 0) + 1
        xs = [a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)]
        if len(self.input_shapes) < 8:
            self.input_shapes.update(tuple(x.shape) for x in xs[:4])
        if xs:
            self.columns.note(xs[0])
        h, b = self._fingerprint(xs)
        if h is None:
            return
        self._pending = (h, b)
        self.mon.recorder.defer(self.mon.step, [], [h.float()], lambda step, vals: self._seen(step, vals, b))

    def drop_pending(self) -> None:
        """The step's rows are no single forward's (a head fed two towers): none is paired
        with the loss's labels."""
        self._pending = None

    def on_target(self, name: str, target: torch.Tensor) -> None:
        self.targets.note(name, target)
        pend, self._pending = self._pending, None  # one loss per forward: a second one is another head
        binary = name.startswith("binary_cross_entropy") and target.is_floating_point()
        if binary and target.dim() == 2 and target.shape[1] == 1:
            target = target[:, 0]  # (B, 1) float 0/1 targets of a one-logit head
        if pend is None or self._over or not (name in ("cross_entropy", "nll_loss") or binary) or target.dim() != 1 \
                or target.is_floating_point() != binary or target.dtype == torch.bool or target.shape[0] != pend[1] \
                or target.device != pend[0].device:
            return
        h, b = pend
        self.rows += b
        self.mon.recorder.defer(self.mon.step, [], [h.float(), target.detach().float()],
                                lambda step, vals: self._add(vals, b, binary))

    def note_eval(self, args: tuple, kwargs: dict) -> None:
        """A forward of the model without gradients (an evaluation batch, a prediction):
        its rows are fingerprinted like the training rows, to count those that the run
        trained on since its previous evaluation (data-leakage by content)."""
        # after the window, too, while no training forward has gone uncovered (a short run
        # that evaluates once at its end: its whole training is in the fingerprints)
        if self._missed or self._over and self.mon.step < STEPS:
            return
        xs = [a for a in (*args, *kwargs.values()) if isinstance(a, torch.Tensor)]
        b = (xs[1].shape[0] if _bag(xs) else xs[0].shape[0]) if xs and xs[0].dim() > 0 else 0
        if b < 2 or self.eval_rows >= EVAL_ROWS or self.elems + sum(x.numel() for x in xs) > ELEMS // 2:
            return  # one state at a time (an agent acting) is not an evaluation batch; the budget's
            # second half is kept for the training rows (label-conflict)
        h, b = self._fingerprint(xs)
        if h is not None:
            self.mon.recorder.defer(self.mon.step, [], [h.float()], lambda step, vals: self._eval(step, vals, b))

    def _fingerprint(self, xs: list) -> tuple[torch.Tensor | None, int]:
        """The rows' fingerprints and their count: one row per sample, or one bag per sample
        for an EmbeddingBag-style input (flat tokens and per-sample offsets)."""
        if _bag(xs):
            tokens, offsets = xs[0], xs[1]
            if self.elems + tokens.numel() > ELEMS:
                self._over = True
                return None, 0
            self.elems += tokens.numel()
            return _bag_hash(tokens.detach(), offsets.detach(), self.elems), offsets.shape[0]
        b = xs[0].shape[0] if xs and xs[0].dim() > 0 else 0
        return (self._rows(xs, b, xs[0].device) if b else None), b

    def _rows(self, xs: list, b: int, device: Any) -> torch.Tensor | None:
        """The (3, B) fingerprints of the rows of ``xs``, or None when the rows are not whole
        (a state without the batch dimension), too long to hash exactly, or over budget."""
        n = sum(x.numel() for x in xs)
        if b == 0 or any(x.dim() == 0 or x.shape[0] != b or x.device != device for x in xs) \
                or any(x[0].numel() >= 1 << 21 for x in xs):
            return None
        if self.elems + n > ELEMS:
            self._over = True  # the budget is spent: the groups so far are the sample
            return None
        self.elems += n
        self.width = max(self.width, n // b)  # elements a row (token ids repeat by nature; feature rows do not)
        h = None
        for i, x in enumerate(xs):
            part = self._hash(x.detach().reshape(b, -1), i)
            h = part if h is None else (h * 31 + part).remainder(_P)  # exact: < 2**29
        return h

    def _hash(self, x: torch.Tensor, i: int) -> torch.Tensor:
        """(3, B) float64 integers in [0, P): the rows' bits, split in 16-bit parts, against
        three random integer weight vectors. Products < 2**32 summed over < 2**21 columns stay
        below 2**53, so the float64 matmul is exact whatever its order of summation."""
        b, d = x.shape
        it = _BITS.get(x.dtype)
        key = (d, x.device, i)
        w = self._weights.get(key)
        if w is None:
            g = torch.Generator().manual_seed(1_000_003 * (i + 1) + d)
            w = self._weights[key] = torch.randint(1, 1 << 16, (4, d, 3), generator=g).double().to(x.device)
        out = torch.zeros(b, 3, dtype=torch.float64, device=x.device)
        step = max(1, (1 << 20) // d)  # rows at a time: temporaries of about 16 MB
        for lo in range(0, b, step):
            chunk = x[lo:lo + step].contiguous()
            # float32's bits stay int32 (the 16-bit parts below fit; a copy to int64 cost a
            # third of the hash); the others widen to int64 as before
            bits = chunk.view(it) if it in (torch.int32, torch.int64) else (
                chunk.view(it) if it is not None else chunk).long()
            parts = 2 if it is torch.int32 else 1 if it is torch.int16 or x.dtype == torch.bool else 4
            acc = out[lo:lo + step]
            for k in range(parts):
                acc += ((bits >> (16 * k)) & 0xFFFF).double() @ w[k]
                acc.remainder_(_P)
        return out.T

    def _seen(self, step: int, vals: list[float], b: int) -> None:
        counts = self.counts
        batch = set()
        for r in range(b):
            k = (vals[r], vals[b + r], vals[2 * b + r])
            self.trained[k] = step
            counts[k] = counts.get(k, 0) + 1
            batch.add(k)
        self.train_steps.add(step)
        self.batch_repeats += b - len(batch)
        last, rows = self._last, frozenset(batch)
        if last is not None and last[0] == step - 1 and last[1] == rows and b >= 2:
            self.reruns += 1  # the same batch again on the next step (a prefetcher whose copies repeat it)
        if last is None or last[0] != step:
            self._last = (step, rows)

    def _eval(self, step: int, vals: list[float], b: int) -> None:
        """One forward without gradients, read in step order (with the transfers): ``trained``
        holds what was trained on up to it, so its rows are marked now (later training must
        not count): (step, rows, rows trained on since the previous evaluation, all of them
        the batch just trained, distinct rows)."""
        if self.evals and self.evals[-1][0] != step:
            self._prev_eval = self.evals[-1][0]
        since, last = self._prev_eval, max(self.train_steps, default=-2)
        keys = [(vals[r], vals[b + r], vals[2 * b + r]) for r in range(b)]
        # (a training forward at the evaluation's own step comes after it: the step counter
        # moves at the optimizer step, so step `since` trained after the previous evaluation)
        seen = [self.trained.get(k, -2) for k in keys]
        self.evals.append((step, b, sum(t >= since for t in seen), all(t == last for t in seen), len(set(keys)),
                           keys))
        self.eval_rows += b

    def _add(self, vals: list[float], b: int, binary: bool = False) -> None:
        h, t = vals[: 3 * b], vals[3 * b:]
        if b > 1 and all(t[i] == i for i in range(b)):
            return  # labels that are the row positions: a contrastive batch's arange(B)
        if binary and any(v not in (0.0, 1.0) for v in t):
            return  # soft or smoothed binary targets are not labels
        groups = self.groups
        for r in range(b):
            lab = int(t[r])
            if lab < 0:
                continue  # ignore_index
            g = groups.setdefault((h[r], h[b + r], h[2 * b + r]), {})
            g[lab] = g.get(lab, 0) + 1

    def summary(self) -> None:
        """One event with the groups' statistics (none when no row was counted)."""
        self._over, self._pending = True, None
        per_step = sorted(self.fwds.values())
        self.targets.summary()
        if not per_step or per_step[len(per_step) // 2] <= 2:
            self.columns.summary()
            # rows are samples only when the model runs once a step (twice: a siamese pair); a
            # recurrent cell called per time step sees states and tokens, not samples
            overlap(self)
            repeats(self)
        if not self.groups:
            return
        rows = dup_rows = conflict_rows = conflicts = 0
        floor = 0.0
        examples: list[list[int]] = []
        for g in self.groups.values():
            n = sum(g.values())
            rows += n
            if n > 1:
                dup_rows += n
            if len(g) > 1:
                conflicts += 1
                conflict_rows += n
                floor -= sum(c * math.log(c / n) for c in g.values())
                if len(examples) < 5:
                    examples.append(sorted(g.values(), reverse=True))
        self.mon.writer.event(
            self.mon.step, "label-groups",
            f"{conflicts} groups of identical inputs with different labels ({conflict_rows} of {rows} rows)",
            {"rows": rows, "distinct": len(self.groups), "duplicate_rows": dup_rows, "conflict_groups": conflicts,
             "conflict_rows": conflict_rows, "floor": floor / rows, "examples": examples,
             "max_label": max(max(g) for g in self.groups.values())})


# The share of an evaluation batch's rows found among the rows trained on, from which a
# split counts as overlapping: a held-out split of distinct rows shares none exactly; byte-
# identical copies in the data split at random put about half of the test rows in training
# (bench/real 354: 0.49-0.52 over three seeds), a third in milder cases.
PARTIAL = 0.3


def overlap(c: LabelConflicts) -> None:
    """A ``split-overlap`` event when the rows the run evaluated (forwards without
    gradients) are rows it trained on since its previous evaluation: every one of them (the
    run never measures held-out data: a validation set taken from the training rows, k-fold
    validating on its training indices), or 30 % or more of the rows of evaluation batches
    whose rows are mostly distinct, some of which were never trained on in the whole window
    (a split that shuffled one part and sliced the other, replicates split by row: a batch
    of the training rows re-run for a training accuracy is all inside by the end, a held-out
    one all outside, neither is partial; a batch under three quarters distinct is a small
    input space, where equal rows are no leak). Judged only on evaluations that come at
    most once every three training steps (a target network or a teacher run every step is not one), whose
    training interval the fingerprints cover (before ``STEPS``), with 32 rows or more; a
    forward that only re-runs the batch just trained on (logging its accuracy) is not one.
    An evaluation after the window counts while no training forward came after it (a
    short run evaluated once at its end)."""
    steps = sorted({e[0] for e in c.evals})
    if not steps or len(steps) * 3 > max(1, len(c.train_steps)):
        return
    judged, prev = set(), -1
    for step in steps:
        if sum(1 for t in c.train_steps if prev < t <= step) >= 3:
            judged.add(step)
        prev = step
    calls = [e for e in c.evals if e[0] in judged and not e[3]]
    rows, shared = sum(e[1] for e in calls), sum(e[2] for e in calls)
    # partial both since the previous evaluation and over the whole window: a fixed subset of
    # the training rows evaluated more often than once an epoch is partial since the previous
    # evaluation, but every one of its rows is a training row by the end
    # (and only when the window saw the typical training row at least twice: a window shorter
    # than an epoch cannot say which rows are never trained on)
    counts = sorted(c.counts.values())
    covered = bool(counts) and counts[len(counts) // 2] >= 2
    partial = [e for e in calls if covered and e[1] >= 8 and PARTIAL <= e[2] / e[1] < 1 and e[4] >= 0.75 * e[1]
               and sum(k in c.trained for k in e[5]) < 0.98 * e[1]]
    p_rows, p_shared = sum(e[1] for e in partial), sum(e[2] for e in partial)
    if rows >= 32 and shared == rows:
        shape, n, k = "inside", rows, shared
    elif p_rows >= 32 and p_rows * 2 >= sum(e[1] for e in calls if e[2] < e[1]):
        # (among the evaluations not wholly made of training rows: a training-accuracy pass
        # over the whole training set beside the test set's is no evidence either way, 354)
        shape, n, k = "partial", p_rows, p_shared
    else:
        return
    c.mon.writer.event(
        min(e[0] for e in calls), "split-overlap",
        f"{k} of the {n} rows evaluated without gradients are rows trained on since the previous evaluation",
        {"shared": k, "rows": n, "train_rows": len(c.trained), "how": "identical rows", "shape": shape,
         "series": "the evaluation"})


def repeats(c: LabelConflicts) -> None:
    """A ``row-repeats`` event: how often the most frequent training row came back compared
    with the typical row (every row comes back once an epoch; one input copied thousands of
    times into the data comes back thousands of times as often). 200 rows or more."""
    counts = sorted(c.counts.values())
    rows = sum(counts)
    if rows < 200 or not counts:
        return
    top, median = counts[-1], counts[len(counts) // 2]
    d = len(counts)
    # sizes permuted twice or more (an epoch loop's randperm, a shuffling DataLoader's):
    # a data set of n rows that holds far fewer distinct inputs than n
    perms = {n: k for n, k in c.perms.items() if k >= 2}
    c.mon.writer.event(
        max(c.train_steps, default=0), "row-repeats",
        f"the most frequent training row is {top / rows:.1%} of the {rows} rows seen ({top} times; the median row "
        f"{median} times)",
        {"rows": rows, "distinct": d, "top": top, "median": median, "top_share": top / rows, "permuted": perms,
         "batch_repeats": c.batch_repeats, "width": c.width, "reruns": c.reruns, "steps": len(c.train_steps)})


def _bag(xs: list) -> bool:
    """``model(tokens, offsets)``: a flat 1-D integer tensor of every sample's tokens and a
    shorter 1-D integer tensor of where each sample starts (the EmbeddingBag convention of
    torchtext's text classifiers). Shapes and dtypes only: no sync."""
    return len(xs) == 2 and all(x.dim() == 1 and not x.is_floating_point() and x.dtype != torch.bool for x in xs) \
        and 2 <= xs[1].shape[0] < xs[0].shape[0] and xs[0].device == xs[1].device


def _bag_hash(tokens: torch.Tensor, offsets: torch.Tensor, salt: int = 0) -> torch.Tensor:
    """(3, B) fingerprints of the bags ``tokens[offsets[i]:offsets[i + 1]]``: the sum over a
    bag of three random hashes of each token, mod P (a multiset's fingerprint: the order
    within a bag is lost, as it is to an EmbeddingBag). Sums of < 2**24 values < 2**24 are
    exact in float64. When the second tensor is not offsets (lengths, say: not starting at
    0, decreasing, or past the end), every row gets a value of its own (``salt`` + its
    index): nothing is claimed about such rows, and no sync is needed to find out."""
    t = tokens.long()
    w = torch.tensor([[40503, 52711, 7919], [1009, 65521, 31337]], dtype=torch.int64, device=t.device)
    v = (((t & 0xFFFF).unsqueeze(1) * w[0] + ((t >> 16) & 0xFFFF).unsqueeze(1) * w[1] + 1) % _P).double()
    seg = torch.zeros(t.shape[0], dtype=torch.int64, device=t.device)
    seg.index_add_(0, offsets[1:].long().clamp(0, max(t.shape[0] - 1, 0)), torch.ones_like(offsets[1:], dtype=torch.int64))
    out = torch.zeros(offsets.shape[0], 3, dtype=torch.float64, device=t.device)
    out.index_add_(0, seg.cumsum(0), v)
    o = offsets.long()
    ok = (o[:1] == 0).all() & (o[1:] >= o[:-1]).all() & (o[-1:] < t.shape[0]).all()
    own = ((torch.arange(o.shape[0], device=t.device) + salt) % _P).double().unsqueeze(1).expand(-1, 3)
    return torch.where(ok, out.remainder_(_P), own).T
