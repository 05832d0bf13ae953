"""The run object that every importer returns: an in-memory :class:`~traindoc.store.Run`.

It keeps the read API the rules and reports use (``series``, ``names``, ``has``,
``matching``, ``events``, ``batch_indices``, ``meta``, ``ranks``, ``folder``), so
``diagnose`` and ``report`` run unchanged on another tool's logs. Other tools log one
process's view: an import is rank 0, and it holds no batch indices (the samples of a
step are unknown, so the data causes that need them say "cannot tell").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import numpy as np

from ..store.reader import Run, Series
from .tags import traindoc_name


class ImportedRun(Run):
    """A run read from another tool's logs, held in memory (rank 0 only)."""

    def __init__(self, source: Path, series: dict[str, Series], meta: dict[str, Any],
                 events: Iterable[dict[str, Any]] = ()) -> None:
        super().__init__(Path(source), {})
        self._cache = {0: series}
        self._meta = {0: meta}
        self._events = list(events)

    def __repr__(self) -> str:
        return f"ImportedRun({str(self.folder)!r}, format={self.meta.get('import', {}).get('format')!r})"

    @property
    def ranks(self) -> list[int]:
        return [0]

    def meta_for(self, rank: int = 0) -> dict[str, Any]:
        return self._meta[rank]

    def _load(self, rank: int) -> dict[str, Series]:
        return self._cache[rank]

    def events(self, rank: int | None = None) -> list[dict[str, Any]]:
        return [e for e in self._events if rank is None or e["rank"] == rank]

    def state(self, rank: int | None = None) -> dict[str, Any]:
        return {"status": self.meta.get("status"), "last_step": None, "note": ""}  # a log says no more

    def batch_indices(self, step: int, rank: int = 0) -> np.ndarray | None:
        return None


def last_per_step(steps: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted unique steps, each with the last value logged for it (a resumed run's
    newest value replaces the earlier one)."""
    rev_steps = steps[::-1]
    uniq, first_in_rev = np.unique(rev_steps, return_index=True)
    return uniq.astype(np.int64), values[::-1][first_in_rev].astype(np.float64)


def to_series(points: dict[str, Any]) -> dict[str, Series]:
    """name -> {step: value} (later writes already won) or (steps, values) arrays in log
    order -> Series with sorted unique steps."""
    out = {}
    for name, pts in points.items():
        if isinstance(pts, tuple):
            steps, values = last_per_step(np.asarray(pts[0], np.int64), np.asarray(pts[1], np.float64))
        else:
            steps = np.fromiter(pts.keys(), np.int64, len(pts))
            values = np.fromiter(pts.values(), np.float64, len(pts))
            order = np.argsort(steps, kind="stable")
            steps, values = steps[order], values[order]
        if len(steps):
            out[name] = Series(name, steps, values)
    return out


def build(source: Path, fmt: str, raw: dict[str, Any], meta: dict[str, Any] | None = None,
          events: Iterable[dict[str, Any]] = (), ignored: Iterable[str] = ()) -> ImportedRun:
    """Name the source's series the traindoc way and wrap them in an :class:`ImportedRun`.

    A source name that maps to a traindoc name (``train/loss`` -> ``loss``) is stored
    under it; when two source names map to one traindoc name, the first in the mapping's
    preference order wins and the other keeps its own name. Every other series keeps its
    source name, so ``names()`` shows everything that was read."""
    named: dict[str, dict[int, float]] = {}
    mapping: dict[str, str] = {}
    ranked = sorted(raw, key=lambda n: traindoc_name(n)[1])
    for src in ranked:
        dst, _ = traindoc_name(src)
        if dst is not None and dst not in named:
            named[dst] = raw[src]
            mapping[src] = dst
    for src in raw:
        if src not in mapping and src not in named:
            named[src] = raw[src]
    series = to_series(named)
    gn = series.get("grad_norm")
    if gn is not None and "grad_nonfinite" not in series and not gn.empty:
        # a logged NaN/Inf gradient norm is a non-finite gradient (the grad-nonfinite rule reads this)
        series["grad_nonfinite"] = Series("grad_nonfinite", gn.steps.copy(), (~np.isfinite(gn.values)).astype(float))
    last = max((int(s.steps[-1]) for s in series.values()), default=None)
    m = {"status": "imported", "steps": None if last is None else last + 1}
    m.update(meta or {})
    m["import"] = {"format": fmt, "source": str(source), "mapping": mapping, "ignored": sorted(ignored),
                   **(m.get("import") or {})}
    return ImportedRun(source, series, m, events)
