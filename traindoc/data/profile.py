"""Mergeable partial profiles: one streaming pass per unit, merged in any order.

Per numeric column: exact null / NaN / +Inf / -Inf counts (and the first K null rows), finite min and max, count,
mean and M2 merged with Chan et al.'s formula, the K most extreme finite values with
their rows, the first K non-finite rows, and a relative-error quantile sketch
(``sketch.LogSketch``). Per list column: an exact histogram of lengths, the K longest
rows, and a numeric profile of the elements. Per label: exact class counts. Every field merges exactly
(the mean and M2 up to float rounding), so any split of the data gives the same checks.

Row ids inside a profile are *packed* ``(unit << 40) | row_in_unit``: ordered like the
global row index, so "the first K rows" merges with a sort, and ``DatasetProfile.rows``
maps them to global indices once every unit's row count is known.

Serialised as JSON (sketches base64): the cache and the Dask/Ray transport never unpickle.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .sketch import LogSketch

K = 32  # extremes and example rows kept per column
MAX_CLASSES = 10_000  # beyond this many distinct labels it is regression: counts dropped
ROW_BITS = 40


def _first_k(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The K smallest distinct row ids of two sets (the first K rows, merged in any order)."""
    return np.unique(np.concatenate([a, b]).astype(np.uint64))[:K]


def pack(unit: int, rows: np.ndarray) -> np.ndarray:
    return (np.uint64(unit) << np.uint64(ROW_BITS)) | rows.astype(np.uint64)


def _keep(vals: np.ndarray, rids: np.ndarray, k: int, largest: bool) -> tuple[np.ndarray, np.ndarray]:
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
                self.null_rows = _first_k(self.null_rows, rids[nidx])
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
                cand = _keep(x, xr, K, largest)
            merged = self._merge_extreme(cur, cand, largest)
            if largest:
                self.top = merged
            else:
                self.bottom = merged

    @staticmethod
    def _merge_extreme(a: tuple, b: tuple, largest: bool) -> tuple:
        return _keep(np.concatenate([a[0], b[0]]), np.concatenate([a[1], b[1]]).astype(np.uint64), K, largest)

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
        self.null_rows = _first_k(self.null_rows, o.null_rows)
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


@dataclass
class ListProfile:
    """A sequence feature: exact length histogram, longest rows, element statistics."""

    n: int = 0
    nulls: int = 0
    lengths: dict[int, int] = field(default_factory=dict)
    longest: tuple = (np.empty(0), np.empty(0, np.uint64))
    values: NumericProfile | None = None  # None when the elements are not numbers
    null_rows: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint64))  # first K null lists

    def update_lengths(self, lens: np.ndarray, rids: np.ndarray, valid: np.ndarray | None) -> None:
        self.n += len(lens)
        if valid is not None:
            nnull = int(len(lens) - np.count_nonzero(valid))
            self.nulls += nnull
            if nnull and len(self.null_rows) < K:
                self.null_rows = _first_k(self.null_rows, rids[np.flatnonzero(~valid)[:K]])
            lens, rids = lens[valid], rids[valid]
        if len(lens) and 0 <= lens.min() and lens.max() < (1 << 20):
            c = np.bincount(lens)  # a sort (np.unique) of every batch's lengths cost ~4x more
            u = np.flatnonzero(c)
            c = c[u]
        else:
            u, c = np.unique(lens, return_counts=True)
        for a, b in zip(u.tolist(), c.tolist()):
            self.lengths[a] = self.lengths.get(a, 0) + b
        if len(self.longest[0]) >= K:  # only lists longer than the K-th longest can enter
            sel = np.flatnonzero(lens >= self.longest[0][-1])
            lens, rids = lens[sel], rids[sel]
        top = _keep(lens.astype(float), rids, K, True)
        self.longest = NumericProfile._merge_extreme(self.longest, top, True)

    def merge(self, o: "ListProfile") -> "ListProfile":
        self.n += o.n
        self.nulls += o.nulls
        for a, b in o.lengths.items():
            self.lengths[a] = self.lengths.get(a, 0) + b
        self.longest = NumericProfile._merge_extreme(self.longest, o.longest, True)
        self.null_rows = _first_k(self.null_rows, o.null_rows)
        if o.values is not None:
            self.values = o.values if self.values is None else self.values.merge(o.values)
        return self

    def length_array(self) -> tuple[np.ndarray, np.ndarray]:
        items = sorted(self.lengths.items())
        return np.array([a for a, _ in items], np.int64), np.array([b for _, b in items], np.int64)

    def length_quantile(self, q: float) -> int:
        """Exact quantile of the lengths (lower, as numpy 'inverted_cdf')."""
        lens, cnt = self.length_array()
        if not len(lens):
            return 0
        cum = np.cumsum(cnt)
        return int(lens[min(np.searchsorted(cum, q * cum[-1]), len(lens) - 1)])

    def to_json(self) -> dict:
        return {"n": self.n, "nulls": self.nulls, "lengths": [[a, b] for a, b in sorted(self.lengths.items())],
                "longest": [self.longest[0].tolist(), self.longest[1].tolist()],
                "values": self.values.to_json() if self.values is not None else None,
                "null_rows": self.null_rows.tolist()}

    @classmethod
    def from_json(cls, d: dict) -> "ListProfile":
        return cls(n=d["n"], nulls=d["nulls"], lengths={int(a): int(b) for a, b in d["lengths"]},
                   longest=(np.asarray(d["longest"][0], float), np.asarray(d["longest"][1], np.uint64)),
                   values=NumericProfile.from_json(d["values"]) if d["values"] else None,
                   null_rows=np.asarray(d.get("null_rows", []), np.uint64))


