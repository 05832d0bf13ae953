"""The monitor: turns what the hooks see into per-step series in the run store.

Layers (design.md): this module only measures and writes series; rules read them later.

Step model. A *step* is one call of the primary optimizer's ``step`` (the first optimizer
seen to step, or the first of ``optimizers=``), including a step that a GradScaler
skipped. Everything between two primary steps belongs to the later one: the losses
``backward`` was called on (summed, so gradient accumulation over micro-batches of a
mean loss gives the mean), the batches drawn, the time. Other optimizers' gradients are
recorded under their own names, tagged with the current step.

Structure: the monitor is a coordinator over measurement objects, each owning its state
(docs/architecture.md lists them): ``Models``, ``Batches``, ``LossFns``,
``LabelConflicts``, ``BackwardClock``, ``Optimizers`` (the step boundary and the
optimizer-side measurements), ``Scalers``. The state of the step in progress is one
``StepRecord``. The ``Recorder`` takes the step's record: one transfer of a small vector
to the host, read at once (``reads="sync"``) or at the next boundary (``"lagged"``, see
record.py), then the writes and the triggers.

Cost on an unsampled step: one fused norm over the gradients, one device-to-host copy
of a small vector, a few dozen Python operations and a queue put (lagged: and one
device-side copy of the weights).
"""

from __future__ import annotations

import os
import sys
import time
import traceback
import warnings
from pathlib import Path
from typing import Any, Callable, Iterable

import torch

from ..errors import UserError
from ..store.writer import RunWriter, claim, next_free, write_marker
from . import context
from .backward import BackwardClock
from .batches import Batches
from .conflicts import LabelConflicts
from .losses import LEAK_STEPS, LossFns
from .models import Models
from .optim import Optimizers
from .patches import Patches
from .quantities import gather
from .record import Recorder
from .sampling import Sampler
from .scaler import Scalers
from .step import StepRecord

_ACTIVE: "Monitor | None" = None


class TraindocWarning(UserWarning):
    """A problem inside traindoc. Training goes on; the run records it as ``monitor-error``."""


def active() -> "Monitor | None":
    return _ACTIVE


def default_run_dir(base: str | Path = "traindoc-runs") -> Path:
    """A new folder name under ``base``; every rank of one torchrun job picks the same one."""
    info = context.dist_info()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    if info["world_size"] > 1:
        # torchrun starts all local ranks from one agent: its pid and start time name the job.
        ppid = os.getppid()
        try:
            start = Path(f"/proc/{ppid}/stat").read_text().split()[21]
        except OSError:
            start = "0"
        return Path(base) / f"run-{ppid}-{start}"
    base = Path(base)
    path = base / f"run-{stamp}"
    n = 1
    while path.exists():
        n += 1
        path = base / f"run-{stamp}-{n}"
    return path


