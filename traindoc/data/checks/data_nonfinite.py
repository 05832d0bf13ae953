"""data-nonfinite: NaN or Inf in a feature, a list feature's elements or the target.

What it detects:
    Every NaN, +Inf and -Inf in numeric columns, in the elements of list (sequence)
    columns and in the label, counted exactly per column, with the first rows.

Why it breaks training:
    One NaN in a batch makes that batch's loss NaN; the gradient is NaN, the optimizer
    writes NaN into every weight it touches and the run never recovers. Inf does the same
    through inf - inf or 0 * inf. Nulls are reported separately by the loader you use.

How to confirm:
    ``df.loc[ROWS, COLUMN]`` for the rows listed; ``np.isfinite(df[COLUMN]).all()``.

How to fix:
    Fix the producer of the column (a division by zero, log of 0, a failed join); meanwhile
    drop the rows or impute (median) and add a missing-value indicator feature.
"""

from __future__ import annotations

from ...findings import Finding
from ..profile import NumericProfile
from . import Context, check, num, rows_text


@check("data-nonfinite")
def data_nonfinite(ctx: Context) -> list[Finding]:
    out = []
    for name, col in ctx.profile.columns.items():
        p = col if isinstance(col, NumericProfile) else getattr(col, "values", None)
        if p is None or not p.nonfinite:
            continue
        verb = "holds" if p is col else "elements hold"
        rows = ctx.rows(p.nonfinite_rows)
        parts = [f"{num(c)} {t}" for c, t in ((p.nan, "NaN"), (p.posinf, "+Inf"), (p.neginf, "-Inf")) if c]
        what = "target" if name == ctx.label else "column"
        out.append(Finding(
            name="data-nonfinite", severity="error",
            message=(f"{what} `{name}` {verb} {', '.join(parts)} "
                     f"({p.nonfinite / max(p.n, 1):.4%} of {num(p.n)} values); first rows {rows_text(rows)}"),
            location={"column": name, "rows": rows[:20], **_file(ctx, p)},
            evidence=[{"column": name, "nan": p.nan, "posinf": p.posinf, "neginf": p.neginf, "values": p.n}],
            fix=(f"fix the producer of `{name}`; until then drop these rows or impute "
                 f"(e.g. `df['{name}'] = df['{name}'].replace([np.inf, -np.inf], np.nan).fillna(median)`) "
                 "and add a missing-value indicator"),
            confirm=f"df.loc[{rows[:5]}, '{name}'] shows the NaN/Inf",
        ))
    return out


def _file(ctx: Context, p: NumericProfile) -> dict:
    w = ctx.first_file(p.nonfinite_rows)
    return {"file": w["file"], "file_row": w["row"]} if w else {}
