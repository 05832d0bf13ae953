"""Where an experiment changes one thing in a re-execution, without editing the script.

Inside the child process of an experiment (:mod:`traindoc.confirm.child`), before the
script runs, :class:`Hooks` installs global interception points that work whatever
produces the batch (a DataLoader, a ``get_batch()`` slicing a tensor, a full-batch loop):

- the **model's inputs**: the arguments of a call of a module that has parameters, is in
  training mode, under grad, and is not inside another module's call (the model itself);
  ``Module.__call__`` is wrapped, which costs one Python call per module call, paid in
  the experiment only;
- the **loss's target** and **output**: the loss functions of ``torch.nn.functional``
  (which ``nn.CrossEntropyLoss`` and the other loss modules call);
- the **optimizer step**: global pre/post hooks (every optimizer, every param group);
- ``Tensor.backward``: the loss that training minimises;
- ``torch.autocast`` and half-precision casts, for the float32 experiment.

An experiment registers callbacks on these points (see ``experiments/``); ``notes``
records what happened (how many batches were changed, what could not be found), so the
verdict can say "not applicable" instead of a misleading "refuted".
"""

from __future__ import annotations

import functools
import threading
from collections import Counter
from typing import Any, Callable

import torch
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss
from torch.optim.optimizer import register_optimizer_step_post_hook, register_optimizer_step_pre_hook

LOSS_FUNCTIONS = (
    "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss",
    "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
)

_local = threading.local()


class Hooks:
    def __init__(self) -> None:
        self.on_input: list[Callable[[torch.nn.Module, tuple, dict], tuple[tuple, dict]]] = []
        self.on_target: list[Callable[[str, Any, Any, dict], Any]] = []
        self.on_loss: list[Callable[[str, Any, Any, Any, dict], Any]] = []
        self.on_opt_pre: list[Callable[[torch.optim.Optimizer], None]] = []
        self.on_opt_post: list[Callable[[torch.optim.Optimizer], None]] = []
        self.on_backward: list[Callable[[torch.Tensor], torch.Tensor]] = []
        self.on_backward_post: list[Callable[[], None]] = []  # after the outermost backward() returned
        self.notes: Counter = Counter()
        self.values: dict[str, Any] = {}  # numbers an experiment reports (e.g. a loss divisor)
        self.optimizer_seen = False  # a torch.optim optimizer stepped
        self.step_losses = 0  # loss-function calls since the last optimizer step
        self.backwards = 0  # backward() calls so far
        self._undo: list[Callable[[], None]] = []

    @property
    def hand_written(self) -> bool:
        """A loop that updates its weights by hand: a second backward() came and no
        torch.optim optimizer ever stepped (unknowable at the first backward)."""
        return self.backwards >= 1 and not self.optimizer_seen

    def _set(self, obj: Any, name: str, value: Any) -> None:
        old = obj.__dict__[name] if name in getattr(obj, "__dict__", {}) else getattr(obj, name)
        setattr(obj, name, value)
        self._undo.append(lambda: setattr(obj, name, old))

    def install(self) -> "Hooks":
        hooks = self
        orig_call = torch.nn.Module.__call__

        def module_call(self_m, *args, **kwargs):
            depth = getattr(_local, "depth", 0)
            if depth == 0 and hooks.on_input and self_m.training and torch.is_grad_enabled() \
                    and not isinstance(self_m, _Loss) and next(self_m.parameters(), None) is not None:
                hooks.notes["model-calls"] += 1
                for fn in hooks.on_input:
                    args, kwargs = fn(self_m, args, kwargs)
            _local.depth = depth + 1
            try:
                return orig_call(self_m, *args, **kwargs)
            finally:
                _local.depth = depth

        self._set(torch.nn.Module, "__call__", module_call)

        for name in LOSS_FUNCTIONS:
            orig = getattr(F, name, None)
            if orig is not None:
                self._set(F, name, self._wrap_loss(name, orig))

        def pre(opt, args, kwargs):
            hooks.optimizer_seen = True
            for fn in hooks.on_opt_pre:
                fn(opt)

        def post(opt, args, kwargs):
            hooks.step_losses = 0
            for fn in hooks.on_opt_post:
                fn(opt)

        h1, h2 = register_optimizer_step_pre_hook(pre), register_optimizer_step_post_hook(post)
        self._undo += [h1.remove, h2.remove]

        orig_backward = torch.Tensor.backward

        @functools.wraps(orig_backward)
        def backward(self_t, *args, **kwargs):
            if not getattr(_local, "in_backward", False):
                for fn in hooks.on_backward:
                    self_t = fn(self_t)
                hooks.backwards += 1
            outer = not getattr(_local, "in_backward", False)
            _local.in_backward = True
            try:
                out = orig_backward(self_t, *args, **kwargs)
            finally:
                _local.in_backward = not outer
            if outer:
                for fn in hooks.on_backward_post:
                    fn()
            return out

        self._set(torch.Tensor, "backward", backward)
        return self

    def _wrap_loss(self, name: str, orig: Callable) -> Callable:
        hooks = self

        @functools.wraps(orig)
        def loss_fn(input, target, *args, **kwargs):
            if getattr(_local, "in_loss", False) or not torch.is_grad_enabled():
                return orig(input, target, *args, **kwargs)  # evaluation losses are left alone
            hooks.notes["loss-calls"] += 1
            hooks.step_losses += 1
            for fn in hooks.on_target:
                target = fn(name, input, target, kwargs)
            _local.in_loss = True
            try:
                out = orig(input, target, *args, **kwargs)
            finally:
                _local.in_loss = False
            for fn in hooks.on_loss:
                out = fn(name, out, input, target, kwargs)
            return out

        return loss_fn

    def remove(self) -> None:
        while self._undo:
            try:
                self._undo.pop()()
            except Exception:  # noqa: BLE001
                pass


def tensors_in(args: tuple, kwargs: dict) -> list[tuple[str, torch.Tensor]]:
    """The tensors among a call's arguments (one level into lists, tuples and dicts), with
    a path naming each, in a stable order."""
    out: list[tuple[str, torch.Tensor]] = []

    def visit(path: str, x: Any, depth: int) -> None:
        if isinstance(x, torch.Tensor):
            out.append((path, x))
        elif depth < 2 and isinstance(x, (list, tuple)):
            for i, v in enumerate(x):
                visit(f"{path}[{i}]", v, depth + 1)
        elif depth < 2 and isinstance(x, dict):
            for k, v in x.items():
                visit(f"{path}[{k!r}]", v, depth + 1)

    for i, a in enumerate(args):
        visit(f"arg{i}", a, 0)
    for k, v in kwargs.items():
        visit(k, v, 0)
    return out


def map_tensors(args: tuple, kwargs: dict, fn: Callable[[str, torch.Tensor], torch.Tensor]) -> tuple[tuple, dict]:
    """A copy of a call's arguments with every tensor replaced by ``fn(path, tensor)``
    (same traversal as :func:`tensors_in`; containers are rebuilt, not mutated)."""

    def visit(path: str, x: Any, depth: int) -> Any:
        if isinstance(x, torch.Tensor):
            return fn(path, x)
        if depth < 2 and isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
            return type(x)(visit(f"{path}[{i}]", v, depth + 1) for i, v in enumerate(x))
        if depth < 2 and type(x) is dict:
            return {k: visit(f"{path}[{k!r}]", v, depth + 1) for k, v in x.items()}
        return x

    return (tuple(visit(f"arg{i}", a, 0) for i, a in enumerate(args)),
            {k: visit(k, v, 0) for k, v in kwargs.items()})
