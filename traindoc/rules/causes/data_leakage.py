"""data-leakage (TD208) in a recorded run: the evaluation set shares rows with the training set."""

from __future__ import annotations

from .. import rule
from ..evidence import finding

# below this share of the evaluation rows an overlap may be a forecasting window's
# look-back (the validation inputs start inside the training range on purpose)
WINDOW_SHARE = 0.2


@rule("data-leakage", needs=("loss",))
def data_leakage(run):
    """What it detects: an evaluation DataLoader whose dataset shares rows with the
    training loader's, read from how the two were built: two views of one tensor or array
    whose row ranges overlap (``data[:-100]`` to train, ``data[100:]`` to validate), or two
    ``Subset``s of one dataset whose index lists intersect. (``traindoc data check --val``
    compares the rows' contents in files.)

    Why it happens: a split by hand with the wrong boundaries, indices drawn twice, a
    validation set re-sliced after the training set grew; the validation loss then
    measures memorised rows and looks far better than the model is.

    How to confirm: print the overlap of the two index ranges (or
    ``set(train.indices) & set(val.indices)``): it is empty for a real split.

    A partial overlap is an error; an evaluation set made only of training rows (a
    train-subset evaluation, or a validation set drawn from them) and an overlap under 20 %
    of the evaluation rows (a forecasting window's look-back) are warnings.

    How to fix: split once, disjointly (``torch.utils.data.random_split``, or slices
    ``[:n]`` and ``[n:]``); keep look-back windows of a forecasting split on the inputs only.
    """
    out = []
    for e in run.events():
        if e["kind"] != "split-overlap":
            continue
        d = e.get("data") or {}
        shared, rows = int(d.get("shared", 0)), max(1, int(d.get("rows", 1)))
        share = shared / rows
        out.append(finding(
            "data-leakage", 0.9 if WINDOW_SHARE <= share < 1 else 0.4,
            f"{shared} of the {rows} evaluation rows ({share:.0%}) are also training rows: the two datasets are "
            f"{'subsets of one dataset with intersecting indices' if d.get('how') == 'subset indices' else 'overlapping slices of the same tensor or array'}"
            f", so {d.get('series', 'the evaluation loss')} measures memorised rows"
            + ("" if WINDOW_SHARE <= share < 1 else " (a small overlap may be a forecasting window's look-back)"
               if share < 1 else " (every evaluation row is a training row: fine for a train-subset evaluation, "
                                 "a leak if this is the validation set)"),
            location={"step": e["step"]},
            evidence=[{"event": "split-overlap", "step": e["step"], **{k: d[k] for k in ("shared", "rows", "train_rows",
                                                                                          "how") if k in d}}],
            fix="split once and disjointly (random_split, or [:n] / [n:] with the same n); deduplicate first",
            confirm="print the intersection of the training and evaluation indices (or row ranges): it must be empty",
        ))
    return out[:1]
