"""label-conflict: identical inputs carrying different targets.

What it detects:
    Groups of rows equal in every feature (128-bit row hashes, exact grouping in DuckDB)
    whose label takes more than one value. Needs ``--label``.

Why it happens:
    No function can fit both targets; the loss has a floor above zero, the model learns
    the average, and noisy labels on duplicated inputs are a common sign of a labelling
    or join bug (a label from the wrong timestamp, a missing feature).

How to confirm:
    ``df[df.duplicated(FEATURES, keep=False)].groupby(FEATURES)[LABEL].nunique() > 1``.

How to fix:
    Resolve the labels (majority vote, relabel) or drop the conflicting rows; look for
    the missing feature that tells the rows apart.
"""

from __future__ import annotations

from ...findings import Finding
from . import Context, check, num


@check("label-conflict")
def label_conflict(ctx: Context) -> list[Finding]:
    ex = ctx.exact
    if ex is None or not ex.conflict_groups:
        return []
    groups = [ctx.rows(g) for g in ex.conflict_examples]
    eg = "; ".join(" vs ".join(f"{r:,}" for r in g) for g in groups[:3])
    return [Finding(
        name="label-conflict", severity="warning",
        message=(f"{num(ex.conflict_groups)} groups of identical features carry different labels "
                 f"(`{ctx.label}`), {num(ex.conflict_rows)} rows; e.g. rows {eg}"),
        location={"column": ctx.label, "rows": [r for g in groups for r in g][:20]},
        evidence=[{"groups": ex.conflict_groups, "rows": ex.conflict_rows, "examples": groups[:10]}],
        fix="resolve the label (majority vote or relabel) or drop the conflicting rows; look for a missing feature",
        confirm=f"df.loc[{groups[0] if groups else []}, '{ctx.label}'] differ while the features are equal",
    )]
