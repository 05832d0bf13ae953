"""constant-feature (TD209), from a replayed non-finite step."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .. import rule
from ..evidence import finding
from ..evidence.bundles import forensics_files


@rule("constant-feature", needs=("loss",))
def constant_feature(run):
    """What it detects: a step replayed because its loss went non-finite (`traindoc run`
    bundles it) whose model input holds NaN/Inf in every row of the batch, the same number
    in each row and fewer than the row's width (k NaN of width n, k x rows in all; a row of
    a sequence batch [rows, time, channels] is its time steps times channels, and k a
    multiple of the time steps): whole feature columns are non-finite. A column that is NaN in every row was constant and standardised by its
    zero standard deviation ((x - mean) / 0 = 0/0), or is missing in every record;
    scattered missing values (data-nonfinite) are not spread evenly over every row of a
    batch, unless a mean or std computed over their column spread them to every row
    (bench/real 216): the run cannot tell that from a constant column, so the message
    names both and the confirm step tells them apart on the raw table.

    Why it happens: a hand-written scaler `(x - mean) / std` over a column that never
    varies (a sensor of a controlled process, an all-zero one-hot level, a flag that is
    always set), or a column that exists in the schema but was never filled.

    How to confirm: `traindoc data check` on the training table lists constant, all-null and
    partly missing columns; on the raw features, `X.isnan().sum(0)` and `X.std(0) == 0`.

    How to fix: drop constant columns before scaling, or guard the scale (`std[std == 0] = 1`,
    as scikit-learn's StandardScaler does); keep `traindoc data check` in CI.
    """
    for p in forensics_files(run):
        cols = _whole_columns(p)
        if cols is None:
            continue
        k, width, rows, op, step = cols
        return [finding(
            "constant-feature", 0.97,
            f"the model's input at step {step} holds NaN/Inf in every one of its {rows} rows, {k} of {width} values "
            f"in each ({k * rows} in all, first read by {op}): whole feature columns are non-finite, the mark of a "
            "column that never varies standardised by its zero std ((x - mean) / 0), of one that is empty in "
            "every record, or of a mean/std computed over a column with a few missing values (their NaN spreads "
            "to every row)",
            location={"step": step, "op": op},
            evidence=[{"bundle": p.parent.name, "nonfinite": k * rows, "rows": rows, "width": width}],
            fix="drop constant (or all-null) columns before scaling, or guard the scale: std[std == 0] = 1",
            confirm="on the raw table before scaling: X.isnan().sum(0) names columns with missing values "
                    "(data-nonfinite: impute or drop them), (X.std(0) == 0).nonzero() constant ones "
                    "(traindoc data check reports both)",
        )]
    return []


def _whole_columns(path: Path) -> tuple[int, int, int, str, int] | None:
    """(non-finite per row, row width, rows, op, step) when the replayed culprit is the
    model's input and its non-finite values fill the same count of every row."""
    try:
        data = json.loads(path.read_text())
        loc = data["location"]
        c = loc["culprit"]
        if loc.get("kind") != "nonfinite-input" or c.get("source") != "input":
            return None
        for t in c.get("inputs", []):
            shape, bad = t.get("shape") or [], int(t.get("nonfinite") or 0)
            if len(shape) < 2 or bad <= 0:
                continue
            rows, width = int(shape[0]), int(np.prod(shape[1:]))
            # a sequence batch [rows, time, channels]: a constant channel is NaN at every time
            # step, a whole multiple of the time axis per row (NaN in the first steps of each
            # window, a rolling feature's warm-up, is not)
            whole = len(shape) == 2 or (bad // max(rows, 1)) % int(shape[1]) == 0
            # every row failed alone and the count is a whole number of columns
            if rows >= 8 and bad % rows == 0 and 0 < bad // rows < width and whole and len(c.get("rows") or ()) == rows:
                return bad // rows, width, rows, str(c.get("op", "?")), int(data.get("step") or 0)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return None
