"""The first aten op that produced a non-finite value, with its module, phase and inputs.

``first_nonfinite(fn)`` runs ``fn`` (a closure over the failing step's forward and loss)
under the op watch of :mod:`.watch`, then runs the backward the same way when the forward
stayed finite. Instrumentation exists only inside this call (replay), so training pays nothing.

What is reported (see :class:`NonfiniteReport`), by the order in which things happen
(one detector each, :mod:`.detectors`):

- ``first_inf``: the first op with all-finite inputs (tensors *and* scalar arguments) whose
  output is not finite: ``exp`` overflow, ``log(0)``, ``x / 0``, a float16 matmul past 65504;
  for an elementwise op of one tensor, also where a finite element became non-finite
  although other elements were already -inf (``exp`` of an attention matrix masked with
  ``-inf``: the masked entries give 0, the overflow gives +inf).
  ``masked_fill(x, m, -inf)``, ``full(-inf)`` and ``torch.tensor(-inf)`` have a non-finite
  argument, so deliberate masking is never blamed.
- ``first_nan``: the first op that made NaN from NaN-free inputs (``-inf - -inf`` in a
  fully masked softmax row, ``inf / inf``, ``0 * inf``). The search stops there.
- ``nonfinite_input``: the first op that read a non-finite tensor no traced op produced:
  bad data (an input) or bad state (a parameter or buffer, named).
- ``fp16_overflow`` (``fp16_check=True``): the first float32 op whose finite result exceeds
  the float16 range (|x| > 65504) from inputs inside it: where a float16 run would overflow.

``kind`` and ``culprit`` pick the cause (:func:`traindoc.forensics.cause.cause_of`): an
input holding NaN read before any unstable op -> ``nonfinite-input``/``nonfinite-state``;
else ``first_inf`` (``fp16-overflow`` when it ran in float16/bfloat16 and the same op is
finite when recomputed in float32, else ``unstable-op``); else ``first_nan``
(``unstable-op`` on infinite inputs); else an input holding only +-inf.

An op whose tensor inputs were all computed from constants (``torch.ones``, ``arange``,
``full`` and ops on them: ``torch.log(torch.tril(torch.ones(T, T)))``, an additive 0/-inf
attention mask) is deliberate and never ``first_inf``: the op that later turns a fully
masked row into NaN is ``first_nan``. Limits: a mask built from the batch (``log`` of a
padding mask that came with the data) is reported as ``first_inf``. Tensors from ``torch.empty`` hold garbage and are never checked.
Every checked op syncs with the device: a replay runs a few times slower than a step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import torch
from torch import nn
from torch.utils._pytree import tree_flatten

from .events import OpEvent
from .cause import cause_of
from .modules import ModuleTracker
from .stats import all_finite
from .watch import Detections, Watch


@dataclass
class NonfiniteReport:
    """Result of :func:`first_nonfinite`. ``kind`` is None when everything stayed finite."""

    kind: str | None  # "unstable-op" | "fp16-overflow" | "nonfinite-input" | "nonfinite-state"
    culprit: OpEvent | None
    first_inf: OpEvent | None
    first_nan: OpEvent | None
    nonfinite_input: OpEvent | None
    fp16_overflow: OpEvent | None
    result_finite: bool | None
    forward_ops: int
    backward_ops: int
    backward: str  # "ran" | "skipped: <why>"

    @classmethod
    def of(cls, d: Detections) -> NonfiniteReport:
        """The detections of a replayed step, with the cause they name."""
        kind, culprit = cause_of(d)
        return cls(
            kind=kind, culprit=culprit, first_inf=d.first_inf, first_nan=d.first_nan,
            nonfinite_input=d.outside_nan or d.outside_inf, fp16_overflow=d.fp16_overflow,
            result_finite=d.result_finite, forward_ops=d.forward_ops, backward_ops=d.backward_ops,
            backward=d.backward,
        )

    @property
    def found(self) -> bool:
        return self.culprit is not None

    def summary(self) -> str:
        """One line: what, where, on which inputs."""
        c = self.culprit
        if c is None:
            return "every op stayed finite" + (f" (forward {self.forward_ops} ops, backward {self.backward})")
        ins = "; ".join(s.brief() for s in c.inputs[:3])
        rows = f"; bad rows {c.rows[:8]}" if c.rows else ""
        return f"{self.kind}: {c.op} in {c.where()} ({c.phase}) on {ins}{rows}"

    def to_dict(self) -> dict[str, Any]:
        ev = lambda e: e.to_dict() if e is not None else None  # noqa: E731
        return {
            "kind": self.kind, "culprit": ev(self.culprit), "first_inf": ev(self.first_inf),
            "first_nan": ev(self.first_nan), "nonfinite_input": ev(self.nonfinite_input),
            "fp16_overflow": ev(self.fp16_overflow), "result_finite": self.result_finite,
            "forward_ops": self.forward_ops, "backward_ops": self.backward_ops, "backward": self.backward,
        }


def _loss_of(result: Any) -> torch.Tensor | None:
    """The scalar to differentiate: a 1-element tensor, the first one in a tuple/list,
    ``result["loss"]`` or ``result.loss`` (Hugging Face outputs)."""
    if isinstance(result, torch.Tensor):
        return result if result.numel() == 1 else None
    if isinstance(result, Mapping) and isinstance(result.get("loss"), torch.Tensor):
        return _loss_of(result["loss"])
    if isinstance(getattr(result, "loss", None), torch.Tensor):
        return _loss_of(result.loss)
    if isinstance(result, (tuple, list)):
        for r in result:
            if isinstance(r, torch.Tensor) and r.numel() == 1:
                return r
    return None


def _leaves(loss: torch.Tensor) -> list[torch.Tensor]:
    """The leaf tensors the loss depends on (walk of the autograd graph)."""
    seen, out, todo = set(), [], [loss.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        var = getattr(node, "variable", None)
        if isinstance(var, torch.Tensor):
            out.append(var)
        todo.extend(n for n, _ in node.next_functions)
    return out


def first_nonfinite(
    fn: Callable[..., Any],
    *args: Any,
    backward: bool = True,
    fp16_check: bool = False,
    model: nn.Module | Mapping[str, nn.Module] | None = None,
    batch_size: int | None = None,
    **kwargs: Any,
) -> NonfiniteReport:
    """Run ``fn(*args, **kwargs)`` once under instrumentation; report where non-finite began.

    ``backward``: when the forward stayed finite and ``fn`` returns a scalar that requires
    grad (or a tuple/dict holding one), also differentiate it (``torch.autograd.grad``
    over its leaves: no ``.grad`` is touched). ``model`` names module paths relative to it
    (default: the first module called), or ``{prefix: module}`` for several roots. ``batch_size`` maps bad rows to batch positions.
    ``fp16_check``: also find the first float32 op whose result would overflow float16.
    ``fn`` runs exactly once; its exceptions propagate.
    """
    tracker = ModuleTracker(model)
    watch = Watch(tracker, batch_size, fp16_check)
    with tracker, watch:
        result = fn(*args, **kwargs)
    loss = _loss_of(result)
    if loss is not None:
        result_finite = all_finite(loss)
    else:
        ts = [t for t in tree_flatten(result)[0] if isinstance(t, torch.Tensor)]
        result_finite = all(all_finite(t) for t in ts) if ts else None
    if not backward:
        why = "skipped: backward=False"
    elif any(d.event is not None for d in (watch.first_inf, watch.first_nan, watch.outside_nan)):
        why = "skipped: the forward already went non-finite"
    elif loss is None or not loss.requires_grad or loss.grad_fn is None:
        why = "skipped: fn returned no scalar that requires grad"
    else:
        leaves = _leaves(loss)
        watch.phase = "backward"
        with watch:
            torch.autograd.grad(loss, leaves, allow_unused=True) if leaves else None
        why = "ran"
    return NonfiniteReport.of(watch.detections(result_finite, why))
