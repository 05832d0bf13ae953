"""dataloader-bottleneck (TD901)."""

from __future__ import annotations

import numpy as np

from .. import rule
from ..evidence import finding, focus_rank
from ..util import fmt


@rule("dataloader-bottleneck", needs=("time/step", "time/data"))
def dataloader_bottleneck(run):
    """What it detects: the training step spends more than 40 % of its wall time waiting
    for the next batch from the DataLoader (median of time/data over time/step), and the
    wait is not negligible (over 2 ms per step); an error from 60 %, a warning below.

    Why it happens: expensive per-sample Python work in __getitem__ (decoding,
    augmentation, tokenisation) or blocking I/O, with num_workers=0 or too few workers,
    no prefetching, or pin_memory off on a GPU.

    How to confirm: time one pass over the DataLoader alone; it takes most of the epoch.

    How to fix: num_workers > 0 (and persistent_workers, prefetch_factor), move the
    preprocessing offline or to batched tensor ops, cache decoded samples. Over a
    TensorDataset with workers the wait is the batches' transfer between processes:
    num_workers=0 then.
    """
    r = focus_rank(run)
    td, ts = run.series("time/data", r), run.series("time/step", r)
    if len(ts) < 20:
        return []
    n = min(len(td), len(ts))
    share = float(np.median(td.values[:n] / np.maximum(ts.values[:n], 1e-9)))
    wait = float(np.median(td.values))
    if share < 0.4 or wait < 0.002:
        # under 2 ms per step the loader is cheap in absolute terms: a tiny model makes any
        # loader look slow, and nobody gains from workers there
        return []
    loaders = [m for k, m in run.meta.items() if k.startswith("loader/") and isinstance(m, dict)]
    workers = [m.get("num_workers") for m in loaders]
    # workers over tensors already in memory: indexing costs microseconds, so the wait is each
    # batch crossing processes (MorvanZhou's 306_optimizer.py: 5 ms of an 8 ms step, 2 workers)
    ipc = bool(loaders) and loaders[0].get("dataset") == "TensorDataset" and (workers[0] or 0) > 0
    # an error (worth failing CI) from a 60 % share: a speed-up of 2.5x from a free loader;
    # between 40 and 60 % a warning, since step timings on a shared machine swing that much
    # (a fixed bench/real program measured 47 % with four processes on two cores)
    c = 0.3 + 0.45 * min(1.0, (share - 0.4) / 0.4)
    return [finding(
        "dataloader-bottleneck", c,
        f"the step waits on the input pipeline {share:.0%} of its time (median {fmt(float(np.median(td.values)))} s of "
        f"{fmt(float(np.median(ts.values)))} s)" + (f"; num_workers={workers[0]}" if workers else ""),
        evidence=[{"series": "time/data", "median_s": float(np.median(td.values))},
                  {"series": "time/step", "median_s": float(np.median(ts.values))}],
        fix="num_workers=0 for a TensorDataset (its items are slices of tensors in memory; workers only add the "
            "transfer between processes), or index the tensors with a shuffled permutation and skip the DataLoader"
            if ipc else "use DataLoader(num_workers>0, persistent_workers=True), move per-sample preprocessing offline "
                        "or batch it",
        confirm="time one epoch of the DataLoader alone: it takes most of the training time",
    )]
