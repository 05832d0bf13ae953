"""Backpropagation through a module's repeated calls: for a weighted module that one forward
calls 8 times or more (a cell applied per time step from a Python loop, a shared block), the
gradient norm that reaches its last call's output against the one that reaches its first
(series ``time_grad/<module>``). A recurrence whose early steps receive a thousandth of the
gradient cannot learn what its first inputs say (a hand-written LSTM cell with zero
forget-gate bias: bench/real 349); vanishing-gradient reads it. Sampled steps only, after
the first (which names the repeated modules): one tensor hook per call of such a module
(at most MAX_CALLS), one norm each in the backward, no sync."""

from __future__ import annotations

from typing import Any

import torch

MIN_CALLS = 8
MAX_CALLS = 4096  # hooks per module and step (a 999-step unrolled LSTM holds 999)


class TimeGrads:
    def __init__(self, mon: Any) -> None:
        self.mon = mon
        self.modules: set[str] = set()  # named by Models.note_repeats
        self._norms: dict[str, dict[int, torch.Tensor]] = {}
        self._calls: dict[str, int] = {}

    def on_output(self, name: str, y: torch.Tensor, group: int) -> None:
        """A sampled training forward's call of a repeated module: hook its output's gradient
        (the first backward's forwards only: accumulation's later micro-batches would mix)."""
        if group or name not in self.modules or not y.requires_grad:
            return
        i = self._calls.get(name, 0)
        if i >= MAX_CALLS:
            return
        self._calls[name] = i + 1
        y.register_hook(_Hook(self.mon, self._norms.setdefault(name, {}), i))

    def take(self, names: list[str], vals: list[torch.Tensor]) -> None:
        """At the step's end: last call's gradient norm over the first's, per module, appended
        to the step's values; the hooks' store is emptied."""
        norms, self._norms, self._calls = self._norms, {}, {}
        for name, got in norms.items():
            if len(got) >= MIN_CALLS:
                first, last = got[min(got)], got[max(got)]
                names.append(f"time_grad/{name}")
                vals.append(last.float() / first.float().clamp_min(1e-30))


class _Hook:
    """Stores the gradient's norm under the call's index; returns None (the gradient is not
    changed). Holds the store, not the tensor."""

    __slots__ = ("mon", "store", "i")

    def __init__(self, mon: Any, store: dict, i: int) -> None:
        self.mon, self.store, self.i = mon, store, i

    def __call__(self, g: torch.Tensor) -> None:
        self.mon.guard("time-grads", self._norm, g)

    def _norm(self, g: torch.Tensor) -> None:
        self.store[self.i] = torch.linalg.vector_norm(g.detach().float())
