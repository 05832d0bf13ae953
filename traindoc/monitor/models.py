"""The watched models: discovery (the root modules and the names of their modules and
parameters), the global forward hooks, activation statistics and autocast states."""

from __future__ import annotations

import contextlib
import threading
import weakref
from typing import Any, Iterable, Iterator

import torch
from torch.nn.modules.loss import _Loss

from . import context
from .quantities import activation_stats
from .time_grads import MIN_CALLS, TimeGrads


class Models:
    """Owned by the monitor; each hook entry point is called through ``Monitor.guard``."""

    def __init__(self, mon: Any, only: Iterable[torch.nn.Module] | torch.nn.Module | None) -> None:
        self.mon = mon
        if isinstance(only, torch.nn.Module):
            only = [only]
        self.only = list(only) if only is not None else None  # models= given: no discovery
        self._roots: list[weakref.ref] = []
        self._mod_names: "weakref.WeakKeyDictionary[torch.nn.Module, str]" = weakref.WeakKeyDictionary()
        self.param_names: dict[int, str] = {}
        self._summarised: set[int] = set()
        self._thread = threading.get_ident()  # the thread that trains (a save from another keeps the hook)
        self._depth = 0
        self._hook_handles: list[Any] = []
        self._root_hooks: list[Any] = []
        self.compiled = False
        self._autocast: set[tuple[tuple[str, str], ...]] = set()
        # modules with trainable parameters that a watched model calls but does not own (a
        # plain list or dict of layers instead of nn.ModuleList/ModuleDict): id -> weakref
        self._orphans: dict[int, weakref.ref] = {}
        self._orphans_said: set[int] = set()
        self._repeats_said = False
        self.time_grads = TimeGrads(mon)

    def live_roots(self) -> list[tuple[str, torch.nn.Module]]:
        """The models being trained, with the prefix of their parameter names."""
        out = []
        for i, r in enumerate(self._roots):
            m = r()
            if m is not None:
                out.append(("" if i == 0 else f"{type(m).__name__.lower()}{i}.", m))
        return out

    def note_root(self, module: torch.nn.Module) -> None:
        if any(r() is module for r in self._roots):
            return
        if type(module).__name__ == "OptimizedModule":
            self.compiled = True
            self.remove_forward_hooks()
            inner = getattr(module, "_orig_mod", None)
            if isinstance(inner, torch.nn.Module):
                module = inner
        prefix = "" if not self._roots else f"{type(module).__name__.lower()}{len(self._roots)}."
        self._roots.append(weakref.ref(module))
        # the model's inputs, for a loop that builds batches by hand (no DataLoader): one
        # Python call per forward of the model itself (see Batches.on_root_forward)
        self._hook_root(module)
        for name, m in module.named_modules():
            self._mod_names.setdefault(m, prefix + name if name else (prefix.rstrip(".") or "model"))
        for name, p in module.named_parameters():
            self.param_names.setdefault(id(p), prefix + name)

    def _hook_root(self, module: torch.nn.Module) -> None:
        handle = module.register_forward_pre_hook(_RootHook(self.mon), with_kwargs=True)
        self._root_hooks.append((weakref.ref(module), handle))

    @contextlib.contextmanager
    def hooks_detached(self) -> Iterator[None]:
        """The roots without traindoc's hook while the user saves or scripts them:
        ``torch.save(model)`` would pickle the hook (a closure: it fails, and the file
        would need traindoc to load) and ``torch.jit.script`` would try to compile it.
        Two dict operations per root per call; re-attached afterwards (last in hook order).

        Only on the thread that trains (the one that started the monitor): a checkpoint
        saved from a background thread (an async checkpointer) while training goes on
        must not take the hook away from the forwards running meanwhile, nor race the
        re-attach with another save. There the hook stays and is pickled as an inert
        :class:`_RootHook` (the file then names traindoc, as a plain ``pickle`` does)."""
        if threading.get_ident() != self._thread:
            yield
            return
        held, self._root_hooks = self._root_hooks, []
        for _, h in held:
            h.remove()
        try:
            yield
        finally:
            for ref, _ in held:
                m = ref()
                if m is not None and not self.mon.closed:
                    self.mon.guard("forward-inputs", self._hook_root, m)

    def describe(self) -> None:
        self._say_orphans()
        for r in self._roots:
            m = r()
            if m is not None and id(m) not in self._summarised:
                self._summarised.add(id(m))
                name = self._mod_names.get(m, "model")
                self.mon.writer.meta(f"model/{name}", context.model_summary(name, m))

    def param_name(self, p: torch.Tensor, opt_index: int, gi: int, pi: int) -> str:
        name = self.param_names.get(id(p))
        if name is None:
            name = f"opt{opt_index}.group{gi}.param{pi}"
            self.param_names[id(p)] = name
        return name

    def _say_orphans(self) -> None:
        """An event per module a model called in a training forward (sampled steps) that is
        not one of its submodules and whose trainable parameters no optimizer holds: they
        are invisible to ``model.parameters()``, so they never train (params-not-updated).
        Python-side set lookups, once per such module."""
        todo = [k for k in self._orphans if k not in self._orphans_said]
        opts = self.mon.optim.live()
        if not todo or not opts or self.mon.step < 1:  # from step 1: every optimizer has stepped once
            return
        held = {id(p) for o in opts for g in o.param_groups for p in g["params"]}
        for k in todo:
            m = self._orphans[k]()
            self._orphans_said.add(k)
            ps = [p for p in m.parameters() if p.requires_grad] if m is not None else []
            if ps and not any(id(p) in held for p in ps):
                self.mon.writer.event(self.mon.step, "unregistered-module",
                                      f"{type(m).__name__} runs inside the model's forward but is not its submodule",
                                      {"class": type(m).__name__, "tensors": len(ps),
                                       "values": sum(p.numel() for p in ps)})

    def note_repeats(self, act_names: list[str], backwards: int = 1) -> None:
        """Once, on the first sampled step with activation statistics: the event
        ``repeated-modules`` {module: calls} for the leaf modules with weights that one
        backward's forward called 4 or more times (a layer applied per time step in a
        hand-written recurrence, a cell called per time step from the loop, a shared block;
        calls per step divided by the backwards in it, so that gradient accumulation's
        micro-batches do not count). Their gains compound over the calls like an RNN's
        (exploding-gradient reads it). Cost: one count over the names already collected."""
        if self._repeats_said or not act_names:
            return
        self._repeats_said = True
        per = max(1, backwards)  # micro-batches: one backward each (a time loop calls its cell T times, then one)
        weighted = {name for m, name in self._mod_names.items() if next(m.parameters(recurse=False), None) is not None}
        names: dict[str, int] = {}
        for n in act_names:
            if n.startswith("act/") and "#" not in n:  # functional ops are named per call
                names[n] = names.get(n, 0) + 1
        calls: dict[str, int] = {}
        for n, k in names.items():  # each call adds one name per statistic
            mod = n[4:n.rfind("/")]
            if mod in weighted:  # (one ReLU module reused after every layer is no recurrence)
                calls[mod] = max(calls.get(mod, 0), k // per)
        rep = {m: k for m, k in calls.items() if k >= 4}
        if rep:
            self.mon.writer.event(self.mon.step, "repeated-modules",
                                  f"{len(rep)} module(s) called 4+ times in one step", rep)
            self.time_grads.modules = {m for m, k in rep.items() if k >= MIN_CALLS}

    # ------------------------------------------------------------------ forward hooks
    def _fwd_pre(self, module: torch.nn.Module, args: Any) -> None:
        if self._depth == 0 and torch.is_grad_enabled():
            if not isinstance(module, _Loss) and (self.only is None) and next(module.parameters(), None) is not None:
                known = any(r() is module for r in self._roots)
                self.note_root(module)
                if not known:  # its own hook starts with the next call: take this one's inputs here
                    self.mon.batches.on_root_forward(module, args, {})
            if not isinstance(module, _Loss):
                self._note_autocast()
        self._depth += 1

    def _fwd_post(self, module: torch.nn.Module, args: Any, out: Any) -> None:
        self._depth = max(0, self._depth - 1)
        rec = self.mon.rec
        if not (rec.sampled and torch.is_grad_enabled()) or self.compiled:
            return
        if self._depth == 0 and not isinstance(module, _Loss) and any(r() is module for r in self._roots):
            self._root_output(rec, out, args)
        if next(module.children(), None) is not None:
            return  # leaves only: a parent's output is its last child's
        name = self._mod_names.get(module)
        if name is None:
            if self._depth > 0 and id(module) not in self._orphans and len(self._orphans) < 64:
                self._orphans[id(module)] = weakref.ref(module)  # inside a model's forward, not its own
            return
        y = out[0] if isinstance(out, (tuple, list)) and out else out
        if not isinstance(y, torch.Tensor) or not y.is_floating_point() or y.numel() == 0:
            return
        t0 = self.mon.timer()
        for k, v in activation_stats(module, y).items():
            rec.act_names.append(f"act/{name}/{k}")
            rec.act_vals.append(v)
        if self.time_grads.modules:
            self.time_grads.on_output(name, y, rec.fwd_group)
        rec.extra_time += self.mon.timer() - t0

    def _root_output(self, rec: Any, out: Any, args: Any = ()) -> None:
        """The model's own output (``out/absmax``, one reduction per training forward of a
        sampled step): how large a prediction the model makes, to weigh the loss against
        (a loss far beyond anything the outputs can reach says the targets are). And its
        float tensor arguments' (``in/absmax``, one reduction each): whether the inputs are
        raw is then read off the inputs, not off a first layer whose output may be a
        recurrence's sum over time."""
        if isinstance(out, dict):
            out = out.get("logits")
        y = out[0] if isinstance(out, (tuple, list)) and out else out
        if not (isinstance(y, torch.Tensor) and y.is_floating_point() and y.numel() and y.layout == torch.strided):
            return
        rec.act_names.append("out/absmax")
        rec.act_vals.append(_absmax(y))
        if rec.train_fwds <= 1:  # the step's first training forward, as on unsampled steps
            note_input_absmax(rec, args, y.device)  # (on the output's device)

    def add_forward_hooks(self) -> None:
        if self._hook_handles or self.compiled:
            return
        from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

        mon = self.mon
        self._depth = 0
        self._hook_handles = [
            register_module_forward_pre_hook(lambda m, a: mon.guard("forward-hook", self._fwd_pre, m, a)),
            register_module_forward_hook(lambda m, a, o: mon.guard("forward-hook", self._fwd_post, m, a, o),
                                         always_call=True),
        ]

    def remove_forward_hooks(self) -> None:
        for h in self._hook_handles:
            h.remove()
        self._hook_handles = []

    def remove_hooks(self) -> None:
        """At close: the global forward hooks and each root's input hook."""
        self.remove_forward_hooks()
        for _, h in self._root_hooks:
            h.remove()
        self._root_hooks = []

    def _note_autocast(self) -> None:
        """Record each autocast state the model's forward runs under (a few Python calls
        per forward of the root model; no tensor work)."""
        state = []
        for dev in ("cuda", "cpu"):
            try:
                on = torch.is_autocast_enabled(dev)
                dtype = torch.get_autocast_dtype(dev) if on else None
            except (TypeError, AttributeError):  # torch < 2.4
                on = torch.is_autocast_enabled() if dev == "cuda" else torch.is_autocast_cpu_enabled()
                dtype = (torch.get_autocast_gpu_dtype() if dev == "cuda" else torch.get_autocast_cpu_dtype()) if on else None
            if on:
                state.append((dev, str(dtype).replace("torch.", "")))
        key = tuple(state)
        if key not in self._autocast:  # each state once (eval forwards often run outside autocast)
            self._autocast.add(key)
            self.mon.writer.event(self.mon.step, "autocast", ", ".join(f"{d} {t}" for d, t in state) or "off",
                                  {d: t for d, t in state})


def _absmax(t: torch.Tensor) -> torch.Tensor:
    """max |x| as one reduction, without the full-size temporary ``t.abs()`` makes (an image
    batch's worth of memory on a sampled step); NaN and inf propagate as with abs().amax()."""
    return torch.linalg.vector_norm(t.detach(), float("inf"))


class _RootHook:
    """The root module's input hook. It holds the monitor weakly, and a copy or a pickle of
    the model gets an inert one: ``copy.deepcopy(model)`` (an EMA or target network) does
    not keep the run's monitor alive, and ``pickle.dumps(model)`` (or a ``torch.save``
    imported before monitoring began, which the wrapper cannot see) does not fail on it;
    such a file then names this class, so it loads where traindoc is installed."""

    __slots__ = ("_mon",)

    def __init__(self, mon: Any) -> None:
        self._mon = weakref.ref(mon) if mon is not None else None

    def __call__(self, module: torch.nn.Module, args: tuple, kwargs: dict) -> None:
        mon = self._mon() if self._mon is not None else None
        if mon is not None:
            mon.guard("forward-inputs", mon.batches.on_root_forward, module, args, kwargs)

    def __reduce__(self) -> tuple:
        return (_RootHook, (None,))

    def __deepcopy__(self, memo: dict) -> "_RootHook":
        return _RootHook(None)


def note_input_absmax(rec: Any, args: Any, device: Any = None) -> None:
    """``in/absmax``: the largest |value| of the model's dense float tensor arguments (the
    first four, on one device: the step's values are stacked on one device at the read);
    none when raw bytes come in (uint8 images cast inside the model: a small float side
    input would speak for them). For the first training forward of the step only (a
    discriminator or a head fed another model's output is not the data), every step: on a
    sampled step from the model's output hook, on the others from its input hook (one
    reduction a step: a loss or gradient spike can then be laid against the size of the
    batch that came with it, data-outlier's evidence)."""
    ins = [x for x in (args if isinstance(args, tuple) else ())[:4] if isinstance(x, torch.Tensor)]
    if any(x.dtype == torch.uint8 for x in ins):
        return
    fl = [x for x in ins if x.is_floating_point() and x.layout == torch.strided and x.numel()]
    device = device if device is not None else fl[0].device if fl else None
    xs = [_absmax(x) for x in fl if x.device == device]
    if xs:
        rec.act_names.append("in/absmax")
        rec.act_vals.append(xs[0] if len(xs) == 1 else torch.stack([v.float() for v in xs]).amax())
