"""Small robust statistics shared by the rules (pure NumPy)."""

from __future__ import annotations

import numpy as np

MAD_TO_SIGMA = 1.4826


def finite(values: np.ndarray) -> np.ndarray:
    return values[np.isfinite(values)]


def rolling_median(x: np.ndarray, window: int) -> np.ndarray:
    """Centred-left rolling median: out[i] = median(x[max(0, i-window+1) : i+1])."""
    n = len(x)
    if n == 0:
        return x.copy()
    out = np.empty(n)
    for i in range(n):
        out[i] = np.median(x[max(0, i - window + 1) : i + 1])
    return out


def trailing_robust_z(x: np.ndarray, window: int, min_history: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each point, its robust z-score against the ``window`` points before it.

    Returns (z, median, sigma); points with fewer than ``min_history`` predecessors get
    z = 0. Uses median and MAD so that earlier spikes do not hide later ones.
    """
    n = len(x)
    z = np.zeros(n)
    med = np.full(n, np.nan)
    sig = np.full(n, np.nan)
    if n <= min_history:
        return z, med, sig
    from numpy.lib.stride_tricks import sliding_window_view

    padded = np.concatenate([np.full(window - 1, np.nan), x])
    win = sliding_window_view(padded, window)[: n]  # win[i] = x[i-window .. i-1] shifted below
    # win[i] covers x[i-window+1 .. i]; we want the points before i: use win[i-1]
    prev = np.vstack([np.full((1, window), np.nan), win[:-1]])
    counts = np.sum(np.isfinite(prev), axis=1)
    with np.errstate(all="ignore"):
        m = np.nanmedian(np.where(np.isfinite(prev), prev, np.nan), axis=1)
        mad = np.nanmedian(np.abs(prev - m[:, None]), axis=1) * MAD_TO_SIGMA
    ok = counts >= min_history
    med[ok] = m[ok]
    sig[ok] = mad[ok]
    with np.errstate(all="ignore"):
        zz = (x - m) / mad
    z[ok] = np.nan_to_num(zz[ok], nan=0.0, posinf=1e9, neginf=-1e9)
    return z, med, sig


def fmt(v: float) -> str:
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return str(v)
    a = abs(v)
    if a != 0 and (a < 1e-3 or a >= 1e5):
        return f"{v:.3g}"
    return f"{v:.4g}"
