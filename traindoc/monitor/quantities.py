"""Tensor computations of the monitor. Everything here stays on the tensors' device and
returns tensors; the host reads them only through :class:`Transfer` (at once with
:func:`gather`, or a step later: the lagged reads of ``monitor/record.py``)."""

from __future__ import annotations

import math
from typing import Any

import torch

FP16_MAX = 65504.0
FP16_TINY = 2.0**-24  # smallest float16 subnormal: smaller magnitudes flush to zero

_RELU_LIKE = (torch.nn.ReLU, torch.nn.ReLU6)
_SIGMOID_LIKE = (torch.nn.Sigmoid, torch.nn.Hardsigmoid)
_TANH_LIKE = (torch.nn.Tanh, torch.nn.Hardtanh)

ACT_STATS = ("mean", "std", "absmax", "zero", "fp16_over")


class Transfer:
    """Tensors on their way to the host: flattened per device into one float32 vector and,
    on CUDA, copied with ``non_blocking`` into pinned host memory behind a CUDA event, so
    that starting the transfer never waits for the device. :meth:`values` reads them: on
    CUDA it waits on the event (called a step later by the lagged reads, when the device
    has long passed it); on CPU the vector is already there.

    The flattening is a copy, so an in-place change of a tensor after the transfer began
    (a GradScaler's scale, a learning-rate tensor) does not reach the values."""

    __slots__ = ("_sizes", "_parts")

    def __init__(self, tensors: list[torch.Tensor]) -> None:
        self._sizes = [t.numel() for t in tensors]
        by_dev: dict[torch.device, list[int]] = {}
        for i, t in enumerate(tensors):
            by_dev.setdefault(t.device, []).append(i)
        self._parts: list[tuple[list[int], torch.Tensor, Any]] = []
        for dev, idx in by_dev.items():
            ts = [tensors[i] for i in idx]
            if all(t.dtype == torch.float32 for t in ts):  # the usual case: one detach, not one a tensor
                flat = torch.cat([t.reshape(-1) for t in ts]).detach()
            else:
                flat = torch.cat([t.detach().reshape(-1).float() for t in ts])
            event = None
            if flat.is_cuda:
                host = torch.empty(flat.shape, dtype=flat.dtype, pin_memory=True)
                host.copy_(flat, non_blocking=True)
                event = torch.cuda.Event()
                event.record(torch.cuda.current_stream(flat.device))
                flat = host
            self._parts.append((idx, flat, event))

    def values(self) -> list[float]:
        """The floats, in the order of the tensors (a tensor of n elements gives n)."""
        parts: dict[int, list[float]] = {}
        for idx, flat, event in self._parts:
            if event is not None:
                event.synchronize()  # lagged: the copy finished long ago; at once: the one sync
            vals = flat.tolist()
            pos = 0
            for i in idx:
                parts[i] = vals[pos : pos + self._sizes[i]]
                pos += self._sizes[i]
        out: list[float] = []
        for i in range(len(self._sizes)):
            out.extend(parts[i])
        return out


def gather(tensors: list[torch.Tensor]) -> list[float]:
    """Flatten 0-d/1-d tensors into one list of Python floats, now (a :class:`Transfer`
    read at once: on a GPU, one device-to-host sync)."""
    return Transfer(tensors).values() if tensors else []


def grad_norms(grads: list[torch.Tensor]) -> list[torch.Tensor]:
    """Per-tensor L2 norms in one fused pass (``torch._foreach_norm``), as float32 0-d tensors.

    Cost: one read of every gradient. A NaN anywhere in a gradient makes its norm NaN,
    an Inf makes it Inf, so the norms also count the non-finite gradients.
    """
    if not grads:
        return []
    dense = [g for g in grads if not g.is_sparse]
    norms = list(torch._foreach_norm(dense)) if dense else []
    return [n if n.dtype == torch.float32 else n.float() for n in norms]  # (a dtype read, not a dispatch)


def total_norm(norms: list[torch.Tensor]) -> torch.Tensor:
    """The global norm of per-tensor norms that may sit on different devices (model parallel)."""
    return torch.stack([n.to(norms[0].device) for n in norms]).square().sum().sqrt()


def underflow_fraction(grads: list[torch.Tensor]) -> list[torch.Tensor]:
    """Per tensor, the fraction of non-zero values whose magnitude float16 cannot hold."""
    out = []
    for g in grads:
        a = g.detach().abs()
        out.append(((a > 0) & (a < FP16_TINY)).float().mean())
    return out


def _unit_dim(y: torch.Tensor) -> int | None:
    """The dimension that indexes units: features of (B, F) and (B, T, F), channels of
    (B, C, H, W) and (B, C, D, H, W)."""
    return {2: 1, 3: 2, 4: 1, 5: 1}.get(y.dim())


def activation_stats(module: torch.nn.Module, y: torch.Tensor) -> dict[str, torch.Tensor]:
    """Statistics of one module output: mean, std, max |x|, fraction exactly zero, fraction
    beyond the float16 range; ``dead`` (fraction of units never positive in the batch)
    for ReLU-like modules; ``saturated`` for sigmoid/tanh. Several reads of ``y``: only
    on sampled steps."""
    y = y.detach()
    yf = y.float()
    a = yf.abs()
    st = {
        "mean": yf.mean(),
        "std": yf.std() if yf.numel() > 1 else torch.zeros((), device=y.device),
        "absmax": a.max(),
        "zero": (y == 0).float().mean(),
        "fp16_over": (a > FP16_MAX).float().mean(),
    }
    if isinstance(module, _RELU_LIKE):
        d = _unit_dim(y)
        if d is not None:
            alive = (y > 0).movedim(d, -1).reshape(-1, y.shape[d]).any(0)
            st["dead"] = 1.0 - alive.float().mean()
    elif isinstance(module, _SIGMOID_LIKE):
        st["saturated"] = ((yf < 0.01) | (yf > 0.99)).float().mean()
    elif isinstance(module, _TANH_LIKE):
        st["saturated"] = (a > 0.99).float().mean()
    return st


def update_ratios(names: list[str], flat: list[float]) -> dict[str, float]:
    """Parameter norms and update ratios from [update norms..., parameter norms...]."""
    k = len(names)
    vals: dict[str, float] = {}
    tot_d = tot_p = 0.0
    for i, n in enumerate(names):
        d, w = flat[i], flat[k + i]
        vals[f"param_norm/{n}"] = w
        vals[f"update_ratio/{n}"] = d / w if w > 0 else (0.0 if d == 0 else float("inf"))
        tot_d += d * d
        tot_p += w * w
    vals["param_norm"] = math.sqrt(tot_p)
    vals["update_ratio"] = math.sqrt(tot_d) / math.sqrt(tot_p) if tot_p > 0 else float("nan")
    return vals
