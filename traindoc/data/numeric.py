"""A numeric column's mergeable profile (also a list column's elements): exact null, NaN
and Inf counts with their first rows, finite min and max, mean and M2 merged with Chan et
al.'s formula, the K most extreme values with their rows and a quantile sketch (see
:mod:`.profile`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .rowids import K, first_k
from .sketch import LogSketch


def keep_extremes(vals: np.ndarray, rids: np.ndarray, k: int, largest: bool) -> tuple[np.ndarray, np.ndarray]:
    """The k largest (or smallest) values with their rows; ties broken by the first row."""
    if len(vals) > k:
        idx = np.argpartition(-vals if largest else vals, k - 1)[:k]
        vals, rids = vals[idx], rids[idx]
    order = np.lexsort((rids, -vals if largest else vals))
    return vals[order], rids[order]



@dataclass
class NumericProfile:
    n: int = 0  # rows seen (values, for list elements)
    nulls: int = 0
    nan: int = 0
    posinf: int = 0
    neginf: int = 0
    count: int = 0  # finite values
    mean: float = 0.0
    m2: float = 0.0
    min: float = math.inf
    max: float = -math.inf
    integer: bool = True
    digest: Any = None
    top: tuple = (np.empty(0), np.empty(0, np.uint64))  # (values, rows) largest first
    bottom: tuple = (np.empty(0), np.empty(0, np.uint64))
    nonfinite_rows: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint64))
    null_rows: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint64))  # first K nulls

    def update(self, vals: np.ndarray, rids: np.ndarray, valid: np.ndarray | None, integer: bool,
               light: bool = False) -> None:
        """Add one batch. ``vals`` float64, ``rids`` packed row ids, ``valid`` False at nulls.
        ``light``: counts, moments and range only, no sketch nor extremes (the integer
        elements of a list column, such as item ids: no check reads their quantiles, and
        they are most of the values of a dataset with sequences)."""
        n = len(vals)
        self.n += n
        self.integer &= integer
        if valid is None:
            # Integers are finite, and a finite sum means every value is (NaN and Inf
            # propagate; an overflow to Inf takes the full path): one pass, not three.
            with np.errstate(over="ignore", invalid="ignore"):
                total = float(vals.sum())  # x.mean() is this sum over n, to the bit
            if integer or math.isfinite(total):
                self._moments(vals, total / n if n else 0.0, light, rids)
                return
        fin = np.isfinite(vals)
        if valid is not None:
            nnull = int(n - np.count_nonzero(valid))
            self.nulls += nnull
            if nnull and rids is not None and len(self.null_rows) < K:
                nidx = np.flatnonzero(~valid)[:K]
                self.null_rows = first_k(self.null_rows, rids[nidx])
        nfin = int(np.count_nonzero(fin))
        if nfin < n:  # the slow path only runs on batches that hold a null or non-finite
            bad = ~fin if valid is None else (~fin & valid)
            idx = np.flatnonzero(bad)
            if len(idx):
                b = vals[idx]
                isn = np.isnan(b)
                self.nan += int(isn.sum())
                self.posinf += int((b > 0).sum())
                self.neginf += int((b < 0).sum())
                if len(self.nonfinite_rows) < K:
                    self.nonfinite_rows = np.unique(np.concatenate([self.nonfinite_rows, rids[idx[:K]]]))[:K]
            x, xr = vals[fin], rids[fin]
        else:
            x, xr = vals, rids
        if not len(x):
            return
        self._moments(x, float(x.mean()), light, xr)

    def update_ints(self, v: np.ndarray) -> None:
        """``update(v.astype(float64), None, None, True, light=True)`` for integers without
        nulls (a list column's ids), without the float copy: while sum |v| < 2**53 every
        partial sum is exact in float64, so the integer sum is the float sum to the bit and
        ``v - mean`` casts each value exactly; else it converts and updates."""
        n = len(v)
        if not n:
            return
        lo, hi = int(v.min()), int(v.max())
        if max(abs(lo), abs(hi)) * n >= 1 << 53:
            return self.update(v.astype(np.float64), None, None, True, light=True)
        self.n += n
        bmean = float(int(v.sum())) / n  # |sum| < 2**53: no overflow, exact
        d = v - bmean
        np.square(d, out=d)
        self._chan(n, bmean, float(d.sum()))
        self.min, self.max = min(self.min, float(lo)), max(self.max, float(hi))

    def _moments(self, x: np.ndarray, bmean: float, light: bool, xr: np.ndarray | None = None) -> None:
        """Fold in finite values ``x`` (rows ``xr``) whose mean is ``bmean``."""
        if not len(x):
            return
        d = x - bmean
        with np.errstate(over="ignore"):  # |x| > 1e154: the variance is inf, as it should
            np.square(d, out=d)  # not np.dot: BLAS threads spin on a shared 2-core machine
        self._chan(len(x), bmean, float(d.sum()))
        bmin, bmax = float(x.min()), float(x.max())
        self.min, self.max = min(self.min, bmin), max(self.max, bmax)
        if light:
            return
        if self.digest is None:
            self.digest = LogSketch()
        self.digest.update(x, bmin, bmax)
        # Extremes: only values beyond the current K-th most extreme can enter, so after
        # the first batches this is one comparison pass instead of an argpartition.
        for largest in (True, False):
            cur = self.top if largest else self.bottom
            if len(cur[0]) >= K:
                thr = cur[0][-1]
                if (bmax < thr) if largest else (bmin > thr):
                    continue
                sel = np.flatnonzero(x >= thr if largest else x <= thr)
                cand = (x[sel], xr[sel])
            else:
                cand = keep_extremes(x, xr, K, largest)
            merged = self._merge_extreme(cur, cand, largest)
            if largest:
                self.top = merged
            else:
                self.bottom = merged

    @staticmethod
    def _merge_extreme(a: tuple, b: tuple, largest: bool) -> tuple:
        return keep_extremes(np.concatenate([a[0], b[0]]), np.concatenate([a[1], b[1]]).astype(np.uint64), K, largest)

    def _chan(self, nb: int, mb: float, m2b: float) -> None:
        """Chan, Golub & LeVeque (1979): combine (count, mean, M2) of two disjoint parts."""
        na = self.count
        if na == 0:
            self.count, self.mean, self.m2 = nb, mb, m2b
            return
        n = na + nb
        delta = mb - self.mean
        self.mean += delta * nb / n
        self.m2 += m2b + delta * delta * na * nb / n
        self.count = n

    def merge(self, o: "NumericProfile") -> "NumericProfile":
        self.n += o.n
        self.nulls += o.nulls
        self.nan += o.nan
        self.posinf += o.posinf
        self.neginf += o.neginf
        self.integer &= o.integer
        if o.count:
            self._chan(o.count, o.mean, o.m2)
            self.min, self.max = min(self.min, o.min), max(self.max, o.max)
        if o.digest is not None:
            self.digest = o.digest if self.digest is None else self.digest.merge(o.digest)
        self.top = self._merge_extreme(self.top, o.top, True)
        self.bottom = self._merge_extreme(self.bottom, o.bottom, False)
        self.nonfinite_rows = np.unique(np.concatenate([self.nonfinite_rows, o.nonfinite_rows]))[:K].astype(np.uint64)
        self.null_rows = first_k(self.null_rows, o.null_rows)
        return self

    # -- derived ------------------------------------------------------------------
    @property
    def nonfinite(self) -> int:
        return self.nan + self.posinf + self.neginf

    @property
    def std(self) -> float:
        return math.sqrt(self.m2 / self.count) if self.count else float("nan")

    def quantile(self, q: float) -> float:
        if self.digest is None:
            return float("nan")
        return self.digest.quantile(q, self.min, self.max)

    def count_above(self, fence: float) -> tuple[int, bool]:
        """Finite values > fence: exact when fewer than K (all of them are kept), else a
        sketch estimate (returned with exact=False, and never below K)."""
        above = int((self.top[0] > fence).sum())
        if above < K or above < len(self.top[0]):
            return above, True
        est = int(round(self.count * (1.0 - self.digest.rank(fence))))
        return max(est, above), False

    def count_below(self, fence: float) -> tuple[int, bool]:
        below = int((self.bottom[0] < fence).sum())
        if below < K or below < len(self.bottom[0]):
            return below, True
        est = int(round(self.count * self.digest.rank(fence)))
        return max(est, below), False

    def to_json(self) -> dict:
        d = {k: getattr(self, k) for k in ("n", "nulls", "nan", "posinf", "neginf", "count",
                                           "mean", "m2", "min", "max", "integer")}
        d["digest"] = self.digest.to_json() if self.digest is not None else None
        d["top"] = [self.top[0].tolist(), self.top[1].tolist()]
        d["bottom"] = [self.bottom[0].tolist(), self.bottom[1].tolist()]
        d["nonfinite_rows"] = self.nonfinite_rows.tolist()
        d["null_rows"] = self.null_rows.tolist()
        return d

    @classmethod
    def from_json(cls, d: dict) -> "NumericProfile":
        p = cls(**{k: d[k] for k in ("n", "nulls", "nan", "posinf", "neginf", "count",
                                      "mean", "m2", "min", "max", "integer")})
        p.digest = LogSketch.from_json(d["digest"]) if d["digest"] else None
        p.top = (np.asarray(d["top"][0], float), np.asarray(d["top"][1], np.uint64))
        p.bottom = (np.asarray(d["bottom"][0], float), np.asarray(d["bottom"][1], np.uint64))
        p.nonfinite_rows = np.asarray(d["nonfinite_rows"], np.uint64)
        p.null_rows = np.asarray(d.get("null_rows", []), np.uint64)
        return p
