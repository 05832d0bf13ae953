"""What is extreme about the offending samples, against their batch and against the run.

Per sample and per field (the leaves of a dataset item: ``(seq, target, label)`` gives
fields "0", "1", "2"; a dict gives its keys): the length (dim 0 of a tensor/array), the
largest finite magnitude, and the NaN/Inf count. "The run" is a sample of up to 2 000 items
of the dataset the loader drew from (a private generator: the script's RNG is untouched);
without a map-style dataset, the collated batch is the only reference.

A field is flagged ``length`` when it is longer than the run's P99.9 and 3x its median,
``magnitude`` when its |x| max is above the run's P99.9 and 10x its median, ``nonfinite``
when it holds NaN/Inf. The P99.9 excludes the flagged samples themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import torch


def _leaves(item: Any, path: str = "") -> list[tuple[str, Any]]:
    if isinstance(item, (torch.Tensor, np.ndarray, int, float)) and not isinstance(item, bool):
        return [(path or "0", item)]
    if isinstance(item, Mapping):
        return [x for k, v in item.items() for x in _leaves(v, f"{path}.{k}" if path else str(k))]
    if isinstance(item, (tuple, list)):
        return [x for i, v in enumerate(item) for x in _leaves(v, f"{path}.{i}" if path else str(i))]
    return []


def _measure(v: Any) -> dict[str, float | int | None]:
    t = v if isinstance(v, torch.Tensor) else torch.as_tensor(np.asarray(v))
    length = int(t.shape[0]) if t.dim() >= 1 else None
    if t.numel() == 0:
        return {"length": length, "absmax": 0.0, "nonfinite": 0, "float": t.is_floating_point()}
    if t.is_floating_point():
        fin = torch.isfinite(t)
        bad = int((~fin).sum())
        a = t.abs()[fin]
        return {"length": length, "absmax": float(a.max()) if a.numel() else None, "nonfinite": bad, "float": True}
    if t.dtype == torch.bool:
        return {"length": length, "absmax": float(t.any()), "nonfinite": 0, "float": False}
    return {"length": length, "absmax": float(t.abs().max()), "nonfinite": 0, "float": False}


def _items_stats(items: list[Any]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for it in items:
        for name, v in _leaves(it):
            out.setdefault(name, []).append(_measure(v))
    return out


def _pct(xs: list[float], q: float) -> float | None:
    xs = [x for x in xs if x is not None]
    return float(np.percentile(np.asarray(xs, dtype=np.float64), q)) if xs else None


def profile(batch: Any, indices: list[int] | None, bad: list[int], dataset: Any = None,
            max_run: int = 2000) -> dict[str, Any]:
    """Profiles of the samples at batch positions ``bad``; see the module docstring."""
    items = None
    if dataset is not None and indices is not None and hasattr(dataset, "__getitem__"):
        try:
            n = len(dataset)
            items = [dataset[i] for i in indices]
        except Exception:  # noqa: BLE001 - an iterable or odd dataset: the batch alone
            items = None
    if items is not None:
        batch_stats = _items_stats(items)
        rng = np.random.default_rng(0)  # private: never the script's generators
        bad_idx = {indices[b] for b in bad}
        pick = rng.choice(n, size=min(n, max_run), replace=False)
        run_items = [dataset[int(i)] for i in pick if int(i) not in bad_idx]
        run_stats = _items_stats(run_items)
        reference = f"{len(run_items)} random samples of the dataset ({n})"
    else:
        batch_stats = _collated_stats(batch)
        run_stats = {k: [s for i, s in enumerate(v) if i not in bad] for k, v in batch_stats.items()}
        reference = "the other samples of the batch (the dataset was not reachable)"
    samples = []
    for b in bad:
        fields = []
        for name, per in batch_stats.items():
            if b >= len(per):
                continue
            me = per[b]
            others = [s for i, s in enumerate(per) if i != b]
            run = run_stats.get(name, [])
            f = {"field": name, **me,
                 "batch_median_length": _pct([s["length"] for s in others], 50),
                 "batch_median_absmax": _pct([s["absmax"] for s in others], 50),
                 "run_p50_length": _pct([s["length"] for s in run], 50),
                 "run_p999_length": _pct([s["length"] for s in run], 99.9),
                 "run_p50_absmax": _pct([s["absmax"] for s in run], 50),
                 "run_p999_absmax": _pct([s["absmax"] for s in run], 99.9)}
            ext = []
            if me["nonfinite"]:
                ext.append("nonfinite")
            L, p50, p999 = me["length"], f["run_p50_length"], f["run_p999_length"]
            if L is not None and p50 and p999 is not None and L > p999 and L > 3 * p50:
                ext.append("length")
            A, a50, a999 = me["absmax"], f["run_p50_absmax"], f["run_p999_absmax"]
            if A is not None and a50 and a999 is not None and A > a999 and A > 10 * a50:
                ext.append("magnitude")
            f["extreme"] = ext
            fields.append(f)
        samples.append({"position": b, "index": indices[b] if indices is not None else None,
                        "fields": fields, "extreme": sorted({e for f in fields for e in f["extreme"]})})
    return {"reference": reference, "samples": samples}


def _collated_stats(batch: Any) -> dict[str, list[dict]]:
    """Per-sample stats from a collated batch: rows of every tensor whose dim 0 is the batch.
    Length of an integer/bool field: its non-zero count (padding is 0)."""
    from .bisect import batch_size_of

    B = batch_size_of(batch)
    out: dict[str, list[dict]] = {}
    for name, v in _leaves(batch):
        t = v if isinstance(v, torch.Tensor) else torch.as_tensor(np.asarray(v))
        if B is None or t.dim() == 0 or t.shape[0] != B:
            continue
        rows = []
        for r in t:
            m = _measure(r.reshape(-1))
            m["length"] = int((r != 0).sum()) if (not r.is_floating_point() and r.dim() >= 1) else None
            rows.append(m)
        out[name] = rows
    return out