@dataclass
class OtherProfile:
    """Strings, bytes, dates...: only counted (they still take part in row hashes)."""

    n: int = 0
    nulls: int = 0
    type: str = ""
    null_rows: np.ndarray = field(default_factory=lambda: np.empty(0, np.uint64))  # first K (for a label)

    def merge(self, o: "OtherProfile") -> "OtherProfile":
        self.n += o.n
        self.nulls += o.nulls
        self.null_rows = _first_k(self.null_rows, o.null_rows)
        return self

    def to_json(self) -> dict:
        return {"n": self.n, "nulls": self.nulls, "type": self.type, "null_rows": self.null_rows.tolist()}

    @classmethod
    def from_json(cls, d: dict) -> "OtherProfile":
        return cls(n=d["n"], nulls=d["nulls"], type=d["type"],
                   null_rows=np.asarray(d.get("null_rows", []), np.uint64))


@dataclass
class LabelProfile:
    """Exact class counts; dropped (``overflow``) past MAX_CLASSES distinct values."""

    counts: dict[Any, int] = field(default_factory=dict)
    overflow: bool = False
    nonfinite: NumericProfile | None = None

    def update(self, arr: pa.Array) -> None:
        if self.overflow:
            return
        vc = pc.value_counts(arr.drop_null())
        for v, c in zip(vc.field("values").to_pylist(), vc.field("counts").to_pylist()):
            if isinstance(v, float) and math.isnan(v):
                v = "nan"
            self.counts[v] = self.counts.get(v, 0) + c
        self._check()

    def _check(self) -> None:
        if len(self.counts) > MAX_CLASSES:
            self.overflow, self.counts = True, {}

    def merge(self, o: "LabelProfile") -> "LabelProfile":
        self.overflow |= o.overflow
        if not self.overflow:
            for v, c in o.counts.items():
                self.counts[v] = self.counts.get(v, 0) + c
            self._check()
        else:
            self.counts = {}
        return self

    def to_json(self) -> dict:
        return {"counts": [[v, c] for v, c in self.counts.items()], "overflow": self.overflow}

    @classmethod
    def from_json(cls, d: dict) -> "LabelProfile":
        return cls(counts={v: c for v, c in d["counts"]}, overflow=d["overflow"])


_KINDS = {"numeric": NumericProfile, "list": ListProfile, "other": OtherProfile}


@dataclass
class DatasetProfile:
    """The merged profile of a dataset: columns in first-seen order, the label, row counts
    per unit (to turn packed row ids into global indices) and the unit files."""

    columns: dict[str, Any] = field(default_factory=dict)
    label: LabelProfile | None = None
    label_column: str | None = None
    unit_rows: dict[int, int] = field(default_factory=dict)
    unit_files: dict[int, tuple[str, int]] = field(default_factory=dict)  # unit -> (file, first row in file)

    @property
    def rows(self) -> int:
        return sum(self.unit_rows.values())

    def merge(self, o: "DatasetProfile") -> "DatasetProfile":
        for name, col in o.columns.items():
            mine = self.columns.get(name)
            if mine is None:
                self.columns[name] = col
            elif type(mine) is not type(col):
                from ..errors import UserError

                raise UserError(f"column {name!r} changes type between files "
                                f"({_kind_name(mine)} and {_kind_name(col)}); cast it in one place")
            else:
                mine.merge(col)
        if o.label is not None:
            self.label = o.label if self.label is None else self.label.merge(o.label)
        self.label_column = self.label_column or o.label_column
        self.unit_rows.update(o.unit_rows)
        self.unit_files.update(o.unit_files)
        return self

    def global_rows(self, packed) -> list[int]:
        """Packed row ids -> global row indices (units in order)."""
        starts, acc = {}, 0
        for u in sorted(self.unit_rows):
            starts[u] = acc
            acc += self.unit_rows[u]
        arr = np.asarray(packed, np.uint64)
        return [starts[int(p >> np.uint64(ROW_BITS))] + int(p & np.uint64((1 << ROW_BITS) - 1)) for p in arr]

    def where(self, packed) -> list[dict]:
        """Packed ids -> [{file, row}] (row within its file), for annotations and evidence."""
        out = []
        for p in np.asarray(packed, np.uint64):
            f, first = self.unit_files.get(int(p >> np.uint64(ROW_BITS)), ("?", 0))
            out.append({"file": f, "row": first + int(p & np.uint64((1 << ROW_BITS) - 1))})
        return out

    def to_bytes(self) -> bytes:
        d = {"columns": [[n, _kind_name(c), c.to_json()] for n, c in self.columns.items()],
             "label": self.label.to_json() if self.label else None, "label_column": self.label_column,
             "unit_rows": [[u, r] for u, r in self.unit_rows.items()],
             "unit_files": [[u, f, s] for u, (f, s) in self.unit_files.items()]}
        return json.dumps(d, allow_nan=True).encode()

    @classmethod
    def from_bytes(cls, b: bytes) -> "DatasetProfile":
        d = json.loads(b)
        return cls(columns={n: _KINDS[k].from_json(c) for n, k, c in d["columns"]},
                   label=LabelProfile.from_json(d["label"]) if d["label"] else None,
                   label_column=d["label_column"],
                   unit_rows={int(u): int(r) for u, r in d["unit_rows"]},
                   unit_files={int(u): (f, int(s)) for u, f, s in d["unit_files"]})


def _kind_name(p: Any) -> str:
    return {NumericProfile: "numeric", ListProfile: "list", OtherProfile: "other"}[type(p)]
