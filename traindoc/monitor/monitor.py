"""The monitor: turns what the hooks see into per-step series in the run store.

Layers (design.md): this module only measures and writes series; rules read them later.

Step model. A *step* is one call of the primary optimizer's ``step`` (the first optimizer
seen to step, or the first of ``optimizers=``), including a step that a GradScaler
skipped. Everything between two primary steps belongs to the later one: the losses
``backward`` was called on (summed, so gradient accumulation over micro-batches of a
mean loss gives the mean), the batches drawn, the time. Other optimizers' gradients are
recorded under their own names, tagged with the current step.

Cost on an unsampled step: one fused norm over the gradients, one device-to-host copy
of a small vector (the one sync), a few dozen Python operations and a queue put.
"""

from __future__ import annotations

import math
import os
import sys
import time
import traceback
import warnings
import weakref
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np
import torch

from ..errors import UserError
from ..store.writer import RunWriter, claim, next_free, write_marker
from . import context
from .patches import Patches
from .quantities import activation_stats, gather, grad_norms, underflow_fraction
from .sampling import Sampler

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


class _Draw:
    """One batch the DataLoader handed out: its iterator, dataset indices and capture record."""

    __slots__ = ("it", "idx", "rec", "used")

    def __init__(self, it: int, idx: np.ndarray | None, rec: Any) -> None:
        self.it, self.idx, self.rec, self.used = it, idx, rec, False


class _OptState:
    __slots__ = ("index", "ref", "described", "fired", "params_named")

    def __init__(self, index: int, opt: torch.optim.Optimizer) -> None:
        self.index = index
        self.ref = weakref.ref(opt)
        self.described = False
        self.fired = False


