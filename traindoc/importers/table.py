"""Plain tables of step metrics: CSV (Lightning's ``metrics.csv`` is one) and JSONL.

One row per logging event; a step column (``step``, ``global_step``, ``iteration``, ...)
says when. Rows may be sparse: Lightning writes train and validation metrics in separate
rows of one header, so an empty cell (or a JSON null / missing key) is "not logged
here", never 0. ``nan``, ``inf`` and ``-inf`` are kept (they are what the rules look
for). A column holding any other text (a phase name, a path) or booleans is left out
and listed as ignored. The same step logged twice (a resumed run) keeps the later value.

Cost: the standard library's ``csv``/``json`` split the text, NumPy converts whole
columns at once (bench/importers.py has the numbers). Nothing is executed.
"""

from __future__ import annotations

import csv
import gc
import io
import json
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UserError

STEP_COLUMNS = ("step", "global_step", "iteration", "iter", "it", "trainer/global_step", "_step", "steps")
Columns = dict[str, tuple[np.ndarray, np.ndarray]]   # name -> (steps, values) in log order


def _step_column(columns: list[str], where: str) -> str:
    lower = {c.strip().lower(): c for c in columns}
    for name in STEP_COLUMNS:
        if name in lower:
            return lower[name]
    shown = ", ".join(columns[:12]) + (" ..." if len(columns) > 12 else "")
    raise UserError(f"{where}: no step column (looked for {', '.join(STEP_COLUMNS[:4])}, ...); columns: {shown or 'none'}")


def _floats(cells: list[Any]) -> np.ndarray | None:
    """Cells (str, int, float) as float64 in C; None when one is not a number."""
    try:
        return np.array(cells, dtype=np.float64)
    except (ValueError, TypeError, OverflowError):
        return None


# Steps are parsed as float64 (whole columns at once, in C), which holds whole numbers
# exactly only up to 2**53; no run has that many steps, and a larger one would be
# rounded onto its neighbour (and past 2**63 overflow int64), so it is refused.
MAX_STEP = 2**53


def _steps(cells: list[Any], line_of, path: Path) -> np.ndarray:
    """Step cells as int64; a cell that is not a whole number in [0, 2**53] is an error
    at its line. A JSON boolean is not a step (NumPy would read ``true`` as 1)."""
    flags = [i for i, c in enumerate(cells) if c is True or c is False]
    if flags:
        i = flags[0]
        raise UserError(f"{path}:{line_of(i)}: step {json.dumps(cells[i])} is a boolean, not a step number")
    raw = _floats(cells)
    if raw is None:   # find the first cell that is not a number
        i = next(i for i, c in enumerate(cells) if _floats([c]) is None)
        raise UserError(f"{path}:{line_of(i)}: step {cells[i]!r} is not a whole number >= 0")
    ok = np.isfinite(raw) & (raw >= 0) & (raw == np.round(raw))
    if not ok.all():
        i = int(np.argmin(ok))
        raise UserError(f"{path}:{line_of(i)}: step {cells[i]!r} is not a whole number >= 0")
    if (raw > MAX_STEP).any():
        i = int(np.argmax(raw > MAX_STEP))
        raise UserError(f"{path}:{line_of(i)}: step {cells[i]!r} is too large to be a step (at most 2**53)")
    return raw.astype(np.int64)


def _assemble(step_cells: list[Any], cols: dict[str, tuple[Any, list[Any]]], lines: Any,
              path: Path, step_col: str) -> tuple[Columns, list[str]]:
    """Per-column (row indices or None for all rows, cells) -> (steps, values) arrays;
    non-numeric columns out. ``lines[i]``: the file line of row i, for messages.
    A row with a metric needs a valid step; a row with none is skipped (Lightning's
    epoch-only rows have a step anyway)."""
    if not lines:
        raise UserError(f"{path}: no rows")
    out: Columns = {}
    ignored: list[str] = []
    steps_all: np.ndarray | None = None
    for name, (rows, cells) in cols.items():
        if not cells:
            continue
        vals = _floats(cells)
        if vals is None:
            ignored.append(name)
            continue
        if steps_all is None:   # once, for the first numeric column
            steps_all = np.full(len(step_cells), -1, np.int64)
            have = [i for i, c in enumerate(step_cells) if c not in ("", None)]
            if have:
                steps_all[have] = _steps([step_cells[i] for i in have], lambda k: lines[have[k]], path)
        idx = np.arange(len(step_cells)) if rows is None else np.asarray(rows, np.int64)
        st = steps_all[idx]
        if (st < 0).any():
            i = int(idx[np.argmax(st < 0)])
            raise UserError(f"{path}:{lines[i]}: a row with metrics but no {step_col!r}")
        out[name] = (st, vals)
    if not out:
        if not ignored:
            raise UserError(f"{path}: no numeric metric besides the step column {step_col!r}")
        # Every metric is text: usually numbers this reader cannot parse (decimal commas,
        # "1.234,5", units) or a delimiter it did not split on; name what was dropped.
        shown = ", ".join(f"{n!r} (e.g. {str(cols[n][1][0])!r})" for n in sorted(ignored)[:4]) + (" ..." if len(ignored) > 4 else "")
        raise UserError(f"{path}: no numeric metric besides the step column {step_col!r}; left out as text: {shown}"
                        " (decimal commas or an unusual delimiter? write numbers with a '.' decimal point,"
                        " one per cell, split by ',', ';' or tab)")
    return out, sorted(ignored)


