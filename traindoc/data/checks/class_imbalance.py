"""class-imbalance: a class distribution so skewed the model can collapse to the
majority class.

What it detects:
    With ``--label``, exact class counts; the smallest class below ``min_class_ratio``
    (1 %) of the largest, or a single class. Skipped for a continuous target (more than
    10 000 distinct values, or non-integer floats with more than 100).

Why it breaks training:
    With 99.9 % negatives, predicting "negative" always is a loss minimum the optimizer
    finds first; accuracy looks excellent while the minority class is never predicted.

How to confirm:
    ``df[LABEL].value_counts()``; the per-class recall of the trained model.

How to fix:
    Re-weight the loss (``CrossEntropyLoss(weight=...)``, ``BCEWithLogitsLoss(pos_weight=...)``),
    resample (``WeightedRandomSampler``), or collect more minority data; report per-class
    metrics (PR-AUC) instead of accuracy.
"""

from __future__ import annotations

from ...findings import Finding
from . import Context, check, num, plural


@check("class-imbalance")
def class_imbalance(ctx: Context) -> list[Finding]:
    lab = ctx.profile.label
    if lab is None or lab.overflow or not lab.counts:
        return []
    counts = dict(lab.counts)
    if len(counts) > 100 and any(isinstance(v, float) and not float(v).is_integer() for v in counts):
        return []  # a regression target
    total = sum(counts.values())
    ordered = sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))
    (top, ntop), (low, nlow) = ordered[0], ordered[-1]
    name = ctx.label
    if len(counts) == 1:
        msg = f"label `{name}` has a single class ({top!r}) in all {num(total)} rows"
    else:
        ratio = nlow / ntop
        if ratio >= ctx.cfg.get("min_class_ratio", name):
            return []
        msg = (f"label `{name}`: class {low!r} has {plural(nlow, 'row')} ({nlow / total:.3%}), "
               f"{ratio:.2%} of the largest class {top!r} ({num(ntop)} rows); {len(counts)} classes")
    return [Finding(
        name="class-imbalance", severity="warning", message=msg,
        location={"column": name},
        evidence=[{"column": name, "counts": {str(k): v for k, v in ordered[:20]}, "classes": len(counts)}],
        fix=("weight the loss by inverse class frequency (`CrossEntropyLoss(weight=...)` or "
             "`BCEWithLogitsLoss(pos_weight=...)`) or resample with `WeightedRandomSampler`; "
             "track per-class recall / PR-AUC rather than accuracy"),
        confirm=f"df['{name}'].value_counts()",
    )]
