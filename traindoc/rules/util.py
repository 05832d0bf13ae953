"""Small robust statistics shared by the rules (pure NumPy)."""

from __future__ import annotations

import numpy as np

from ..numfmt import fmt  # noqa: F401 - re-exported: the rules import it from here

MAD_TO_SIGMA = 1.4826
# the regression losses the monitor describes (loss_fn/<name>/...): a real-valued output against a target
REGRESSION_LOSSES = ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss")


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
    with np.errstate(all="ignore"), _quiet():
        m = np.nanmedian(np.where(np.isfinite(prev), prev, np.nan), axis=1)
        mad = np.nanmedian(np.abs(prev - m[:, None]), axis=1) * MAD_TO_SIGMA
    ok = counts >= min_history
    med[ok] = m[ok]
    sig[ok] = mad[ok]
    with np.errstate(all="ignore"):
        zz = (x - m) / mad
    z[ok] = np.nan_to_num(zz[ok], nan=0.0, posinf=1e9, neginf=-1e9)
    return z, med, sig


def trailing_median(x: np.ndarray, window: int) -> np.ndarray:
    """out[i] = median(x[max(0, i-window+1) : i+1]), NaNs ignored (vectorised)."""
    n = len(x)
    if n == 0:
        return x.astype(float)
    from numpy.lib.stride_tricks import sliding_window_view

    w = max(1, min(window, n))
    padded = np.concatenate([np.full(w - 1, np.nan), x.astype(float)])
    with np.errstate(all="ignore"), _quiet():
        return np.nanmedian(sliding_window_view(padded, w), axis=1)


def log_view(values: np.ndarray) -> tuple[np.ndarray, bool]:
    """The loss on the scale where its noise is roughly stationary.

    A positive loss is compared in log space (a jump from 0.1 to 1 matters as much as one
    from 1 to 10); a loss that can be zero or negative (a GAN critic, a negative
    log-likelihood of densities) is shifted to be positive first, and its ratios are then
    read against the run's own range. Returns (view, was_log_of_raw_values).
    """
    f = values[np.isfinite(values)]
    if len(f) and f.min() > 0:
        with np.errstate(all="ignore"):
            return np.log(values), True
    if not len(f):
        return values.astype(float), False
    lo, hi = float(f.min()), float(f.max())
    shift = -lo + max(hi - lo, 1e-12) * 0.01
    with np.errstate(all="ignore"):
        return np.log(values + shift), False


def episodes(mask: np.ndarray, max_gap: int = 2) -> list[tuple[int, int]]:
    """Runs of True in ``mask`` as (first, last) index pairs, merging runs separated by
    at most ``max_gap`` False entries (one spike episode, not three)."""
    idx = np.flatnonzero(mask)
    if not len(idx):
        return []
    out = []
    start = prev = int(idx[0])
    for i in idx[1:]:
        i = int(i)
        if i - prev > max_gap + 1:
            out.append((start, prev))
            start = i
        prev = i
    out.append((start, prev))
    return out


def skipped_steps(run, rank: int) -> set[int]:
    """Steps a GradScaler skipped (their loss/gradients are expected to be non-finite)."""
    s = run.series("scaler/skipped", rank)
    return set(s.steps[s.values > 0].tolist()) if not s.empty else set()


class _quiet:
    """Silence NumPy's "All-NaN slice" warnings inside a block."""

    def __enter__(self):
        import warnings

        self._w = warnings.catch_warnings()
        self._w.__enter__()
        warnings.simplefilter("ignore", RuntimeWarning)

    def __exit__(self, *exc):
        self._w.__exit__(*exc)


def find_spikes(vals: np.ndarray, window: int, min_history: int, tiers: tuple[tuple[float, float], ...]):
    """Spike episodes of a series judged in log space (see :func:`log_view`,
    :func:`spike_z`). A point is spiky when, for one of ``tiers`` = ((z_min, ratio_min),
    ...), its z-score reaches z_min and it is at least ratio_min times the level just
    before it. Returns dicts: first, last, peak (indices), back (index where it returned
    within 3 sigma of the level before the episode, or None), z, ratio, base (the level
    before, in the series' units, None for shifted non-positive series). ``vals`` finite."""
    view, raw_log = log_view(vals)
    z, base, sig = spike_z(view, window, min_history)
    with np.errstate(all="ignore"):
        ratio = np.exp(view - base)
    mask = np.zeros(len(vals), dtype=bool)
    for z_min, ratio_min in tiers:
        mask |= (z >= z_min) & (ratio >= ratio_min)
    out = []
    for a, b in episodes(mask):
        peak = a + int(np.argmax(view[a : b + 1]))
        band = base[a] + 3.0 * max(float(sig[a]), 1e-12)
        after = np.flatnonzero(view[b + 1 :] <= band)
        out.append({
            "first": a, "last": b, "peak": peak,
            "back": None if not len(after) else b + 1 + int(after[0]),
            "z": float(z[peak]), "ratio": float(np.exp(view[peak] - base[a])),
            "base": float(np.exp(base[a])) if raw_log else None,
        })
    return out


