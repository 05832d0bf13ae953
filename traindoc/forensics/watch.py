"""The op-by-op watch of a replay: a ``TorchDispatchMode`` that feeds every aten op to the
detectors of :mod:`.detectors`, and :class:`Instrument`, the same for a step run by the
user's own script. Measurement only: :func:`traindoc.forensics.cause.cause_of` reads
the :class:`Detections`.

Every checked op syncs with the device: a replay runs a few times slower than a step.
Instrumentation exists only inside a replay, so training pays nothing.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

from .detectors import FirstInf, FirstNan, Fp16Overflow, Op, OutsideNonfinite
from .events import OpEvent, user_line
from .modules import ModuleTracker
from .stats import TensorStats, all_finite, bad_rows, rows_to_samples

# Ops whose output is uninitialised memory or not a value: never checked.
_UNCHECKED = {
    "empty", "empty_like", "new_empty", "empty_strided", "new_empty_strided", "resize_",
    "_local_scalar_dense", "set_", "record_stream", "detach", "alias",
}
# Constants made from Python values (``torch.tensor(float("-inf"))``): deliberate, not data.
_CONSTANTS = {"lift_fresh", "lift_fresh_copy"}
# Factories whose values come from Python arguments alone (shapes, fill values).
_FACTORIES = {"ones", "zeros", "full", "arange", "eye", "linspace", "ones_like", "zeros_like", "full_like",
              "scalar_tensor", "new_ones", "new_zeros", "new_full", "tril_indices", "triu_indices"}


@dataclass
class Detections:
    """What the detectors of one replayed step found; each is the first op of its kind."""

    outside_nan: OpEvent | None  # read a NaN no traced op made: data or state
    outside_inf: OpEvent | None  # read a +-inf no traced op made
    first_inf: OpEvent | None
    first_nan: OpEvent | None
    fp16_overflow: OpEvent | None
    result_finite: bool | None
    forward_ops: int
    backward_ops: int
    backward: str  # "ran" | "skipped: <why>"

    @property
    def found(self) -> bool:
        """Some op went (or read) non-finite: there is a culprit to name."""
        return any(e is not None for e in (self.outside_nan, self.first_inf, self.first_nan, self.outside_inf))


class Watch(TorchDispatchMode):
    """Feeds every op to the detectors; stops checking once one of them ends the search."""

    def __init__(self, tracker: ModuleTracker, batch_size: int | None, fp16_check: bool) -> None:
        super().__init__()
        self.tracker = tracker
        self.batch_size = batch_size
        self.phase = "forward"
        self.counts = {"forward": 0, "backward": 0}
        self.outside_nan = OutsideNonfinite(nan=True, params=tracker.params)
        self.outside_inf = OutsideNonfinite(nan=False, params=tracker.params)
        self.first_inf, self.first_nan = FirstInf(), FirstNan()
        self.fp16 = Fp16Overflow(self.first_inf, batch_size) if fp16_check else None
        self.before_op = (self.outside_nan, self.outside_inf)  # they read the inputs as they are
        self.after_op = (self.first_inf, self.first_nan, *([self.fp16] if self.fp16 else []))
        self.done = False
        self._traced: dict[int, weakref.ref] = {}
        # storages whose values were all computed from constants, by storage address (a
        # write into any view of one from other values ends it), with a tensor to keep alive
        self._const: dict[int, weakref.ref] = {}
        self._mut_cache: dict[Any, tuple[list[int], list[str]]] = {}

    def detections(self, result_finite: bool | None, backward: str) -> Detections:
        return Detections(
            outside_nan=self.outside_nan.event, outside_inf=self.outside_inf.event,
            first_inf=self.first_inf.event, first_nan=self.first_nan.event,
            fp16_overflow=self.fp16.event if self.fp16 else None, result_finite=result_finite,
            forward_ops=self.counts["forward"], backward_ops=self.counts["backward"], backward=backward,
        )

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if self.tracker.busy or self.done:
            return func(*args, **kwargs)
        packet = func._overloadpacket.__name__
        if packet in _UNCHECKED or packet in _CONSTANTS:
            out = func(*args, **kwargs)
            for o in tree_flatten(out)[0]:
                if isinstance(o, torch.Tensor):
                    self._mark(o)
            return out
        op = self._op(func, args, kwargs)
        for d in self.before_op:
            d.observe(op)
        for t, _ in op.outside:
            self._mark(t)  # report each outside tensor once
        self.done = any(d.final for d in self.before_op)
        out = func(*args, **kwargs)
        if not self.done:
            self._outputs(op, packet, out)
            for d in self.after_op:
                d.observe(op)
            self.done = any(d.final for d in self.after_op)
        return out

    def _op(self, func: Any, args: tuple, kwargs: dict) -> Op:
        """The op before it runs: its inputs, and those no traced op made that are not finite."""
        index = self.counts[self.phase]
        self.counts[self.phase] += 1
        leaves = tree_flatten((args, kwargs))[0]
        if func not in self._mut_cache:
            self._mut_cache[func] = _mutated(func)
        mpos, mkw = self._mut_cache[func]
        call: tuple[Any, dict] = (args, kwargs)
        if mpos or mkw:  # in-place ops overwrite an input: keep a copy so the event shows it as it was
            call = (list(args), dict(kwargs))
            for i in mpos:
                if i < len(args) and isinstance(args[i], torch.Tensor):
                    call[0][i] = args[i].detach().clone()
            for k in mkw:
                if isinstance(kwargs.get(k), torch.Tensor):
                    call[1][k] = kwargs[k].detach().clone()
        op = Op(func, index, call, leaves, self._event)
        seen: set[int] = set()
        for t, f, n in zip(op.tins, op.fin, op.nan_in):
            if not (f or id(t) in self._traced or id(t) in seen):
                seen.add(id(t))
                op.outside.append((t, n))
        return op

    def _outputs(self, op: Op, packet: str, out: Any) -> None:
        op.outs = [o for o in tree_flatten(out)[0] if isinstance(o, torch.Tensor)]
        # values that depend on neither the batch nor the parameters (a mask built from
        # torch.ones/tril/arange): a -inf they make is deliberate, never the instability
        op.const = packet in _FACTORIES or bool(op.tins) and all(self._is_const(t) for t in op.tins)
        for o in op.outs:
            self._mark(o)
            self._note_const(o, op.const)
        op.bad = [o for o in op.outs if not all_finite(o)]

    def _is_const(self, t: torch.Tensor) -> bool:
        ref = self._const.get(_storage(t))
        return ref is not None and ref() is not None

    def _note_const(self, o: torch.Tensor, const: bool) -> None:
        p = _storage(o)
        if not p:
            return
        if not const:
            self._const.pop(p, None)  # new values, or written in place from non-constant ones
        elif not self._is_const(o):
            self._const[p] = weakref.ref(o, lambda r, p=p: self._const.pop(p, None) if self._const.get(p) is r else None)

    def _mark(self, t: torch.Tensor) -> None:
        k = id(t)
        if k not in self._traced:
            self._traced[k] = weakref.ref(t, lambda _r, k=k: self._traced.pop(k, None))

    def _event(self, func, index, ins, scalars, outs, bad) -> OpEvent:
        if self.phase == "backward":
            node = torch._C._current_autograd_node()
            module = self.tracker.module_of_node(node)
            node_name = node.name() if node is not None else None
        else:
            module, node_name = self.tracker.current, None
        self.tracker.busy = True
        try:
            src = (bad or outs)[:1]
            rows = bad_rows(src[0]) if src else []
            samples = rows_to_samples(src[0], rows, self.batch_size) if src else None
            return OpEvent(
                op=func._schema.name, short=func._overloadpacket.__name__, phase=self.phase,
                index=index, module=module, module_type=self.tracker.type_of(module), node=node_name,
                inputs=ins, scalars=list(scalars), outputs=[TensorStats.of(o) for o in outs],
                rows=rows, samples=samples, code=user_line() if self.phase == "forward" else None,
            )
        finally:
            self.tracker.busy = False


class Instrument:
    """The watch in three calls, for a step run by the user's own code (the replay of a
    script): ``start()`` before the batch is used, ``backward_phase()`` when its backward
    begins, ``stop()`` after it; then ``detections()``."""

    def __init__(self, batch_size: int | None = None, fp16_check: bool = False) -> None:
        self.tracker = ModuleTracker(None)
        self.watch = Watch(self.tracker, batch_size, fp16_check)
        self.active = False
        self.backward_ran = False

    def start(self) -> None:
        self.tracker.__enter__()
        self.watch.__enter__()
        self.active = True

    def backward_phase(self) -> None:
        self.watch.phase = "backward"
        self.backward_ran = True

    def stop(self) -> None:
        if self.active:
            self.active = False
            self.watch.__exit__(None, None, None)
            self.tracker.__exit__()

    def detections(self, result_finite: bool | None) -> Detections:
        return self.watch.detections(
            result_finite, "ran" if self.backward_ran else "skipped: the script did not call backward")


def _mutated(func: Any) -> tuple[list[int], list[str]]:
    pos, kw = [], []
    for i, a in enumerate(func._schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write:
            (kw if a.kwarg_only else pos).append(i if not a.kwarg_only else a.name)
    return pos, kw  # type: ignore[return-value]


def _storage(t: torch.Tensor) -> int:
    """The address of a tensor's storage (0 for none, or an empty one)."""
    try:
        return t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError, AttributeError):
        return 0
