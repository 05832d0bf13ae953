"""What a re-execution did, in the few numbers the judges compare.

The training loss of each step is read from the experiment's own run folder (the same
monitor as ``traindoc run``, so a step is an optimizer step, closures and accumulation
included). ``start`` and ``end`` are medians over the first 5 % and the last 20 % of the
steps (at least 3 each): a median, because single steps are noisy and a mean would let
one spike decide a verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..numfmt import fmt


@dataclass
class Summary:
    steps: int = 0
    status: str = "missing"
    losses: np.ndarray = field(default_factory=lambda: np.zeros(0))
    first_bad: int | None = None  # first step whose loss is NaN/Inf
    start: float = math.nan
    end: float = math.nan  # inf once the loss went non-finite
    notes: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    @property
    def usable(self) -> bool:
        # a run non-finite from its first step has no finite start but is the clearest
        # baseline a "does the change remove it" experiment can have (fp16 from step 0)
        return self.steps >= 4 and (math.isfinite(self.start) or self.first_bad == 0)

    def scaled(self, k: float) -> "Summary":
        """The same run with its loss multiplied by ``k`` (a loss divided by its element
        count is compared in the original's units)."""
        return Summary(self.steps, self.status, self.losses * k, self.first_bad, self.start * k, self.end * k,
                       self.notes, self.error)

    def curve(self, points: int = 80) -> list[list[float | None]]:
        """The loss curve downsampled to about ``points`` (step, loss) pairs for reports."""
        n = len(self.losses)
        if n == 0:
            return []
        idx = np.unique(np.linspace(0, n - 1, min(points, n)).astype(int))
        return [[int(i), float(self.losses[i]) if np.isfinite(self.losses[i]) else None] for i in idx]

    def describe(self) -> str:
        if not self.usable:
            return f"{self.steps} steps ({self.status})"
        if self.first_bad is not None:
            return f"non-finite at step {self.first_bad} (loss {fmt(self.start)} at the start)"
        return f"loss {fmt(self.start)} -> {fmt(self.end)} in {self.steps} steps"


def summarize(losses: np.ndarray, status: str = "finished", notes: dict[str, Any] | None = None) -> Summary:
    v = np.asarray(losses, dtype=float)
    s = Summary(steps=len(v), status=status, losses=v, notes=dict(notes or {}))
    if len(v) == 0:
        return s
    bad = np.flatnonzero(~np.isfinite(v))
    s.first_bad = int(bad[0]) if len(bad) else None
    head = v[: s.first_bad] if s.first_bad is not None else v
    if len(head):
        k = max(3, len(v) // 20)
        s.start = float(np.median(head[:k]))
    if s.first_bad is not None:
        s.end = math.inf
    else:
        k = max(3, len(v) // 5)
        s.end = float(np.median(v[-k:]))
    return s


def read_run(folder: Path, notes: dict[str, Any] | None = None, error: str | None = None) -> Summary:
    """The summary of an experiment's run folder (an empty one when the script never
    reached a step)."""
    from ..store.reader import is_run_folder, open_run

    if not is_run_folder(folder):
        return Summary(status="no run", notes=dict(notes or {}), error=error)
    run = open_run(folder)
    loss = run.series("loss")
    st = run.state()
    s = summarize(loss.values if not loss.empty else np.zeros(0), st.get("status", "?"), notes)
    s.error = error
    return s
