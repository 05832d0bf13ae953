"""data-leakage (TD208) in a recorded run: the evaluation set shares rows with the training set."""

from __future__ import annotations

from .. import rule
from ..evidence import finding

# an overlap at the boundary under this share of the training rows may be a forecasting
# window's look-back (the validation inputs start inside the training range on purpose)
WINDOW_SHARE = 0.2


@rule("data-leakage", needs=("loss",))
def data_leakage(run):
    """What it detects: an evaluation DataLoader whose dataset shares rows with the
    training loader's, read from how the two were built: two views of one tensor or array
    whose row ranges overlap (``data[:-100]`` to train, ``data[100:]`` to validate), or two
    ``Subset``s of one dataset whose index lists intersect; and, whatever built them, an
    evaluation (forwards without gradients, at most once every three steps, in the first
    300 steps) whose every row is identical to a row trained on since the previous one
    (k-fold code validating on its training indices, a validation set copied from the
    training rows), or whose batches of distinct rows are 30 % or more such rows (a split
    that shuffled one part and sliced the other; duplicate files split at random: an error
    from half of them, a warning below); the monitor fingerprints the rows exactly. (``traindoc data check
    --val`` compares the rows' contents in files.)

    Why it happens: a split by hand with the wrong boundaries, indices drawn twice, a
    validation set re-sliced after the training set grew; the validation loss then
    measures memorised rows and looks far better than the model is.

    How to confirm: print the overlap of the two index ranges (or
    ``set(train.indices) & set(val.indices)``): it is empty for a real split.

    A partial overlap is an error; every evaluated row a training row by content alone is a
    weak lead, a warning at 25 % (a training-accuracy pass looks the same); an evaluation set made only of
    training rows by construction (a
    train-subset evaluation, or a validation set drawn from them), one that holds all of
    them and more, and a boundary overlap under 20 % of the training rows (a forecasting
    window's look-back) are warnings.

    How to fix: split once, disjointly (``torch.utils.data.random_split``, or slices
    ``[:n]`` and ``[n:]``); keep look-back windows of a forecasting split on the inputs only.
    """
    best = None
    evs = [e for e in run.events() if e["kind"] == "split-overlap"]
    # how the loaders were built says more than the rows' contents: a forecasting look-back
    # read from the slices is a warning, the same rows seen by content would read as a split
    built = [e for e in evs if (e.get("data") or {}).get("how") != "identical rows"]
    for e in built or evs:
        f = _finding(e)
        if best is None or (f.confidence or 0) > (best.confidence or 0):
            best = f  # the most severe overlap of the run (several evaluation sets)
    return [best] if best is not None else []


def _are(d) -> str:
    return "they are " if d.get("how") == "identical rows" else "the two datasets are "


def _finding(e):
    d = e.get("data") or {}
    shared, rows = int(d.get("shared", 0)), max(1, int(d.get("rows", 1)))
    train_rows = max(1, int(d.get("train_rows") or rows))
    shape = d.get("shape", "mixed")
    if shape == "inside" and d.get("how") == "identical rows":
        # by content alone a validation set copied from the training rows (k-fold validating on
        # its training indices) and a training-accuracy pass look the same: a lead, not a verdict
        c, note = 0.25, " (every evaluated row is a training row: fine for a training-accuracy pass, a leak if this " \
                        "is the validation set; the run measured no held-out data)"
    elif shape == "inside":
        c, note = 0.4, " (every evaluation row is a training row: fine for a train-subset evaluation, a leak if this " \
                       "is the validation set)"
    elif shape == "around":
        c, note = 0.4, " (the evaluation set holds every training row and more: an evaluation on all the data, or " \
                       "a dataset that keeps the whole series and picks its rows later)"
    elif shape in ("tail", "head") and shared / train_rows < WINDOW_SHARE:
        c, note = 0.4, " (a short stretch at the boundary: a forecasting window's look-back keeps it on purpose)"
    elif shape == "partial" and shared / rows < 0.5:
        # a warning: exact duplicates occur by nature in tables of a few categorical columns
        c, note = 0.45, (" (copies of training rows among distinct evaluation rows: duplicates in the data that a "
                        "random split put on both sides, or an overlapping split)")
    else:
        c, note = 0.9, ""
    what = {"subset indices": "subsets of one dataset with intersecting indices",
            "identical rows": "rows identical, value for value, to rows the run trained on since its previous "
                              "evaluation"}.get(d.get("how"), "overlapping slices of the same tensor or array")
    return finding(
        "data-leakage", c,
        f"{shared} of the {rows} evaluation rows ({shared / rows:.0%}) are also training rows: {_are(d)}"
        f"{what}, so {d.get('series', 'the evaluation loss')} measures memorised rows" + note,
        location={"step": e["step"]},
        evidence=[{"event": "split-overlap", "step": e["step"],
                   **{k: d[k] for k in ("shared", "rows", "train_rows", "how", "shape") if k in d}}],
        fix="split once and disjointly (random_split, or [:n] / [n:] with the same n); deduplicate first",
        confirm="print the intersection of the training and evaluation indices (or row ranges): it must be empty",
    )
