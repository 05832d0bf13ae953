"""data-nonfinite: null, NaN or Inf in a feature, a list feature's elements or the target.

What it detects:
    Every null, NaN, +Inf and -Inf in numeric columns, in list (sequence) columns (a null
    list or a null / non-finite element) and in the label, counted exactly per column,
    with the first rows. Nulls count: ``df.to_parquet`` stores float NaN as null and a
    blank CSV cell reads as null, and both are NaN again in ``torch.tensor(df.values)``.
    A column whose nulls the loader handles (imputes, masks) is exempted with
    ``allow_null = true`` under ``[tool.traindoc.data.columns.NAME]`` (or globally).

Why it happens:
    One NaN in a batch makes that batch's loss NaN; the gradient is NaN, the optimizer
    writes NaN into every weight it touches and the run never recovers. Inf does the same
    through inf - inf or 0 * inf. A null is the same NaN one conversion later.

How to confirm:
    ``df.loc[ROWS, COLUMN]`` for the rows listed; ``df[COLUMN].isna().sum()`` and
    ``np.isfinite(df[COLUMN]).all()``.

How to fix:
    Fix the producer of the column (a division by zero, log of 0, a failed join); meanwhile
    drop the rows or impute (median) and add a missing-value indicator feature, then set
    ``allow_null = true`` for that column if the loader is the one that imputes.
"""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from ..profile import ListProfile, NumericProfile, OtherProfile
from . import Context, check, num, plural, rows_text


@check("data-nonfinite")
def data_nonfinite(ctx: Context) -> list[Finding]:
    out = []
    for name, col in ctx.profile.columns.items():
        if isinstance(col, OtherProfile):  # a string / categorical label: nulls only
            if name == ctx.label and col.nulls and not ctx.cfg.get("allow_null", name):
                out.append(_null_label(ctx, name, col))
            continue
        if isinstance(col, NumericProfile):
            p, lp = col, None
        elif isinstance(col, ListProfile):
            p, lp = col.values, col
        else:
            continue
        allow = bool(ctx.cfg.get("allow_null", name))
        nulls = 0 if allow or p is None else p.nulls  # null elements (or null cells)
        null_lists = 0 if allow or lp is None else lp.nulls
        nonfinite = p.nonfinite if p is not None else 0
        if not (nulls or null_lists or nonfinite):
            continue
        packed = [p.nonfinite_rows] if p is not None and nonfinite else []
        if nulls:
            packed.append(p.null_rows)
        if null_lists:
            packed.append(lp.null_rows)
        packed = np.unique(np.concatenate(packed).astype(np.uint64)) if packed else np.empty(0, np.uint64)
        rows = ctx.rows(packed)
        def part(c: int, kind: str, lp=lp) -> str:  # "3 NaN", "1 NaN element", "2 NaN elements"
            return f"{num(c)} {kind}" if lp is None else plural(c, f"{kind} element")

        parts = ([plural(null_lists, "null list")] if null_lists else []) + [
            part(c, t) for c, t in ((nulls, "null/NaN"), (p.nan if p is not None else 0, "NaN"),
                                    (p.posinf if p is not None else 0, "+Inf"),
                                    (p.neginf if p is not None else 0, "-Inf")) if c]
        total = p.n if p is not None else lp.n
        bad = nulls + nonfinite
        what = "target" if name == ctx.label else "column"
        where = (f"row {rows[0]:,}" if len(rows) == 1 and bad + null_lists == 1 else
                 f"first rows {rows_text(rows)}" if rows else "rows not recorded")
        share = f" ({bad / max(total, 1):.4%} of {plural(total, 'value')})" if bad else ""
        w = ctx.first_file(packed)
        out.append(Finding(
            name="data-nonfinite", severity="error",
            message=f"{what} `{name}` holds {', '.join(parts)}{share}; {where}"
                    + ("; a null is NaN once in a tensor" if nulls or null_lists else ""),
            location={"column": name, "rows": rows[:20],
                      **({"file": w["file"], "file_row": w["row"]} if w else {})},
            evidence=[{"column": name, "null": nulls, "null_lists": null_lists,
                       "nan": p.nan if p is not None else 0, "posinf": p.posinf if p is not None else 0,
                       "neginf": p.neginf if p is not None else 0, "values": total}],
            fix=(f"fix the producer of `{name}`; until then drop these rows or impute "
                 f"(e.g. `df['{name}'] = df['{name}'].replace([np.inf, -np.inf], np.nan).fillna(median)`) "
                 f"and add a missing-value indicator; if your loader imputes it, set `allow_null = true` "
                 f"under [tool.traindoc.data.columns.{name}]"),
            confirm=f"df.loc[{rows[:5]}, '{name}'] shows the null/NaN/Inf",
        ))
    return out


def _null_label(ctx: Context, name: str, col: OtherProfile) -> Finding:
    rows = ctx.rows(col.null_rows)
    w = ctx.first_file(col.null_rows)
    return Finding(
        name="data-nonfinite", severity="error",
        message=(f"target `{name}` holds {plural(col.nulls, 'null')} ({col.nulls / max(col.n, 1):.4%} of "
                 f"{plural(col.n, 'row')}); first rows {rows_text(rows)}: a label encoder turns a null into "
                 "a class of its own or fails"),
        location={"column": name, "rows": rows[:20], **({"file": w["file"], "file_row": w["row"]} if w else {})},
        evidence=[{"column": name, "null": col.nulls, "values": col.n}],
        fix=f"drop the rows with no `{name}` (`df = df.dropna(subset=['{name}'])`) or fix their producer",
        confirm=f"df['{name}'].isna().sum() == {col.nulls}",
    )
