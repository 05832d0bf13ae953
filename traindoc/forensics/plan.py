"""What a plan asks of a replay and gets back, and the thread the plan runs in.

A plan (:func:`traindoc.forensics.analyze.make_plan`) is sequential code: ``ask(test)``
blocks until the user's script, driven by :class:`~.replay.Driver`, has run the test.
The exceptions here end a script run from inside the script.
"""

from __future__ import annotations

import math
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class _Done(BaseException):
    """Raised inside the script when every test has run (BaseException: the script's own
    ``except Exception`` does not swallow it)."""


class _NextRun(BaseException):
    """Behind a prefetching loader (it draws a batch ahead of the one in use) the script
    runs once per test: the test's batch is served at every draw until its backward, and
    then this ends the run, so that no batch of the next test is drawn ahead of time."""


class _Stray(_Done):
    """The script reached an optimizer step on data the replay did not serve: stop it before
    it trains for real (a DataLoader subclass with its own ``__iter__``, batches built by hand)."""


@dataclass
class Test:
    what: str  # "batch", "group", "sample", "earlier-state", "other-batch"
    positions: list[int] | None = None  # into micro-batch ``mb``; None: all of it
    mb: int = 0
    source: str = "batch"  # "batch" | "prev_batch"
    state: str = "model"  # "model" | "earlier"
    watch: bool = True  # run under the op-by-op instrumentation (slower: a sync per op)


@dataclass
class Result:
    losses: list[float] = field(default_factory=list)
    grad_norm: float | None = None
    grads_finite: bool | None = None
    report: Any = None  # Detections (traindoc.forensics.watch) of an instrumented test
    batch_size: int | None = None

    @property
    def fails(self) -> bool:
        if any(not math.isfinite(x) for x in self.losses) or self.grads_finite is False:
            return True
        if not self.losses and self.report is not None:  # no backward: judge by the ops
            return self.report.found and self.report.result_finite is not True
        return False


class _Plan(threading.Thread):
    """Runs ``plan(ask)`` in a thread; ``ask(test)`` blocks until the script has run it."""

    def __init__(self, plan: Callable[[Callable[[Test], Result], dict], Any]) -> None:
        super().__init__(daemon=True)
        self.plan = plan
        self.requests: queue.Queue = queue.Queue(maxsize=1)
        self.results: queue.Queue = queue.Queue(maxsize=1)
        self.error: BaseException | None = None
        self.output: dict[str, Any] = {"tests": []}  # filled in place: a cut-short plan keeps what it found

    def ask(self, test: Test) -> Result:
        self.requests.put(test)
        r = self.results.get()
        if r is None:
            raise _Done()
        return r

    def run(self) -> None:
        try:
            self.plan(self.ask, self.output)
        except _Done:
            pass
        except BaseException as exc:  # noqa: BLE001 - reported by the driver
            self.error = exc
        finally:
            self.requests.put(None)
