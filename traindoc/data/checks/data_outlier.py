"""data-outlier: extreme feature values and extreme sequence (list) lengths.

What it detects:
    Numeric columns: values beyond the fence ``Pq + k (Pq - P50)`` on either side, with
    q = P99.9 and k = 3 by default (P0.1 for the low side): robust, since the far
    quantiles barely move when a few extreme values are added. From 50 to 3 000 values q
    is lowered to 1 - 3/n (P98.5 for 200 rows), a quantile the sample can estimate. List columns: lengths
    beyond the same fence on the exact length histogram, or beyond ``max_length``;
    reports P50 / P99 / P99.9 / max and the rows holding the longest lists.

Severity:
    Sequence lengths beyond the fence or beyond ``max_length`` are errors: a 5 000-long
    sequence among 200-long ones is never legitimate input to an attention model. Value
    outliers are warnings by default: popularity counts, prices and durations are
    legitimately heavy-tailed (a Pareto(1.1) count puts many values past any quantile
    fence), and a gap test (the largest value far above the next) cannot tell them from a
    sentinel either, since in a Pareto(1.1) sample the largest value is more than 10x the
    next one about 8 % of the time. So values block CI only when asked: set
    ``outlier_error_k`` (a value that many spreads past the fence is an error), per column
    or globally, or raise the severity of ``data-outlier``.

Why it happens:
    One 5 000-long sequence where P99.9 is 900 makes attention logits large enough that a
    hand-written softmax overflows (exp -> inf, inf / inf = NaN), and blows up memory and
    step time. One feature value of 1e30 dominates a batch's gradient, which throws the
    weights far away (a loss spike) or overflows in float16.

How to confirm:
    ``df.loc[ROWS]`` for the rows listed; ``df[COL].quantile([.5, .99, .999, 1])`` or
    ``df[COL].str.len().describe(percentiles=[.99, .999])`` for lists.

How to fix:
    Cap lists at their P99.9 (truncate, or split long ones into windows); clip features
    to [P0.1, P99.9] or log-transform a heavy-tailed one; fix the producer when the
    value is a bug (a unit error, a sentinel such as 1e30 or -999).
"""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from . import Context, check, num, plural, rows_text


@check("data-outlier")
def data_outlier(ctx: Context) -> list[Finding]:
    out = []
    classes = ctx.profile.label is not None and not ctx.profile.label.overflow
    for name, p in ctx.numeric(include_label=not classes):
        f = _numeric(ctx, name, p)
        if f:
            out.append(f)
    for name, lp in ctx.lists():
        f = _lengths(ctx, name, lp)
        if f:
            out.append(f)
        if lp.values is not None and not lp.values.integer:
            f = _numeric(ctx, name, lp.values, elements=True)
            if f:
                out.append(f)
    return out


def estimable(q: float, n: int) -> float:
    """The fence's quantile, lowered to what ``n`` values can estimate: P99.9 lies inside a
    sample only from about 3 000 values; below that it is the second largest value, and
    two copies of one sentinel (-999 twice in 200 rows) hid each other. So q becomes
    1 - 3/n (P98.5 for 200 rows: the third value from the end). Under 50 values that
    quantile is itself too noisy (normal columns of 20 values: 0.9 % flagged against
    0.06 % for the gap test P99.9 becomes), so the configured q stays."""
    return q if n < 50 else min(q, 1 - 3 / n)