def train_loss(run, rank: int) -> tuple[np.ndarray, np.ndarray]:
    """(steps, values) of the finite training loss outside GradScaler-skipped steps."""
    s = run.series("loss", rank)
    keep = np.isfinite(s.values) & ~np.isin(s.steps, list(skipped_steps(run, rank)))
    return s.steps[keep], s.values[keep]


def smooth_window(n: int) -> int:
    """The trend window of an n-step series: 5 % of it, at least 5 steps."""
    return max(5, n // 20)


def spike_z(x: np.ndarray, window: int, min_history: int, level: int = 5) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each point, how far it jumps above where the series just was, in units of the
    series' own noise around its trend: (z, base, sigma).

    ``base`` is the median of the ``level`` points before (it follows a trend, where a
    window median lags it) and ``sigma`` the MAD (as a standard deviation) of the
    residuals ``x - base`` over the ``window`` points before. A trend hardly moves the
    residuals, so a fast-falling early loss does not hide a spike the way the MAD of the
    raw window would. Points with fewer than ``min_history`` predecessors get z = 0.
    Cost: O(n * window) NumPy, about 10 ms for 100 000 steps.
    """
    n = len(x)
    z = np.zeros(n)
    if n <= min_history:
        return z, np.full(n, np.nan), np.full(n, np.nan)
    from numpy.lib.stride_tricks import sliding_window_view as windows

    xf = x.astype(float)
    with np.errstate(all="ignore"), _quiet():
        base = np.nanmedian(windows(np.concatenate([np.full(level, np.nan), xf]), level)[:n], axis=1)
        rw = windows(np.concatenate([np.full(window, np.nan), xf - base]), window)[:n]
        sig = np.nanmedian(np.abs(rw - np.nanmedian(rw, axis=1)[:, None]), axis=1) * MAD_TO_SIGMA
        zz = (xf - base) / sig
    zz[:min_history] = 0.0
    return np.nan_to_num(zz, nan=0.0, posinf=1e9, neginf=-1e9), base, sig


GROSS = 1e3  # three decades: no healthy loss ends there after its best (an order of noise is 1.3x)


def gross_divergence(run, rank: int) -> dict | None:
    """A loss series (the training loss, or an evaluation loss) whose last point is at
    least 1000x its lowest, reached before it, and above where it started: a blow-up that
    needs no long run to see (15 full-batch LBFGS steps, an evaluation once an epoch).
    Needs 4 finite positive points. The first such series, as
    ``{"series", "best", "best_step", "last", "last_step", "first"}``."""
    cands = [("loss", run.series("loss", rank))] if run.has("loss", rank) else []
    cands += sorted((("loss/eval" + k, v) for k, v in run.matching("loss/eval", rank).items()), key=lambda kv: kv[0])
    for name, s in cands:
        ok = np.isfinite(s.values)
        v, t = s.values[ok], s.steps[ok]
        if len(v) < 4 or v.min() <= 0:
            continue
        b = int(np.argmin(v))
        if b < len(v) - 1 and v[-1] >= GROSS * v[b] and v[-1] > v[0]:
            return {"series": name, "best": float(v[b]), "best_step": int(t[b]), "last": float(v[-1]),
                    "last_step": int(t[-1]), "first": float(v[0])}
    return None



def adversarial(run) -> bool:
    """A GAN (or an actor-critic whose actor's loss runs through the critic): two optimizers
    that each stepped on a backward of their own, and one of the first backwards reaching the
    parameters of both, their tensors disjoint (the generator's loss flows through the
    discriminator; an optimizer rebuilt per epoch shares its tensors). Two
    independent models, an actor whose advantage is detached, or an encoder/decoder pair
    stepping on one loss are not (the monitor's ``loss_reach`` meta, monitor/reach.py).
    Their losses are a game's, not a minimisation's: they need not fall."""
    doc = run.meta.get("loss_reach")
    if not isinstance(doc, dict):
        return False
    own = {k: d for k, d in doc.items() if isinstance(d, dict) and d.get("own")}
    return any(set(a.get("reach") or ()) & set(b.get("reach") or ()) and int(j) not in (a.get("overlaps") or ())
               for i, a in own.items() for j, b in own.items() if i < j)
