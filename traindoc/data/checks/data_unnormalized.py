"""data-unnormalized: features on very different scales, or far from zero mean and unit
variance.

What it detects:
    Among non-constant numeric features (0/1 flags and the label excluded), with robust
    statistics (median, and IQR / 1.349 as the scale, so that a few outliers do not
    count): the ratio of the largest to the smallest scale above ``scale_ratio`` (1e3),
    and features whose scale exceeds ``max_std`` (100) or whose |median| exceeds
    ``max_mean_over_std`` (10) scales.

Why it happens:
    Gradient-based training sees the loss surface through the feature scales: one feature
    in the 1e5 range makes its weights' gradients 1e5 times larger than the others', so a
    learning rate small enough for it is too small for the rest (slow or no convergence),
    and a larger one diverges. A large mean shifts every pre-activation (saturation).

How to confirm:
    ``df[FEATURES].describe().T[['mean', 'std']]``.

How to fix:
    Standardise with statistics computed on the training split only
    (``sklearn.preprocessing.StandardScaler``), or log-transform heavy-tailed positive
    features first; add a normalisation layer if the scale must be learned.
"""

from __future__ import annotations

from ...findings import Finding
from . import Context, check, num


@check("data-unnormalized")
def data_unnormalized(ctx: Context) -> list[Finding]:
    stats = {}  # column -> (centre, scale): median and IQR / 1.349 (the std of a normal)
    for name, p in ctx.numeric():
        if p.count < 2 or p.min == p.max or (p.integer and p.min >= 0 and p.max <= 1):
            continue
        stats[name] = _robust(p)
    stats = {n: v for n, v in stats.items() if 0 < v[1] < float("inf")}
    if not stats:
        return []
    far = {n: (m, s) for n, (m, s) in stats.items()
           if s > ctx.cfg.get("max_std", n) or abs(m) > ctx.cfg.get("max_mean_over_std", n) * s}
    hi = max(stats, key=lambda n: stats[n][1])
    lo = min(stats, key=lambda n: stats[n][1])
    ratio = stats[hi][1] / stats[lo][1]
    disparate = ratio > ctx.cfg.get("scale_ratio")
    if not far and not disparate:
        return []
    parts = []
    if disparate:
        parts.append(f"scale ranges from {num(stats[lo][1])} (`{lo}`) to {num(stats[hi][1])} (`{hi}`), "
                     f"a ratio of {num(ratio)}")
    if far:
        worst = sorted(far, key=lambda n: -max(far[n][1], abs(far[n][0])))
        parts.append(f"{len(far)} features far from centre 0 / scale 1: "
                     + ", ".join(f"`{n}` (median {num(far[n][0])}, scale {num(far[n][1])})" for n in worst[:5])
                     + (" ..." if len(worst) > 5 else ""))
    column = hi if disparate else sorted(far, key=lambda n: -far[n][1])[0]
    cols = sorted(set(far) | ({hi, lo} if disparate else set()))
    cols_by_name = dict(ctx.numeric())
    return [Finding(
        name="data-unnormalized", severity="warning",
        message="features are not normalised: " + "; ".join(parts),
        location={"column": column, "columns": cols},
        evidence=[{"column": n, "median": stats[n][0], "scale": stats[n][1],
                   "mean": cols_by_name[n].mean, "std": cols_by_name[n].std} for n in cols[:20]],
        fix=("standardise the features with the training split's statistics "
             "(`StandardScaler().fit(train[cols])`, or `RobustScaler` when they hold outliers); "
             "log-transform heavy-tailed positive ones first"),
        confirm=f"df[{cols[:5]}].describe().T[['50%', 'mean', 'std']]",
    )]


def _robust(p) -> tuple[float, float]:
    """(median, IQR / 1.349) from the sketch: a few outliers (reported by data-outlier)
    do not make a normalised feature look unnormalised. Falls back to the std when the
    middle half is one value (a sparse feature)."""
    med, q1, q3 = p.quantile(0.5), p.quantile(0.25), p.quantile(0.75)
    scale = (q3 - q1) / 1.349
    return med, scale if scale > 0 else p.std