def _numeric(ctx: Context, name: str, p, elements: bool = False):
    if p.count < 2 or p.min == p.max:
        return None
    q, k = ctx.cfg.get("outlier_quantile", name), ctx.cfg.get("outlier_k", name)
    q = estimable(q, p.count)
    p50, hi, lo = p.quantile(0.5), p.quantile(q), p.quantile(1 - q)
    if p.integer:  # the sketch interpolates; an integer column's quantiles are integers
        p50, hi, lo = float(round(p50)), float(round(hi)), float(round(lo))
    spread_hi, spread_lo = hi - p50, p50 - lo
    hits = []  # (side, count, exact, fence, values, rows)
    if spread_hi > 0:
        fence = hi + k * spread_hi
        n, exact = p.count_above(fence)
        if n:
            sel = p.top[0] > fence
            hits.append(("above", n, exact, fence, p.top[0][sel], p.top[1][sel], (p.max - fence) / spread_hi))
    if spread_lo > 0:
        fence = lo - k * spread_lo
        n, exact = p.count_below(fence)
        if n:
            sel = p.bottom[0] < fence
            hits.append(("below", n, exact, fence, p.bottom[0][sel], p.bottom[1][sel], (fence - p.min) / spread_lo))
    if not hits:
        return None
    total = sum(h[1] for h in hits)
    exact = all(h[2] for h in hits)
    far = max(h[6] for h in hits)
    err_k = ctx.cfg.get("outlier_error_k", name)  # None (default): values only warn
    sev = "error" if err_k is not None and far > err_k else "warning"
    vals = np.concatenate([h[4] for h in hits])
    packed = np.concatenate([h[5] for h in hits])
    order = np.argsort(-np.abs(vals - p50), kind="stable")
    vals, packed = vals[order], packed[order]
    rows = ctx.rows(packed)
    qn = _qname(q)
    sides = "; ".join(f"{num(h[1])}{'' if h[2] else '+'} {h[0]} {num(h[3])}" for h in hits)
    what = f"`{name}` elements" if elements else f"`{name}`"
    w = ctx.first_file(packed)
    return Finding(
        name="data-outlier", severity=sev,
        message=(f"{what}: {'' if exact else 'at least '}{plural(total, 'extreme value')} ({sides}; "
                 f"fence {qn} + {k:g}x({qn} - P50)); P50 {num(p50)}, {_qname(1 - q)} {num(lo)}, {qn} {num(hi)}, "
                 f"min {num(p.min)}, max {num(p.max)}; most extreme {num(vals[0])} at row {rows[0]:,}"),
        location={"column": name, "rows": rows[:20], "file": w.get("file"), "file_row": w.get("row")},
        evidence=[{"column": name, "p50": p50, "p_low": lo, "p_high": hi, "min": p.min, "max": p.max,
                   "count": total, "exact": exact, "values": [float(v) for v in vals[:10]]}],
        fix=(f"clip `{name}` to [{num(lo)}, {num(hi)}] (its {_qname(1 - q)}, {qn}), e.g. "
             f"`df['{name}'] = df['{name}'].clip({lo:.6g}, {hi:.6g})`, or drop rows {rows_text(rows, 3)}; "
             "log-transform it if it is legitimately heavy-tailed; fix the producer if the value is a sentinel"),
        confirm=f"df.loc[{rows[:5]}, '{name}']",
    )


def _lengths(ctx: Context, name: str, lp):
    lens, cnt = lp.length_array()
    if not len(lens):
        return None
    q, k = ctx.cfg.get("outlier_quantile", name), ctx.cfg.get("outlier_k", name)
    q = estimable(q, int(cnt.sum()))
    p50, p99, hi = lp.length_quantile(0.5), lp.length_quantile(0.99), lp.length_quantile(q)
    mx = int(lens[-1])
    cap = ctx.cfg.get("max_length", name)
    fence = cap if cap is not None else hi + k * (hi - p50)
    beyond = int(cnt[lens > fence].sum())
    if not beyond:
        return None
    longer_than_hi = int(cnt[lens > hi].sum())
    sel = lp.longest[0] > fence
    rows = ctx.rows(lp.longest[1][sel])
    lengths = [int(v) for v in lp.longest[0][sel]]
    qn = _qname(q)
    why = f"max_length {num(cap)}" if cap is not None else f"{qn} + {k:g}x({qn} - P50) = {num(fence)}"
    w = ctx.first_file(lp.longest[1][sel])
    return Finding(
        name="data-outlier", severity="error",
        message=(f"list `{name}`: {plural(beyond, 'row')} longer than {why}; lengths P50 {num(p50)}, "
                 f"P99 {num(p99)}, {qn} {num(hi)}, max {num(mx)} (row {rows[0]:,})"),
        location={"column": name, "rows": rows[:20], "file": w.get("file"), "file_row": w.get("row")},
        evidence=[{"column": name, "p50": p50, "p99": p99, "p_high": hi, "max": mx, "rows_beyond": beyond,
                   "lengths": lengths[:10]}],
        fix=(f"cap `{name}` at {num(hi)}, its {qn}; {plural(longer_than_hi, 'row')} {'is' if longer_than_hi == 1 else 'are'} longer "
             f"(truncate, e.g. `x[:{hi}]`, or split long sequences into windows), and set "
             f"`max_length = {hi}` under [tool.traindoc.data.columns.{name}] to keep it checked"),
        confirm=f"df.loc[{rows[:5]}, '{name}'].str.len()",
    )


def _qname(q: float) -> str:
    return f"P{q * 100:.4g}"
