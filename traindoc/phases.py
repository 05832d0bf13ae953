"""Training phases: one script that trains several models one after another.

A tutorial that compares a linear model with an MLP, an RNN with an LSTM, k folds each with a
fresh model, a pre-training then a fine-tune with a new head: each is a run of its own. Read as
one loss series, the first loss of each new model is a "spike" over the last one's converged
loss, its first gradients "explode" against the trailing median, and the curve "oscillates"
from phase to phase (NYU-DLSP20's sequence-classification notebook, five models in one
process: data-outlier, exploding-gradient and four spikes, all at phase boundaries).

A phase starts where the monitor handed its step clock to another optimizer (event
``step-clock``: the old one stopped stepping, the new one stepped twice alone) AND the loss
restarted there: the median of the first 5 losses after the handover is at least twice the
median of the last 10 before it. An optimizer rebuilt every epoch for the same model (the loss
goes on where it was) is not a new phase. Each phase is diagnosed as a run of its own
(``PhaseView``), on the same global step numbers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

RESTART = 2.0  # the loss after the handover over the loss before it
WHOLE = (0, 1 << 62)  # the one phase of a run that has no other


def phases(run: Any) -> list[tuple[int, int]]:
    """[start, end) step ranges of the run's phases; one range (the whole run) when it has
    none. Single-rank runs only (under DDP every rank changes optimizer at once: rank 0's
    events are read)."""
    rank = run.ranks[0]
    loss = run.series("loss", rank)
    if loss.empty:
        return [WHOLE]
    st, v = loss.steps, loss.values
    cuts = []
    for e in run.events(rank):
        h = e.get("step")
        if e.get("kind") != "step-clock" or not isinstance(h, int):
            continue
        before = v[(st < h) & (st >= h - 10 * _stride(st))]
        after = v[(st >= h) & (st < h + 5 * _stride(st))]
        before, after = before[np.isfinite(before)], after[np.isfinite(after)]
        if len(before) >= 3 and len(after) >= 2 and np.median(before) > 0 \
                and np.median(after) >= RESTART * np.median(before):
            cuts.append(h)
    edges = [WHOLE[0], *sorted(set(cuts)), WHOLE[1]]
    return [(a, b) for a, b in zip(edges, edges[1:]) if a < b]


def _stride(steps: np.ndarray) -> int:
    """Steps between recorded losses (1 when every step is recorded)."""
    return max(1, int(np.median(np.diff(steps)))) if len(steps) > 1 else 1


class PhaseView:
    """A run seen through one phase: series and step events of steps in ``[start, end)``, the
    rest (meta, state, ranks, batches by step) as in the run."""

    def __init__(self, run: Any, start: int, end: int) -> None:
        self._run, self.phase = run, (start, end)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._run, name)

    def _cut(self, s: Any) -> Any:
        keep = (s.steps >= self.phase[0]) & (s.steps < self.phase[1])
        return s if keep.all() else type(s)(s.name, s.steps[keep], s.values[keep])

    def series(self, name: str, rank: int | None = None) -> Any:
        return self._cut(self._run.series(name) if rank is None else self._run.series(name, rank))

    def matching(self, prefix: str, rank: int | None = None) -> dict[str, Any]:
        got = self._run.matching(prefix) if rank is None else self._run.matching(prefix, rank)
        return {k: self._cut(s) for k, s in got.items()}

    def events(self, rank: int | None = None) -> list[dict[str, Any]]:
        """The phase's own step events (label histograms, bundles, anomalies, the handover that
        starts it, its scheduler); facts about the program (autocast, an unregistered module,
        the split overlap) whatever their step."""
        a, b = self.phase
        return [e for e in self._run.events(rank) if e.get("kind") not in _STEP_LOCAL
                or not isinstance(e.get("step"), int) or a <= e["step"] < b]


_STEP_LOCAL = frozenset({"labels", "labels-multi", "bundle", "anomaly", "trigger", "loss-skipped", "step-clock",
                         "scheduler"})
