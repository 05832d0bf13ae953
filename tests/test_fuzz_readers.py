"""Every reader of outside input (run stores, bundle metadata and forensics, other tools'
logs, dataset files, notebooks) answers anything with a result or a ``UserError`` (one
line, exit 2), never another exception. ``TRAINDOC_FUZZ_EXAMPLES`` sets the examples per
reader (default 1 000, as in CI)."""

import json
import os
import shutil
import sqlite3
import warnings
from pathlib import Path

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import traindoc
from traindoc.errors import UserError

N = int(os.environ.get("TRAINDOC_FUZZ_EXAMPLES", "1000"))
FUZZ = settings(max_examples=N, deadline=None, suppress_health_check=list(HealthCheck), database=None)

scalars = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True)
           | st.text(max_size=20))
json_values = st.recursive(scalars, lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=8), c, max_size=4),
                           max_leaves=20)


def _ok(fn, *args, **kwargs):
    """Run a reader: a result or a UserError is fine, anything else fails the test."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(*args, **kwargs)
    except UserError:
        return None


def _dumps(v) -> str:
    return json.dumps(v, allow_nan=True)


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    """A real recorded run with a bundle (an in-process monitor on a loop that goes NaN)."""
    out = tmp_path_factory.mktemp("fuzz") / "run"
    torch.manual_seed(0)
    m = torch.nn.Linear(4, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    data = torch.utils.data.TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
    with traindoc.watch(out=out, replay=False):
        for i, (x, y) in enumerate(torch.utils.data.DataLoader(data, batch_size=8)):
            loss = torch.nn.functional.mse_loss(m(x), y) * (float("nan") if i == 6 else 1.0)
            opt.zero_grad()
            loss.backward()
            opt.step()
    assert list((out / "bundles").iterdir())
    return out


@FUZZ
@given(meta=json_values, forensics=json_values)
def test_bundle_metadata_and_forensics(run_folder, tmp_path_factory, meta, forensics):
    from traindoc.forensics.bundle import Bundle
    from traindoc.forensics.isolate import check, read_meta

    run = tmp_path_factory.mktemp("b") / "run"
    shutil.copytree(run_folder, run)
    bundle = next((run / "bundles").iterdir())
    (bundle / "meta.json").write_text(_dumps(meta))
    (bundle / "forensics.json").write_text(_dumps(forensics))
    m = _ok(read_meta, bundle)
    if m is not None:
        _ok(check, bundle, m, yes=True)  # refuses or accepts; never runs anything here
    b = _ok(Bundle, bundle)
    if b is not None:
        _ok(b.batches)
        _ok(b.rng)
    d = _ok(traindoc.diagnose, run)
    if d is not None:
        d.to_json()
    shutil.rmtree(run.parent, ignore_errors=True)


@FUZZ
@given(field=st.sampled_from(["step", "batches", "prev_batches", "roots", "scaler_scales", "loader", "trigger",
                              "earlier_step", "prev_step", "command"]), value=json_values)
def test_one_damaged_bundle_field_is_refused_before_the_replay(run_folder, tmp_path_factory, field, value):
    """A valid bundle with one field replaced: the replay's reader either refuses it in one
    line or builds its driver (what it needs before re-running the script) without error."""
    from traindoc.forensics.bundle import Bundle
    from traindoc.forensics.isolate import read_meta, validate
    from traindoc.forensics.replay import Driver

    run = tmp_path_factory.mktemp("f") / "run"
    shutil.copytree(run_folder, run)
    bundle = next((run / "bundles").iterdir())
    meta = json.loads((bundle / "meta.json").read_text())
    meta[field] = value
    (bundle / "meta.json").write_text(_dumps(meta))
    m = _ok(read_meta, bundle)
    if m is not None and _ok(validate, bundle, m) is None and _validated(bundle, m):
        b = _ok(Bundle, bundle)
        if b is not None:
            _ok(Driver, b)
    shutil.rmtree(run.parent, ignore_errors=True)


def _validated(bundle, meta) -> bool:
    from traindoc.forensics.isolate import validate

    try:
        validate(bundle, meta)
        return True
    except UserError:
        return False


@FUZZ
@given(key=st.sampled_from(["status", "steps", "command", "environment", "rank", "sampling", "model/model",
                            "loader/0", "optim/0", "exit_code"]), value=json_values,
       points=st.lists(st.tuples(st.sampled_from(["loss", "grad_norm", "lr/0/0", "loss/eval", "time/step"]),
                                 st.integers(-5, 10**12), st.floats(allow_nan=True) | st.none()), max_size=8),
       raw=st.none() | st.text(max_size=30))
def test_crafted_store(run_folder, tmp_path_factory, key, value, points, raw):
    run = tmp_path_factory.mktemp("s") / "run"
    shutil.copytree(run_folder, run)
    conn = sqlite3.connect(run / "rank0.sqlite")
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, _dumps(value) if raw is None else raw))
    conn.execute("INSERT INTO events(step, wall, kind, message, data) VALUES (1, 0, 'anomaly', 'x', ?)",
                 (raw if raw is not None else _dumps(value),))
    for name, step, v in points:
        conn.execute("INSERT OR IGNORE INTO series(name) VALUES (?)", (name,))
        sid = conn.execute("SELECT id FROM series WHERE name = ?", (name,)).fetchone()[0]
        conn.execute("INSERT INTO points(series, step, value) VALUES (?, ?, ?)", (sid, step, v))
    conn.commit()
    conn.close()
    d = _ok(traindoc.diagnose, run)
    if d is not None:
        d.to_json()
    shutil.rmtree(run.parent, ignore_errors=True)


@settings(max_examples=max(N // 10, 20), deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.binary(max_size=4096))
def test_garbage_store_file(tmp_path_factory, data):
    run = tmp_path_factory.mktemp("g") / "run"
    run.mkdir()
    (run / "traindoc-run.json").write_text('{"format": 1}')
    (run / "rank0.sqlite").write_bytes(data)
    _ok(lambda: traindoc.diagnose(traindoc.open_run(run)))
    shutil.rmtree(run.parent, ignore_errors=True)


LOGS = {
    "trainer_state.json": lambda v: _dumps({"log_history": v} if not isinstance(v, dict) else v),
    "metrics.csv": None, "log.csv": None, "log.jsonl": None,
}


@FUZZ
@given(name=st.sampled_from(sorted(LOGS)), value=json_values, text=st.text(max_size=400),
       rows=st.lists(json_values, max_size=6))
def test_other_tools_logs(tmp_path_factory, name, value, text, rows):
    from traindoc.importers import load_any

    d = tmp_path_factory.mktemp("i")
    p = d / name
    if name.endswith(".json"):
        p.write_text(LOGS[name](value))
    elif name.endswith(".jsonl"):
        p.write_text("\n".join(_dumps(r) for r in rows))
    else:
        p.write_text(text)
    run = _ok(load_any, p)
    if run is not None:
        _ok(traindoc.diagnose, run)
    shutil.rmtree(d, ignore_errors=True)


@settings(max_examples=max(N // 4, 20), deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.binary(max_size=2048), cut=st.integers(0, 10**6))
def test_tensorboard_event_files(tmp_path_factory, data, cut):
    pytest.importorskip("tensorboard")
    from traindoc.importers import load_any

    d = tmp_path_factory.mktemp("tb")
    real = _event_file()
    blob = real[: cut % (len(real) + 1)] + data if cut % 2 else bytearray(real)
    if not cut % 2 and data:  # flip bytes of a real file
        for i, b in enumerate(data[:16]):
            blob[(cut + i * 97) % len(blob)] ^= b or 1
    (d / "events.out.tfevents.1.host").write_bytes(bytes(blob))
    run = _ok(load_any, d)
    if run is not None:
        _ok(traindoc.diagnose, run)
    shutil.rmtree(d, ignore_errors=True)


_EVENTS: list[bytes] = []


def _event_file() -> bytes:
    if not _EVENTS:
        import tempfile

        from torch.utils.tensorboard import SummaryWriter

        with tempfile.TemporaryDirectory() as t:
            w = SummaryWriter(t)
            for i in range(20):
                w.add_scalar("train/loss", 1.0 / (i + 1), i)
            w.close()
            _EVENTS.append(next(Path(t).iterdir()).read_bytes())
    return _EVENTS[0]


@settings(max_examples=max(N // 4, 20), deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(kind=st.sampled_from(["csv", "jsonl", "npy", "npz", "parquet", "json"]), data=st.binary(max_size=2048),
       text=st.text(max_size=300), rows=st.lists(json_values, max_size=6))
def test_dataset_files(tmp_path_factory, kind, data, text, rows):
    pytest.importorskip("pyarrow")
    from traindoc.data.engine import check

    d = tmp_path_factory.mktemp("d")
    p = d / f"x.{kind}"
    if kind == "csv":
        p.write_text(text)
    elif kind in ("jsonl", "json"):
        p.write_text("\n".join(_dumps(r) for r in rows) if rows else text)
    else:
        p.write_bytes(data)
    _ok(check, [str(p)], cache_dir=False, executor="serial")
    shutil.rmtree(d, ignore_errors=True)


@FUZZ
@given(nb=json_values, cells=st.lists(st.fixed_dictionaries({"cell_type": st.sampled_from(["code", "markdown", 3]),
                                                                "source": json_values}), max_size=4))
def test_notebooks(tmp_path_factory, nb, cells):
    d = tmp_path_factory.mktemp("n")
    p = d / "nb.ipynb"
    p.write_text(_dumps(nb if not cells else {"cells": cells, "nbformat": 4}))
    _ok(traindoc.lint, p)
    shutil.rmtree(d, ignore_errors=True)


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("name,text", [
    ("trainer_state.json", '{"log_history": ' + DEEP + "}"),
    ("x.json", DEEP),
    ("log.jsonl", '{"step": 1, "loss": ' + DEEP + "}"),
])
def test_deeply_nested_logs_are_one_line(tmp_path, name, text):
    from traindoc.importers import load_any

    (tmp_path / name).write_text(text)
    with pytest.raises(UserError):
        load_any(tmp_path / name)
