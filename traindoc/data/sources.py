"""Dataset files -> work units -> flattened PyArrow record batches.

A *unit* is the piece of a dataset one worker scans: a Parquet file or a run of its row
groups, a CSV/JSONL file, or a row range of a NumPy array. Units are ordered, so a row's
global index is the number of rows in the units before it plus its index in its unit.

Reading never executes code from the data (no pickle: ``np.load(allow_pickle=False)``).
"""

from __future__ import annotations

import glob
import json
import os
import stat
from dataclasses import dataclass
from typing import Iterator

import numpy as np
import pyarrow as pa

from ..errors import UserError

PARQUET = (".parquet", ".pq", ".parq")
CSV = (".csv", ".tsv")
JSONL = (".jsonl", ".ndjson", ".json")
NUMPY = (".npy", ".npz")
KNOWN = PARQUET + CSV + JSONL + NUMPY

# A unit is about this many rows: big enough that per-unit overhead (a process hop, a
# profile merge) is noise, small enough that two cores get several units each.
UNIT_ROWS = 1_000_000
# 64 Ki rows a batch: the per-batch NumPy temporaries (a list column's elements, hashes)
# stay ~100 MB per worker; halving it again costs more in per-call overhead than it saves.
BATCH_ROWS = 65_536
# CSV null tokens: "nan"/"NaN" are *not* nulls, they are the NaN the check must find.
CSV_NULLS = ["", "NA", "N/A", "NULL", "null", "None", "#N/A"]


@dataclass(frozen=True)
class Unit:
    path: str
    kind: str  # parquet | csv | jsonl | npy | npz
    row_groups: tuple[int, ...] | None = None
    start: int = 0  # first row of the unit inside its file
    stop: int | None = None  # npy row range end
    partition: tuple[tuple[str, str], ...] = ()  # hive key=value from the folder names

    def key(self) -> tuple:
        st = os.stat(self.path)
        return (os.path.abspath(self.path), st.st_size, st.st_mtime_ns, self.row_groups,
                self.start, self.stop, self.partition)


def _reason(exc: BaseException, limit: int = 300) -> str:
    """A library's error message as part of one line: pyarrow's can hold newlines and raw
    bytes from the corrupt file (a thrift type byte), which would break the one-line error
    and GitHub annotations. Non-printables dropped, whitespace runs made one space."""
    text = "".join(c if c.isprintable() or c.isspace() else " " for c in str(exc))
    text = " ".join(text.split())
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text or type(exc).__name__


def _kind(path: str) -> str:
    low = path.lower()
    for exts, kind in ((PARQUET, "parquet"), (CSV, "csv"), (JSONL, "jsonl")):
        if low.endswith(exts):
            return kind
    if low.endswith(".npy"):
        return "npy"
    if low.endswith(".npz"):
        return "npz"
    raise UserError(f"{path}: unknown file type (expected {', '.join(KNOWN)})")


def _files(path: str) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
    """Expand one PATH argument into (file, hive partition) pairs, sorted."""
    if any(ch in path for ch in "*?["):
        found = sorted(glob.glob(path, recursive=True))
        if not found:
            raise UserError(f"{path}: no file matches")
        return [p for f in found for p in _files(f)]
    if os.path.isdir(path):
        out = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")))
            rel = os.path.relpath(root, path)
            part = tuple(tuple(c.split("=", 1)) for c in rel.split(os.sep) if "=" in c)
            for f in sorted(files):
                full = os.path.join(root, f)
                if f.lower().endswith(KNOWN) and not f.startswith((".", "_")) and os.path.isfile(full):
                    out.append((full, part))  # isfile: FIFOs and sockets in a folder are skipped
        if not out:
            raise UserError(f"{path}: folder holds no {', '.join(KNOWN)} file")
        return out
    if not os.path.exists(path):
        raise UserError(f"{path}: no such file or folder")
    if not stat.S_ISREG(os.stat(path).st_mode):  # a FIFO would block the reader forever
        raise UserError(f"{path}: not a regular file (a FIFO, socket or device); data check reads files")
    return [(path, ())]


def resolve(paths: list[str], unit_rows: int | None = None) -> list[Unit]:
    """PATH arguments (files, folders, globs, hive-partitioned folders) -> ordered units."""
    unit_rows = unit_rows or UNIT_ROWS
    units: list[Unit] = []
    for arg in paths:
        for f, part in _files(arg):
            kind = _kind(f)
            if kind == "parquet":
                units.extend(_parquet_units(f, part, unit_rows))
            elif kind == "npy":
                n = _npy_rows(f)
                for s in range(0, max(n, 1), unit_rows):
                    units.append(Unit(f, kind, start=s, stop=min(n, s + unit_rows)))
            else:
                units.append(Unit(f, kind, partition=part))
    return units


