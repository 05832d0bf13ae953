"""data-leakage: the same samples in the training and the validation split.

What it detects:
    With ``--val``, validation rows whose features (all columns but the label and the
    excluded ones) equal a training row, exactly, by a semi-join of 128-bit row hashes
    in DuckDB; reports the count and pairs of (validation row, training row).

Why it happens:
    The validation score measures memorisation of the leaked rows, not generalisation:
    early stopping, model selection and hyper-parameter search all optimise the wrong
    thing, and the model disappoints in production.

How to confirm:
    ``val.merge(train, on=FEATURES)`` is not empty; the listed pairs are equal.

How to fix:
    Deduplicate before splitting and split by a group key (user, session, source file,
    time) so near-copies stay on one side; drop the leaked rows from validation.
"""

from __future__ import annotations

from ...findings import Finding
from . import Context, check, num, plural


@check("data-leakage")
def data_leakage(ctx: Context) -> list[Finding]:
    ex = ctx.exact
    if ex is None or not ex.leaked_rows or ctx.val is None:
        return []
    pairs = [(ctx.rows([v], ctx.val)[0], ctx.rows([t])[0]) for v, t in ex.leaked_examples]
    eg = ", ".join(f"val {v:,} = train {t:,}" for v, t in pairs[:3])
    w = ctx.first_file([ex.leaked_examples[0][0]], ctx.val) if ex.leaked_examples else {}
    return [Finding(
        name="data-leakage", severity="error",
        message=(f"{num(ex.leaked_rows)} of {plural(ex.val_rows, 'validation row')} "
                 f"({ex.leaked_rows / max(ex.val_rows, 1):.3%}) also occur in training; e.g. {eg}"),
        location={"rows": [v for v, _ in pairs][:20], "file": w.get("file"), "file_row": w.get("row")},
        evidence=[{"leaked_rows": ex.leaked_rows, "val_rows": ex.val_rows,
                   "pairs": [{"val": v, "train": t} for v, t in pairs[:10]]}],
        fix=("deduplicate before splitting and split by a group key (user, session, time); "
             "drop the leaked rows from validation"),
        confirm="val.merge(train, on=FEATURES) returns these rows",
    )]