def _line_of(text: str, dialect, index: int) -> int:
    """The file line of data row ``index`` (0-based, after the header), for messages only:
    reading keeps no per-row line numbers."""
    reader = csv.reader(io.StringIO(text), dialect=dialect)
    next(reader, None)
    for i, row in enumerate(r for r in reader if r):
        if i == index:
            return reader.line_num
    return reader.line_num


class _Lines:
    """Row index -> line number, computed only when a message needs one."""

    def __init__(self, fn, n: int) -> None:
        self.fn, self.n = fn, n

    def __getitem__(self, i: int) -> int:
        return self.fn(i)

    def __len__(self) -> int:
        return self.n


def read_csv(path: Path) -> tuple[Columns, list[str]]:
    text = _text(path)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.reader(io.StringIO(text), dialect=dialect)
    # Millions of small lists: the cyclic GC would rescan them over and over (3x the parse
    # time); they hold no cycles, so it pauses while they are built.
    gc_was = gc.isenabled()
    gc.disable()
    try:
        header = next(reader, None)
        if not header:
            raise UserError(f"{path}: empty CSV (no header)")
        rows = [r for r in reader if r]
        columns = list(zip(*rows)) if rows else [()] * len(header)
    except csv.Error as exc:
        raise UserError(f"{path}:{reader.line_num}: not valid CSV ({exc})") from None
    finally:
        if gc_was:
            gc.enable()
    if len(set(header)) != len(header):
        raise UserError(f"{path}: the header repeats a column name")
    step_col = _step_column(header, str(path))
    lines = _Lines(lambda i: _line_of(text, dialect, i), len(rows))
    width = len(header)
    if len(set(map(len, rows))) > 1 or (rows and len(rows[0]) != width):
        i = next(i for i, r in enumerate(rows) if len(r) != width)
        raise UserError(f"{path}:{lines[i]}: {len(rows[i])} cells, the header has {width}")
    cols: dict[str, tuple[Any, list[Any]]] = {}
    si = header.index(step_col)
    for j, name in enumerate(header):
        if j == si:
            continue
        col = columns[j]
        if all(col):   # dense: every row logged it
            cols[name] = (None, list(col))
        else:          # sparse: an empty cell is "not logged in this row"
            keep = [i for i, c in enumerate(col) if c.strip()]
            cols[name] = (keep, [col[i] for i in keep])
    return _assemble(list(columns[si]), cols, lines, path, step_col)


def _flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"train": {"loss": 1}} -> {"train/loss": 1}: nested logs keep their path."""
    out: dict[str, Any] = {}
    for k, v in obj.items():
        if isinstance(v, dict):
            out.update(_flatten(v, f"{prefix}{k}/"))
        elif not isinstance(v, (list, tuple)):
            out[f"{prefix}{k}"] = v
    return out


def read_jsonl(path: Path) -> tuple[Columns, list[str]]:
    text = _text(path)
    records, lines = [], []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"{path}:{i}: not JSON ({exc.msg})") from None
        except RecursionError:
            raise UserError(f"{path}:{i}: JSON nested too deeply") from None
        if not isinstance(obj, dict):
            raise UserError(f"{path}:{i}: expected one JSON object per line, got {type(obj).__name__}")
        if any(isinstance(v, dict) for v in obj.values()):
            obj = _flatten(obj)
        records.append(obj)
        lines.append(i)
    if not records:
        raise UserError(f"{path}: no rows")
    step_col = _step_column(list(dict.fromkeys(k for r in records for k in r)), str(path))
    cols: dict[str, tuple[list[int], list[Any]]] = {}
    for r, rec in enumerate(records):
        for k, v in rec.items():
            if v is None or k == step_col or isinstance(v, (list, tuple)):
                continue
            c = cols.get(k)
            if c is None:
                c = cols[k] = ([], [])
            c[0].append(r)
            c[1].append("bool" if v is True or v is False else v)   # not a metric: the column is left out
    return _assemble([rec.get(step_col) for rec in records], cols, lines, path, step_col)


def _text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if b"\0" in data[:8192]:
        raise UserError(f"{path}: a binary file, not a text table")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(f"{path}: not UTF-8 text (byte {exc.start})") from None
