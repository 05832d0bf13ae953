"""Read a run folder: ``open_run(path)`` gives series as NumPy arrays.

Works while the run is being written (WAL readers do not block the writer) and on a
run killed with ``kill -9`` (the WAL is replayed on open). Never executes anything
from the folder: it reads SQLite rows and JSON.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import UserError
from .schema import MARKER

_RANK_RE = re.compile(r"^rank(\d+)\.sqlite$")


@dataclass(frozen=True)
class Series:
    """One named series: ``steps`` (int64) and ``values`` (float64, NaN kept) of equal length."""

    name: str
    steps: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.steps)

    @property
    def empty(self) -> bool:
        return len(self.steps) == 0


def _json_or_none(text: str) -> Any:
    """An event's data: JSON written by the monitor; a damaged value reads as None."""
    try:
        return json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return None


class Run:
    """A recorded run. Series are per rank; ``rank=0`` is the default everywhere."""

    def __init__(self, folder: Path, files: dict[int, Path]) -> None:
        self.folder = folder
        self._files = files
        self._cache: dict[int, dict[str, Series]] = {}
        self._meta: dict[int, dict[str, Any]] = {}

    def __repr__(self) -> str:
        return f"Run({str(self.folder)!r}, ranks={self.ranks})"

    @property
    def ranks(self) -> list[int]:
        return sorted(self._files)

    def _connect(self, rank: int) -> sqlite3.Connection:
        path = self._files[rank]
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError:
            # A read-only open cannot replay a WAL whose -shm is missing; a normal open can.
            try:
                conn = sqlite3.connect(path)
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            except sqlite3.DatabaseError as exc:
                raise UserError(f"{path}: not a readable traindoc store ({exc})") from None
        return conn

    def _query(self, rank: int, sql: str, args: tuple = ()) -> list[tuple]:
        conn = self._connect(rank)
        try:
            return conn.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as exc:
            raise UserError(f"{self._files[rank]}: corrupt traindoc store ({exc})") from None
        finally:
            conn.close()

    def meta_for(self, rank: int = 0) -> dict[str, Any]:
        if rank not in self._meta:
            rows = self._query(rank, "SELECT key, value FROM meta")
            try:
                self._meta[rank] = {k: json.loads(v) for k, v in rows}
            except (ValueError, TypeError, RecursionError) as exc:
                raise UserError(f"{self._files[rank]}: corrupt traindoc store (meta: {type(exc).__name__})") from None
        return self._meta[rank]

    @property
    def meta(self) -> dict[str, Any]:
        return self.meta_for(self.ranks[0])

    def state(self, rank: int | None = None) -> dict[str, Any]:
        """How the run ended: ``status`` as recorded (``finished``, ``exited``, ``crashed``,
        ``interrupted``), or ``unfinished`` when it says ``running`` but no process holds
        its lock any more (killed, out of memory, a full disk: the store was never
        closed), ``running`` while one does; ``last_step`` recorded; ``note``: one line
        for the reader, empty for a finished run."""
        import fcntl

        rank = self.ranks[0] if rank is None else rank
        m = self.meta_for(rank)
        status = m.get("status") or "running"
        rows = self._query(rank, "SELECT MAX(step) FROM points")
        last = rows[0][0] if rows and rows[0][0] is not None else None
        at = f" after step {last}" if last is not None else " before any step was recorded"
        note = ""
        if status == "running":
            lock = self.folder / f".rank{rank}.lock"
            try:
                fd = os.open(lock, os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                note = f"the run did not finish{at}: still running, or killed (no lock to tell which)"
            else:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    status = "unfinished"
                    note = (f"the run did not finish: its process ended{at} without closing the store "
                            f"(killed, out of memory, or the disk filled)")
                except OSError:
                    note = f"the run is still being recorded ({'step ' + str(last) if last is not None else 'no step yet'})"
                finally:
                    os.close(fd)
        elif status == "crashed":
            exc = [e for e in self.events(rank) if e["kind"] == "exception"]
            note = f"the script crashed{at}" + (f": {exc[-1]['message']}" if exc else "")
        elif status == "stopped":
            ev = [e for e in self.events(rank) if e["kind"] == "stopped"]
            note = ev[-1]["message"] + " (--stop-on)" if ev else f"traindoc stopped the run{at} (--stop-on)"
        elif status == "interrupted":
            note = f"the run was interrupted (Ctrl-C){at}"
        elif status == "exited":
            note = f"the script exited with code {m.get('exit_code')}{at}"
        return {"status": status, "last_step": last, "note": note}

    def _load(self, rank: int) -> dict[str, Series]:
        if rank not in self._cache:
            names = dict(self._query(rank, "SELECT id, name FROM series"))
            rows = self._query(rank, "SELECT series, step, value FROM points ORDER BY series, step")
            out: dict[str, Series] = {}
            if rows:
                arr = np.array([(s, st, np.nan if v is None else v) for s, st, v in rows], dtype=float)
                sid = arr[:, 0].astype(np.int64)
                cuts = np.flatnonzero(np.diff(sid)) + 1
                for chunk in np.split(np.arange(len(arr)), cuts):
                    s = int(sid[chunk[0]])
                    out[names[s]] = Series(names[s], arr[chunk, 1].astype(np.int64), arr[chunk, 2].copy())
            self._cache[rank] = out
        return self._cache[rank]

    def names(self, rank: int = 0) -> list[str]:
        return sorted(self._load(rank))

    def has(self, name: str, rank: int = 0) -> bool:
        return name in self._load(rank)

    def series(self, name: str, rank: int = 0) -> Series:
        """The series ``name`` on ``rank``; an empty series when it was never recorded."""
        s = self._load(rank).get(name)
        if s is None:
            return Series(name, np.zeros(0, np.int64), np.zeros(0))
        return s

    def matching(self, prefix: str, rank: int = 0) -> dict[str, Series]:
        """All series whose name starts with ``prefix``, keyed by the rest of the name."""
        return {k[len(prefix):]: v for k, v in self._load(rank).items() if k.startswith(prefix)}

    def events(self, rank: int | None = None) -> list[dict[str, Any]]:
        out = []
        for r in self.ranks if rank is None else [rank]:
            for step, wall, kind, msg, data in self._query(
                r, "SELECT step, wall, kind, message, data FROM events ORDER BY rowid"
            ):
                out.append(
                    {"rank": r, "step": step, "wall": wall, "kind": kind, "message": msg,
                     "data": None if data is None else _json_or_none(data)}
                )
        return out

    def batch_indices(self, step: int, rank: int = 0) -> np.ndarray | None:
        """Dataset indices of the samples that made up ``step`` (all micro-batches)."""
        rows = self._query(rank, "SELECT indices FROM batches WHERE step=? ORDER BY rowid", (step,))
        if not rows:
            return None
        return np.concatenate([np.frombuffer(r[0], dtype="<i8") for r in rows])


def is_run_folder(path: Path) -> bool:
    return path.is_dir() and ((path / MARKER).exists() or any(_RANK_RE.match(p.name) for p in path.iterdir()))


def open_run(path: str | Path) -> Run:
    """Open a traindoc run folder. Raises ``UserError`` (exit 2) for anything else."""
    folder = Path(path)
    if not folder.exists():
        raise UserError(f"{folder}: no such run folder")
    if not folder.is_dir():
        raise UserError(f"{folder}: not a traindoc run folder (it is a file)")
    files = {int(m.group(1)): p for p in folder.iterdir() if (m := _RANK_RE.match(p.name))}
    if not files:
        raise UserError(f"{folder}: not a traindoc run folder (no rank*.sqlite inside)")
    for rank, p in files.items():
        with open(p, "rb") as fh:
            head = fh.read(16)
        if head and not head.startswith(b"SQLite format 3"):
            raise UserError(f"{p}: corrupt traindoc store (not an SQLite file)")
    run = Run(folder, files)
    for rank in files:
        run._query(rank, "SELECT count(*) FROM meta")  # validates the schema now
    return run
