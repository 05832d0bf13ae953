"""Background writer: the training thread only appends to a queue; a daemon thread
commits everything queued every ``flush_interval`` seconds in one transaction.

Cost on the training thread: one ``queue.put`` per record batch (a few microseconds).
A failed write (disk full, read-only folder, file size limit) stops recording, never
training: the writer drops what it has, remembers the reason and reports it once.
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .schema import DDL, FORMAT, MARKER, rank_file

def _dumps(value: Any) -> str:
    from ..findings import jsonable

    return json.dumps(jsonable(value), default=str)


def claim(folder: str | os.PathLike, rank: int) -> int:
    """Make ``folder`` this process's run folder for ``rank``, or refuse in one line
    (:class:`~traindoc.errors.UserError`): a file in the way, a folder that cannot be
    written, another process recording the same rank there, or a rank that is already
    recorded there (two runs never merge into one store). Returns the file descriptor of
    the lock (an ``flock`` held until the process closes it or ends)."""
    import fcntl

    from ..errors import UserError

    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{folder}: is a file, not a run folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{folder}: cannot create the run folder ({exc.strerror or exc})") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UserError(f"{folder}: the run folder is not writable")
    try:
        fd = os.open(folder / f".rank{rank}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise UserError(f"{folder}: cannot create its lock file ({exc.strerror or exc})") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise UserError(f"{folder}: another traindoc process is recording rank {rank} there") from None
    if (folder / rank_file(rank)).exists():
        os.close(fd)
        raise UserError(f"{folder}: already holds a recorded run (rank {rank}); runs never merge: choose "
                        f"another --out, or remove that folder") from None
    return fd


def wait_for_ranks(folder: str | os.PathLike, world_size: int, timeout: float) -> None:
    """Wait (up to ``timeout`` s) until no process holds another rank's lock: their stores
    are complete. A rank that never started has no lock file and is not waited for."""
    import fcntl
    import time

    deadline = time.monotonic() + timeout
    for r in range(1, world_size):
        p = Path(folder) / f".rank{r}.lock"
        while True:
            try:
                fd = os.open(p, os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                break
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError:
                if time.monotonic() > deadline:
                    return
                time.sleep(0.1)
            finally:
                os.close(fd)


def next_free(folder: str | os.PathLike, rank: int) -> Path:
    """``folder-2``, ``folder-3``, ...: the first sibling where ``rank`` is not recorded."""
    folder = Path(folder)
    n = 2
    while (folder.with_name(f"{folder.name}-{n}") / rank_file(rank)).exists():
        n += 1
    return folder.with_name(f"{folder.name}-{n}")


def write_marker(folder: Path, data: dict[str, Any]) -> None:
    """Write the run marker atomically (write a temp file, then rename)."""
    from ..fileio import atomic_write

    atomic_write(folder / MARKER, json.dumps({"format": FORMAT, **data}, indent=1))


class RunWriter:
    def __init__(
        self,
        folder: str | os.PathLike,
        rank: int = 0,
        flush_interval: float = 0.25,
        on_error: Callable[[str], None] | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.rank = rank
        self.path = self.folder / rank_file(rank)
        self.flush_interval = flush_interval
        self.failed: str | None = None
        self._on_error = on_error
        self._q: queue.SimpleQueue = queue.SimpleQueue()
        self._wake = threading.Event()
        self._progress = 0  # bumped by the writer thread as it works: close() waits while it moves
        self._series: dict[str, int] = {}
        self.folder.mkdir(parents=True, exist_ok=True)
        # Open in the caller so that a bad folder fails here, loudly, before training.
        conn = sqlite3.connect(self.path)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.executescript(DDL)
        conn.commit()
        conn.close()
        self._thread = threading.Thread(target=self._loop, name="traindoc-writer", daemon=True)
        self._thread.start()

    # -- the training thread's side: cheap, never raises --------------------------------
    def scalars(self, step: int, values: dict[str, float]) -> None:
        self._q.put(("p", step, values))

    def meta(self, key: str, value: Any) -> None:
        self._q.put(("m", key, value))

    def event(self, step: int | None, kind: str, message: str, data: Any = None) -> None:
        self._q.put(("e", step, time.time(), kind, message, data))

    def indices(self, step: int, idx: np.ndarray) -> None:
        self._q.put(("b", step, np.ascontiguousarray(idx, dtype="<i8").tobytes()))

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until everything queued so far is committed, so that a reader of the store
        sees it (a diagnosis in the middle of the run: W&B's finish, see writeback); False
        when that took longer than ``timeout``. Up to one flush interval of waiting."""
        done = threading.Event()
        self._q.put(("f", done))
        return done.wait(timeout)

    def close(self, timeout: float = 10.0, cap: float = 300.0) -> None:
        """Wait until everything queued is committed. The writer may need longer than
        ``timeout`` in all (a long run's last seconds on a loaded machine or a slow disk:
        returning early lost the end of the run, its status included), so the wait goes
        on while it makes progress, and ends ``timeout`` seconds after progress stops, or
        at ``cap`` (a hung disk must not hang the script's exit forever)."""
        self._wake.set()
        t0 = time.monotonic()
        seen = -1
        while True:
            self._thread.join(timeout)
            if not self._thread.is_alive() or time.monotonic() - t0 >= cap:
                return
            mark = self._progress
            if mark == seen:
                return  # no batch committed for `timeout` seconds
            seen = mark

    # -- the writer thread --------------------------------------------------------------
    def _loop(self) -> None:
        conn = None
        try:
            conn = sqlite3.connect(self.path)
            # NORMAL is durable against a crash of this process in WAL mode (not a power cut).
            conn.execute("PRAGMA synchronous=NORMAL")
            for name, sid in conn.execute("SELECT name, id FROM series"):
                self._series[name] = sid
        except Exception as exc:  # noqa: BLE001 - never reaches training
            self._fail(exc)
        stop = False
        while not stop:
            # Batch: one transaction per interval, however many steps were queued.
            stop = self._wake.wait(self.flush_interval)
            batch = []
            try:
                while True:
                    batch.append(self._q.get_nowait())
            except queue.Empty:
                pass
            if batch and self.failed is None and conn is not None:
                try:
                    self._write(conn, batch)
                except Exception as exc:  # noqa: BLE001
                    self._fail(exc)
            for item in batch:
                if item[0] == "f":
                    item[1].set()  # flush(): what was queued before it is committed (or failed)
            self._progress += 1  # close() waits while this moves
        if conn is not None:
            try:
                conn.execute("CREATE INDEX IF NOT EXISTS points_by_series ON points(series, step)")
                conn.commit()
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except Exception:  # noqa: BLE001 - a full disk may refuse the index; data is there
                pass
            conn.close()

    def _sid(self, conn: sqlite3.Connection, name: str) -> int:
        sid = self._series.get(name)
        if sid is None:
            sid = conn.execute("INSERT INTO series(name) VALUES (?)", (name,)).lastrowid
            self._series[name] = sid
        return sid

    def _write(self, conn: sqlite3.Connection, batch: list) -> None:
        points, metas, events, batches = [], [], [], []
        known = self._series.get  # (a lookup, not a method call, per point: this thread holds the GIL
        # the training thread needs, ~30 us of it per step before)
        for i, item in enumerate(batch):
            if not i % 1000:
                self._progress += 1  # a long final batch is progress too (see close)
            tag = item[0]
            if tag == "p":
                _, step, values = item
                points.extend((known(name) or self._sid(conn, name), step, None if v != v else v)
                              for name, v in values.items())
            elif tag == "m":
                metas.append((item[1], _dumps(item[2])))
            elif tag == "e":
                _, step, wall, kind, msg, data = item
                events.append((step, wall, kind, msg, None if data is None else _dumps(data)))
            elif tag == "b":
                batches.append((item[1], item[2]))
        with conn:
            for i in range(0, len(points), 200_000):
                conn.executemany("INSERT INTO points VALUES (?,?,?)", points[i:i + 200_000])
                self._progress += 1
            if metas:
                conn.executemany("INSERT OR REPLACE INTO meta VALUES (?,?)", metas)
            if events:
                conn.executemany("INSERT INTO events VALUES (?,?,?,?,?)", events)
            if batches:
                conn.executemany("INSERT INTO batches VALUES (?,?)", batches)

    def _fail(self, exc: BaseException) -> None:
        if self.failed is None:
            self.failed = f"{type(exc).__name__}: {exc}"
            if self._on_error is not None:
                try:
                    self._on_error(self.failed)
                except Exception:  # noqa: BLE001
                    pass
