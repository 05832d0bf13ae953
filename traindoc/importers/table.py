"""Plain tables of step metrics: CSV (Lightning's ``metrics.csv`` is one) and JSONL.

One row per logging event; a step column (``step``, ``global_step``, ``iteration``, ...)
says when. Rows may be sparse: Lightning writes train and validation metrics in separate
rows of one header, so an empty cell is "not logged here", never 0. ``nan``, ``inf``
and ``-inf`` are kept (they are what the rules look for). A column with any other text
(a phase name, a file path) is left out and listed as ignored. The same step logged twice
(a resumed run) keeps the later value.

Cost: the standard library's ``csv``/``json``, about 1 s per million cells; nothing is
executed, nothing but numbers is kept.
"""

from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path
from typing import Any, Iterable, Iterator

from ..errors import UserError

STEP_COLUMNS = ("step", "global_step", "iteration", "iter", "it", "trainer/global_step", "_step", "steps")
_NUMBER_WORDS = {"nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity"}


def _number(cell: Any) -> float | None:
    """A cell as a float; None when empty; raises ValueError for other text."""
    if cell is None:
        return None
    if isinstance(cell, bool):
        raise ValueError("boolean")
    if isinstance(cell, (int, float)):
        return float(cell)
    text = str(cell).strip()
    if not text:
        return None
    if text.lower() in _NUMBER_WORDS or text[0] in "+-.0123456789":
        return float(text)
    raise ValueError(text)


def _step_column(columns: Iterable[str], where: str) -> str:
    cols = list(columns)
    lower = {c.strip().lower(): c for c in cols}
    for name in STEP_COLUMNS:
        if name in lower:
            return lower[name]
    shown = ", ".join(cols[:12]) + (" ..." if len(cols) > 12 else "")
    raise UserError(f"{where}: no step column (looked for {', '.join(STEP_COLUMNS[:4])}, ...); columns: {shown or 'none'}")


def _step(cell: Any, where: str) -> int:
    try:
        v = _number(cell)
    except (ValueError, OverflowError):
        v = None
    if v is None or not math.isfinite(v) or v != int(v) or v < 0:
        raise UserError(f"{where}: step {cell!r} is not a whole number >= 0")
    return int(v)


def collect(rows: Iterator[tuple[int, dict[str, Any]]], step_col: str, path: Path
            ) -> tuple[dict[str, dict[int, float]], list[str]]:
    """(name -> {step: value}, ignored non-numeric columns) from (line number, row) pairs."""
    points: dict[str, dict[int, float]] = {}
    ignored: set[str] = set()
    n = 0
    for line, row in rows:
        n += 1
        step = None
        for key, cell in row.items():
            if key == step_col or key is None or key in ignored:
                continue
            try:
                v = _number(cell)
            except (ValueError, OverflowError, TypeError):
                ignored.add(key)
                points.pop(key, None)
                continue
            if v is None:
                continue
            if step is None:
                step = _step(row.get(step_col), f"{path}:{line}")
            points.setdefault(str(key), {})[step] = v
        if step is None and row.get(step_col) not in (None, ""):
            _step(row.get(step_col), f"{path}:{line}")   # a bad step is an error even in a row with no metric
    if n == 0:
        raise UserError(f"{path}: no rows")
    if not any(points.values()):
        raise UserError(f"{path}: no numeric metric besides the step column {step_col!r}")
    return points, sorted(ignored)


def read_csv(path: Path) -> tuple[dict[str, dict[int, float]], list[str]]:
    text = _text(path)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    reader = csv.DictReader(io.StringIO(text), dialect=dialect)
    if not reader.fieldnames:
        raise UserError(f"{path}: empty CSV (no header)")
    if len(set(reader.fieldnames)) != len(reader.fieldnames):
        raise UserError(f"{path}: the header repeats a column name")
    step_col = _step_column(reader.fieldnames, str(path))

    def rows():
        try:
            for row in reader:
                if None in row:
                    raise UserError(f"{path}:{reader.line_num}: more cells than header columns")
                yield reader.line_num, row
        except csv.Error as exc:
            raise UserError(f"{path}:{reader.line_num}: not valid CSV ({exc})") from None

    return collect(rows(), step_col, path)


def _flatten(obj: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"train": {"loss": 1}} -> {"train/loss": 1}: nested logs (wandb-style) keep their path."""
    out: dict[str, Any] = {}
    for k, v in obj.items():
        if isinstance(v, dict):
            out.update(_flatten(v, f"{prefix}{k}/"))
        elif not isinstance(v, (list, tuple)):
            out[f"{prefix}{k}"] = v
    return out


def read_jsonl(path: Path) -> tuple[dict[str, dict[int, float]], list[str]]:
    text = _text(path)
    records: list[tuple[int, dict[str, Any]]] = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"{path}:{i}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise UserError(f"{path}:{i}: expected one JSON object per line, got {type(obj).__name__}")
        records.append((i, _flatten(obj)))
    if not records:
        raise UserError(f"{path}: no rows")
    step_col = _step_column(dict.fromkeys(k for _, r in records for k in r), str(path))
    return collect(iter(records), step_col, path)


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
