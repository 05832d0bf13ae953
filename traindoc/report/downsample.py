"""Shrink long series for plotting without hiding what matters (pure NumPy).

A run of 100 000 steps with 200 parameters is 20 M grad-norm points; a browser draws a
few thousand per line comfortably. Lines keep each bucket's minimum and maximum (so a
one-step spike survives any decimation); heatmaps take each bucket's maximum (an
exploding layer shows, a quiet bucket does not average it away). Non-finite points are
never decimated here: callers mark them from the full series.
"""

from __future__ import annotations

import numpy as np


def minmax_indices(values: np.ndarray, max_points: int) -> np.ndarray:
    """Indices into ``values`` to draw: all of them when there are at most ``max_points``,
    else per bucket the argmin and argmax of the finite values, plus the first and last.
    Sorted, unique; at most about ``max_points`` + 2."""
    n = len(values)
    if n <= max_points:
        return np.arange(n)
    buckets = max(1, max_points // 2)
    edges = np.linspace(0, n, buckets + 1).astype(np.int64)
    finite = np.isfinite(values)
    # +inf/-inf stand-ins keep non-finite points out of argmin/argmax; a bucket with no
    # finite point then yields an index whose value is non-finite, which plotting drops.
    lo_v = np.where(finite, values, np.inf)
    hi_v = np.where(finite, values, -np.inf)
    keep = [np.array([0, n - 1])]
    starts = edges[:-1]
    width = np.diff(edges)
    # Equal-width buckets (to within one) let one reshape do all argmins at once; the
    # ragged remainder is handled by padding each bucket to the widest with +-inf.
    w = int(width.max())
    idx = starts[:, None] + np.arange(w)[None, :]
    valid = idx < (starts + width)[:, None]
    idx = np.minimum(idx, n - 1)
    lo = np.where(valid, lo_v[idx], np.inf)
    hi = np.where(valid, hi_v[idx], -np.inf)
    keep.append(idx[np.arange(len(starts)), lo.argmin(axis=1)])
    keep.append(idx[np.arange(len(starts)), hi.argmax(axis=1)])
    return np.unique(np.concatenate(keep))


def step_edges(first: int, last: int, max_columns: int) -> np.ndarray:
    """Integer bucket edges covering steps ``first..last`` in at most ``max_columns``
    buckets: bucket j holds steps in [edges[j], edges[j+1])."""
    span = last - first + 1
    cols = max(1, min(max_columns, span))
    return np.unique(np.round(np.linspace(first, last + 1, cols + 1)).astype(np.int64))


def bucket_max(steps: np.ndarray, values: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per bucket of ``edges``: the largest finite value (NaN where the bucket holds none)
    and the count of non-finite values."""
    nb = len(edges) - 1
    out = np.full(nb, np.nan)
    bad = np.zeros(nb, np.int64)
    if len(steps) == 0 or nb <= 0:
        return out, bad
    b = np.searchsorted(edges, steps, side="right") - 1
    inside = (b >= 0) & (b < nb)
    b, v = b[inside], values[inside]
    fin = np.isfinite(v)
    np.add.at(bad, b[~fin], 1)
    acc = np.full(nb, -np.inf)
    np.maximum.at(acc, b[fin], v[fin])
    out[np.isfinite(acc)] = acc[np.isfinite(acc)]
    return out, bad


def bucket_mean(steps: np.ndarray, values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Per bucket of ``edges``: the mean of the finite values (NaN where there are none)."""
    nb = len(edges) - 1
    if len(steps) == 0 or nb <= 0:
        return np.full(max(nb, 0), np.nan)
    b = np.searchsorted(edges, steps, side="right") - 1
    ok = (b >= 0) & (b < nb) & np.isfinite(values)
    total = np.bincount(b[ok], weights=values[ok], minlength=nb)
    count = np.bincount(b[ok], minlength=nb)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def spread(items: list[int], k: int, must: list[int] = ()) -> list[int]:
    """At most ``k`` of the sorted ``items``, evenly spread, always keeping the first, the
    last and those in ``must`` that are present."""
    if len(items) <= k:
        return list(items)
    keep = {items[0], items[-1], *(m for m in must if m in set(items))}
    room = max(0, k - len(keep))
    if room:
        for i in np.linspace(0, len(items) - 1, room + 2)[1:-1]:
            keep.add(items[int(round(i))])
    return sorted(keep)[: max(k, len(keep))]
