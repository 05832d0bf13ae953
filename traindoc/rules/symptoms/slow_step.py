"""slow-step (TD108)."""

from __future__ import annotations

import numpy as np

from ...findings import Finding
from .. import rule
from ..util import fmt

# Step times on a shared machine are heavy-tailed: healthy bench/calib runs on a loaded
# 2-core box had single steps up to 180x their median, but never more than 0.1 s longer
# than it. A slow step must be both many times the median and a noticeable absolute loss.
WARMUP = 5            # first steps (allocator warm-up, compilation, cudnn autotune) are exempt
RATIO_MIN = 5.0       # x the median step time
EXTRA_MIN_S = 0.25    # and at least this many seconds above it


@rule("slow-step", needs=("time/step",))
def slow_step(run) -> list[Finding]:
    """What it detects: training steps that took far longer than the run's usual: at least
    5x the median step time and at least 0.25 s above it, outside the first 5 steps and
    outside steps that include an evaluation pass. Says whether the time went into
    waiting on the DataLoader, and whether the slow steps recur at a fixed period.

    Why it happens: waiting on the input pipeline (a worker reading a slow shard, too few
    workers), a checkpoint or log write inside the loop, Python garbage collection, a
    recompilation (``torch.compile`` on a new shape), host-device syncs, another process
    taking the CPU or GPU, or a sampled diagnostic step of a profiler.

    How to confirm: compare ``time/data`` with ``time/step`` at those steps (the report
    draws the split); if they recur every N steps, find what the loop does every N steps.

    How to fix: for data waits, more DataLoader workers, ``pin_memory``, prefetching or a
    faster format; move checkpointing off the critical path; pad to fixed shapes (or mark
    dynamic) to avoid recompilation.
    """
    out: list[Finding] = []
    for rank in run.ranks:
        s = run.series("time/step", rank)
        ok = np.isfinite(s.values)
        steps, t = s.steps[ok], s.values[ok]
        keep = steps >= (steps[0] + WARMUP if len(steps) else 0)
        ev = run.series("loss/eval", rank)
        if not ev.empty:  # eval recorded at step k ran inside the timing of step k+1
            keep &= ~np.isin(steps, ev.steps + 1)
        steps, t = steps[keep], t[keep]
        if len(t) < 20:
            continue
        med = float(np.median(t))
        slow = (t >= RATIO_MIN * med) & (t - med >= EXTRA_MIN_S)
        if not slow.any():
            continue
        idx = np.flatnonzero(slow)
        worst = int(idx[np.argmax(t[idx])])
        data = run.series("time/data", rank)
        dmap = dict(zip(data.steps.tolist(), data.values.tolist())) if not data.empty else {}
        lost = float(np.sum(t[idx] - med))
        waits = [dmap.get(int(steps[i]), float("nan")) for i in idx]
        data_share = np.nansum(waits) / max(float(np.sum(t[idx])), 1e-12) if dmap else float("nan")
        parts = [f"{len(idx)} step(s) took {fmt(RATIO_MIN)}x or more the median {fmt(med)} s; the slowest, "
                 f"step {int(steps[worst])}, took {fmt(float(t[worst]))} s ({fmt(float(t[worst]) / med)}x); "
                 f"{fmt(lost)} s lost in all ({fmt(100 * lost / float(np.sum(t)))} % of the run)"]
        if data_share == data_share and np.nanmax(data.values) > 0:
            parts.append(f"{fmt(100 * data_share)} % of their time was spent waiting on the DataLoader")
        period = _period(steps[idx])
        if period:
            parts.append(f"they recur every {period} steps")
        out.append(Finding(
            "slow-step", "info", "; ".join(parts), location={"step": int(steps[worst]), "rank": rank},
            evidence=[{"series": "time/step", "step": int(steps[i]), "value": float(t[i]),
                       "data_wait": dmap.get(int(steps[i]))} for i in idx[np.argsort(-t[idx])][:5]]
            + [{"series": "time/step", "median": med, "slow_steps": int(len(idx))}],
            confirm="compare time/data with time/step at those steps (traindoc report draws the split)",
        ))
    return out


def _period(slow_steps: np.ndarray) -> int | None:
    """The fixed gap between slow steps, when there are at least 3 and they share it."""
    if len(slow_steps) < 3:
        return None
    gaps = np.diff(slow_steps)
    g = int(np.median(gaps))
    return g if g > 1 and np.mean(gaps == g) >= 0.8 else None