LEAK_STEPS = 20  # steps during which the loss's targets are compared with the model's inputs


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
    ) -> None:
        self.out = Path(out) if out is not None else default_run_dir()
        self.strict_out = strict_out  # a used or unusable `out` is an error, not a fallback
        self.stop_on = frozenset(stop_on)  # "nonfinite", "spike": end the run after that bundle
        # a budget (`traindoc confirm`'s re-executions): the run ends at the first step
        # boundary past either, as "stopped"
        self.max_steps = max_steps
        self.max_seconds = max_seconds
        self._t_start: float | None = None
        self.joined: Monitor | None = None  # the outer monitor, when this one joined it
        self._lock: int | None = None
        info = context.dist_info()
        self.rank = info["rank"]
        self.world_size = info["world_size"]
        self.command = command
        self.per_param = per_param
        self.sampler = Sampler(every=sample_every, budget=sample_budget)
        self._clock = time.perf_counter
        self._flush_interval = flush_interval
        if isinstance(models, torch.nn.Module):
            models = [models]
        if isinstance(optimizers, torch.optim.Optimizer):
            optimizers = [optimizers]
        self._only_models = list(models) if models is not None else None
        self._only_opts = {id(o) for o in optimizers} if optimizers is not None else None
        self._opts: dict[int, _OptState] = {}
        self._primary: int | None = None
        self.step = 0
        self.errors: dict[str, str] = {}
        self.writer: RunWriter | None = None
        self._patches: Patches | None = None
        self._closed = False
        self._reset_step_state()
        self._last_loss: torch.Tensor | None = None
        self._backward_since_step = False
        self._scaled: dict[int, tuple[weakref.ref, torch.Tensor]] = {}
        self._scalers: list[weakref.ref] = []
        self._t_last: float | None = None
        self._deferred: list[tuple[int, list[str], list[torch.Tensor]]] = []
        self._loss_fns_seen: set[str] = set()
        self._autocast: set[tuple[tuple[str, str], ...]] = set()
        self._eval: dict[str, list[torch.Tensor]] = {}  # evaluation losses by the loader that fed them
        self._eval_loader: str = "loss/eval"  # the series the current evaluation pass writes to
        self._eval_loaders: dict[int, str] = {}
        self._fn_losses: list[torch.Tensor] = []  # loss-function outputs under grad since the step began
        self._unused_idx: list[np.ndarray] = []  # indices of batches drawn but never backpropagated
        from collections import deque

        self._draws: deque = deque(maxlen=64)  # batches handed out (None: an epoch's end), see _assign_batch
        self._lag: int | None = None  # draws a prefetching loader makes ahead of the batch in use
        self._root_hooks: list[Any] = []
        self._loader_used = False  # a DataLoader fed training: batches are captured there, not at forward
        self._fwd_batch: dict[str, Any] | None = None  # this step's latest model-input record
        self._fwd_count = 0
        self._fwd_group = 0  # backwards seen this step: the forwards before the k-th belong to test k of a replay
        # missing-zero-grad, measured: the gradient already in .grad when the first backward
        # after a step (or after a zero_grad call) begins; sampled steps only, 4 tensors
        self._carry_pending = False
        self._carried: tuple[list[torch.Tensor], torch.Tensor | float] | None = None
        self._ag_grads: list[tuple[torch.Tensor, torch.Tensor]] | None = None  # torch.autograd.grad's, this step
        self._ag_counts: bool | None = None  # torch.autograd.grad(loss, params) is the step (decided once)
        self._ag_by_id: dict[int, torch.Tensor] = {}
        self._leak_inputs: list[tuple[str, torch.Tensor]] = []  # the model's latest inputs, first steps only
        self._leak_found = False
        self._closure_tail: Any = None  # the optimizer whose closure is being re-evaluated (LBFGS)
        self._pre_done: set[int] = set()  # optimizers whose step record ran inside their closure
        self._step_nest: dict[int, tuple[int, int]] = {}  # id(opt) -> (monitor step, hooked steps open)
        self._bw_clock = False  # no torch.optim optimizer steps: one backward() is one step
        self._bw_waiting = 0  # backwards since the last step while no optimizer has stepped
        self._label_counts: torch.Tensor | None = None
        # model discovery (names of modules and parameters)
        self._roots: list[weakref.ref] = []
        self._mod_names: "weakref.WeakKeyDictionary[torch.nn.Module, str]" = weakref.WeakKeyDictionary()
        self._param_names: dict[int, str] = {}
        self._summarised: set[int] = set()
        self._depth = 0
        self._hook_handles: list[Any] = []
        self._compiled = False
        self._loaders_seen: set[int] = set()
        self._schedulers_seen: set[int] = set()
        self._train_loader: dict[str, Any] | None = None
        self.last_batch: Any = None
        self._anomalies = 0
        # triggers and bundles (capture.py); replay=None: replay after `traindoc run` only
        from .capture import Capture

        self.capture = Capture(self, snapshot_every=snapshot_every, enabled=bundles)
        self.replay = replay
        self.replay_output: str | None = None
        self._loader_info: dict[int, dict[str, Any]] = {}

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
                return self
            print(f"traindoc: {exc}; recording into {alt} instead", file=sys.stderr)
            self.out = alt
        self.writer = RunWriter(self.out, rank=self.rank, flush_interval=self._flush_interval,
                                on_error=self._on_store_error)
        if self.rank == 0:
            write_marker(self.out, {"world_size": self.world_size, "created": time.time()})
        self.writer.meta("environment", context.environment())
        self.writer.meta("command", self.command or [])
        self.writer.meta("rank", {"rank": self.rank, "world_size": self.world_size})
        self.writer.meta("status", "running")
        if self._only_models:
            for m in self._only_models:
                self._note_root(m)
        # Our global forward hooks make torch.compile warn that hooks fire on the wrapper;
        # we drop them as soon as a compiled module shows up, so the warning is noise.
        warnings.filterwarnings("ignore", message=r"Using `torch.compile\(module\)` when there are global hooks")
        # how to re-run the script (fingerprinted as it starts), signed by this user:
        # bundles and `traindoc confirm` refuse to re-execute a changed or foreign command
        script = self._guard("bundle", self.capture.command)
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

    def close(self, status: str = "finished", exit_code: int | None = None, error: str | None = None) -> None:
        global _ACTIVE
        if self._closed:
            return
        self._closed = True
        self._remove_forward_hooks()
        for h in self._root_hooks:
            h.remove()
        self._root_hooks = []
        if self._patches is not None:
            self._patches.remove()
        if _ACTIVE is self:
            _ACTIVE = None
        w = self.writer
        if w is None:
            return
        try:
            self._flush_deferred()
            names: list[str] = []
            tensors: list[torch.Tensor] = []
            eval_names = self._eval_tensors(names, tensors)  # evaluation after the last step
            if eval_names:
                w.scalars(self.step - 1, dict(zip(names, gather(tensors))))
            if self._fn_losses:  # a loss the script checked and stopped on (`if isnan(loss): break`)
                vals = gather([torch.stack([x.float() for x in self._fn_losses])])
                self._fn_losses = []
                values: dict[str, float] = {}
                self._note_skipped_losses(values, vals)
                if values:
                    w.scalars(self.step, values)
                    self._guard("bundle", self.capture.check, self.step, {"loss": values["loss/skipped"]}, False)
        except Exception as exc:  # noqa: BLE001
            self._record_error("close", exc)
        w.meta("status", status)
        w.meta("exit_code", exit_code)
        w.meta("steps", self.step)
        w.meta("ended", time.time())
        w.meta("compiled", self._compiled)
        w.meta("sampling", {"interval": self.sampler.interval, "fixed": self.sampler.fixed,
                            "budget": self.sampler.budget})
        if error:
            w.event(self.step, "exception", error.splitlines()[-1] if error.strip() else error, {"traceback": error})
        try:
            self._assign_batch(backward=False)
            self.capture.end_of_run(status, exit_code, error)
        except Exception as exc:  # noqa: BLE001 - the run is recorded; the bundle is extra
            self.errors.setdefault("bundle", f"{type(exc).__name__}: {exc}")
        w.close()
        if self._lock is not None:
            os.close(self._lock)  # releases the flock: the folder is complete
            self._lock = None
        self.capture.cur = self.capture.prev = []  # drop the batch references
        target = self.capture.worth_replaying() if self.capture.bundles else None
        if target is not None and self._want_replay():
            try:
                from ..forensics.replay import replay_subprocess

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

    def _live_roots(self) -> list[tuple[str, torch.nn.Module]]:
        """The models being trained, with the prefix of their parameter names."""
        out = []
        for i, r in enumerate(self._roots):
            m = r()
            if m is not None:
                out.append(("" if i == 0 else f"{type(m).__name__.lower()}{i}.", m))
        return out

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
    def _guard(self, where: str, fn: Callable, *args: Any) -> Any:
        """Call a handler; an exception inside traindoc becomes a warning and an event."""
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

    # ------------------------------------------------------------------ model discovery
    def _note_root(self, module: torch.nn.Module) -> None:
        if any(r() is module for r in self._roots):
            return
        if type(module).__name__ == "OptimizedModule":
            self._compiled = True
            self._remove_forward_hooks()
            inner = getattr(module, "_orig_mod", None)
            if isinstance(inner, torch.nn.Module):
                module = inner
        prefix = "" if not self._roots else f"{type(module).__name__.lower()}{len(self._roots)}."
        self._roots.append(weakref.ref(module))
        # the model's inputs, for a loop that builds batches by hand (no DataLoader): one
        # Python call per forward of the model itself (see _on_root_forward)
        self._root_hooks.append(module.register_forward_pre_hook(
            lambda m, a, k: self._guard("forward-inputs", self._on_root_forward, m, a, k), with_kwargs=True))
        for name, m in module.named_modules():
            self._mod_names.setdefault(m, prefix + name if name else (prefix.rstrip(".") or "model"))
        for name, p in module.named_parameters():
            self._param_names.setdefault(id(p), prefix + name)

    def _describe_models(self) -> None:
        for r in self._roots:
            m = r()
            if m is not None and id(m) not in self._summarised:
                self._summarised.add(id(m))
                name = self._mod_names.get(m, "model")
                self.writer.meta(f"model/{name}", context.model_summary(name, m))

    def _fwd_pre(self, module: torch.nn.Module, args: Any) -> None:
        if self._depth == 0 and torch.is_grad_enabled():
            from torch.nn.modules.loss import _Loss

            if not isinstance(module, _Loss) and (self._only_models is None) and next(module.parameters(), None) is not None:
                known = any(r() is module for r in self._roots)
                self._note_root(module)
                if not known:  # its own hook starts with the next call: take this one's inputs here
                    self._on_root_forward(module, args, {})
            if not isinstance(module, _Loss):
                self._note_autocast()
        self._depth += 1

    def _fwd_post(self, module: torch.nn.Module, args: Any, out: Any) -> None:
        self._depth = max(0, self._depth - 1)
        if not (self._sampled and torch.is_grad_enabled()) or self._compiled:
            return
        if next(module.children(), None) is not None:
            return  # leaves only: a parent's output is its last child's
        name = self._mod_names.get(module)
        if name is None:
            return
        y = out[0] if isinstance(out, (tuple, list)) and out else out
        if not isinstance(y, torch.Tensor) or not y.is_floating_point() or y.numel() == 0:
            return
        t0 = self._clock()
        for k, v in activation_stats(module, y).items():
            self._act_names.append(f"act/{name}/{k}")
            self._act_vals.append(v)
        self._extra_time += self._clock() - t0

    def _add_forward_hooks(self) -> None:
        if self._hook_handles or self._compiled:
            return
        from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

        self._depth = 0
        self._hook_handles = [
            register_module_forward_pre_hook(lambda m, a: self._guard("forward-hook", self._fwd_pre, m, a)),
            register_module_forward_hook(lambda m, a, o: self._guard("forward-hook", self._fwd_post, m, a, o),
                                         always_call=True),
        ]

    def _remove_forward_hooks(self) -> None:
        for h in self._hook_handles:
            h.remove()
        self._hook_handles = []

    # ------------------------------------------------------------------ step state
    def _reset_step_state(self) -> None:
        self._losses: list[torch.Tensor] = []
        self._indices: list[np.ndarray] = []
        self._data_time = 0.0
        self._act_names: list[str] = []
        self._act_vals: list[torch.Tensor] = []
        self._extra_time = 0.0
        self._preclip: list[torch.Tensor] = []
        self._before: list[torch.Tensor] | None = None
        self._before_params: list[torch.Tensor] | None = None
        self._sampled = False
        self._fwd_count = 0
        self._fwd_batch = None
        self._fwd_group = 0
        self._train_fwds = 0  # training forwards of the model this step (every one, unlike _fwd_count)
        self._ag_grads = None
        if self.step >= LEAK_STEPS:
            self._leak_inputs = []  # the leak check is over: drop the references

    def _begin_step(self) -> None:
        from .capture import StopTraining

        if self.max_steps is not None and self.step >= self.max_steps:
            raise StopTraining(self.step, f"the budget of {self.max_steps} steps is spent", "budget")
        if self.max_seconds is not None and self._t_start is not None and self.step > 0 \
                and time.perf_counter() - self._t_start > self.max_seconds:
            raise StopTraining(self.step, f"the budget of {self.max_seconds:g} s is spent", "budget")
        self._reset_step_state()
        self._sampled = self.sampler.want(self.step)
        if self._sampled:
            self._add_forward_hooks()
        else:
            self._remove_forward_hooks()

    def _opt_state(self, opt: torch.optim.Optimizer) -> _OptState | None:
        st = self._opts.get(id(opt))
        if st is None or st.ref() is not opt:
            if self._only_opts is not None and id(opt) not in self._only_opts:
                return None
            st = _OptState(len(self._opts), opt)
            self._opts[id(opt)] = st
            if self._primary is None:
                self._primary = id(opt)
        return st

    def _param_name(self, p: torch.Tensor, opt_index: int, gi: int, pi: int) -> str:
        name = self._param_names.get(id(p))
        if name is None:
            name = f"opt{opt_index}.group{gi}.param{pi}"
            self._param_names[id(p)] = name
        return name

    # ------------------------------------------------------------------ handlers
    def _grad_of(self, p: torch.Tensor) -> torch.Tensor:
        """p's gradient: the one torch.autograd.grad returned this step, else p.grad."""
        g = self._ag_by_id.get(id(p))
        return g if g is not None else p.grad

    def _on_zero_grad(self) -> None:
        self._carry_pending = True  # the next backward's starting gradient is measured again

    def _measure_carried(self) -> None:
        """The norm of what .grad holds before this backward adds to it, for the primary
        optimizer's first 4 tensors: 0 (or None grads) after zero_grad; the previous step's
        gradient when nothing cleared it. Deferred: a tensor joined to the step's one sync."""
        self._carry_pending = False
        st = self._opts.get(self._primary) if self._primary is not None else None
        opt = st.ref() if st is not None else None
        if opt is None:
            return
        params = [p for g in opt.param_groups for p in g["params"] if p.requires_grad][:4]
        grads = [p.grad for p in params if p.grad is not None and not p.grad.is_sparse]
        self._carried = (params, _total(grad_norms(grads)) if grads else 0.0)

    def _on_backward(self, t: torch.Tensor) -> None:
        if t.numel() != 1 or not t.is_floating_point():
            return
        self._fwd_group += 1
        if self._carry_pending and self._sampled:
            self._measure_carried()
        if self._closure_tail is not None:
            return  # a closure evaluated again within one step (LBFGS line search): not a new loss
        if self._primary is None and self._backward_since_step and not self._bw_clock:
            self._bw_waiting += 1
            # Backwards with no optimizer step: gradient accumulation towards a first step,
            # or a loop that updates the weights by hand. The latter when no torch.optim
            # optimizer holds the model's parameters (one scan of live objects, once), or
            # after 256 backwards whatever holds them.
            if (self._bw_waiting == 1 and not self._an_optimizer_holds_the_model()) or self._bw_waiting >= 256:
                self._start_backward_clock()
        entry = self._scaled.get(id(t))
        if entry is not None and entry[0]() is t:
            value = entry[1]
        else:
            value = t.detach()
        self._losses.append(value.reshape(()))
        self._backward_since_step = True
        self._assign_batch()

    def _on_root_forward(self, module: torch.nn.Module, args: tuple, kwargs: dict) -> None:
        """A forward of the model in training, in a loop with no DataLoader (nanoGPT's
        ``get_batch``, a tensor sliced by hand): the step's batch is what reaches the model,
        its arguments, plus the targets the loss functions are then given. References
        only (the bundle copies them on a trigger); up to 8 forwards a step."""
        if not torch.is_grad_enabled() or not module.training:
            return
        self._train_fwds += 1
        if self.step < LEAK_STEPS and not self._leak_found:
            self._leak_inputs = [(f"argument {i}", a) for i, a in enumerate(args) if isinstance(a, torch.Tensor)] + \
                [(f"argument {k!r}", a) for k, a in kwargs.items() if isinstance(a, torch.Tensor)]
        if self._loader_used or self._fwd_count >= 8:
            return
        prev = self._fwd_batch
        if prev is not None and len(prev["args"]) == len(args) and all(a is b for a, b in zip(prev["args"], args)):
            return  # the same call seen twice (the discovery call and the model's own hook)
        self._fwd_count += 1
        batch = {"args": list(args), "kwargs": dict(kwargs), "targets": []}
        rec = self.capture.record(batch, None)
        if rec is not None:
            rec[2]["group"] = self._fwd_group  # a siamese/contrastive step: several forwards, one backward
        self._fwd_batch = batch
        self.capture.use(rec)

    def _on_backward_end(self, t: torch.Tensor) -> None:
        """After ``backward()``: with the backward clock, the step ends here (the weights
        are updated by the script's own code next, with these gradients)."""
        if self._bw_clock and self._primary is None and self._closure_tail is None and self._losses:
            self._finish_backward_step()

    def _counts_autograd_grad(self, inputs: tuple) -> bool:
        """Is ``torch.autograd.grad(loss, inputs)`` this loop's training step? Decided once, at
        the first call, by one scan of live optimizers: yes when none holds the tensors
        differentiated against nor the watched model's parameters (a JAX-style loop,
        ``p -= lr * g``); no for a gradient with respect to inputs (FGSM, saliency) or a
        functional inner loop next to an optimizer (MAML)."""
        if self._primary is not None:
            return False
        if self._ag_counts is None:
            leaves = bool(inputs) and all(isinstance(p, torch.Tensor) and p.is_leaf and p.requires_grad
                                          for p in inputs)
            model_held = bool(self._live_roots()) and self._an_optimizer_holds_the_model()
            self._ag_counts = leaves and not model_held and not self._an_optimizer_holds_the_model(
                {id(p) for p in inputs})
        return self._ag_counts

    def _on_autograd_grad_end(self, t: torch.Tensor, inputs: tuple, grads: Any) -> None:
        """After a counted ``torch.autograd.grad(loss, params)`` (see _counts_autograd_grad):
        the gradients are the returned ones, the parameters the tensors differentiated
        against; one call is one step (backward clock)."""
        if self._primary is not None or not self._losses:
            return
        self._ag_grads = [(p, g) for p, g in zip(inputs, grads)
                          if isinstance(g, torch.Tensor) and not g.is_sparse and g.is_floating_point()]
        if not self._bw_clock:
            self._start_backward_clock(pending_only=True)
        self._on_backward_end(t)
        self._ag_grads = None  # consumed by the step, or dropped: never held past this call

    def _an_optimizer_holds_the_model(self, params: set[int] | None = None) -> bool:
        import gc

        if params is None:
            params = {id(p) for _, m in self._live_roots() for p in m.parameters()}
        if not params:
            return True  # nothing known yet: wait for an optimizer
        with warnings.catch_warnings():  # isinstance on deprecated module attributes warns
            warnings.simplefilter("ignore")
            for o in gc.get_objects():
                # type(), not isinstance(): isinstance on a dead weakref.proxy raises ReferenceError
                if issubclass(type(o), torch.optim.Optimizer) and any(
                        id(p) in params for g in o.param_groups for p in g["params"]):
                    return True
        return False

    def _start_backward_clock(self, pending_only: bool = False) -> None:
        """``pending_only``: the current backward's loss stays for its own step (its gradients
        are known: torch.autograd.grad returned them)."""
        self._bw_clock = True
        self.writer.meta("step_clock", {
            "kind": "backward", "from_step": self.step,
            "why": "no torch.optim optimizer stepped: one backward() (or torch.autograd.grad of the loss) "
                   "is counted as one step"})
        pending, self._losses = self._losses, []
        current = pending.pop() if pending_only and pending else None
        ag, self._ag_grads = self._ag_grads, None
        for loss in pending:  # the backwards before this one: one step each, their loss only
            self._losses = [loss]
            self._finish_backward_step(grads=False)
        if current is not None:
            self._losses, self._ag_grads = [current], ag

    def _finish_backward_step(self, grads: bool = True) -> None:
        params, pnames = [], []
        ag, self._ag_grads = self._ag_grads, None
        if grads and ag:  # torch.autograd.grad: the gradients it returned, not .grad
            for i, (p, g) in enumerate(ag):
                params.append(p)
                pnames.append(self._param_names.get(id(p), f"param{i}"))
            self._ag_by_id = {id(p): g for p, g in ag}
        elif grads:
            for _, m in self._live_roots():
                for p in m.parameters():
                    if p.grad is not None and not p.grad.is_sparse:
                        params.append(p)
                        pnames.append(self._param_names.get(id(p), f"param{len(params)}"))
        loss = torch.stack([x.float() for x in self._losses]).sum()
        self._losses = []
        self._backward_since_step = False
        self._bw_waiting = 0
        names, tensors = ["loss"], [loss]
        norms = grad_norms([self._grad_of(p) for p in params])
        counts = {"grad_tensors": float(len(params))} if self._sampled and grads else {}
        if norms:
            tensors.append(torch.stack(norms))
            names.extend(f"grad_norm/{n}" for n in pnames)
        if self._preclip:
            names.append("grad_norm_preclip")
            tensors.append(self._preclip[-1])
            self._preclip = []
        self._finish_record(names, tensors, counts, params, pnames, norms)
        self._ag_by_id = {}
        if self._sampled:
            self.sampler.mark_sampled(self.step)
            self.sampler.observe(0.0, self._extra_time)
            self._describe_models()
        self.capture.end_step(self.step)
        self.step += 1
        self._begin_step()

    def _on_opt_pre_hook(self, opt: torch.optim.Optimizer, args: tuple, kwargs: dict) -> tuple | None:
        """The optimizer step pre-hook. A step given a closure (LBFGS, Lightning's automatic
        optimization) runs forward and backward inside ``step``: the record is taken when
        the closure's first evaluation returns (gradients there, weights not yet changed),
        and further evaluations of it in the same step (a line search) are not new losses.
        Returns the arguments with the closure wrapped, or None to leave them."""
        # An optimizer subclass whose step() calls super().step() runs two hooked steps, one
        # inside the other: only the outer one is this optimizer's step.
        at = self._step_nest.get(id(opt))
        if at is not None and at[0] == self.step:
            self._step_nest[id(opt)] = (self.step, at[1] + 1)
            return None
        self._step_nest[id(opt)] = (self.step, 1)
        # args[0] is the optimizer itself (torch calls the hooks with the step's own args)
        closure = kwargs.get("closure", args[1] if len(args) > 1 else None)
        if self._bw_clock:  # an optimizer after all: back to its clock
            self._bw_clock = False
            self.writer.event(self.step, "step-clock", "an optimizer stepped: steps follow it again", {})
        if not callable(closure):
            self._on_opt_pre(opt)
            return None
        mon = self

        def wrapped():
            first = id(opt) not in mon._pre_done and mon._closure_tail is None
            out = closure()
            if first:
                mon._pre_done.add(id(opt))
                mon._guard("optimizer-pre", mon._on_opt_pre, opt)
                mon._closure_tail = opt
            return out

        if "closure" in kwargs:
            return args, {**kwargs, "closure": wrapped}
        return (args[0], wrapped, *args[2:]), kwargs

    def _note_skipped_losses(self, values: dict[str, float], fn_vals: list[float]) -> None:
        """A loss function's output that was non-finite while the backpropagated loss was
        finite (or absent): the script's own check skipped it (``if torch.isnan(loss):
        continue``), so the run looked healthy. Recorded as ``loss/skipped`` with an event
        naming the skipped batch's dataset indices; it triggers like a non-finite loss."""
        bad = [v for v in fn_vals if not math.isfinite(v)]
        loss = values.get("loss")
        if not bad or (loss is not None and not math.isfinite(loss)):
            return
        values["loss/skipped"] = bad[0]
        idx = [int(i) for a in self._unused_idx for i in a.tolist()][:4096]
        self._unused_idx = []
        self.writer.event(self.step, "loss-skipped",
                          f"{len(bad)} non-finite loss(es) computed and never backpropagated before step {self.step}",
                          {"count": len(bad), "value": bad[0], "indices": idx})

    def _eval_tensors(self, names: list[str], tensors: list[torch.Tensor]) -> list[str]:
        """Append each evaluation loader's mean loss to the step's gather; returns the names."""
        out = []
        for name, ev in self._eval.items():
            if ev:
                tensors.append(torch.stack([e.to(ev[0].device) for e in ev]).mean().reshape(1))
                names.append(name)
                out.append(name)
        self._eval = {}
        return out

    def _on_scale(self, scaler: Any, outputs: Any, out: Any) -> None:
        if not any(r() is scaler for r in self._scalers):
            self._scalers.append(weakref.ref(scaler))
        if isinstance(outputs, torch.Tensor) and isinstance(out, torch.Tensor):
            if len(self._scaled) > 64:
                self._scaled = {k: v for k, v in self._scaled.items() if v[0]() is not None}
            self._scaled[id(out)] = (weakref.ref(out), outputs.detach())

    def _on_scaler_step_begin(self, scaler: Any, opt: torch.optim.Optimizer) -> None:
        st = self._opt_state(opt)
        if st is not None:
            st.fired = False

    def _on_scaler_step_end(self, scaler: Any, opt: torch.optim.Optimizer) -> None:
        st = self._opt_state(opt)
        if st is not None and not st.fired:
            # GradScaler found inf/NaN and skipped optimizer.step(): still a step.
            self._on_opt_pre(opt, skipped=True)
            self._on_opt_post(opt)

    def _on_clip(self, total: Any) -> None:
        if isinstance(total, torch.Tensor) and total.numel() == 1:
            self._preclip.append(total.detach().reshape(()))

    def _on_batch(self, it: Any, batch: Any, idx: Any, dt: float) -> None:
        if id(it) not in self._loaders_seen:
            self._loaders_seen.add(id(it))
            ds = getattr(it, "_dataset", None)
            info: dict[str, Any] = {"dataset": type(ds).__name__, "num_workers": getattr(it, "_num_workers", None),
                                    "pin_memory": getattr(it, "_pin_memory", None)}
            try:
                info["length"] = len(ds)  # type: ignore[arg-type]
            except Exception:  # noqa: BLE001 - iterable datasets have no length
                info["length"] = None
            self.writer.meta(f"loader/{len(self._loaders_seen) - 1}", info)
            info["batch_size"] = getattr(getattr(it, "_index_sampler", None), "batch_size", None)
            self._loader_info[id(it)] = info
        if not torch.is_grad_enabled():  # an evaluation loop: not part of the training step
            if id(it) not in self._eval_loaders:  # one series per evaluation loader (train/val splits apart)
                k = len(self._eval_loaders)
                self._eval_loaders[id(it)] = "loss/eval" if k == 0 else f"loss/eval{k}"
                self.writer.meta(f"eval_loader/{self._eval_loaders[id(it)]}", self._loader_info.get(id(it), {}))
            self._eval_loader = self._eval_loaders[id(it)]
            return
        self._data_time += dt
        self._loader_used = True
        arr = None
        if idx is not None:
            arr = np.asarray(idx if isinstance(idx, (list, tuple)) else [idx])
            arr = arr.astype(np.int64, copy=False) if arr.dtype.kind in "iu" else None
        self._train_loader = self._loader_info.get(id(it))
        # references, RNG state and tensor versions at hand-over, no copy; which step the
        # batch belongs to is decided at the backward it reaches (see _assign_batch)
        self._draws.append(_Draw(id(it), arr, self.capture.record(batch, arr)))

    def _on_loader_end(self, it: Any) -> None:
        if torch.is_grad_enabled() and (not self._draws or self._draws[-1] is not None):
            self._draws.append(None)  # the iterator is exhausted or restarted: an epoch boundary

    def _assign_batch(self, backward: bool = True) -> None:
        """The batch this backward computed on, among those the DataLoader handed out.

        A loop that draws a batch and then computes on it uses the latest draw. A loader
        wrapped by a prefetcher (Hugging Face Accelerate's DataLoaderShard, Lightning's
        fetcher) draws one batch ahead: at every backward the batch in use is the one drawn
        ``lag`` draws before the latest, counting the end of an epoch as a draw (the
        prefetcher's last batch comes with the iterator's end, not a new draw). ``lag`` is
        read once, at the first backward: the draws made by the latest iterator, minus one
        (a batch peeked from another iterator before the loop does not count). Batches
        drawn but never backpropagated (a script that skips a NaN loss) go with the step too:
        their indices as unused, their data into the bundle."""
        draws = self._draws
        if not draws:
            return
        if self._lag is None:
            n = 0  # the draws of the current epoch of the latest iterator
            for d in reversed(draws):
                if d is None:
                    break
                n += 1
            self._lag = max(0, n - 1)
            if self._lag:
                self.writer.meta("loader_prefetch", {"lag": self._lag,
                                                     "why": f"{n} batches drawn before the first backward"})
        pos = len(draws) - 1 - self._lag
        while pos > 0 and draws[pos] is None:
            pos -= 1
        if pos >= 0 and draws[pos] is not None and draws[pos].used:
            # Taken already: a loader that fetches a step's micro-batches at once (the HF
            # Trainer under gradient accumulation) hands the next one out in order; else it
            # is a second backward on the same batch (a GAN's two losses, retain_graph).
            later = [i for i in range(pos + 1, len(draws) - self._lag + (1 if self._lag else 0))
                     if draws[i] is not None and not draws[i].used]
            if not later:
                return
            pos = later[0]
        cur = draws[pos] if pos >= 0 else None
        if cur is None or cur.used:
            return
        if not backward:  # the script ends mid-step: the batch in use goes to its bundle
            for d in list(draws)[: pos + 1]:
                if d is not None and not d.used:
                    d.used = True
                    self.capture.use(d.rec)
            return
        latest_rec = next((d.rec for d in reversed(draws) if d is not None), None)
        for d in list(draws)[: pos + 1]:
            if d is None or d.used:
                continue
            d.used = True
            if d is not cur:  # drawn, never backpropagated
                if d.idx is not None:
                    self._unused_idx.append(d.idx)
                    del self._unused_idx[:-8]
                self.capture.use(d.rec)
        if cur.idx is not None:
            self._indices.append(cur.idx)
        # the RNG state the forward started from: the latest draw came right before it
        self.capture.use(cur.rec, rng_from=latest_rec)
        while len(draws) > 2 * self._lag + 2 and (draws[0] is None or draws[0].used):
            draws.popleft()

    def _on_loss_fn(self, name: str, input: Any, target: Any, out: Any) -> None:
        if not isinstance(out, torch.Tensor) or out.numel() != 1:
            return
        if not torch.is_grad_enabled():
            ev = self._eval.setdefault(self._eval_loader, [])
            if len(ev) < 100_000:  # bounded: a very long evaluation keeps its first 100 000 losses
                ev.append(out.detach().float().reshape(()))
            return
        if len(self._fn_losses) >= 64:  # bounded: a loop that never steps keeps its last 64
            del self._fn_losses[:32]
        self._fn_losses.append(out.detach().reshape(()))
        if self._leak_inputs and self.step < LEAK_STEPS and isinstance(target, torch.Tensor):
            self._check_leak(name, target)
        fb = self._fwd_batch
        if fb is not None and isinstance(target, torch.Tensor) and len(fb["targets"]) < 4:
            fb["targets"].append(target)  # the loss's target, when it never went through the model
        if name not in self._loss_fns_seen:
            self._describe_loss_fn(name, input, target)
        if not isinstance(target, torch.Tensor):
            return
        if name in ("cross_entropy", "nll_loss") and not target.is_floating_point():
            t = target.detach().reshape(-1)
            self._add_label_counts(torch.bincount(t.clamp(min=0), weights=(t >= 0).float()))
        elif (name.startswith("binary_cross_entropy") and target.is_floating_point()
              and (target.dim() == 1 or (target.dim() == 2 and target.shape[1] == 1))):
            # one binary label per sample (multi-label targets have no single class prior)
            t = target.detach().reshape(-1)
            pos = (t >= 0.5).sum().float()
            self._add_label_counts(torch.stack([t.numel() - pos, pos]))

    def _check_leak(self, name: str, target: torch.Tensor) -> None:
        """During the first LEAK_STEPS steps: is the loss's target one of the model's own
        inputs (``y = x``: an unshifted next-token target), or a column of a table the
        model receives (the label among the features)? Exact equality only; integer targets
        for the first (a float target equal to the input is an autoencoder). Costs one
        comparison per input for 20 steps (a sync on GPU), then nothing."""
        t = target.detach()
        for where, x in self._leak_inputs:
            if x.device != t.device or x.numel() < 2:
                continue
            if not t.is_floating_point() and not x.is_floating_point() and x.numel() == t.numel() \
                    and x.numel() >= 8 and torch.equal(x.reshape(-1), t.reshape(-1)):
                what = f"the target of {name} is the model's {where} itself (y = x)"
            elif x.ndim == 2 and x.shape[0] >= 8 and x.shape[1] > 1 and t.numel() == x.shape[0] \
                    and t.dtype != torch.bool:
                same = (x == t.reshape(-1, 1).to(x.dtype)).all(0)
                if not bool(same.any()):
                    continue
                what = f"the target of {name} is column {int(same.nonzero()[0])} of the model's {where}"
            else:
                continue
            self._leak_found = True
            self._leak_inputs = []
            self.writer.event(self.step, "target-in-input", what, {"loss_fn": name, "input": where})
            return

    def _add_label_counts(self, counts: torch.Tensor) -> None:
        lc = self._label_counts
        if lc is None or lc.device != counts.device:
            self._label_counts = counts
        else:
            n = max(len(lc), len(counts))
            self._label_counts = torch.nn.functional.pad(lc, (0, n - len(lc))) + torch.nn.functional.pad(
                counts, (0, n - len(counts)))

    def _describe_loss_fn(self, name: str, input: Any, target: Any) -> None:
        """Once per loss function: what it was given (the loss-mismatch rule reads it). The
        target's range goes through the step's gather: no sync of its own."""
        self._loss_fns_seen.add(name)

        def desc(t: Any) -> Any:
            return {"shape": list(t.shape), "dtype": str(t.dtype).replace("torch.", "")} if isinstance(
                t, torch.Tensor) else type(t).__name__

        self.writer.meta(f"loss_function/{name}", {"step": self.step, "input": desc(input), "target": desc(target)})
        if isinstance(target, torch.Tensor) and target.is_floating_point() and target.numel():
            t = target.detach().float().reshape(-1)
            stats = torch.stack([t.min(), t.max(), (t == t.round()).float().mean()])
            self._deferred.append((self.step, [f"loss_fn/{name}/target_{k}" for k in ("min", "max", "integral")],
                                   [stats]))

    def _note_autocast(self) -> None:
        """Record each autocast state the model's forward runs under (a few Python calls
        per forward of the root model; no tensor work)."""
        state = []
        for dev in ("cuda", "cpu"):
            try:
                on = torch.is_autocast_enabled(dev)
                dtype = torch.get_autocast_dtype(dev) if on else None
            except (TypeError, AttributeError):  # torch < 2.4
                on = torch.is_autocast_enabled() if dev == "cuda" else torch.is_autocast_cpu_enabled()
                dtype = (torch.get_autocast_gpu_dtype() if dev == "cuda" else torch.get_autocast_cpu_dtype()) if on else None
            if on:
                state.append((dev, str(dtype).replace("torch.", "")))
        key = tuple(state)
        if key not in self._autocast:  # each state once (eval forwards often run outside autocast)
            self._autocast.add(key)
            self.writer.event(self.step, "autocast", ", ".join(f"{d} {t}" for d, t in state) or "off",
                              {d: t for d, t in state})

    def _on_scheduler(self, sched: Any) -> None:
        if id(sched) in self._schedulers_seen:
            return
        self._schedulers_seen.add(id(sched))
        self.writer.event(self.step, "scheduler", type(sched).__name__, context.scheduler_summary(sched))

    def _find_schedulers(self, opt: torch.optim.Optimizer) -> None:
        """Schedulers made before the monitor started (``watch()`` around the loop only):
        found once per optimizer among the objects that refer to it."""
        import gc

        from torch.optim.lr_scheduler import LRScheduler

        for ref in gc.get_referrers(opt):
            cands = [ref] if isinstance(ref, LRScheduler) else (
                [o for o in gc.get_referrers(ref) if isinstance(o, LRScheduler)] if isinstance(ref, dict) else [])
            for sched in cands:
                if getattr(sched, "optimizer", None) is opt:
                    self._on_scheduler(sched)

    def _on_opt_pre(self, opt: torch.optim.Optimizer, skipped: bool = False) -> None:
        st = self._opt_state(opt)
        if st is None:
            return
        st.fired = True
        if not st.described:
            st.described = True
            self.writer.meta(f"optimizer/{st.index}", context.optimizer_summary(st.index, opt))
            self._find_schedulers(opt)
            self._describe_models()
        primary = id(opt) == self._primary
        tag = "" if primary else f"/opt{st.index}"
        names: list[str] = []
        tensors: list[torch.Tensor] = []
        lrs: dict[str, float] = {}  # host-side values: learning rates, counts
        # loss: what was backpropagated since this optimizer's last chance to see it
        if self._losses:
            loss = torch.stack([l.to(self._losses[0].device).float() for l in self._losses]).sum()
            self._last_loss = loss
            fn = self._fn_losses
            n = len(self._losses)
            if primary and self._sampled and n >= 2 and len(fn) == n and \
                    max(self._train_fwds, len(self._indices)) >= n:  # a batch per backward, not loss_a + loss_b
                # gradient accumulation: what was backpropagated against what the loss
                # functions returned; 1/k when each micro-batch loss is divided by k, 1 when not
                lrs["accum/backwards"] = float(len(self._losses))
                names.append("accum/scale")
                tensors.append(loss / torch.stack([x.to(loss.device).float() for x in fn]).sum())
            self._losses = []
        elif not self._backward_since_step and self._last_loss is not None:
            loss = self._last_loss  # a second optimizer stepping on the same backward
        else:
            loss = None
        self._backward_since_step = False
        if loss is not None:
            names.append("loss" + tag)
            tensors.append(loss)
        # gradients: per-parameter norms in one fused pass
        params, pnames = [], []
        for gi, g in enumerate(opt.param_groups):
            for pi, p in enumerate(g["params"]):
                if p.grad is not None and not p.grad.is_sparse:
                    params.append(p)
                    pnames.append(self._param_name(p, st.index, gi, pi))
        norms = grad_norms([p.grad for p in params])
        if self._sampled:  # a count, no sync: 0 on every step means the loss never reaches these params
            lrs["grad_tensors" + tag] = float(len(params))
        if primary and self._sampled and self._carried is not None:
            cparams, carried = self._carried
            now = [p.grad for p in cparams if p.grad is not None and not p.grad.is_sparse]
            if now:
                names.extend(["grad_carried", "grad_carried_ref"])
                ref = _total(grad_norms(now))
                tensors.append(torch.stack([torch.as_tensor(carried, dtype=torch.float32).to(ref.device), ref]))
        if norms:
            tensors.append(torch.stack(norms))
            names.extend(f"grad_norm/{n}" for n in pnames)
        if self._preclip:
            names.append("grad_norm_preclip" + tag)
            tensors.append(self._preclip[-1])
            self._preclip = []
        for i, ref in enumerate(self._scalers):
            sc = ref()
            if sc is not None and getattr(sc, "_scale", None) is not None:
                names.append("scaler/scale" if i == 0 else f"scaler{i}/scale")
                tensors.append(sc._scale.reshape(-1)[:1])
        if self._sampled:
            t0 = self._clock()
            uf = underflow_fraction([p.grad for p in params])
            if uf:
                tensors.append(torch.stack(uf))
                names.extend(f"grad_underflow/{n}" for n in pnames)
            self._before_params = [p for p in params]
            self._before = [p.detach().clone() for p in params]
            self._extra_time += self._clock() - t0
        for gi, g in enumerate(opt.param_groups):
            lr = g.get("lr")
            if isinstance(lr, torch.Tensor):
                names.append(f"lr/{st.index}/{gi}")
                tensors.append(lr.detach().reshape(-1)[:1])
            elif lr is not None:
                lrs[f"lr/{st.index}/{gi}"] = float(lr)
        if not primary:
            self._deferred.append((self.step, names, tensors))
            if lrs:
                self.writer.scalars(self.step, lrs)
            return
        self._finish_record(names, tensors, lrs, params, pnames, norms, skipped)

    def _finish_record(self, names: list[str], tensors: list[torch.Tensor], lrs: dict[str, float],
                       params: list[torch.Tensor], pnames: list[str], norms: list[torch.Tensor],
                       skipped: bool = False) -> None:
        """The primary step's record: the one gather, the writes, the triggers (and the
        bundle, written before the parameters change)."""
        now = self._clock()
        step_time = None if self._t_last is None else now - self._t_last
        self._t_last = now
        if step_time is not None and not self._sampled:
            self.sampler.observe(step_time, None)
        if self._act_vals:
            names.extend(self._act_names)
            tensors.append(torch.stack([v.float().reshape(()) for v in self._act_vals]))
        eval_names = self._eval_tensors(names, tensors)
        fn_losses = self._fn_losses
        if fn_losses:  # losses the loss functions computed this step (some perhaps never backpropagated)
            names.extend(f"_fn_loss/{i}" for i in range(len(fn_losses)))
            tensors.append(torch.stack([x.to(fn_losses[0].device).float() for x in fn_losses]))
            self._fn_losses = []
        flat = gather(tensors)  # note: the one CPU-GPU sync of the step
        values = dict(zip(names, flat))
        self._flush_deferred()
        values.update(lrs)
        if norms:
            for p, n in zip(params, pnames):
                if values[f"grad_norm/{n}"] == math.inf:
                    # float32 overflows once |g| passes ~1e19 (the sum of squares passes 3.4e38):
                    # recompute in float64 (exact for any finite float32/16 gradient) so a finite
                    # gradient is never counted as non-finite. Rare; a sync and a read of p.grad.
                    values[f"grad_norm/{n}"] = float(torch.linalg.vector_norm(self._grad_of(p).detach().double()))
            g = [values[f"grad_norm/{n}"] for n in pnames]
            bad = sum(1 for x in g if not math.isfinite(x))
            values["grad_norm"] = math.sqrt(sum(x * x for x in g)) if not bad else float("nan")
            values["grad_nonfinite"] = float(bad)
            if not self.per_param:
                for n in pnames:
                    del values[f"grad_norm/{n}"]
        if skipped:
            values["scaler/skipped"] = 1.0
        if step_time is not None:
            values["time/step"] = step_time
            values["time/data"] = self._data_time
        if self._sampled:
            values["sampled"] = 1.0
        if eval_names:
            # evaluation ran after the previous step: it describes the model after it
            self.writer.scalars(self.step - 1, {n: values.pop(n) for n in eval_names})
        fn_vals = [values.pop(f"_fn_loss/{i}") for i in range(len(fn_losses))]
        self._note_skipped_losses(values, fn_vals)
        self.writer.scalars(self.step, values)
        if self._indices:
            self.writer.indices(self.step, np.concatenate(self._indices))
        self._check_anomaly(values)
        # triggers on the host floats above (no sync); a bundle is written before the step
        trig = values if "loss/skipped" not in values else {**values, "loss": values["loss/skipped"]}
        self._guard("bundle", self.capture.check, self.step, trig, bool(skipped))
        self._guard("snapshot", self.capture.maybe_snapshot, self.step)

    def _check_anomaly(self, values: dict[str, float]) -> None:
        loss = values.get("loss")
        bad_loss = loss is not None and not math.isfinite(loss)
        bad_grad = values.get("grad_nonfinite", 0.0) > 0
        if (bad_loss or bad_grad) and not values.get("scaler/skipped"):
            self._anomalies += 1
            if self._anomalies <= 20:
                what = "loss" if bad_loss else "gradient"
                self.writer.event(self.step, "anomaly", f"non-finite {what} at step {self.step}",
                                  {"loss": loss, "grad_nonfinite": values.get("grad_nonfinite")})
            if self._anomalies <= 3:  # a run that keeps training on NaN is not sampled at every step
                self.sampler.force(self.step + 3)

    def _flush_deferred(self) -> None:
        if not self._deferred and self._label_counts is None:
            return
        tensors = [t for _, _, ts in self._deferred for t in ts]
        flat = gather(tensors)
        pos = 0
        for step, names, ts in self._deferred:
            n = sum(t.numel() for t in ts)
            self.writer.scalars(step, dict(zip(names, flat[pos : pos + n])))
            pos += n
        self._deferred = []
        if self._label_counts is not None and (self._sampled or self._closed):
            counts = self._label_counts.tolist()
            self.writer.event(self.step, "labels", "label histogram since the previous one",
                              {"counts": {str(i): c for i, c in enumerate(counts) if c}})
            self._label_counts = None

    def _on_opt_post(self, opt: torch.optim.Optimizer) -> None:
        at = self._step_nest.get(id(opt))
        if at is not None and at[1] > 1 and at[0] == self.step:
            self._step_nest[id(opt)] = (at[0], at[1] - 1)  # the inner step of a nested pair
            return
        self._step_nest.pop(id(opt), None)
        self._closure_tail = None
        if id(opt) in self._pre_done:
            self._pre_done.discard(id(opt))
        st = self._opts.get(id(opt))
        if st is None:
            return
        if id(opt) != self._primary:
            return
        self._carry_pending, self._carried = True, None
        if self._sampled and self._before and self._before_params:  # empty: no param had a gradient
            t0 = self._clock()
            after = [p.detach() for p in self._before_params]
            delta = torch._foreach_sub(after, self._before)
            dn = grad_norms(delta)
            pn = grad_norms(after)
            flat = gather([torch.stack(dn), torch.stack(pn)])  # sampled steps only: a second sync
            k = len(dn)
            names = [self._param_names.get(id(p), f"param{i}") for i, p in enumerate(self._before_params)]
            vals: dict[str, float] = {}
            tot_d = tot_p = 0.0
            for i, n in enumerate(names):
                d, w = flat[i], flat[k + i]
                vals[f"param_norm/{n}"] = w
                vals[f"update_ratio/{n}"] = d / w if w > 0 else (0.0 if d == 0 else float("inf"))
                tot_d += d * d
                tot_p += w * w
            vals["param_norm"] = math.sqrt(tot_p)
            vals["update_ratio"] = math.sqrt(tot_d) / math.sqrt(tot_p) if tot_p > 0 else float("nan")
            self._before = None
            self._before_params = None
            self._extra_time += self._clock() - t0
            self.writer.scalars(self.step, vals)
        if self._sampled:
            self.sampler.mark_sampled(self.step)
            self.sampler.observe(0.0, self._extra_time)
            self._describe_models()
        self.capture.end_step(self.step)
        self.step += 1
        self._begin_step()


def _total(norms: list[torch.Tensor]) -> torch.Tensor:
    """The global norm of per-tensor norms that may sit on different devices (model parallel)."""
    return torch.stack([n.to(norms[0].device) for n in norms]).square().sum().sqrt()


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
