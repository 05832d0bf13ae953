"""``traindoc replay BUNDLE``: re-run a bad step with the user's own code, and take it apart.

The bundle holds tensors and JSON only; the model's code is the user's script. So replay
re-executes the script (same argv and working directory) in *replay mode*:

- ``DataLoader.__iter__`` of the loader the run trained on (matched by dataset class and
  length) returns an iterator that serves the bundled batch, or a part of it, instead of
  reading data: the script's dataset may be built, but no training batch is drawn;
- at each batch handed over, the bundled RNG states are restored and the bundled
  parameters and buffers are loaded into the model (found at its first forward by class
  and parameter names), so every test starts from the state before the bad step;
- the script's own code computes the forward and the loss, and calls ``backward`` (its
  autocast, hand-written losses and preprocessing included); a ``TorchDispatchMode``
  (:class:`~traindoc.forensics.watch.Instrument`) watches every op from the batch hand-over
  to the end of ``backward``; after ``backward`` the loss and gradients are zeroed so the
  script's own "stop on NaN" checks let the loop go on to the next test;
- the tests come from a plan that runs in a helper thread: the whole batch, group testing
  over its samples (:func:`~traindoc.forensics.bisect.find_bad_samples`), each bad sample
  alone (its loss and gradient norm), then the triage: the batch from the earlier
  snapshot, and the previous step's batch from this state. When they are done the script
  is stopped; if it stops by itself first (it exits on a NaN before ``backward``), it is
  re-run for the remaining tests.

Side effects: the script runs again up to its training loop, inside the operating-system
sandbox of :mod:`traindoc.sandbox` (started by :mod:`.isolate`): whatever it writes, deletes
or truncates outside the replay's scratch folder never reaches the user's files. As a
second line inside it, optimizer steps and ``torch.save`` are no-ops (:mod:`.patches`).
The script's output goes to ``replay.log``; results go to ``forensics.json``, both moved into
the bundle by the unsandboxed parent. ``traindoc diagnose`` reads them.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import queue
import runpy
import sys
from pathlib import Path
from typing import Any, Callable

import torch

from ..errors import UserError
from .bisect import batch_size_of, slice_batch
from .bundle import Bundle, groups_of, restore_rng
from .isolate import script_file
from .patches import install
from .plan import Result, Test, _Done, _NextRun, _Plan, _Stray
from .watch import Instrument

MAX_SCRIPT_RUNS = 30


class Driver:
    """Replay mode for one script run after another, until the plan has run."""

    def __init__(self, bundle: Bundle) -> None:
        self.b = bundle
        self.batches = bundle.batches("batch")
        self.prev = bundle.batches("prev_batch") if bundle.meta.get("prev_batches") else []
        self.rngs = bundle.rng()
        self.states = {"model": bundle.load("model.pt"), "earlier": bundle.load("earlier.pt")}
        self.scales = bundle.meta.get("scaler_scales") or []
        self.loader_meta = bundle.meta.get("loader") or {}
        self.roots_meta = bundle.meta.get("roots") or []
        self.roots: dict[str, torch.nn.Module] = {}
        self.loader: Any = None
        self.test: Test | None = None
        self.result: Result | None = None
        self.instrument: Instrument | None = None
        self.to_load: str | None = None
        self.served = 0
        self.lag = int(bundle.meta.get("loader_prefetch_lag") or 0)  # see _NextRun
        self.forward_mode = bundle.meta.get("batch_source") == "forward"  # see substitute()
        # forward mode: a test is the forwards one backward consumed (see Bundle.groups)
        self.groups = {"batch": bundle.groups(),
                       "prev_batch": groups_of(bundle.meta.get("prev_batches") or [])} if self.forward_mode else None
        self.fwd_i = 0  # which of the test's forwards is being served
        self.fwd_open = False  # the test's forwards go on until its backward
        self.targets: list[Any] = []
        self.extra_draws = 0
        self.plan: _Plan | None = None
        self.undo: list[Callable[[], None]] = []
        self.scalers: list[Any] = []  # the script's GradScalers, given the bundled scale (see patches)

    # ---------------------------------------------------------------- serving tests
    def _pos(self, t: Test, k: int = 0) -> int:
        """Index in the bundle's batches of the test's k-th forward (forward mode), else its batch."""
        if self.groups is None:
            return t.mb
        g = self.groups[t.source][t.mb]
        return g[min(k, len(g) - 1)]

    def batch_for(self, t: Test) -> Any:
        src = self.batches if t.source == "batch" else self.prev
        batch, indices = src[self._pos(t, self.fwd_i)]
        if batch is None:  # a type the bundle could not store: rebuild from the dataset
            if indices is None or self.loader is None:
                raise UserError("the bundle holds neither the batch nor its dataset indices")
            ds, collate = self.loader.dataset, self.loader.collate_fn
            idx = indices if t.positions is None else [indices[i] for i in t.positions]
            return collate([ds[i] for i in idx])
        if t.positions is None:
            return batch
        return slice_batch(batch, t.positions)

    def next_batch(self) -> Any:
        if self.lag and self.test is not None:
            self.extra_draws += 1
            if self.extra_draws <= self.lag:  # the prefetcher's draw ahead: the same batch again
                batch = self.batch_for(self.test)
                rngs = self.rngs if self.test.source == "batch" else []
                if self.test.mb < len(rngs):
                    restore_rng(rngs[self.test.mb])  # the last draw before the forward wins
                return batch
            self.finish()  # drawn past the test's batch without a backward (a script that skips it)
            raise _NextRun()
        self.extra_draws = 0
        return self._begin_test()

    def _begin_test(self) -> Any:
        """Finish the running test, take the plan's next one, set it up (RNG, weights, op
        watch); returns its batch."""
        self.finish()
        test = self.plan.requests.get()
        if test is None:
            raise _Done()
        self.test, self.result = test, Result()
        self.served += 1
        self.fwd_i = 0
        batch = self.batch_for(test)
        self.result.batch_size = batch_size_of(batch)
        rngs = self.rngs if test.source == "batch" else []
        if self._pos(test) < len(rngs):
            restore_rng(rngs[self._pos(test)])
        self.to_load = test.state
        if self.roots:
            self.load_state()
        if test.watch:
            self.instrument = Instrument(batch_size=self.result.batch_size)
            self.instrument.start()
        return batch

    def load_state(self) -> None:
        state = self.states.get(self.to_load or "model")
        self.to_load = None
        if state is None:
            return
        with torch.no_grad():
            for prefix, m in self.roots.items():
                sub = {k[len(prefix):]: v for k, v in state.items() if k.startswith(prefix)}
                if prefix == "":
                    keys = set(self.roots_meta[0]["keys"])
                    sub = {k: v for k, v in sub.items() if k in keys}
                m.load_state_dict(sub, strict=False)
        for sc in self.scalers:
            if self.scales and getattr(sc, "_scale", None) is not None:
                sc._scale.fill_(self.scales[0])

    def finish(self) -> None:
        """The current test is over: stop watching, hand its result to the plan."""
        if self.test is None:
            return
        if self.instrument is not None:
            self.instrument.stop()
            fin = all(math.isfinite(x) for x in self.result.losses) if self.result.losses else None
            self.result.report = self.instrument.detections(fin)
            self.instrument = None
        self.test = None
        self.plan.results.put(self.result)

    # ---------------------------------------------------------------- hooks in the script
    def _is_root(self, module: torch.nn.Module) -> bool:
        rm = self.roots_meta[0] if self.roots_meta else None
        return rm is not None and rm["class"] == type(module).__name__ and \
            set(module.state_dict().keys()) == set(rm["keys"])

    def on_forward(self, module: torch.nn.Module, args: Any) -> Any:
        if self.forward_mode:
            # no DataLoader: the test's batch is substituted for the model's own inputs
            if not self.roots and torch.is_grad_enabled() and module.training and self._is_root(module):
                self.roots[self.roots_meta[0]["prefix"]] = module
                self.undo.append(module.register_forward_pre_hook(self.substitute, with_kwargs=True).remove)
                # this call has begun already: its own hook starts with the next one, and a
                # global hook can only replace the positional inputs
                out = self.substitute(module, args, {})
                return out[0] if out is not None else None
            return None
        if self.test is None or self.to_load is None or not torch.is_grad_enabled():
            return
        if not self.roots:
            # the model: the module whose class and parameter/buffer names the bundle recorded
            for rm in self.roots_meta[:1]:
                if rm["class"] == type(module).__name__ and set(module.state_dict().keys()) == set(rm["keys"]):
                    self.roots[rm["prefix"]] = module
            if not self.roots:
                return
        busy = self.instrument.tracker if self.instrument else None
        if busy is not None:
            busy.busy = True
        try:
            self.load_state()
        finally:
            if busy is not None:
                busy.busy = False

    def substitute(self, module: torch.nn.Module, args: tuple, kwargs: dict) -> tuple | None:
        """Forward pre-hook on the model (forward mode): each training forward is the next
        test; its inputs are replaced by the bundled ones (sliced for group testing), and
        the targets the loss functions then receive by the bundled targets."""
        if not torch.is_grad_enabled() or not module.training:
            return None
        t = self.test
        if t is not None and self.fwd_open and self.fwd_i + 1 < len(self.groups[t.source][t.mb]):
            self.fwd_i += 1  # the same test's next forward (the second view of a pair)
            batch = self.batch_for(t)
        else:
            batch = self._begin_test()
            self.targets = []
        self.fwd_open = True
        if not isinstance(batch, dict) or "args" not in batch:
            raise UserError("the bundle's batch is not a record of the model's inputs")
        self.targets += list(batch.get("targets") or [])
        return tuple(batch["args"]), dict(batch.get("kwargs") or {})

    def on_loss_fn(self, fn: Callable, input: Any, target: Any, *args: Any, **kwargs: Any) -> Any:
        if self.test is not None and self.targets and isinstance(target, torch.Tensor):
            t = self.targets.pop(0)
            if isinstance(t, torch.Tensor) and t.shape[1:] == target.shape[1:]:
                target = t.to(target.device)
        return fn(input, target, *args, **kwargs)

    def on_backward(self, loss: torch.Tensor, orig: Callable, *args: Any, **kwargs: Any) -> Any:
        if self.test is None or self.result is None:
            return orig(loss, *args, **kwargs)
        self.fwd_open = False
        if loss.numel() == 1 and loss.is_floating_point():
            self.result.losses.append(float(loss.detach()))
        if self.instrument is not None:
            self.instrument.backward_phase()
        try:
            out = orig(loss, *args, **kwargs)
        finally:
            if self.instrument is not None:
                self.instrument.stop()
        grads = [p.grad.detach() for m in self.roots.values() for p in m.parameters() if p.grad is not None]
        norms = [float(n) for n in torch.stack(torch._foreach_norm(grads)).float().tolist()] if grads else []
        fin = all(math.isfinite(n) for n in norms)
        self.result.grad_norm = math.sqrt(sum(n * n for n in norms)) if fin else float("nan")
        self.result.grads_finite = fin
        for g in grads:
            g.zero_()  # so the script's own NaN checks let the loop go on
        with torch.no_grad():
            loss.detach().zero_()
        if self.lag:
            self.finish()
            raise _NextRun()
        return out

    def matches(self, dl: Any) -> bool:
        if not torch.is_grad_enabled() or self.forward_mode:
            return False
        want = self.loader_meta.get("dataset")
        if want is not None and type(dl.dataset).__name__ != want:
            return False
        try:
            n = len(dl.dataset)
        except Exception:  # noqa: BLE001
            n = None
        return self.loader_meta.get("length") in (None, n)

    def remove(self) -> None:
        while self.undo:
            self.undo.pop()()


def _run_script(cmd: dict[str, Any]) -> str:
    """Run the script once in replay mode; returns how it ended."""
    old_argv, old_path = sys.argv[:], sys.path[:]
    script = cmd["script"]
    sys.argv = [script, *cmd.get("args", [])]
    try:
        if cmd.get("module"):
            sys.path.insert(0, os.getcwd())
            runpy.run_module(script, run_name="__main__", alter_sys=True)
        else:
            sys.path.insert(0, str(Path(script).resolve().parent))
            runpy.run_path(script, run_name="__main__")
        return "finished"
    except _Stray:
        return "stopped: an optimizer step on data the replay did not serve"
    except _NextRun:
        return "next test"
    except _Done:
        return "done"
    except SystemExit as e:
        return f"exit {e.code}"
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # noqa: BLE001 - the script's own failure, reported
        return f"{type(e).__name__}: {e}"
    finally:
        sys.argv, sys.path[:] = old_argv, old_path


def run_plan(bundle: Bundle, plan: Callable[[Callable[[Test], Result], dict], Any],
             log: io.TextIOBase) -> tuple[dict[str, Any], Driver, list[str]]:
    """Drive the script through ``plan``; returns (plan output, driver, how each script run ended)."""
    cmd = bundle.meta.get("command") or {}
    if not cmd.get("script"):
        raise UserError(f"{bundle.path}: the bundle does not say which script to re-run")
    cwd = cmd.get("cwd")
    script_file(cmd)  # refuses a module that is not under the recorded cwd (isolate.check did too)
    drv = Driver(bundle)
    drv.plan = _Plan(plan)
    endings: list[str] = []
    old_cwd = os.getcwd()
    install(drv)
    drv.plan.start()
    os.environ["TRAINDOC_REPLAYING"] = "1"  # a traindoc.watch() inside the script stays idle
    try:
        if cwd and Path(cwd).is_dir():
            os.chdir(cwd)
        if not cmd.get("module") and not Path(cmd["script"]).exists():
            raise UserError(f"{cmd['script']}: the script of the run is not there any more (cwd {cwd})")
        for _ in range(MAX_SCRIPT_RUNS):
            served = drv.served
            drv.roots = {}  # a re-run builds a new model: find it again at its first forward
            with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
                endings.append(_run_script(cmd))
            if drv.instrument is not None:
                drv.instrument.stop()
            if endings[-1] == "done" or endings[-1].startswith("stopped") or not drv.plan.is_alive():
                break
            if drv.test is not None:
                drv.finish()  # the script stopped during a test: its result is what was seen
            elif drv.served == served:
                break  # the script ended without drawing a batch: nothing more to learn
    finally:
        os.environ.pop("TRAINDOC_REPLAYING", None)
        os.chdir(old_cwd)
        drv.remove()
        if drv.plan.is_alive():  # cut short: unblock the plan wherever it waits
            with contextlib.suppress(queue.Empty):
                drv.plan.requests.get_nowait()
            with contextlib.suppress(queue.Full):
                drv.plan.results.put_nowait(None)
            drv.plan.join(timeout=5)
    if drv.plan.error is not None:
        raise drv.plan.error
    return drv.plan.output, drv, endings
