"""Which module an op ran in, forward and backward, during a replay.

Forward: global forward pre/post hooks keep a stack of the modules being called; the top
of the stack names the module of every aten op. Backward: every autograd node has a
sequence number, taken from a per-thread counter when the forward creates it. At each
module boundary we read that counter (by creating one throw-away node), so the module a
node was created in is the last boundary before its number; during backward
``torch._C._current_autograd_node()`` names the node being run. This also covers nodes
made inside composite functions, which no hook sees.

Limits: modules called without ``__call__`` (``m.forward(x)``), code compiled with
``torch.compile`` and nodes created on another thread are attributed to the enclosing
module (or to none). Hooks are global and live only inside :class:`ModuleTracker`.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

import torch
from torch import nn
from torch.nn.modules import module as _module


class ModuleTracker:
    """Context manager: module names, the current module path, node -> module path.

    Paths are ``named_modules()`` names relative to the first root module (the model),
    ``""`` for the root's own ``forward``, ``None`` outside every module. ``model`` may be a
    mapping ``{prefix: module}`` to name several roots (``{"": model, "criterion": loss}``).
    A module first seen outside any other becomes another root, named by its class.
    """

    def __init__(self, model: nn.Module | Mapping[str, nn.Module] | None = None) -> None:
        self._names: dict[int, str] = {}
        self._types: dict[int, str] = {}
        self.params: dict[int, str] = {}  # id(param or buffer) -> qualified name
        self._stack: list[str] = []
        self._roots = 0
        self._bounds_seq: list[int] = []
        self._bounds_path: list[str | None] = []
        self._probe: torch.Tensor | None = None
        self._handles: list[Any] = []
        self.busy = False  # True while the tracker runs its own ops (to be ignored)
        if isinstance(model, nn.Module):
            self._register_root(model)
        elif model is not None:  # {"": model, "criterion": loss_module}
            for prefix, m in model.items():
                self._register_root(m, prefix)

    # naming ---------------------------------------------------------------------------
    def _register_root(self, root: nn.Module, prefix: str | None = None) -> None:
        if prefix is None:
            prefix = "" if self._roots == 0 else type(root).__name__
        self._roots += 1
        for name, m in root.named_modules(remove_duplicate=False):
            path = f"{prefix}.{name}" if prefix and name else (name or prefix)
            self._names.setdefault(id(m), path)
            self._types.setdefault(id(m), type(m).__name__)
        for name, p in root.named_parameters(remove_duplicate=False):
            self.params.setdefault(id(p), f"{prefix}.{name}" if prefix else name)
        for name, b in root.named_buffers(remove_duplicate=False):
            self.params.setdefault(id(b), f"{prefix}.{name}" if prefix else name)

    def type_of(self, path: str | None) -> str | None:
        """Class name of the module at ``path`` (None outside every module)."""
        if path is None:
            return None
        for mid, p in self._names.items():  # small: one entry per module, replay only
            if p == path:
                return self._types[mid]
        return None

    @property
    def current(self) -> str | None:
        return self._stack[-1] if self._stack else None

    # hooks ----------------------------------------------------------------------------
    def _pre(self, mod: nn.Module, args: Any) -> None:
        if self.busy:
            return
        if id(mod) not in self._names:
            if not self._stack:
                self._register_root(mod)
            else:  # a module that is not a registered child (a plain list, made in forward)
                path = f"{self._stack[-1]}.<{type(mod).__name__}>".lstrip(".")
                self._names[id(mod)] = path
                self._types[id(mod)] = type(mod).__name__
        self._stack.append(self._names[id(mod)])
        self._boundary()

    def _post(self, mod: nn.Module, args: Any, out: Any) -> None:
        if self.busy or not self._stack:
            return
        self._stack.pop()
        self._boundary()

    def _boundary(self) -> None:
        """Record (next autograd sequence number, module path from here on)."""
        if not torch.is_grad_enabled():
            return
        self.busy = True
        try:
            node = (self._probe * 1).grad_fn  # one throw-away node: reads the counter
            seq = node._sequence_nr() if node is not None else None
        finally:
            self.busy = False
        if seq is None:
            return
        if self._bounds_seq and seq <= self._bounds_seq[-1]:  # counter is per thread
            return
        self._bounds_seq.append(seq)
        self._bounds_path.append(self.current)

    def module_of_node(self, node: Any) -> str | None:
        """Module path that was current when the forward created autograd ``node``."""
        if node is None:
            return None
        try:
            seq = node._sequence_nr()
        except Exception:  # pragma: no cover - exotic node types
            return None
        i = bisect.bisect_left(self._bounds_seq, seq) - 1
        return self._bounds_path[i] if i >= 0 else None

    def __enter__(self) -> "ModuleTracker":
        self._probe = torch.zeros((), requires_grad=True)
        self._handles = [
            _module.register_module_forward_pre_hook(self._pre),
            _module.register_module_forward_hook(self._post, always_call=True),
        ]
        self._boundary()
        return self

    def __exit__(self, *exc: Any) -> None:
        for h in self._handles:
            h.remove()
        self._handles = []
