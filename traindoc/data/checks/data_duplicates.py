"""data-duplicates: repeated rows inflating some samples.

What it detects:
    Rows identical to an earlier row in every feature and the label, exactly, by 128-bit
    row hashes grouped in DuckDB (NaN equals NaN, -0.0 equals 0.0; excluded columns such
    as ids are ignored). A warning above ``duplicate_fraction`` (1 %), info below.

Why it happens:
    Duplicates weigh some samples several times, bias the model towards them and, when
    they straddle the train/validation split, inflate the validation score.

How to confirm:
    ``df[df.duplicated(keep=False)]``; the rows listed are equal.

How to fix:
    Deduplicate before splitting (``df.drop_duplicates()``); if repetition is intended
    (oversampling), do it in the sampler so that evaluation data stays unique.
"""

from __future__ import annotations

from ...findings import Finding
from . import Context, check, num, plural


@check("data-duplicates")
def data_duplicates(ctx: Context) -> list[Finding]:
    ex = ctx.exact
    if ex is None or not ex.duplicate_rows:
        return []
    frac = ex.duplicate_rows / max(ex.rows, 1)
    groups = [ctx.rows(g) for g in ex.duplicate_examples]
    sev = "warning" if frac >= ctx.cfg.get("duplicate_fraction") else "info"
    eg = "; ".join(" = ".join(f"{r:,}" for r in g) for g in groups[:3])
    return [Finding(
        name="data-duplicates", severity=sev,
        message=(f"{plural(ex.duplicate_rows, 'row')} ({frac:.3%}) repeat an earlier row exactly "
                 f"({num(ex.duplicate_groups)} distinct rows repeated); e.g. rows {eg}"),
        location={"rows": [r for g in groups for r in g][:20]},
        evidence=[{"duplicate_rows": ex.duplicate_rows, "groups": ex.duplicate_groups,
                   "examples": groups[:10]}],
        fix="deduplicate before the train/validation split (`df.drop_duplicates()`); oversample in the sampler instead",
        confirm=f"df.loc[{groups[0] if groups else []}] shows identical rows",
    )]