def _parquet_units(f: str, part, unit_rows: int) -> list[Unit]:
    import pyarrow.parquet as pq

    try:
        md = pq.ParquetFile(f).metadata
    except Exception as exc:  # noqa: BLE001 - any undecodable file
        raise UserError(f"{f}: not a readable Parquet file ({_reason(exc)})") from None
    units, groups, rows, start = [], [], 0, 0
    for i in range(md.num_row_groups):
        groups.append(i)
        rows += md.row_group(i).num_rows
        if rows >= unit_rows:
            units.append(Unit(f, "parquet", tuple(groups), start, partition=part))
            start += rows
            groups, rows = [], 0
    if groups or not units:
        units.append(Unit(f, "parquet", tuple(groups), start, partition=part))
    return units


def _npy_rows(f: str) -> int:
    try:
        a = np.load(f, mmap_mode="r", allow_pickle=False)
    except Exception as exc:  # noqa: BLE001 - EOFError, ValueError, OSError...: any undecodable file
        raise UserError(f"{f}: not a readable .npy file ({_reason(exc)})") from None
    if not isinstance(a, np.ndarray):
        raise UserError(f"{f}: not a .npy array (an .npz archive under a .npy name?)")
    return int(a.shape[0]) if a.ndim else 1


def _np_columns(name: str, a: np.ndarray) -> dict[str, pa.Array]:
    """A NumPy array -> columns: 1-D is one column, 2-D one per feature (``name.j``),
    higher ranks one fixed-size list column per row."""
    if a.dtype.hasobject:
        raise UserError(f"{name}: object arrays are not supported (they would need pickle)")
    if a.ndim == 1:
        return {name: pa.array(a)}
    if a.ndim == 2:
        return {f"{name}.{j}": pa.array(np.ascontiguousarray(a[:, j])) for j in range(a.shape[1])}
    flat = np.ascontiguousarray(a.reshape(a.shape[0], -1))
    return {name: pa.FixedSizeListArray.from_arrays(pa.array(flat.ravel()), flat.shape[1])}


def flatten(batch: pa.RecordBatch | pa.Table) -> pa.RecordBatch:
    """Nested structs -> dotted names (``user.age``); lists stay lists; dictionaries decoded."""
    names, arrays = [], []

    def walk(prefix: str, arr: pa.Array) -> None:
        if isinstance(arr, pa.ChunkedArray):
            arr = arr.combine_chunks()
        if pa.types.is_dictionary(arr.type):
            arr = arr.dictionary_decode()
        if pa.types.is_struct(arr.type):
            for fld, child in zip(arr.type, arr.flatten()):
                walk(f"{prefix}.{fld.name}", child)
            return
        names.append(prefix)
        arrays.append(arr)

    for name, col in zip(batch.schema.names, batch.columns):
        walk(name, col)
    return pa.RecordBatch.from_arrays(arrays, names=names)


def read_unit(u: Unit, batch_rows: int = BATCH_ROWS) -> Iterator[pa.RecordBatch]:
    """Stream one unit as flattened record batches (hive partition values as columns)."""
    try:
        for b in _raw_batches(u, batch_rows):
            if u.partition and b.num_rows:
                for k, v in u.partition:
                    b = b.append_column(k, pa.array([v] * b.num_rows))
            yield flatten(b)
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever a decoder raises on a corrupt file
        # (Arrow errors, EOFError, zipfile.BadZipFile, UnicodeDecodeError...) is bad input:
        # one line naming the file and the decoder's reason, the exception's type included
        raise UserError(f"{u.path}: cannot read as {u.kind} ({_reason(exc)})") from None


