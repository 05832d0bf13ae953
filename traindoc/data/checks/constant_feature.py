"""constant-feature: a feature that never varies (or is null in every row).

What it detects:
    Numeric columns whose finite values all equal one value (and hold no NaN/Inf), and
    columns of any type that are null in every row. The label is left to class-imbalance.

Why it happens:
    A constant carries no information; after standardisation it divides by a zero std
    (NaN), and it usually means a broken join or a feature that was never filled.

How to confirm:
    ``df[COL].nunique(dropna=False) == 1``.

How to fix:
    Drop the column from the features, or repair the pipeline step that fills it.
"""

from __future__ import annotations

from ...findings import Finding
from ..profile import NumericProfile
from . import Context, check, num


@check("constant-feature")
def constant_feature(ctx: Context) -> list[Finding]:
    out = []
    for name, col in ctx.features():
        if col.n and col.nulls == col.n:
            msg, ev = f"`{name}` is null in all {num(col.n)} rows", {"column": name, "nulls": col.nulls}
        elif isinstance(col, NumericProfile) and col.count and col.min == col.max and not col.nonfinite and not col.nulls:
            msg, ev = f"`{name}` is {num(col.min)} in all {num(col.count)} rows", {"column": name, "value": col.min}
        else:
            continue
        out.append(Finding(
            name="constant-feature", severity="warning", message=msg,
            location={"column": name}, evidence=[ev],
            fix=f"drop `{name}` from the features, or repair the step that fills it",
            confirm=f"df['{name}'].nunique(dropna=False) == 1",
        ))
    return out
