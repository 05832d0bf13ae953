"""The run store's writer commits everything queued before close() returns, however long
the last batch takes, as long as it makes progress (a loaded machine once lost the end of
a 20 000-step run: close() gave up after 10 s)."""

import sqlite3
import time

from traindoc.store.writer import RunWriter


def test_close_waits_for_a_slow_writer_that_makes_progress(tmp_path, monkeypatch):
    orig = RunWriter._write

    def slow(self, conn, batch):
        for _ in range(6):  # 0.6 s of work, progress every 0.1 s: longer than close's timeout
            time.sleep(0.1)
            self._progress += 1
        orig(self, conn, batch)

    monkeypatch.setattr(RunWriter, "_write", slow)
    w = RunWriter(tmp_path / "r", flush_interval=30)  # everything is left for the final batch
    for i in range(500):
        w.scalars(i, {"loss": float(i)})
    w.meta("status", "finished")
    w.close(timeout=0.25)
    assert not w._thread.is_alive()
    with sqlite3.connect(w.path) as c:
        assert c.execute("SELECT COUNT(*) FROM points").fetchone()[0] == 500
        assert c.execute("SELECT value FROM meta WHERE key='status'").fetchone()[0] == '"finished"'


def test_close_gives_up_on_a_writer_that_stopped_moving(tmp_path, monkeypatch):
    import threading

    release = threading.Event()

    def hung(self, conn, batch):
        release.wait(60)  # a hung disk: no progress at all

    monkeypatch.setattr(RunWriter, "_write", hung)
    w = RunWriter(tmp_path / "r", flush_interval=30)
    w.scalars(0, {"loss": 1.0})
    w.close(timeout=0.3)
    try:
        assert w._thread.is_alive()  # close() returned without waiting for the hung write
    finally:
        release.set()
        w._thread.join(10)
