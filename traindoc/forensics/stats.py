"""Small, JSON-safe summaries of tensors: ranges, non-finite counts, bad rows.

Used by the replay instrumentation (``locate``) and by the sample profiles. Every function
here syncs with the device (``.item()``/``.tolist()``): they run during replay only, never
on the training hot path.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import torch

FP16_MAX = 65504.0  # largest finite float16


def is_float(t: Any) -> bool:
    return isinstance(t, torch.Tensor) and (t.is_floating_point() or t.is_complex())


def all_finite(t: torch.Tensor) -> bool:
    """True when every element of ``t`` is finite (integer and bool tensors always are)."""
    if not is_float(t) or t.numel() == 0:
        return True
    return bool(torch.isfinite(t).all())  # note: a host-device sync


def has_nan(t: torch.Tensor) -> bool:
    if not is_float(t) or t.numel() == 0:
        return False
    return bool(torch.isnan(t).any())  # note: a host-device sync


def absmax(t: torch.Tensor) -> float:
    """Largest finite |x| of ``t`` (0.0 for an empty or all-non-finite tensor)."""
    if t.numel() == 0:
        return 0.0
    if t.is_complex():
        t = t.abs()
    if not t.is_floating_point():
        return float(t.abs().max()) if t.dtype != torch.bool else float(bool(t.any()))
    a = t.detach().abs()
    a = torch.where(torch.isfinite(a), a, torch.zeros((), dtype=a.dtype, device=a.device))
    return float(a.max())


@dataclass
class TensorStats:
    """Shape, dtype and value range of one tensor; min/max/absmax over its finite values."""

    shape: tuple[int, ...]
    dtype: str
    min: float | None
    max: float | None
    absmax: float | None
    nan: int
    posinf: int
    neginf: int

    @property
    def nonfinite(self) -> int:
        return self.nan + self.posinf + self.neginf

    @classmethod
    def of(cls, t: torch.Tensor) -> "TensorStats":
        t = t.detach()
        shape = tuple(int(s) for s in t.shape)
        dtype = str(t.dtype).replace("torch.", "")
        if t.numel() == 0:
            return cls(shape, dtype, None, None, None, 0, 0, 0)
        if t.is_complex():
            t = t.abs()
        if not t.is_floating_point():
            v = t.to(torch.float64) if t.dtype != torch.bool else t.to(torch.uint8).to(torch.float64)
            lo, hi = float(v.min()), float(v.max())
            return cls(shape, dtype, lo, hi, max(abs(lo), abs(hi)), 0, 0, 0)
        t = t.to(torch.float64) if t.dtype in (torch.float16, torch.bfloat16) else t
        fin = torch.isfinite(t)
        nan = int(torch.isnan(t).sum())
        posinf = int((t == float("inf")).sum())
        neginf = int((t == float("-inf")).sum())
        if bool(fin.any()):
            f = t[fin]
            lo, hi = float(f.min()), float(f.max())
            return cls(shape, dtype, lo, hi, max(abs(lo), abs(hi)), nan, posinf, neginf)
        return cls(shape, dtype, None, None, None, nan, posinf, neginf)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["shape"] = list(self.shape)
        d["nonfinite"] = self.nonfinite
        return d

    def brief(self) -> str:
        """``[8, 200, 200] float32 in [-3.1, 812.4], 12 inf`` (for messages)."""
        rng = "no finite values" if self.min is None else f"in [{self.min:.4g}, {self.max:.4g}]"
        bad = [f"{n} {w}" for n, w in ((self.nan, "nan"), (self.posinf, "+inf"), (self.neginf, "-inf")) if n]
        return f"{list(self.shape)} {self.dtype} {rng}" + (", " + ", ".join(bad) if bad else "")


def bad_rows(t: torch.Tensor, limit: int | None = None) -> list[int]:
    """Indices along dim 0 of ``t`` holding at least one non-finite value."""
    if not is_float(t) or t.dim() == 0 or t.numel() == 0:
        return []
    bad = ~torch.isfinite(t.detach()).reshape(t.shape[0], -1).all(dim=1)
    rows = bad.nonzero().flatten()
    if limit is not None:
        rows = rows[:limit]
    return [int(i) for i in rows.tolist()]


def rows_to_samples(t: torch.Tensor, rows: list[int], batch_size: int | None) -> list[int] | None:
    """Map the non-finite positions of ``t`` to batch positions, when the layout says how.

    dim 0 == batch_size: the rows are the samples. dim 0 == k * batch_size: a merged
    (batch, heads) dim laid out batch-major, as ``x.view(B * H, ...)`` does: row // k.
    Otherwise the first later dim of size batch_size (sequence-first layouts). None when
    no dim matches: the group testing in :mod:`.bisect` names samples in every case.
    """
    if batch_size is None or t.dim() == 0 or batch_size <= 0:
        return None
    n0 = t.shape[0]
    if n0 == batch_size:
        return list(rows)
    if n0 % batch_size == 0 and n0 > batch_size:
        k = n0 // batch_size
        return sorted({r // k for r in rows})
    for d in range(1, t.dim()):
        if t.shape[d] == batch_size:
            bad = ~torch.isfinite(t.detach()).movedim(d, 0).reshape(batch_size, -1).all(dim=1)
            return [int(i) for i in bad.nonzero().flatten().tolist()]
    return None
