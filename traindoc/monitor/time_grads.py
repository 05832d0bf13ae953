"""Backpropagation through a module's repeated calls: for a weighted module that one forward
calls 8 times or more (a cell applied per time step from a Python loop, a shared block), the
gradient norm that reaches its last call's output against the one that reaches its first
(series ``time_grad/<module>``). A recurrence whose early steps receive a thousandth of the
gradient cannot learn what its first inputs say (a hand-written LSTM cell with zero
forget-gate bias: bench/real 349); vanishing-gradient reads it. Sampled steps only, after
the first (which names the repeated modules): tensor hooks on the first four calls of such a
module and on its latest (each new call moves that one), one norm each in the backward, no
sync."""

from __future__ import annotations

from typing import Any

import torch

MIN_CALLS = 8


FIRST = 4  # the first calls hooked (the first with a non-zero gradient is "the first")


class TimeGrads:
    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self.modules: set[str] = set()  # named by Models.note_repeats
        self._norms: dict[str, dict[int, torch.Tensor]] = {}
        self._calls: dict[str, int] = {}
        self._latest: dict[str, Any] = {}  # the hook of the latest call past the first ones

    def on_output(self, name: str, y: torch.Tensor, group: int) -> None:
        """A sampled training forward's call of a repeated module: hook its output's gradient
        (the first backward's forwards only: accumulation's later micro-batches would mix).
        The first FIRST calls keep their hooks; past them only the latest call has one."""
        if group or name not in self.modules or not y.requires_grad:
            return
        i = self._calls.get(name, 0)
        self._calls[name] = i + 1
        handle = y.register_hook(_Hook(self.mon, self._norms.setdefault(name, {}), i))
        if i >= FIRST:
            old = self._latest.get(name)
            if old is not None:
                old.remove()
            self._latest[name] = handle

    def take(self, names: list[str], vals: list[torch.Tensor]) -> None:
        """At the step's end: the last call's gradient norm over the first non-zero one's
        (NaN when none is), per module called MIN_CALLS times or more; the store is emptied."""
        norms, calls = self._norms, self._calls
        self._norms, self._calls, self._latest = {}, {}, {}
        for name, got in norms.items():
            last = calls.get(name, 0) - 1
            if last < MIN_CALLS - 1 or last not in got:
                continue
            head = torch.stack([got[i] for i in sorted(got) if i < FIRST])
            nz = head > 0
            first = head[nz.int().argmax()]
            ratio = got[last] / first.clamp_min(1e-30)
            names.append(f"time_grad/{name}")
            vals.append(torch.where(nz.any(), ratio, torch.full_like(ratio, float("nan"))))


class _Hook:
    """Stores the gradient's norm under the call's index; returns None (the gradient is not
    changed). Holds the store, not the tensor."""

    __slots__ = ("mon", "store", "i")

    def __init__(self, mon: Any, store: dict, i: int) -> None:
        self.mon, self.store, self.i = mon, store, i

    def __call__(self, g: torch.Tensor) -> None:
        self.mon.guard("time-grads", self._norm, g)

    def _norm(self, g: torch.Tensor) -> None:
        if self.i not in self.store:  # (a second backward through the graph, retain_graph or
            # autograd.grad's penalty, is not the step's first)
            g = g.detach()
            # (float16/bfloat16 accumulate in float32; a float64 model, pytorch/examples'
            # time_sequence_prediction, cannot be narrowed by vector_norm's dtype: its norm, then cast)
            self.store[self.i] = (torch.linalg.vector_norm(g).float() if g.dtype == torch.float64
                                  else torch.linalg.vector_norm(g, dtype=torch.float32))
