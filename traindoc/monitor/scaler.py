"""GradScalers: the loss before scaling (what ``backward`` is called on is the scaled one)
and each scaler's loss scale."""

from __future__ import annotations

import weakref
from typing import Any

import torch


class Scalers:
    """Owned by the monitor; ``on_scale`` is called through ``Monitor.guard``."""

    def __init__(self) -> None:
        self._refs: list[weakref.ref] = []
        # id(scaled loss) -> (ref, unscaled, multiplied by a scale)
        self._scaled: dict[int, tuple[weakref.ref, torch.Tensor, bool]] = {}

    def live(self) -> list[Any]:
        """The GradScalers seen so far that still exist."""
        return [sc for sc in (r() for r in self._refs) if sc is not None]

    def on_scale(self, scaler: Any, outputs: Any, out: Any) -> None:
        if not any(r() is scaler for r in self._refs):
            self._refs.append(weakref.ref(scaler))
        if isinstance(outputs, torch.Tensor) and isinstance(out, torch.Tensor):
            if len(self._scaled) > 64:
                self._scaled = {k: v for k, v in self._scaled.items() if v[0]() is not None}
            # (a disabled scaler, GradScaler(enabled=False), returns the loss itself: not multiplied)
            self._scaled[id(out)] = (weakref.ref(out), outputs.detach(), out is not outputs)

    def unscaled(self, t: torch.Tensor) -> torch.Tensor:
        """The loss ``t`` is: the unscaled value when ``t`` came out of ``GradScaler.scale``."""
        entry = self._scaled.get(id(t))
        if entry is not None and entry[0]() is t:
            return entry[1]
        return t.detach()

    def is_scaled(self, t: torch.Tensor) -> bool:
        """Did ``t`` come out of ``GradScaler.scale`` multiplied by its scale? (A disabled
        scaler, ``GradScaler(enabled=False)``, hands back the loss itself.)"""
        entry = self._scaled.get(id(t))
        return entry is not None and entry[0]() is t and entry[2]

    def add_scales(self, names: list[str], tensors: list[torch.Tensor]) -> None:
        """Each scaler's current scale, joined to the step's gather."""
        for i, ref in enumerate(self._refs):
            sc = ref()
            if sc is not None and getattr(sc, "_scale", None) is not None:
                names.append("scaler/scale" if i == 0 else f"scaler{i}/scale")
                tensors.append(sc._scale.reshape(-1)[:1])
