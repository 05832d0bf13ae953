"""A monitor scoped to a framework's fit: started at its beginning, closed at its end,
closed as crashed when the process ends without the end (an exception the framework did
not report)."""

from __future__ import annotations

import atexit
import sys
import time
from pathlib import Path
from typing import Any


class FitScope:
    def __init__(self, out: str | Path | None, framework: str, **monitor_kwargs: Any) -> None:
        self.out, self.framework, self.kwargs = out, framework, monitor_kwargs
        self.monitor: Any = None
        self.started = time.time()

    def start(self, step: int | None = None) -> None:
        from ..monitor.monitor import Monitor

        if self.monitor is not None:
            return
        self.started = time.time()
        self.monitor = Monitor(out=self.out, **self.kwargs).start()
        if self.monitor.writer is not None:
            self.monitor.writer.meta("framework", {"name": self.framework, "global_step_at_start": step})
        atexit.register(self._at_exit)

    def close(self, status: str = "finished", exit_code: int = 0, error: str | None = None) -> None:
        if self.monitor is not None:
            self.monitor.close(status, exit_code, error)
            atexit.unregister(self._at_exit)

    def _at_exit(self) -> None:
        if self.monitor is not None:
            self.monitor.close("crashed", 1, "the process ended before the fit did")


def report_end(out: Path, since: float) -> None:
    """The fit's diagnosis on stderr, and into the TensorBoard/MLflow/W&B logs the script
    writes (:mod:`.writeback`)."""
    from ..diagnose import diagnose
    from ..report.summary import print_diagnosis
    from ..report.terminal import console
    from .writeback import mirror

    err = console(sys.stderr)
    d = diagnose(out)
    print_diagnosis(err, d, short=True)
    for line in mirror(d, out, since=since):
        err.print(line, markup=False, highlight=False, soft_wrap=True)