def _raw_batches(u: Unit, batch_rows: int) -> Iterator[pa.RecordBatch]:
    if u.kind == "parquet":
        import pyarrow.parquet as pq

        # pre_buffer off: it holds whole row groups' bytes at once (~100 MB a worker
        # measured on 131 072-row groups) for no speed gain on a local disk
        # memory_map: the pages are decoded where the OS cache holds them, not first
        # copied out by pread (measured: a file's system time 0.2-0.3 s -> 0.07 s, cold)
        pf = pq.ParquetFile(u.path, pre_buffer=False, memory_map=True)
        if u.row_groups == ():
            return
        # One thread per unit: units already run in parallel, one per core; Arrow's own
        # pool on top of that only adds contention (measured: ~30 % more CPU per unit).
        yield from pf.iter_batches(batch_size=batch_rows, row_groups=list(u.row_groups or []),
                                   use_threads=False)
    elif u.kind == "csv":
        import pyarrow.csv as pcsv

        delim = "\t" if u.path.lower().endswith(".tsv") else ","
        reader = pcsv.open_csv(
            u.path,
            read_options=pcsv.ReadOptions(block_size=1 << 24),
            parse_options=pcsv.ParseOptions(delimiter=delim),
            convert_options=pcsv.ConvertOptions(null_values=CSV_NULLS, strings_can_be_null=True),
        )
        for b in reader:
            yield b
    elif u.kind == "jsonl":
        yield from _jsonl_batches(u.path, batch_rows)
    elif u.kind == "npy":
        a = np.load(u.path, mmap_mode="r", allow_pickle=False)
        if a.ndim == 0:
            a = a.reshape(1)
        stem = os.path.splitext(os.path.basename(u.path))[0]
        for s in range(u.start, u.stop or a.shape[0], batch_rows):
            chunk = np.asarray(a[s:min(s + batch_rows, u.stop or a.shape[0])])
            cols = _np_columns(stem, chunk)
            yield pa.RecordBatch.from_arrays(list(cols.values()), names=list(cols))
    elif u.kind == "npz":
        with np.load(u.path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
        lens = {a.shape[0] if a.ndim else 1 for a in arrays.values()}
        if len(lens) > 1:
            raise UserError(f"{u.path}: arrays have different lengths {sorted(lens)}; "
                            "an .npz is read as one table, one row per index")
        n = lens.pop() if lens else 0
        for s in range(0, n, batch_rows):
            cols: dict[str, pa.Array] = {}
            for k, a in arrays.items():
                cols.update(_np_columns(k, np.asarray(a[s:s + batch_rows])))
            yield pa.RecordBatch.from_arrays(list(cols.values()), names=list(cols))


MAX_DEPTH = 64  # JSON nesting: real records hold a few levels; Arrow crashes (SIGSEGV) near 100 000
_WS = b" \t\r\n"


def _prescan(path: str, limit: int = MAX_DEPTH) -> None:
    """What Arrow's JSON reader must never see, refused in one line before it does: a
    line that is not an object (pyarrow 26 crashes with SIGSEGV on a line ``null``) and
    nesting deeper than ``limit`` (SIGSEGV near 100 000 levels). One vectorised pass: the
    first byte after each newline, and a bracket count (an upper bound on the depth:
    brackets inside strings count too); only past the limit is the file tokenised with
    strings skipped."""
    depth = peak = 0
    line_no, at_start = 1, True
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 24):
            b = np.frombuffer(chunk, np.uint8)
            step = ((b == 0x7B) | (b == 0x5B)).astype(np.int32) - ((b == 0x7D) | (b == 0x5D))
            run = np.cumsum(step) + depth
            if len(run):
                peak, depth = max(peak, int(run.max())), int(run[-1])
            nl = np.flatnonzero(b == 0x0A)
            starts = np.concatenate([[0] if at_start else [], nl + 1]).astype(np.int64)
            starts = starts[starts < len(b)]
            odd = starts[b[starts] != 0x7B]  # lines that do not open with "{" at once: look closer
            for st in odd.tolist():
                j = st
                while j < len(b) and chunk[j] in _WS and chunk[j] != 0x0A:
                    j += 1
                if j < len(b) and chunk[j] not in (0x7B, 0x0A):
                    n = line_no + int(np.count_nonzero(b[:st] == 0x0A))
                    raise UserError(f"{path}:{n}: not a JSON object (JSON Lines: one object per line, "
                                    f"not an array, a bare value or pretty-printed JSON)")
            line_no += len(nl)
            at_start = bool(len(b)) and b[-1] == 0x0A
    if peak <= limit:
        return
    import re

    tok = re.compile(rb'"(?:\\.|[^"\\])*"|[\[\]{}]')
    with open(path, "rb") as fh:
        for i, line in enumerate(fh, 1):
            d = 0
            for m in tok.finditer(line):
                c = m.group()[:1]
                if c in (b"[", b"{"):
                    d += 1
                    if d > limit:
                        raise UserError(f"{path}:{i}: JSON nested more than {limit} levels deep; data check "
                                        f"reads records of columns and lists, not arbitrarily deep trees")
                elif c in (b"]", b"}"):
                    d -= 1


def _jsonl_batches(path: str, batch_rows: int) -> Iterator[pa.RecordBatch]:
    import pyarrow.json as pj

    _prescan(path)
    try:
        # Arrow's reader is fast and accepts NaN / Infinity tokens.
        table = pj.read_json(path, read_options=pj.ReadOptions(block_size=1 << 24))
    except pa.ArrowInvalid:
        # Fallback: Python's json also accepts NaN/Infinity/-Infinity and reports the line.
        rows = []
        with open(path, encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise UserError(f"{path}:{i}: not valid JSON ({exc.msg})") from None
                    except RecursionError:
                        raise UserError(f"{path}:{i}: JSON nested too deeply") from None
        table = pa.Table.from_pylist(rows)
    yield from table.to_batches(max_chunksize=batch_rows)
