"""The first aten op that produced a non-finite value, with its module, phase and inputs.

``first_nonfinite(fn)`` runs ``fn`` (a closure over the failing step's forward and loss)
under a ``TorchDispatchMode`` that checks every op's inputs and outputs, then runs the
backward the same way when the forward stayed finite. Instrumentation exists only inside
this call (replay), so training pays nothing.

What is reported (see :class:`NonfiniteReport`), by the order in which things happen:

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

``kind`` and ``culprit`` pick the cause: an input holding NaN read before any unstable
op -> ``nonfinite-input``/``nonfinite-state``; else ``first_inf`` (``fp16-overflow`` when it
ran in float16/bfloat16 and the same op is finite when recomputed in float32, else
``unstable-op``); else ``first_nan`` (``unstable-op`` on infinite inputs); else an input
holding only +-inf.

An op whose tensor inputs were all computed from constants (``torch.ones``, ``arange``,
``full`` and ops on them: ``torch.log(torch.tril(torch.ones(T, T)))``, an additive 0/-inf
attention mask) is deliberate and never ``first_inf``: the op that later turns a fully
masked row into NaN is ``first_nan``. Limits: a mask built from the batch (``log`` of a
padding mask that came with the data) is reported as ``first_inf``. Tensors from ``torch.empty`` hold garbage and are never checked.
Every checked op syncs with the device: a replay runs a few times slower than a step.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten, tree_map

from .modules import ModuleTracker
from .stats import FP16_MAX, TensorStats, absmax, all_finite, bad_rows, has_nan, rows_to_samples

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
_HALF = (torch.float16, torch.bfloat16)


@dataclass
class OpEvent:
    """One op of the replay and what it did."""

    op: str  # "aten::exp"
    short: str  # "exp"
    phase: str  # "forward" | "backward"
    index: int  # position of the op in its phase's trace
    module: str | None  # "encoder.layers.3.attn"; "" = the root module's forward; None = outside
    module_type: str | None  # class of that module, e.g. "SelfAttention"
    node: str | None  # backward: the autograd node, e.g. "ExpBackward0"
    inputs: list[TensorStats]  # every tensor argument, before the op ran
    scalars: list[Any]  # non-tensor arguments (ints, floats, dims)
    outputs: list[TensorStats]
    rows: list[int] = field(default_factory=list)  # dim-0 rows of the output that went bad
    samples: list[int] | None = None  # batch positions, when the layout names them
    source: str | None = None  # nonfinite_input: "input" or "parameter <name>"
    fp32_finite: bool | None = None  # half precision op: finite when recomputed in float32?
    code: str | None = None  # forward: "train.py:42 in forward: w = torch.exp(scores) * mask"

    def where(self) -> str:
        if self.module is None:
            return "outside any module"
        return self.module or f"<{self.module_type} (top level)>"

    def to_dict(self) -> dict[str, Any]:
        return {
            "op": self.op, "short": self.short, "phase": self.phase, "index": self.index,
            "module": self.module, "module_type": self.module_type, "node": self.node,
            "inputs": [s.to_dict() for s in self.inputs], "scalars": [_scalar_json(v) for v in self.scalars],
            "outputs": [s.to_dict() for s in self.outputs], "rows": self.rows,
            "samples": self.samples, "source": self.source, "fp32_finite": self.fp32_finite,
            "code": self.code,
        }


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


def _scalar_json(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [_scalar_json(x) for x in v]
    return str(v)


def _mutated(func: Any) -> tuple[list[int], list[str]]:
    pos, kw = [], []
    for i, a in enumerate(func._schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write:
            (kw if a.kwarg_only else pos).append(i if not a.kwarg_only else a.name)
    return pos, kw  # type: ignore[return-value]


class _Watch(TorchDispatchMode):
    """Checks every op; records the events of :class:`NonfiniteReport`."""

    def __init__(self, tracker: ModuleTracker, batch_size: int | None, fp16_check: bool) -> None:
        super().__init__()
        self.tracker = tracker
        self.batch_size = batch_size
        self.fp16_check = fp16_check
        self.phase = "forward"
        self.counts = {"forward": 0, "backward": 0}
        self.first_inf: OpEvent | None = None
        self.first_nan: OpEvent | None = None
        self.ext_nan: OpEvent | None = None
        self.ext_inf: OpEvent | None = None
        self.fp16: OpEvent | None = None
        self.done = False
        self._traced: dict[int, weakref.ref] = {}
        # storages whose values were all computed from constants, by storage address (a
        # write into any view of one from other values ends it), with a tensor to keep alive
        self._const: dict[int, weakref.ref] = {}
        self._mut_cache: dict[Any, tuple[list[int], list[str]]] = {}

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

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):  # noqa: C901 - one pass, in order
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
        index = self.counts[self.phase]
        self.counts[self.phase] += 1
        leaves = tree_flatten((args, kwargs))[0]
        tins = [t for t in leaves if isinstance(t, torch.Tensor)]
        scalars = [v for v in leaves if not isinstance(v, torch.Tensor)]
        scalar_bad = any(isinstance(v, (float, complex)) and not math.isfinite(abs(v)) for v in scalars)
        scalar_nan = any(isinstance(v, (float, complex)) and math.isnan(abs(v)) for v in scalars)
        fin = [all_finite(t) for t in tins]
        nan_in = [(not f) and has_nan(t) for t, f in zip(tins, fin)]
        # In-place ops overwrite an input: keep a copy so the event shows it as it was.
        if func not in self._mut_cache:
            self._mut_cache[func] = _mutated(func)
        mpos, mkw = self._mut_cache[func]
        orig = None
        if mpos or mkw:
            orig = (list(args), dict(kwargs))
            for i in mpos:
                if i < len(args) and isinstance(args[i], torch.Tensor):
                    orig[0][i] = args[i].detach().clone()
            for k in mkw:
                if isinstance(kwargs.get(k), torch.Tensor):
                    orig[1][k] = kwargs[k].detach().clone()
        in_stats = None

        def stats_in() -> list[TensorStats]:
            nonlocal in_stats
            if in_stats is None:
                src = tree_flatten(orig)[0] if orig is not None else leaves
                in_stats = [TensorStats.of(t) for t in src if isinstance(t, torch.Tensor)]
            return in_stats

        # Inputs that are non-finite and that no traced op made: data or state.
        for t, f, n in zip(tins, fin, nan_in):
            if f or id(t) in self._traced:
                continue
            if (n and self.ext_nan is None) or (not n and self.ext_inf is None):
                name = self.tracker.params.get(id(t))
                ev = self._event(func, index, stats_in(), scalars, [t], [])
                ev.source = f"parameter {name}" if name is not None else "input"
                if n:
                    self.ext_nan = ev
                    self.done = True
                else:
                    self.ext_inf = ev
            self._mark(t)  # report each outside tensor once
        if self.done:
            return func(*args, **kwargs)

        out = func(*args, **kwargs)
        outs = [o for o in tree_flatten(out)[0] if isinstance(o, torch.Tensor)]
        # values that depend on neither the batch nor the parameters (a mask built from
        # torch.ones/tril/arange): a -inf they make is deliberate, never the instability
        const = packet in _FACTORIES or bool(tins) and all(self._is_const(t) for t in tins)
        for o in outs:
            self._mark(o)
            self._note_const(o, const)
        out_fin = [all_finite(o) for o in outs]
        if not all(out_fin):
            bad = [o for o, f in zip(outs, out_fin) if not f]
            if (self.first_inf is None and tins and not scalar_bad and (all(fin) or _made_here(tins, outs))
                    and not const):
                self.first_inf = self._event(func, index, stats_in(), scalars, outs, bad)
                self.first_inf.fp32_finite = self._fp32_finite(func, orig or (args, kwargs), bad)
            if self.first_nan is None and not any(nan_in) and not scalar_nan and any(has_nan(o) for o in bad):
                self.first_nan = self._event(func, index, stats_in(), scalars, outs, bad)
                self.first_nan.fp32_finite = self._fp32_finite(func, orig or (args, kwargs), bad)
                self.done = True  # NaN from NaN-free inputs: nothing later is news
        elif self.fp16_check and self.fp16 is None and self.first_inf is None:
            wide = [o for o in outs if o.dtype in (torch.float32, torch.float64)]
            if wide and any(absmax(o) > FP16_MAX for o in wide):
                if all(absmax(t) <= FP16_MAX for t in tins if t.is_floating_point()):
                    big = [o for o in wide if absmax(o) > FP16_MAX]
                    self.fp16 = self._event(func, index, stats_in(), scalars, outs, [])
                    self.fp16.rows = _big_rows(big[0])
                    self.fp16.samples = _big_samples(big[0], self.fp16.rows, self.batch_size)
        return out

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
                rows=rows, samples=samples, code=_user_line() if self.phase == "forward" else None,
            )
        finally:
            self.tracker.busy = False

    def _fp32_finite(self, func, args_kwargs, bad) -> bool | None:
        """For a float16/bfloat16 op: is the same op finite when recomputed in float32?"""
        if not any(o.dtype in _HALF for o in bad):
            return None
        up = lambda v: v.detach().float() if isinstance(v, torch.Tensor) and v.dtype in _HALF else v  # noqa: E731
        a, k = tree_map(up, args_kwargs)
        if k.get("dtype") in _HALF:
            k = {**k, "dtype": torch.float32}
        try:
            out = func(*a, **k)
        except Exception:  # an op that insists on half inputs: cannot tell
            return None
        return all(all_finite(o) for o in tree_flatten(out)[0] if isinstance(o, torch.Tensor))


def _user_line() -> str | None:
    """The innermost stack frame outside torch and traindoc: the line of the user's code."""
    import linecache
    import sys

    f = sys._getframe(1)
    torch_dir = torch.__file__.rsplit("/", 1)[0]
    own = __file__.rsplit("/", 2)[0]
    while f is not None:
        fn = f.f_code.co_filename
        mine = fn.startswith(own) and not fn.startswith(own + "/demo/")  # the demo is user code
        if not (fn.startswith(torch_dir) or mine or fn.startswith("<")):
            line = linecache.getline(fn, f.f_lineno).strip()
            return f"{fn.rsplit('/', 1)[-1]}:{f.f_lineno} in {f.f_code.co_name}: {line}"
        f = f.f_back
    return None


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
    watch = _Watch(tracker, batch_size, fp16_check)
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
    elif watch.first_inf or watch.first_nan or watch.ext_nan:
        why = "skipped: the forward already went non-finite"
    elif loss is None or not loss.requires_grad or loss.grad_fn is None:
        why = "skipped: fn returned no scalar that requires grad"
    else:
        leaves = _leaves(loss)
        watch.phase = "backward"
        with watch:
            torch.autograd.grad(loss, leaves, allow_unused=True) if leaves else None
        why = "ran"
    kind, culprit = _verdict(watch)
    return NonfiniteReport(
        kind=kind, culprit=culprit, first_inf=watch.first_inf, first_nan=watch.first_nan,
        nonfinite_input=watch.ext_nan or watch.ext_inf, fp16_overflow=watch.fp16,
        result_finite=result_finite, forward_ops=watch.counts["forward"],
        backward_ops=watch.counts["backward"], backward=why,
    )


