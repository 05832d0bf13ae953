"""data-duplicates (TD207) in a recorded run: one training input repeated far more often than
the others."""

from __future__ import annotations

from .. import rule
from ..evidence import finding

# one input a quarter of the rows: whatever the reason, the loss is mostly that input's
ERROR_SHARE = 0.25
# below that, a warning when the input is at least this share of the rows and comes back
# this many times as often as the median row (intended oversampling repeats many rows a few
# times each: no single one reaches a twentieth of the data)
WARN_SHARE, WARN_RATIO = 0.05, 20
MIN_DISTINCT = 20  # fewer distinct inputs: a tiny input space, where repeats are the data


@rule("data-duplicates", needs=("loss",))
def data_duplicates(run):
    """What it detects: a training input (the model's input row, compared exactly: the
    monitor fingerprints the rows of the first 300 steps) that comes back twenty times as
    often as the median row and makes up a quarter or more of the rows trained on (an
    error), or a twentieth or more (a warning). Needs 200 rows, 20 distinct inputs and rows of
    4 elements or more (a token id a row repeats by nature). (`traindoc
    data check` finds duplicates in files, with the labels.)

    Why it happens: a list built by appending the same sample in a loop, a default or
    placeholder sample substituted for every failed load, a merge that copied one record
    thousands of times; the loss is then mostly that one input's, the model fits it and
    barely learns the rest.

    Also, as a warning, many inputs each repeated (a generator seeded from a small pool, a
    dataset concatenated with itself): the script permutes n rows every epoch
    (`torch.randperm(n)` twice or more: an epoch loop's, or a shuffling DataLoader's), the
    window saw at least n rows, and they hold at most n / 2 distinct inputs. (A randperm
    that picks a subset once, or draws with replacement, is not an epoch and says nothing.)
    Or, as a warning, copies within one batch: a twentieth or more of the training rows
    repeat an input an earlier row of the same batch had, the most frequent input twenty
    times the median, rows of 4 or more elements, and every DataLoader's sampler draws each
    row once an epoch (not a weighted, class-balancing or replacement sampler) (a batch
    drawn without replacement holds each row once; a crawl export that kept every revisit).
    Or copies within batches that make up half the rows or more, however evenly spread (one
    input copied into each whole batch). Or, as a warning, half the training steps or more
    trained on the previous step's batch again, row for row, while the inputs span four
    batches or more (full-batch training repeats its batch by design).
    When the validation loss also turns up (overfitting), the copies are why the model
    memorises: this cause then ranks just above overfitting.

    How to confirm: count the distinct rows of the training set
    (`torch.unique(X, dim=0, return_counts=True)`): one count dwarfs the others.

    How to fix: deduplicate the training data (or find the loader fallback that returns one
    sample); oversample on purpose in a sampler, with weights, not by copying rows.
    """
    ev = [e for e in run.events() if e["kind"] == "row-repeats"]
    if not ev:
        return []
    d = ev[-1].get("data") or {}
    rows, distinct = int(d.get("rows", 0)), int(d.get("distinct", 0))
    top, median = int(d.get("top", 0)), max(1, int(d.get("median", 1)))
    share = top / max(1, rows)
    if rows < 200 or distinct < MIN_DISTINCT or 0 < int(d.get("width") or 0) < MIN_WIDTH:
        return []  # (a token id or two a row, skip-gram's centre words: common ones repeat by nature)
    if top < WARN_RATIO * median:  # (a mode twenty times the median row: not a small input space's common value)
        return _uniform(run, ev[-1], d) or _in_batch(run, ev[-1], d) or _reruns(run, ev[-1], d)
    if share >= ERROR_SHARE:
        c = 0.6 + 0.3 * min(1.0, (share - ERROR_SHARE) / 0.5)
    elif share >= WARN_SHARE:
        c = 0.4
    else:
        # each repeated input a small share, but many of them: the epoch-size check below
        # (80 clips imported 120 times each: 1 % each, four fifths of the rows together), or
        # copies met within one batch
        return _uniform(run, ev[-1], d) or _in_batch(run, ev[-1], d)
    return [finding(
        "data-duplicates", c,
        f"one training input is {share:.0%} of the {rows} rows trained on in the first steps ({top} times, "
        f"while the median input came {median} times): the loss is mostly that one input's",
        location={"step": ev[-1]["step"]},
        evidence=[{"event": "row-repeats", "rows": rows, "distinct": distinct, "top": top, "median": median,
                   "top_share": round(share, 4)}],
        fix="deduplicate the training data (or fix the loader fallback that returns the same sample); "
            "oversample with a weighted sampler, not by copying rows",
        confirm="torch.unique(X_train, dim=0, return_counts=True): one count dwarfs the others",
    )]


