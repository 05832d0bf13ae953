"""The global hooks and wrappers that let traindoc see a training loop without any change
to its code. Installed once per monitor, removed on close; each calls a handler of one
of the monitor's measurement objects, and each handler call is guarded so that a failure inside traindoc
never reaches the user's loop (see ``Monitor.guard``).

What is wrapped and why:
- ``Tensor.backward`` / ``torch.autograd.backward``: the value training minimises.
- global optimizer step pre/post hooks: the step boundary, gradients, LR.
- ``GradScaler.scale/step``: unscaled loss, loss scale, skipped steps (a skipped step
  never calls ``optimizer.step``, so the optimizer hooks alone would miss it).
- ``clip_grad_norm_``: the pre-clipping norm it returns (after clipping, the optimizer
  sees clipped gradients).
- DataLoader iterator ``__next__`` / ``_next_index``: time waiting for data and the
  dataset indices of each batch (batches come back in sampler order, so a FIFO pairs
  them even with worker prefetching; ``_reset`` empties the FIFO when a persistent-workers
  iterator starts a new epoch).
- the loss functions of ``torch.nn.functional``: evaluation losses (no grad) and the
  label histogram.
- ``LRScheduler.__init__``: scheduler config.
- ``torch.randperm``: the sizes permuted (an epoch of n rows), against the distinct inputs
  trained on (data-duplicates).
"""

from __future__ import annotations

import functools
import sys
import threading
from collections import deque
from typing import Any, Callable

import torch
import torch.nn.functional as F
from torch.optim.lr_scheduler import LRScheduler
from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook
from torch.utils.data import dataloader as _dl

LOSS_FUNCTIONS = (
    "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
)

_local = threading.local()

# losses whose third positional argument is a class/element weight (a margin loss's is a tensor input)
_WEIGHT_THIRD = frozenset({"cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits"})


def _reentrant() -> bool:
    return getattr(_local, "depth", 0) > 0


class _Enter:
    def __enter__(self):
        _local.depth = getattr(_local, "depth", 0) + 1

    def __exit__(self, *exc):
        _local.depth -= 1