class Instrument:
    """:func:`first_nonfinite` split in three calls, for a step run by the user's own code
    (the replay of a script): ``start()`` before the batch is used, ``backward_phase()``
    when its backward begins, ``stop()`` after it; then ``report()``."""

    def __init__(self, batch_size: int | None = None, fp16_check: bool = False) -> None:
        self.tracker = ModuleTracker(None)
        self.watch = _Watch(self.tracker, batch_size, fp16_check)
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

    def report(self, result_finite: bool | None) -> NonfiniteReport:
        w = self.watch
        kind, culprit = _verdict(w)
        return NonfiniteReport(
            kind=kind, culprit=culprit, first_inf=w.first_inf, first_nan=w.first_nan,
            nonfinite_input=w.ext_nan or w.ext_inf, fp16_overflow=w.fp16, result_finite=result_finite,
            forward_ops=w.counts["forward"], backward_ops=w.counts["backward"],
            backward="ran" if self.backward_ran else "skipped: the script did not call backward",
        )


def _order(e: OpEvent) -> tuple[int, int]:
    return (0 if e.phase == "forward" else 1, e.index)


def _verdict(w: _Watch) -> tuple[str | None, OpEvent | None]:
    def ext_kind(e: OpEvent) -> str:
        return "nonfinite-state" if (e.source or "").startswith("parameter") else "nonfinite-input"

    if w.ext_nan is not None and (w.first_inf is None or _order(w.ext_nan) <= _order(w.first_inf)):
        return ext_kind(w.ext_nan), w.ext_nan
    if w.first_inf is not None:
        return ("fp16-overflow" if w.first_inf.fp32_finite else "unstable-op"), w.first_inf
    if w.first_nan is not None:
        return ("fp16-overflow" if w.first_nan.fp32_finite else "unstable-op"), w.first_nan
    if w.ext_inf is not None:
        return ext_kind(w.ext_inf), w.ext_inf
    return None, None


def _storage(t: torch.Tensor) -> int:
    """The address of a tensor's storage (0 for none, or an empty one)."""
    try:
        return t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError, AttributeError):
        return 0


def _made_here(tins: list, outs: list) -> bool:
    """An elementwise op of one tensor turned a finite element into a non-finite one
    (costs two elementwise passes, replay only)."""
    if len(tins) != 1 or len(outs) != 1 or tins[0].shape != outs[0].shape or not tins[0].is_floating_point():
        return False
    with torch.no_grad():
        return bool((torch.isfinite(tins[0]) & ~torch.isfinite(outs[0])).any())