def _with_overfitting(run) -> tuple[float, list]:
    """(confidence, the overfitting finding or []): the model memorises what it sees many
    times, so a validation loss that turns up is this cause's consequence, and the copies
    rank just above it when both are there; a warning (0.4) alone."""
    from .overfitting import overfitting

    over = overfitting(run)
    return (min(0.9, over[0].confidence + 0.05) if over else 0.4), over


def _uniform(run, ev: dict, d: dict) -> list:
    """A size the script permuted every epoch (``torch.randperm(n)``) that is at least twice
    the distinct inputs trained on, with at least n rows seen (a whole epoch); or, when the
    window saw a quarter of an epoch or more but not all of it, rows that hold at most half
    as many distinct inputs as rows: within one epoch a permutation yields each row once, so
    k rows with k / 2 distinct inputs are copies of each other (361: 38 400 rows of a
    51 019-row table, 1 600 distinct compounds). Drawn with replacement from n distinct rows,
    k <= n draws would still hold 63 % or more distinct ones."""
    rows, distinct = int(d.get("rows", 0)), int(d.get("distinct", 0))
    top, median = int(d.get("top", 0)), max(1, int(d.get("median", 1)))
    perms = {int(n): k for n, k in (d.get("permuted") or {}).items()}
    n = max((n for n in perms if 2 * distinct <= n <= rows), default=None)
    part = n is None and any(rows < n <= 4 * rows for n in perms) and 2 * distinct <= rows
    if part:
        n = max(n for n in perms if rows < n <= 4 * rows)
    if n is None:
        return []
    c, over = _with_overfitting(run)
    return [finding(
        "data-duplicates", c,
        f"the training set holds its inputs many times over: the script permutes {n} rows every epoch "
        f"(torch.randperm({n}), {perms[n]} times) but the {rows} rows trained on in the first steps, "
        + ("within the first epoch (each row drawn once)" if part else "over an epoch's worth")
        + f", hold only {distinct} distinct inputs ({(rows if part else n) / distinct:.3g} copies each on average"
        + (f"; the most frequent came {top} times, the median {median}" if top >= WARN_RATIO * median else "")
        + "): the model sees far fewer distinct examples than the set's size says"
        + (f", and memorises them: {over[0].message}" if over else ""),
        location={"step": ev["step"]},
        evidence=[{"event": "row-repeats", "rows": rows, "distinct": distinct, "permuted": n}],
        fix="deduplicate the training data (or draw the generator's seeds without repeats) and train on as many "
            "distinct inputs as the set claims to have",
        confirm="torch.unique(X_train, dim=0).shape[0] against len(X_train)",
    )]


# Share of the training rows whose input an earlier row of the same batch had. A batch drawn
# without replacement from distinct rows has none; drawn with replacement from n distinct
# inputs, about b / (2 n) (a batch of 128 from 5 000 inputs: 1.3 %). bench/real 306 (320
# crawled rows copied 250 times): 13 %; 307 (full batch, 150 compounds 61 times): 64 %.
BATCH_REPEATS = 0.05
DENSE_REPEATS = 0.5  # half the rows or more: copies within batches whatever their spread
RERUNS = 0.5  # of the training steps: the previous step's batch again, row for row
MIN_WIDTH = 4  # elements a row below which inputs are ids and codes rather than samples (0: not measured)
# samplers that draw each row once an epoch; any other one may repeat rows by design
_PLAIN_SAMPLERS = frozenset({"RandomSampler", "SequentialSampler", "DistributedSampler", "SubsetRandomSampler"})