class Patches:
    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self._undo: list[Callable[[], None]] = []

    def _setattr(self, obj: Any, name: str, value: Any) -> None:
        old = obj.__dict__[name] if name in getattr(obj, "__dict__", {}) else getattr(obj, name)
        setattr(obj, name, value)
        self._undo.append(lambda: setattr(obj, name, old))

    def poll_imports(self, pending: dict[str, Callable]) -> None:
        """Call ``pending[name](mon, setattr)`` once the script has imported ``name`` (the
        patches it makes are undone at close with the others)."""
        for name in [n for n in pending if n in sys.modules]:
            self.mon.guard(f"on-import {name}", pending.pop(name), self.mon, self._setattr)

    def install(self) -> None:
        mon = self.mon
        self._install_backward(mon)
        self._install_autograd_grad(mon)
        self._install_zero_grad(mon)
        self._install_optimizer(mon)
        self._install_scaler(mon)
        self._install_clip(mon)
        self._install_dataloader(mon)
        # -- functional losses ----------------------------------------------------------
        for name in LOSS_FUNCTIONS:
            orig_fn = getattr(F, name, None)
            if orig_fn is None:
                continue
            self._setattr(F, name, self._wrap_loss(name, orig_fn))
        self._install_schedulers(mon)
        self._install_save(mon)
        self._install_randperm(mon)

    def _install_randperm(self, mon: Any) -> None:
        # -- torch.randperm: the size of each epoch's permutation (hand-sliced batches and a
        # shuffling DataLoader's sampler), for data-duplicates; a dict update per call
        orig = torch.randperm
        perms = mon.conflicts.perms
        compiling = getattr(torch.compiler, "is_compiling", lambda: False)

        def randperm(n, *args, _orig=orig, **kwargs):
            if type(n) is int and (n in perms or len(perms) < 16) and not compiling():
                perms[n] = perms.get(n, 0) + 1
            return _orig(n, *args, **kwargs)

        functools.update_wrapper(randperm, orig)
        self._setattr(torch, "randperm", randperm)

    def _install_save(self, mon: Any) -> None:
        # -- torch.save / torch.jit.script: the model without traindoc's hooks ---------------
        import torch.jit
        import torch.serialization

        models = mon.models
        for owner, name in ((torch, "save"), (torch.jit, "script")):
            orig = getattr(owner, name)

            def wrapper(*args, _orig=orig, **kwargs):
                with models.hooks_detached():
                    return _orig(*args, **kwargs)

            functools.update_wrapper(wrapper, orig)
            self._setattr(owner, name, wrapper)
        if torch.serialization.save is not torch.save:
            self._setattr(torch.serialization, "save", torch.save)

    # -- backward ---------------------------------------------------------------
    def _install_backward(self, mon: Any) -> None:
        guard, clock = mon.guard, mon.backward
        orig_tb = torch.Tensor.backward

        @functools.wraps(orig_tb)
        def tensor_backward(self_t, *args, **kwargs):
            if _reentrant():
                return orig_tb(self_t, *args, **kwargs)
            guard("backward", clock.on_backward, self_t)
            with _Enter():
                out = orig_tb(self_t, *args, **kwargs)
            guard("backward", clock.on_backward_end, self_t)
            return out

        self._setattr(torch.Tensor, "backward", tensor_backward)

        orig_ab = torch.autograd.backward

        @functools.wraps(orig_ab)
        def autograd_backward(tensors, *args, **kwargs):
            if _reentrant():
                return orig_ab(tensors, *args, **kwargs)
            first = tensors if isinstance(tensors, torch.Tensor) else (tensors[0] if len(tensors) else None)
            if isinstance(first, torch.Tensor):
                guard("backward", clock.on_backward, first)
            with _Enter():
                out = orig_ab(tensors, *args, **kwargs)
            if isinstance(first, torch.Tensor):
                guard("backward", clock.on_backward_end, first)
            return out

        self._setattr(torch.autograd, "backward", autograd_backward)

    def _install_autograd_grad(self, mon: Any) -> None:
        # torch.autograd.grad(loss, params) in a loop with no torch.optim optimizer (p -= lr * g):
        # a step of the backward clock. Not with create_graph (a gradient penalty, MAML's inner
        # loop: part of a step, not one) nor once an optimizer has stepped.
        guard, clock, optim = mon.guard, mon.backward, mon.optim
        orig_ag = torch.autograd.grad

        @functools.wraps(orig_ag)
        def autograd_grad(outputs, inputs, *args, **kwargs):
            create = kwargs.get("create_graph", args[2] if len(args) > 2 else False)
            first = outputs if isinstance(outputs, torch.Tensor) else (
                outputs[0] if isinstance(outputs, (list, tuple)) and len(outputs) == 1 else None)
            if (_reentrant() or create or optim.primary is not None or not isinstance(first, torch.Tensor)
                    or first.numel() != 1 or not first.is_floating_point()):
                return orig_ag(outputs, inputs, *args, **kwargs)
            # a generator (model.parameters()) is consumed by the call: keep the tensors
            ins = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)
            if not guard("backward", clock.counts_autograd_grad, ins):
                return orig_ag(outputs, ins, *args, **kwargs)  # FGSM, saliency, MAML: not a step
            guard("backward", clock.on_backward, first)
            with _Enter():
                out = orig_ag(outputs, ins, *args, **kwargs)
            guard("backward", clock.on_autograd_grad_end, first, ins, out)
            return out

        self._setattr(torch.autograd, "grad", autograd_grad)

    def _install_zero_grad(self, mon: Any) -> None:
        # -- zero_grad: the next backward's starting gradient is measured (missing-zero-grad)
        guard, clock = mon.guard, mon.backward
        for cls in (torch.optim.Optimizer, torch.nn.Module):
            orig_zg = cls.zero_grad

            def zero_grad(self_o, *args, _orig=orig_zg, **kwargs):
                out = _orig(self_o, *args, **kwargs)
                guard("zero-grad", clock.on_zero_grad)
                return out

            functools.update_wrapper(zero_grad, orig_zg)
            # torch marks Optimizer.zero_grad as never traced: keep it so, or a compiled step
            # would trace this wrapper and break its graph
            no_dynamo = getattr(torch, "_disable_dynamo", None)
            self._setattr(cls, "zero_grad", no_dynamo(zero_grad) if callable(no_dynamo) else zero_grad)

    def _install_optimizer(self, mon: Any) -> None:
        # -- optimizer ----------------------------------------------------------------
        # the pre-hook may return the arguments with a closure wrapped (see Optimizers.on_step_pre_hook)
        guard, optim = mon.guard, mon.optim
        h1 = register_optimizer_step_pre_hook(lambda opt, a, k: guard("optimizer-pre", optim.on_step_pre_hook, opt, a, k))
        h2 = register_optimizer_step_post_hook(lambda opt, a, k: guard("optimizer-post", optim.on_step_post, opt))
        self._undo.append(h1.remove)
        self._undo.append(h2.remove)

    def _install_scaler(self, mon: Any) -> None:
        # -- GradScaler -----------------------------------------------------------------
        from torch.amp.grad_scaler import GradScaler

        guard, optim, scalers = mon.guard, mon.optim, mon.scalers
        orig_scale = GradScaler.scale

        @functools.wraps(orig_scale)
        def scale(self_s, outputs):
            out = orig_scale(self_s, outputs)
            guard("grad-scaler", scalers.on_scale, self_s, outputs, out)
            return out

        self._setattr(GradScaler, "scale", scale)

        orig_sstep = GradScaler.step

        @functools.wraps(orig_sstep)
        def sstep(self_s, optimizer, *args, **kwargs):
            guard("grad-scaler", optim.on_scaler_step_begin, self_s, optimizer)
            try:
                return orig_sstep(self_s, optimizer, *args, **kwargs)
            finally:
                guard("grad-scaler", optim.on_scaler_step_end, self_s, optimizer)

        self._setattr(GradScaler, "step", sstep)

    def _install_clip(self, mon: Any) -> None:
        # -- gradient clipping --------------------------------------------------------
        import torch.nn.utils as nn_utils
        import torch.nn.utils.clip_grad as clip_mod

        guard, optim = mon.guard, mon.optim
        orig_clip = clip_mod.clip_grad_norm_

        @functools.wraps(orig_clip)
        def clip_grad_norm_(*args, **kwargs):
            total = orig_clip(*args, **kwargs)
            guard("clip", optim.on_clip, total, args[1] if len(args) > 1 else kwargs.get("max_norm"))
            return total

        self._setattr(clip_mod, "clip_grad_norm_", clip_grad_norm_)
        self._setattr(nn_utils, "clip_grad_norm_", clip_grad_norm_)

    def _install_dataloader(self, mon: Any) -> None:
        # -- DataLoader ---------------------------------------------------------------
        guard, batches, timer = mon.guard, mon.batches, mon.timer
        base = _dl._BaseDataLoaderIter
        orig_next_index = base._next_index
        orig_next = base.__next__

        def _next_index(self_it):
            idx = orig_next_index(self_it)
            try:
                q = self_it.__dict__.get("_traindoc_idx")
                if q is None:
                    q = self_it.__dict__["_traindoc_idx"] = deque()
                q.append(idx)
            except Exception:  # noqa: BLE001
                pass
            return idx

        def __next__(self_it):
            t0 = timer()
            try:
                batch = orig_next(self_it)
            except StopIteration:
                guard("dataloader", batches.on_loader_end, self_it)
                raise
            dt = timer() - t0
            q = self_it.__dict__.get("_traindoc_idx")
            idx = q.popleft() if q else None
            guard("dataloader", batches.on_batch, self_it, batch, idx, dt)
            return batch

        orig_reset = base._reset

        def _reset(self_it, *args, **kwargs):
            # a persistent-workers loader reuses its iterator: the indices drawn for batches
            # an abandoned epoch never handed over (a peek ``next(iter(loader))``, a
            # ``break``) must not be paired with the next epoch's batches
            q = self_it.__dict__.get("_traindoc_idx")
            if q is not None:
                q.clear()
            guard("dataloader", batches.on_loader_end, self_it)  # a (re)started iterator: an epoch boundary
            return orig_reset(self_it, *args, **kwargs)

        self._setattr(base, "_next_index", _next_index)
        self._setattr(base, "_reset", _reset)
        self._setattr(base, "__next__", __next__)

    def _install_schedulers(self, mon: Any) -> None:
        # -- schedulers ---------------------------------------------------------------
        guard, optim = mon.guard, mon.optim
        orig_sched_init = LRScheduler.__init__

        @functools.wraps(orig_sched_init)
        def sched_init(self_s, *args, **kwargs):
            orig_sched_init(self_s, *args, **kwargs)
            guard("scheduler", optim.on_scheduler, self_s)

        self._setattr(LRScheduler, "__init__", sched_init)

    def _wrap_loss(self, name: str, orig_fn: Callable) -> Callable:
        mon = self.mon

        @functools.wraps(orig_fn)
        def loss_fn(input, target, *args, **kwargs):
            if _reentrant():
                return orig_fn(input, target, *args, **kwargs)
            with _Enter():
                out = orig_fn(input, target, *args, **kwargs)
            # a weighting given (weight=, pos_weight=, or the third argument: nn.BCEWithLogitsLoss and
            # cross_entropy pass weight there): the tensors, read once per loss function (all ones is none)
            weighted = tuple(w for w in (kwargs.get("weight"), kwargs.get("pos_weight"),
                                         args[0] if args and name in _WEIGHT_THIRD else None)
                             if isinstance(w, torch.Tensor))
            # reduction="sum": the ignore_index whose targets the sum leaves out (-100 by default)
            summed = kwargs.get("ignore_index", -100) if kwargs.get("reduction") == "sum" else None
            mon.guard("loss-function", mon.loss_fns.on_loss_fn, name, input, target, out, weighted, summed)
            return out

        return loss_fn

    def remove(self) -> None:
        while self._undo:
            try:
                self._undo.pop()()
            except Exception:  # noqa: BLE001
                pass