class Monitor:
    """Record a training run into a run folder. Use :func:`traindoc.watch` or ``traindoc run``."""

    def __init__(
        self,
        out: str | Path | None = None,
        models: Iterable[torch.nn.Module] | torch.nn.Module | None = None,
        optimizers: Iterable[torch.optim.Optimizer] | torch.optim.Optimizer | None = None,
        sample_every: int | None = None,
        sample_budget: float = 0.01,
        flush_interval: float = 0.25,
        command: list[str] | None = None,
        per_param: bool = True,
        snapshot_every: int = 100,
        bundles: bool = True,
        replay: bool | None = None,
        strict_out: bool = False,
        stop_on: Iterable[str] = (),
        max_steps: int | None = None,
        max_seconds: float | None = None,
        reads: str = "auto",
    ) -> None:
        self.out = Path(out) if out is not None else default_run_dir()
        self.strict_out = strict_out  # a used or unusable `out` is an error, not a fallback
        self.stop_on = frozenset(stop_on)  # "nonfinite", "spike": end the run after that bundle
        # a budget (`traindoc confirm`'s re-executions): ends the run at a step boundary, "stopped"
        self.max_steps, self.max_seconds = max_steps, max_seconds
        self._t_start: float | None = None
        self.joined: Monitor | None = None  # the outer monitor, when this one joined it
        self._lock: int | None = None
        info = context.dist_info()
        self.rank = info["rank"]
        self.world_size = info["world_size"]
        self.command = command
        self.per_param = per_param
        self.sampler = Sampler(every=sample_every, budget=sample_budget)
        self.timer = time.perf_counter  # the clock of step times and of the measurements' own cost
        self._flush_interval = flush_interval
        self.step = 0
        self.errors: dict[str, str] = {}
        self.writer: RunWriter | None = None
        self._patches: Patches | None = None
        self._closed = False
        self.on_import: dict[str, Callable] = {}  # module -> fn(mon, setattr), once the script imports it
        # the measurements (see the module docstring) and the step in progress
        self.rec = StepRecord()
        self.models = Models(self, models)
        self.optim = Optimizers(self, optimizers)
        self.backward = BackwardClock(self)
        self.batches = Batches(self)
        self.loss_fns = LossFns(self)
        self.conflicts = LabelConflicts(self)
        self.scalers = Scalers()
        # the step's record: its transfer to the host (read at once or a step later), the
        # writes, the triggers (see record.py for ``reads``)
        self.recorder = Recorder(self, reads)
        self.last_batch: Any = None
        # triggers and bundles (capture.py); replay=None: replay after `traindoc run` only
        from .capture import Capture

        self.capture = Capture(self, snapshot_every=snapshot_every, enabled=bundles)
        self.replay = replay
        self.replay_output: str | None = None

    # ------------------------------------------------------------------ lifecycle
    def start(self) -> "Monitor":
        global _ACTIVE

        if os.environ.get("TRAINDOC_REPLAYING"):  # a script replayed by `traindoc replay`: record nothing
            self._closed = True
            return self
        if _ACTIVE is not None:
            # a script that calls traindoc.watch() itself, under `traindoc run` (or nested
            # watch() blocks): the outer monitor already records everything; this one joins it
            self._closed = True
            self.joined = _ACTIVE
            if Path(self.out) != Path(_ACTIVE.out):
                print(f"traindoc: watch(out={str(self.out)!r}) joins the monitor already recording this "
                      f"process into {_ACTIVE.out}", file=sys.stderr)
            self.out = _ACTIVE.out
            return self
        if not self._claim_out():
            return self
        self._open_writer()
        # how to re-run the script (fingerprinted as it starts), signed by this user:
        # bundles and `traindoc confirm` refuse to re-execute a changed or foreign command
        script = self.guard("bundle", self.capture.command)
        if script is not None and script.get("script"):
            from ..forensics.isolate import origin

            self.writer.meta("script", script)
            self.writer.meta("origin", origin(Path(self.out), script))
        self.writer.meta("checks", ["target-in-input"])  # checks whose silence is a result (diagnose)
        self._t_start = time.perf_counter()
        self._patches = Patches(self)
        self._patches.install()
        _ACTIVE = self
        self._begin_step()
        return self

    def _claim_out(self) -> bool:
        """Lock the run folder (or, under watch(), the next free one); False: not recorded."""
        try:
            self._lock = claim(self.out, self.rank)
        except UserError as exc:
            if self.strict_out:  # `traindoc run`: refuse before the script starts
                raise
            # traindoc.watch() inside the user's script: never stop their training for this
            alt = next_free(self.out, self.rank)
            try:
                self._lock = claim(alt, self.rank)
            except UserError as exc2:
                print(f"traindoc: {exc}; and {exc2}: this run is not recorded", file=sys.stderr)
                self._closed = True
                return False
            print(f"traindoc: {exc}; recording into {alt} instead", file=sys.stderr)
            self.out = alt
        return True

    def _open_writer(self) -> None:
        self.writer = RunWriter(self.out, rank=self.rank, flush_interval=self._flush_interval,
                                on_error=self._on_store_error)
        if self.rank == 0:
            write_marker(self.out, {"world_size": self.world_size, "created": time.time()})
        self.writer.meta("environment", context.environment())
        self.writer.meta("command", self.command or [])
        self.writer.meta("rank", {"rank": self.rank, "world_size": self.world_size})
        self.writer.meta("status", "running")
        if self.models.only:
            for m in self.models.only:
                self.models.note_root(m)
        # Our global forward hooks make torch.compile warn that hooks fire on the wrapper;
        # we drop them as soon as a compiled module shows up, so the warning is noise.
        warnings.filterwarnings("ignore", message=r"Using `torch.compile\(module\)` when there are global hooks")

    def close(self, status: str = "finished", exit_code: int | None = None, error: str | None = None) -> None:
        global _ACTIVE
        if self._closed:
            return
        self._closed = True
        self.models.remove_hooks()
        if self._patches is not None:
            self._patches.remove()
        if _ACTIVE is self:
            _ACTIVE = None
        w = self.writer
        if w is None:
            return
        try:
            self.batches.assign(backward=False)  # the batch in use, for a bundle written below
            self._flush_at_close(w)
        except Exception as exc:  # noqa: BLE001
            self._record_error("close", exc)
        for key, value in (("status", status), ("exit_code", exit_code), ("steps", self.step), ("ended", time.time()),
                           ("compiled", self.models.compiled)):
            w.meta(key, value)
        if self.optim.rebuilt:
            w.meta("optimizer_rebuilt", self.optim.rebuilt)
        w.meta("sampling", {"interval": self.sampler.interval, "fixed": self.sampler.fixed,
                            "budget": self.sampler.budget})
        if error:
            w.event(self.step, "exception", context.exception_line(error), {"traceback": error})
        try:
            self.capture.end_of_run(status, exit_code, error)
        except Exception as exc:  # noqa: BLE001 - the run is recorded; the bundle is extra
            self.errors.setdefault("bundle", f"{type(exc).__name__}: {exc}")
        w.close()
        if self._lock is not None:
            os.close(self._lock)  # releases the flock: the folder is complete
            self._lock = None
        self.capture.release()  # drop the batch references and the kept weights
        self._replay_at_close()

    def _flush_at_close(self, w: RunWriter) -> None:
        """What the last step left: deferred records, evaluation after the last step, losses
        the script computed and never backpropagated."""
        self.recorder.drain()
        names: list[str] = []
        tensors: list[torch.Tensor] = []
        eval_names = self.loss_fns.eval_tensors(names, tensors)  # evaluation after the last step
        if eval_names:
            w.scalars(self.step - 1, dict(zip(names, gather(tensors))))
        fn_losses = self.loss_fns.take_fn_losses()
        if fn_losses:  # a loss the script checked and stopped on (`if isnan(loss): break`)
            vals = gather([torch.stack([x.float() for x in fn_losses])])
            values: dict[str, float] = {}
            self.loss_fns.note_skipped(values, vals, self.step)
            if values:
                from .capture import StopTraining

                w.scalars(self.step, values)
                # called directly: the monitor is closed by now, so guard() would skip it
                try:
                    self.capture.check(self.step, {"loss": values["loss/skipped"]}, False)
                except StopTraining:
                    pass  # --stop-on: the bundle is written and the run is ending anyway
                except Exception as exc:  # noqa: BLE001 - the run is recorded; the bundle is extra
                    self._record_error("bundle", exc)

    def _replay_at_close(self) -> None:
        target = self.capture.worth_replaying() if self.capture.bundles else None
        if target is not None and self._want_replay():
            try:
                from ..forensics.isolate import replay_subprocess

                self.replay_output = replay_subprocess(target)
            except Exception as exc:  # noqa: BLE001 - the run is recorded; replay is extra
                self.replay_output = f"traindoc: replay failed ({type(exc).__name__}: {exc})\n"
            if self.replay is None and self.replay_output:  # `traindoc run`: show it with the diagnosis
                sys.stderr.write(self.replay_output)

    def _want_replay(self) -> bool:
        if self.world_size > 1 or os.environ.get("TRAINDOC_REPLAY", "1") == "0":
            return False
        if self.replay is not None:
            return self.replay
        return list(self.command or [])[:2] == ["traindoc", "run"]

    @property
    def closed(self) -> bool:
        """Closed, joined to an outer monitor, or never recording: the hooks do nothing."""
        return self._closed

    def live_roots(self) -> list[tuple[str, torch.nn.Module]]:
        """The models being trained, with the prefix of their parameter names."""
        return self.models.live_roots()

    def __enter__(self) -> "Monitor":
        return self.start()

    def __exit__(self, et, ev, tb) -> None:
        if et is None:
            self.close("finished", 0)
        elif issubclass(et, KeyboardInterrupt):
            self.close("interrupted", 130)
        else:
            self.close("crashed", 1, "".join(traceback.format_exception(et, ev, tb)))

    # ------------------------------------------------------------------ safety
    def guard(self, where: str, fn: Callable, *args: Any) -> Any:
        """Call a handler; an exception inside traindoc becomes a warning and an event. Every
        hook entry point (patches.py, the forward hooks, a wrapped closure) goes through here."""
        if self._closed:
            return None
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 - never reaches the user's loop
            self._record_error(where, exc)
            return None

    def _record_error(self, where: str, exc: BaseException) -> None:
        msg = f"{type(exc).__name__}: {exc}"
        if where not in self.errors:
            self.errors[where] = msg
            warnings.warn(f"traindoc: {where} failed ({msg}); training continues, "
                          f"this part is not recorded", TraindocWarning, stacklevel=3)
            if self.writer is not None:
                self.writer.event(self.step, "monitor-error", f"{where}: {msg}",
                                  {"where": where, "traceback": traceback.format_exc()})

    def _on_store_error(self, msg: str) -> None:
        # Called from the writer thread: warn, keep training; nothing more can be stored.
        self.errors.setdefault("store", msg)
        warnings.warn(f"traindoc: the run store stopped recording ({msg}); training continues",
                      TraindocWarning, stacklevel=2)

    # ------------------------------------------------------------------ step boundaries
    def _begin_step(self) -> None:
        from .capture import StopTraining

        if self.max_steps is not None and self.step >= self.max_steps:
            raise StopTraining(self.step, f"the budget of {self.max_steps} steps is spent", "budget")
        if self.max_seconds is not None and self._t_start is not None and self.step > 0 \
                and time.perf_counter() - self._t_start > self.max_seconds:
            raise StopTraining(self.step, f"the budget of {self.max_seconds:g} s is spent", "budget")
        self.rec.reset()
        if self.on_import and self._patches is not None:  # a dict lookup per step while any is pending
            self._patches.poll_imports(self.on_import)
        if self.step >= LEAK_STEPS:
            self.loss_fns.end_leak_check()
        self.rec.sampled = self.sampler.want(self.step)
        if self.rec.sampled:
            self.models.add_forward_hooks()
        else:
            self.models.remove_forward_hooks()

    def end_step(self) -> None:
        """The step's record is written and the weights updated: the next step begins."""
        if self.rec.sampled:
            self.sampler.mark_sampled(self.step)
            self.sampler.observe(0.0, self.rec.extra_time)
            self.models.describe()
        self.capture.end_step(self.step)
        self.step += 1
        self._begin_step()


def watch(
    out: str | Path | None = None,
    models: Iterable[torch.nn.Module] | torch.nn.Module | None = None,
    optimizers: Iterable[torch.optim.Optimizer] | torch.optim.Optimizer | None = None,
    sample_every: int | None = None,
    **kwargs: Any,
) -> Monitor:
    """Monitor the training that runs inside the ``with`` block::

        with traindoc.watch(out="runs/exp1"):
            for x, y in loader:
                ...

    ``models``/``optimizers`` restrict what is recorded (default: every model and
    optimizer that trains). ``sample_every`` fixes the sampling interval of the
    expensive measurements (default: adaptive, about 1 % of step time).
    """
    return Monitor(out=out, models=models, optimizers=optimizers, sample_every=sample_every, **kwargs)
