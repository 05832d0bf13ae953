"""The op-level detectors of a replay: each sees every op once and keeps its first hit.

The watch (:mod:`.watch`) turns each aten op into one :class:`Op` and feeds it to the
detectors: :class:`OutsideNonfinite` before the op runs (it reads the inputs as they are),
:class:`FirstInf`, :class:`FirstNan` and :class:`Fp16Overflow` after. A detector records
an :class:`~.events.OpEvent` and names no cause: :func:`traindoc.forensics.cause.cause_of`
does. An event costs a statistics pass over the op's tensors, so only a hit pays for one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import torch
from torch.utils._pytree import tree_flatten, tree_map

from .events import OpEvent
from .stats import FP16_MAX, TensorStats, absmax, all_finite, has_nan

_HALF = (torch.float16, torch.bfloat16)


class Op:
    """One op of the trace as the detectors see it. The inputs' finiteness is measured
    here, once for all detectors (a device sync per tensor); the outputs are filled in by
    the watch after the op ran. ``call`` holds the arguments as they were before the op
    (an in-place op overwrites its input: the watch passes copies of those)."""

    def __init__(self, func: Any, index: int, call: tuple[list | tuple, dict], leaves: list,
                 make_event: Callable[..., OpEvent]) -> None:
        self.func, self.index, self.call = func, index, call
        self.tins = [t for t in leaves if isinstance(t, torch.Tensor)]
        self.scalars = [v for v in leaves if not isinstance(v, torch.Tensor)]
        self.scalar_bad = any(isinstance(v, (float, complex)) and not math.isfinite(abs(v)) for v in self.scalars)
        self.scalar_nan = any(isinstance(v, (float, complex)) and math.isnan(abs(v)) for v in self.scalars)
        self.fin = [all_finite(t) for t in self.tins]
        self.nan_in = [(not f) and has_nan(t) for t, f in zip(self.tins, self.fin)]
        self.outside: list[tuple[torch.Tensor, bool]] = []  # non-finite inputs no traced op made, (tensor, has NaN)
        self.outs: list[torch.Tensor] = []
        self.bad: list[torch.Tensor] = []  # the outputs that are not finite
        self.const = False  # computed from constants only (see the watch)
        self._make_event = make_event
        self._in_stats: list[TensorStats] | None = None

    def event(self, outs: list[torch.Tensor], bad: list[torch.Tensor]) -> OpEvent:
        if self._in_stats is None:  # shared by every detector that hits this op
            src = tree_flatten(self.call)[0]
            self._in_stats = [TensorStats.of(t) for t in src if isinstance(t, torch.Tensor)]
        return self._make_event(self.func, self.index, self._in_stats, self.scalars, outs, bad)

    def fp32_finite(self) -> bool | None:
        """For a float16/bfloat16 op: is the same op finite when recomputed in float32?"""
        if not any(o.dtype in _HALF for o in self.bad):
            return None
        up = lambda v: v.detach().float() if isinstance(v, torch.Tensor) and v.dtype in _HALF else v  # noqa: E731
        a, k = tree_map(up, self.call)
        if k.get("dtype") in _HALF:
            k = {**k, "dtype": torch.float32}
        try:
            out = self.func(*a, **k)
        except Exception:  # an op that insists on half inputs: cannot tell
            return None
        return all(all_finite(o) for o in tree_flatten(out)[0] if isinstance(o, torch.Tensor))


class OutsideNonfinite:
    """The first op that read a non-finite tensor no traced op produced: bad data (an
    input) or bad state (a parameter or buffer, named). ``nan=True`` looks for NaN (the
    search ends there), ``nan=False`` for tensors holding only +-inf."""

    def __init__(self, nan: bool, params: dict[int, str]) -> None:
        self.nan, self.params = nan, params
        self.event: OpEvent | None = None

    @property
    def final(self) -> bool:
        return self.nan and self.event is not None

    def observe(self, op: Op) -> None:
        if self.event is not None:
            return
        t = next((t for t, n in op.outside if n == self.nan), None)
        if t is not None:
            name = self.params.get(id(t))
            self.event = op.event([t], [])
            # (a buffer is state too, but not trained: "parameter ... (buffer)" tells them apart)
            self.event.source = ("input" if name is None else
                                 f"parameter {name}" + ("" if t.requires_grad else " (buffer)"))


class FirstInf:
    """The first op with all-finite inputs (tensors and scalar arguments) whose output is
    not finite; for an elementwise op of one tensor, also one that turned a finite element
    non-finite next to elements already -inf. Ops on constants only are deliberate (masks)."""

    final = False

    def __init__(self) -> None:
        self.event: OpEvent | None = None

    def observe(self, op: Op) -> None:
        if (op.bad and self.event is None and op.tins and not op.scalar_bad
                and (all(op.fin) or _made_here(op)) and not op.const):
            self.event = op.event(op.outs, op.bad)
            self.event.fp32_finite = op.fp32_finite()


class FirstNan:
    """The first op that made NaN from NaN-free inputs; the search ends there."""

    def __init__(self) -> None:
        self.event: OpEvent | None = None

    @property
    def final(self) -> bool:
        return self.event is not None

    def observe(self, op: Op) -> None:
        if (op.bad and self.event is None and not any(op.nan_in) and not op.scalar_nan
                and any(has_nan(o) for o in op.bad)):
            self.event = op.event(op.outs, op.bad)
            self.event.fp32_finite = op.fp32_finite()


class Fp16Overflow:
    """The first float32 op, before any ``first_inf``, whose finite result exceeds the
    float16 range from inputs inside it: where a float16 run would overflow. Costs an
    absmax pass per float32 output of every op: on only with ``fp16_check``."""

    final = False

    def __init__(self, first_inf: FirstInf, batch_size: int | None) -> None:
        self.first_inf, self.batch_size = first_inf, batch_size
        self.event: OpEvent | None = None

    def observe(self, op: Op) -> None:
        if op.bad or self.event is not None or self.first_inf.event is not None:
            return
        wide = [o for o in op.outs if o.dtype in (torch.float32, torch.float64)]
        if wide and any(absmax(o) > FP16_MAX for o in wide):
            if all(absmax(t) <= FP16_MAX for t in op.tins if t.is_floating_point()):
                big = [o for o in wide if absmax(o) > FP16_MAX]
                self.event = op.event(op.outs, [])
                self.event.rows = _big_rows(big[0])
                self.event.samples = _big_samples(big[0], self.event.rows, self.batch_size)


# ops that move elements without computing any: their output's Inf at another position is the input's
_MOVES = frozenset({"t", "transpose", "permute", "flip", "roll", "movedim", "swapaxes", "swapdims", "rot90"})


def _made_here(op: Op) -> bool:
    """An elementwise op of one tensor turned a finite element into a non-finite one (two
    elementwise passes, replay only): compared position by position (an exp next to -inf
    masks turns those into zeros and the overflow into Inf, in place); for an op that moves
    elements (a transpose of a square matrix keeps its shape), by count."""
    tins, outs = op.tins, op.outs
    if len(tins) != 1 or len(outs) != 1 or not tins[0].is_floating_point():
        return False
    a, b = tins[0], outs[0]
    with torch.no_grad():
        if getattr(getattr(op.func, "overloadpacket", None), "__name__", "") in _MOVES:
            return a.numel() == b.numel() and bool((~torch.isfinite(b)).sum() > (~torch.isfinite(a)).sum())
        return a.shape == b.shape and bool((torch.isfinite(a) & ~torch.isfinite(b)).any())


def _big_rows(t: torch.Tensor) -> list[int]:
    if t.dim() == 0:
        return []
    big = (t.detach().abs() > FP16_MAX).reshape(t.shape[0], -1).any(dim=1)
    return [int(i) for i in big.nonzero().flatten().tolist()]


def _big_samples(t: torch.Tensor, rows: list[int], batch_size: int | None) -> list[int] | None:
    if batch_size is None or t.dim() == 0:
        return None
    if t.shape[0] == batch_size:
        return rows
    if t.shape[0] % batch_size == 0:
        return sorted({r // (t.shape[0] // batch_size) for r in rows})
    return None
