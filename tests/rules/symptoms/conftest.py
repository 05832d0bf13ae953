"""Synthetic run folders for the symptom rules: curves shaped like real ones (decay, batch
noise, warm-up), written through the real store writer and read back by the real reader."""

from __future__ import annotations

import numpy as np
import pytest

from traindoc.store.writer import RunWriter


def write_run(folder, series: dict, events=(), rank: int = 0):
    """``series``: name -> values (steps 0..n-1) or (steps, values). NaN/inf kept."""
    w = RunWriter(folder, rank=rank)
    per_step: dict[int, dict] = {}
    for name, v in series.items():
        steps, vals = (v if isinstance(v, tuple) else (np.arange(len(v)), v))
        for s, x in zip(steps, vals):
            per_step.setdefault(int(s), {})[name] = float(x)
    for s in sorted(per_step):
        w.scalars(s, per_step[s])
    for step, kind, data in events:
        w.event(step, kind, kind, data)
    w.meta("status", "finished")
    w.close()
    import traindoc

    return traindoc.open_run(folder)


def healthy_loss(n=300, start=2.3, floor=0.3, tau=60.0, noise=0.12, seed=0):
    """An exponential decay to a floor with multiplicative batch noise."""
    rng = np.random.default_rng(seed)
    t = np.arange(n)
    return (floor + (start - floor) * np.exp(-t / tau)) * np.exp(noise * rng.standard_normal(n))


@pytest.fixture
def make_run(tmp_path):
    counter = iter(range(10**6))

    def make(series, events=(), rank=0):
        return write_run(tmp_path / f"run{next(counter)}", series, events, rank)

    return make
