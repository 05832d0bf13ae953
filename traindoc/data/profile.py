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

Here: the list, other, label and dataset profiles; the numeric column's is in
:mod:`.numeric`, the row ids in :mod:`.rowids` (``K``, ``pack`` and ``NumericProfile`` are
imported from here too).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .numeric import NumericProfile, keep_extremes
from .rowids import ROW_BITS, K, first_k, pack  # noqa: F401 - pack: re-exported with the profiles

MAX_CLASSES = 10_000  # beyond this many distinct labels it is regression: counts dropped


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
                self.null_rows = first_k(self.null_rows, rids[np.flatnonzero(~valid)[:K]])
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
        top = keep_extremes(lens.astype(float), rids, K, True)
        self.longest = NumericProfile._merge_extreme(self.longest, top, True)

    def merge(self, o: "ListProfile") -> "ListProfile":
        self.n += o.n
        self.nulls += o.nulls
        for a, b in o.lengths.items():
            self.lengths[a] = self.lengths.get(a, 0) + b
        self.longest = NumericProfile._merge_extreme(self.longest, o.longest, True)
        self.null_rows = first_k(self.null_rows, o.null_rows)
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
        self.null_rows = first_k(self.null_rows, o.null_rows)
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
