"""Runs for the report tests: real small trainings recorded with ``traindoc run`` (once
per test session and worker), and stores written directly for shapes a training cannot
give cheaply (a loss-only import, a long run with many layers)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
# Payloads: they set document.title or a data-pwned attribute if they ever run.
CMD_PAYLOAD = '<script>document.title="PWNED"</script>'
FOLDER_PAYLOAD = '<img src=x onerror="document.body.dataset.pwned=3">'


def traindoc(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-m", "traindoc", *args], cwd=cwd, env=env,
                          capture_output=True, text=True)


def _record(out: Path, script: Path, *args: str, ok=(0,)) -> Path:
    r = traindoc("run", "--out", str(out), str(script), *args)
    assert r.returncode in ok, r.stderr[-3000:]
    return out


@pytest.fixture(scope="session")
def runs_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("report-runs")


@pytest.fixture(scope="session")
def mlp_run(runs_dir) -> Path:
    return _record(runs_dir / "mlp", ROOT / "tests/scripts/mlp_basic.py", "--steps", "200", "--eval")


@pytest.fixture(scope="session")
def hostile_run(runs_dir) -> Path:
    """NaN from step 50, markup in module names, folder name, command line and the
    exception that ends the script (exit code 1)."""
    return _record(runs_dir / FOLDER_PAYLOAD, HERE / "scripts/hostile.py", "--nan-at", "50", "--raise",
                   "--tag", CMD_PAYLOAD, ok=(1,))


@pytest.fixture(scope="session")
def amp_run(runs_dir) -> Path:
    return _record(runs_dir / "amp", HERE / "scripts/amp_cnn.py", "--steps", "60")


def write_store(folder: Path, steps: int, series: dict, meta: dict | None = None, events=()) -> Path:
    """A run store written with the monitor's own writer. ``series``: name -> values (one
    per step 0..steps-1, NaN kept as NaN) or name -> (steps, values)."""
    from traindoc.store import RunWriter
    from traindoc.store.writer import write_marker

    w = RunWriter(folder, flush_interval=0.05)
    write_marker(folder, {"world_size": 1})
    for k, v in (meta or {"status": "finished", "steps": steps}).items():
        w.meta(k, v)
    per_step: dict[int, dict[str, float]] = {}
    for name, data in series.items():
        st, vals = data if isinstance(data, tuple) else (np.arange(len(data)), data)
        for i, v in zip(np.asarray(st).tolist(), np.asarray(vals, dtype=float).tolist()):
            per_step.setdefault(int(i), {})[name] = v
    for i in sorted(per_step):
        w.scalars(i, per_step[i])
    for step, kind, msg, data in events:
        w.event(step, kind, msg, data)
    w.close()
    assert w.failed is None, w.failed
    return folder


@pytest.fixture(scope="session")
def loss_only_run(runs_dir) -> Path:
    """What an imported plain CSV gives: a loss per step, nothing else."""
    rng = np.random.default_rng(0)
    loss = 2.0 * np.exp(-np.arange(300) / 80) + 0.05 * rng.random(300)
    return write_store(runs_dir / "loss-only", 300, {"loss": loss})
