"""The patches that put the user's script in replay mode, and take them off again.

While a replay runs, the script's ``DataLoader`` (the one the run trained on) serves the
driver's tests, ``backward`` reports to the driver, and nothing the user keeps changes:
optimizer steps and ``torch.save`` are no-ops. Each patch comes with its undo callable.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import torch

from .plan import _Stray

if TYPE_CHECKING:
    from .replay import Driver


def install(drv: Driver) -> None:
    """Replay mode: patches ``DataLoader.__iter__``, ``Tensor.backward``, ``GradScaler.scale``,
    a global forward pre-hook and (forward mode) the loss functions, so that the script's own
    code serves the driver's tests; appends their undo callables to ``drv.undo``."""
    from torch.amp.grad_scaler import GradScaler
    from torch.nn.modules.module import register_module_forward_pre_hook
    from torch.utils.data import DataLoader

    orig_iter = DataLoader.__iter__

    def dl_iter(self_dl):
        if drv.matches(self_dl):
            drv.loader = self_dl
            return _FakeIter(drv)
        return orig_iter(self_dl)

    DataLoader.__iter__ = dl_iter
    drv.undo.append(lambda: setattr(DataLoader, "__iter__", orig_iter))
    orig_tb = torch.Tensor.backward

    def tensor_backward(self_t, *a, **k):
        return drv.on_backward(self_t, orig_tb, *a, **k)

    torch.Tensor.backward = tensor_backward
    drv.undo.append(lambda: setattr(torch.Tensor, "backward", orig_tb))
    orig_scale = GradScaler.scale

    def scale(self_s, outputs):
        if self_s not in drv.scalers:
            drv.scalers.append(self_s)
            if drv.scales and getattr(self_s, "_scale", None) is not None:
                self_s._scale.fill_(drv.scales[0])
        return orig_scale(self_s, outputs)

    GradScaler.scale = scale
    drv.undo.append(lambda: setattr(GradScaler, "scale", orig_scale))
    h = register_module_forward_pre_hook(lambda m, a: drv.on_forward(m, a))  # may replace the inputs
    drv.undo.append(h.remove)
    if drv.forward_mode:
        import torch.nn.functional as F

        from ..monitor.patches import LOSS_FUNCTIONS

        for name in LOSS_FUNCTIONS:
            fn = getattr(F, name, None)
            if fn is None:
                continue

            def wrapped(input, target, *a, _fn=fn, **k):
                return drv.on_loss_fn(_fn, input, target, *a, **k)

            setattr(F, name, wrapped)
            drv.undo.append(lambda n=name, f=fn: setattr(F, n, f))
    drv.undo.extend(_no_side_effects(drv))


def _no_side_effects(drv: Driver) -> list[Callable[[], None]]:
    """Replay must not change anything the user keeps: every optimizer the script builds gets
    a no-op ``step`` (an instance attribute, so it also covers ``GradScaler.step``, LR
    schedulers and wrappers that call ``opt.step``; AdamW's weight decay would otherwise move
    the weights even on zeroed gradients), and ``torch.save`` writes nothing (the script's
    checkpoints keep the real run's content). Other writes of the script (``open(..., "w")``,
    its own loggers) are not intercepted. Returns the undo callables."""
    import types

    from torch.optim.optimizer import Optimizer, register_optimizer_step_pre_hook

    def step(opt: Any, closure: Any = None, *a: Any, **k: Any) -> Any:
        if drv.test is None:
            raise _Stray()
        if closure is not None:  # LBFGS-style: the closure computes the loss (one test's backward)
            with torch.enable_grad():
                return closure()
        return None

    orig_init = Optimizer.__init__

    def init(self_o: Any, *a: Any, **k: Any) -> None:
        orig_init(self_o, *a, **k)
        self_o.step = types.MethodType(step, self_o)

    def real_step(opt: Any, args: Any, kwargs: Any) -> None:
        raise _Stray()  # an optimizer that escaped the no-op (built without Optimizer.__init__)

    def save(obj: Any, f: Any, *a: Any, **k: Any) -> None:
        print(f"traindoc replay: skipped torch.save to {f!r}", file=sys.stderr)

    Optimizer.__init__ = init
    h = register_optimizer_step_pre_hook(real_step)
    orig_save, orig_ser_save = torch.save, torch.serialization.save
    torch.save = torch.serialization.save = save
    return [lambda: setattr(Optimizer, "__init__", orig_init), h.remove,
            lambda: setattr(torch, "save", orig_save),
            lambda: setattr(torch.serialization, "save", orig_ser_save)]


class _FakeIter:
    """What a matched DataLoader's ``iter()`` returns: every draw is the driver's next batch."""

    def __init__(self, drv: Driver) -> None:
        self.drv = drv

    def __iter__(self) -> "_FakeIter":
        return self

    def __next__(self) -> Any:
        return self.drv.next_batch()

    def __len__(self) -> int:
        return 10**6
