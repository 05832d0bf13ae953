"""The map step: one unit -> (partial profile bytes, row hashes).

Pure function of the unit's bytes and the options, so any executor (process pool, Dask,
Ray, Spark's ``mapInArrow``) runs it and the merge gives the same answer.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..fileio import atomic_path
from .hashing import row_hashes, value_hash
from .profile import K, DatasetProfile, LabelProfile, ListProfile, NumericProfile, OtherProfile, pack
from .sources import BATCH_ROWS, Unit, read_unit

HASH_SCHEMA = pa.schema([("h1", pa.uint64()), ("h2", pa.uint64()), ("lh", pa.uint64()), ("rid", pa.uint64())])


@dataclass(frozen=True)
class ScanOptions:
    label: str | None = None
    exclude: tuple[str, ...] = ()
    hashes: bool = True  # row hashes for duplicates / conflicts / leakage
    batch_rows: int = BATCH_ROWS

    def key(self) -> tuple:
        return (self.label, tuple(sorted(self.exclude)), self.hashes, 3)  # 3: profile format (null rows)


def _is_numeric(t: pa.DataType) -> bool:
    return pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t) or pa.types.is_decimal(t)


def _is_list(t: pa.DataType) -> bool:
    return pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t)


def numeric_values(arr: pa.Array) -> tuple[np.ndarray, np.ndarray | None, bool]:
    """(float64 values, validity or None, integer?) of a numeric Arrow array."""
    t = arr.type
    integer = pa.types.is_integer(t) or pa.types.is_boolean(t)
    if pa.types.is_boolean(t):
        arr = arr.cast(pa.uint8())
    elif pa.types.is_decimal(t):
        arr = arr.cast(pa.float64())
    valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else None
    vals = arr.to_numpy(zero_copy_only=False)
    if vals.dtype != np.float64:
        vals = vals.astype(np.float64)
    return vals, valid, integer


def _profile_column(prof: DatasetProfile, name: str, arr: pa.Array, rids: np.ndarray) -> None:
    t = arr.type
    col = prof.columns.get(name)
    if _is_numeric(t):
        col = col if col is not None else prof.columns.setdefault(name, NumericProfile())
        if isinstance(col, NumericProfile):
            col.update(*_args(arr, rids))
            return
    elif _is_list(t):
        col = col if col is not None else prof.columns.setdefault(name, ListProfile())
        if isinstance(col, ListProfile):
            lens = pc.list_value_length(arr).fill_null(0).to_numpy().astype(np.int64)
            valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else None
            col.update_lengths(lens, rids, valid)
            chain, values = [arr], arr.flatten()
            while _is_list(values.type):  # nested lists: profile the innermost numbers
                chain.append(values)
                values = values.flatten()
            if _is_numeric(values.type):
                if col.values is None:
                    col.values = NumericProfile()
                if pa.types.is_integer(values.type) and not values.null_count:
                    col.values.update_ints(values.to_numpy())  # ids: no float copy
                    return
                vals, valid, integer = numeric_values(values)
                # Integer elements (ids) can hold no NaN/Inf and no check reads their
                # quantiles: counts and range only, and no element -> row map (a gather
                # over every element), which keeps sequences cheap.
                # (A null element makes even integer lists take the gather: its row is reported.)
                erids = None
                if not integer or valid is not None:
                    parents = pc.list_parent_indices(chain[-1]).to_numpy()
                    for outer in reversed(chain[:-1]):
                        parents = pc.list_parent_indices(outer).to_numpy()[parents]
                    erids = rids[parents]
                col.values.update(vals, erids, valid, integer, light=integer)
            return
    else:
        col = col if col is not None else prof.columns.setdefault(name, OtherProfile(type=str(t)))
        if isinstance(col, OtherProfile):
            col.n += len(arr)
            col.nulls += arr.null_count
            if arr.null_count and len(col.null_rows) < K:  # a string label's nulls are reported
                nidx = np.flatnonzero(~arr.is_valid().to_numpy(zero_copy_only=False))[:K]
                col.null_rows = np.unique(np.concatenate([col.null_rows, rids[nidx]]))[:K]
            return
    from ..errors import UserError

    raise UserError(f"column {name!r} changes type inside one file (now {t})")


def _args(arr: pa.Array, rids: np.ndarray):
    vals, valid, integer = numeric_values(arr)
    return vals, rids, valid, integer


def scan_unit(unit_id: int, unit: Unit, opts: ScanOptions, hash_path: str | None = None) -> tuple[bytes, object]:
    """Profile one unit. Returns (profile bytes, hashes) where hashes is ``hash_path``,
    a Parquet file written there (local executors), or Arrow IPC bytes (remote ones,
    ``hash_path`` None), or None when ``opts.hashes`` is off."""
    prof = DatasetProfile(label_column=opts.label)
    if opts.label:
        prof.label = LabelProfile()
    n = 0
    hash_batches = []
    for batch in read_unit(unit, opts.batch_rows):
        if opts.exclude:
            keep = [c for c in batch.schema.names if c not in opts.exclude]
            batch = batch.select(keep)
        rids = pack(unit_id, np.arange(n, n + batch.num_rows, dtype=np.uint64))
        for name, arr in zip(batch.schema.names, batch.columns):
            _profile_column(prof, name, arr, rids)
        has_label = opts.label is not None and opts.label in batch.schema.names
        if has_label:
            prof.label.update(batch.column(opts.label))
        if opts.hashes:
            feats = [c for c in batch.schema.names if c != opts.label]
            h1, h2 = row_hashes(batch, feats)
            lh = value_hash(batch.column(opts.label)) if has_label else np.zeros(batch.num_rows, np.uint64)
            hash_batches.append(pa.RecordBatch.from_arrays(
                [pa.array(h1), pa.array(h2), pa.array(lh), pa.array(rids)], schema=HASH_SCHEMA))
        n += batch.num_rows
    prof.unit_rows[unit_id] = n
    prof.unit_files[unit_id] = (unit.path, unit.start)
    hashes: object = None
    if opts.hashes:
        table = pa.Table.from_batches(hash_batches, schema=HASH_SCHEMA)
        if hash_path is not None:
            import pyarrow.parquet as pq

            # atomic: a killed scan never leaves half a file; hashes neither compress nor
            # dictionary-encode (trying to halves the write)
            with atomic_path(hash_path) as tmp:
                pq.write_table(table, tmp, compression="none", use_dictionary=False)
            hashes = hash_path
        else:
            sink = io.BytesIO()
            with pa.ipc.new_stream(sink, HASH_SCHEMA) as w:
                w.write_table(table)
            hashes = sink.getvalue()
    return prof.to_bytes(), hashes