def _in_batch(run, ev: dict, d: dict) -> list:
    """Copies of inputs inside one batch, a twentieth of the rows or more, concentrated on
    a minority of inputs (the most frequent twenty times the median), rows of 4 elements or
    more, while every loader draws each row once an epoch (a weighted, class-balancing or
    replacement sampler repeats rows by design)."""
    rows, distinct = int(d.get("rows", 0)), int(d.get("distinct", 0))
    top, median = int(d.get("top", 0)), max(1, int(d.get("median", 1)))
    reps = int(d.get("batch_repeats") or 0)
    # most rows a copy of an earlier row of their batch: every batch is a few inputs copied, whether
    # or not some inputs come more often than others (a chunked reader that forgot the offset
    # inside its chunk: one track 64 times a batch, bench/real 407)
    dense = reps >= DENSE_REPEATS * rows
    if reps < BATCH_REPEATS * rows or (top < WARN_RATIO * median and not dense):
        return []
    for key, m in run.meta.items():
        if key.startswith("loader/") and isinstance(m, dict) and (
                m.get("replacement") or str(m.get("sampler") or "RandomSampler") not in _PLAIN_SAMPLERS):
            return []  # oversampling on purpose (WeightedRandomSampler, MPerClassSampler, ImbalancedDatasetSampler)
    c, over = _with_overfitting(run)
    return [finding(
        "data-duplicates", c,
        f"{reps / rows:.0%} of the rows trained on in the first steps repeat an input already in the same batch "
        f"({distinct} distinct inputs in {rows} rows; the most frequent came {top} times, the median {median}): "
        "batches drawn without replacement hold each row once, so the data set holds copies, and the copied "
        + ("rows crowd out the rest: each batch holds a few inputs, and the run sees a fraction of the data"
           if dense and top < WARN_RATIO * median else "inputs weigh dozens of times more than the rest")
        + (f"; and the model memorises them: {over[0].message}" if over else ""),
        location={"step": ev["step"]},
        evidence=[{"event": "row-repeats", "rows": rows, "distinct": distinct, "batch_repeats": reps, "top": top,
                   "median": median}],
        fix="deduplicate the training data (torch.unique(X, dim=0) or drop_duplicates on the table) before "
            "training; oversample on purpose with a weighted sampler, not by copying rows",
        confirm="torch.unique(X_train, dim=0, return_counts=True): a minority of rows comes back many times",
    )]


def _reruns(run, ev: dict, d: dict) -> list:
    """Half the training steps or more trained on the previous step's batch again, row for
    row, while the inputs seen span four batches or more (full-batch training repeats its one
    batch by design): a prefetcher whose workers each copied the batch generator hands out
    every batch several times in a row (bench/real 408: 8 copies, each batch 8 steps)."""
    rows, distinct = int(d.get("rows", 0)), int(d.get("distinct", 0))
    reruns, steps = int(d.get("reruns") or 0), int(d.get("steps") or 0)
    if steps < 20 or reruns < RERUNS * steps or distinct < 4 * rows / steps:
        return []
    c, over = _with_overfitting(run)
    return [finding(
        "data-duplicates", c,
        f"{reruns} of the first {steps} training steps trained on the previous step's batch again, row for row "
        f"({distinct} distinct inputs in {rows} rows): each batch is used several times in a row, so the run sees a "
        "fraction of its data, each batch many times over" + (f"; and the model memorises it: {over[0].message}"
                                                                    if over else ""),
        location={"step": ev["step"]},
        evidence=[{"event": "row-repeats", "rows": rows, "distinct": distinct, "reruns": reruns, "steps": steps}],
        fix="make every worker or prefetch slot draw from one shared sampler or iterator (not a copy of the batch "
            "generator each), or give each copy its own shard of the data",
        confirm="print a fingerprint of each batch (x.sum()) for ten steps: the same value comes back step after step",
    )]
