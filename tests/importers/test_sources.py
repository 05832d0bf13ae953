"""Each source end to end through the CLI: real files in, traindoc's names out, the
rules run on them, and what a source never logs is "cannot tell"."""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import pytest

from tests.conftest import run_cli
from traindoc import diagnose
from traindoc.errors import UserError
from traindoc.importers import ImportedRun, load_any

from .conftest import DATA, hf_state, lightning_rows, write_hf, write_lightning


@pytest.fixture
def diagnose_json(cli):
    def call(path) -> tuple[int, dict]:
        code, out, err = cli("diagnose", path, "--json")
        assert code in (0, 1), err
        return code, json.loads(out)

    return call


def symptom_steps(doc: dict, name: str) -> list[int]:
    return [s["location"]["step"] for s in doc["symptoms"] if s["name"] == name]


# --- TensorBoard --------------------------------------------------------------------

def write_tb_run(writer_cls, folder, nan_at=150, steps=200, new_style=False):
    w = writer_cls(str(folder))
    for i in range(steps):
        loss = float("nan") if i >= nan_at else 2.0 * math.exp(-i / 50) + 0.05 * math.sin(i)
        w.add_scalar("train/loss", loss, i, new_style=new_style)
        w.add_scalar("train/lr", 1e-3 * 0.5 ** (i // 50), i, new_style=new_style)
        w.add_scalar("train/grad_norm", 1.0 + 0.1 * math.cos(i), i, new_style=new_style)
        if i % 20 == 0:
            w.add_scalars("Loss", {"val": loss + 0.1}, i)   # a sub-folder Loss_val/
    w.close()
    return folder


def test_tensorboard_folder_maps_names_and_finds_the_nan(tb_writer, tmp_path, diagnose_json, cli):
    run_dir = write_tb_run(tb_writer, tmp_path / "runs" / "exp1")
    run = load_any(run_dir)
    assert isinstance(run, ImportedRun) and run.ranks == [0] and run.batch_indices(0) is None
    assert {"loss", "lr/0/0", "grad_norm", "loss/eval"} <= set(run.names())
    loss = run.series("loss")
    assert loss.steps.tolist() == list(range(200)) and np.isnan(loss.values[150:]).all()
    assert run.series("lr/0/0").values[-1] == pytest.approx(1.25e-4)
    assert run.series("loss/eval").steps.tolist() == list(range(0, 200, 20))
    code, doc = diagnose_json(run_dir)
    assert symptom_steps(doc, "loss-nonfinite") == [150]
    # a logged gradient norm tells grad-nonfinite (here it stayed finite while the loss went NaN)
    assert doc["status"] == "imported" and "grad-nonfinite" not in doc["cannot_tell"]
    assert not [s for s in doc["symptoms"] if s["name"] == "grad-nonfinite"]
    assert code == 1  # a NaN loss fails a CI gate
    # The folder above one run is that run; one event file works the same; two runs are ambiguous.
    assert load_any(tmp_path / "runs").series("loss/eval").steps.tolist() == list(range(0, 200, 20))
    event = next(p for p in run_dir.iterdir() if "tfevents" in p.name)
    assert load_any(event).series("loss").steps.tolist() == list(range(200))
    write_tb_run(tb_writer, tmp_path / "runs" / "exp2", steps=10)
    code, _, err = cli("diagnose", tmp_path / "runs")
    assert code == 2 and err.count("\n") == 1 and "2 runs (exp1, exp2)" in err and "give one" in err


def test_tensorboard_tensor_scalars_tf2_style(tb_writer, tmp_path):
    """tf.summary.scalar writes 0-d tensors of the scalars plugin, not simple_value."""
    run = load_any(write_tb_run(tb_writer, tmp_path / "tf2", nan_at=10_000, steps=50, new_style=True))
    assert run.series("loss").steps.tolist() == list(range(50))
    assert run.series("loss").values[0] == pytest.approx(2.0)


def test_tensorboard_keeps_every_point_past_the_default_sample(tb_writer, tmp_path):
    w = tb_writer(str(tmp_path / "long"))
    for i in range(12_000):   # TensorBoard's own default keeps a 10 000-point reservoir sample
        w.add_scalar("loss", 1.0 / (i + 1), i)
    w.close()
    s = load_any(tmp_path / "long").series("loss")
    assert len(s) == 12_000 and s.values[11_999] == pytest.approx(1 / 12_000)


def test_tensorboard_missing_gives_the_install_line(tmp_path):
    (tmp_path / "events.out.tfevents.1.host").write_bytes(b"\x00" * 64)
    code = ("import sys; sys.modules['tensorboard'] = None\n"
            "from traindoc.cli import main; sys.exit(main(['diagnose', sys.argv[1]]))")
    from tests.conftest import run_python

    r = run_python("-c", code, tmp_path / "events.out.tfevents.1.host")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0, r.stderr
    assert "pip install 'traindoc[tensorboard]'" in r.stderr


# --- Hugging Face ---------------------------------------------------------------------

def test_hf_trainer_state_checkpoints_and_the_latest(tmp_path, diagnose_json, cli):
    out = tmp_path / "output_dir"
    write_hf(out / "checkpoint-100" / "trainer_state.json", hf_state(steps=100))
    write_hf(out / "checkpoint-300" / "trainer_state.json", hf_state(steps=300, blowup_at=200))
    run = load_any(out)   # the output_dir: the latest checkpoint's state holds the whole history
    assert run.folder == out / "checkpoint-300" / "trainer_state.json"
    assert run.series("loss").steps.tolist() == list(range(10, 301, 10))
    assert run.series("loss/eval").steps.tolist() == [100, 200, 300]
    assert {"grad_norm", "lr/0/0", "eval_accuracy", "epoch"} <= set(run.names())
    assert np.isnan(run.series("grad_norm").values[-1])   # NaN tokens in the JSON
    assert run.meta["steps"] == 300 and run.meta["trainer"]["summary"]["train_runtime"] == 60.1
    assert "train_loss" not in run.names()   # the closing summary is not a point at the last step
    code, doc = diagnose_json(out / "checkpoint-300")
    assert symptom_steps(doc, "grad-spike") == [210] and "loss-spike" in {s["name"] for s in doc["symptoms"]}
    assert "slow-step" in doc["cannot_tell"] and "dead-relu" in doc["cannot_tell"]
    assert load_any(out / "checkpoint-100" / "trainer_state.json").meta["steps"] == 100


def test_hf_healthy_run_has_no_symptom(tmp_path, diagnose_json, cli):
    path = write_hf(tmp_path / "trainer_state.json", hf_state())
    code, doc = diagnose_json(path)
    assert code == 0 and doc["symptoms"] == [] and doc["causes"] == []


# --- Lightning ------------------------------------------------------------------------

def test_lightning_metrics_written_by_lightning(tmp_path, diagnose_json, cli):
    """tests/importers/data/lightning_metrics.csv: Lightning 2.6 CSVLogger with
    LearningRateMonitor; the loss is NaN from global step 120 (logged at 129)."""
    version = tmp_path / "lightning_logs" / "version_0"
    version.mkdir(parents=True)
    shutil.copy(DATA / "lightning_metrics.csv", version / "metrics.csv")
    run = load_any(version)
    assert run.meta["import"]["format"] == "lightning"
    assert run.meta["import"]["mapping"] == {"lr-Adam": "lr/0/0", "train_loss_step": "loss", "val_loss": "loss/eval"}
    assert run.series("loss").steps.tolist() == list(range(9, 200, 10))
    assert run.series("lr/0/0").values.tolist() == [1e-3] * 20   # StepLR(50) steps per epoch: 4 epochs
    _, doc = diagnose_json(version)
    assert symptom_steps(doc, "loss-nonfinite") == [129]
    (tmp_path / "lightning_logs" / "version_1").mkdir()
    shutil.copy(DATA / "lightning_metrics.csv", tmp_path / "lightning_logs" / "version_1" / "metrics.csv")
    code, _, err = cli("diagnose", tmp_path / "lightning_logs")
    assert code == 2 and "version_0, version_1" in err


def test_lightning_layout_with_epoch_and_step_losses(tmp_path):
    path = write_lightning(tmp_path / "v", lightning_rows(nan_at=150))
    run = load_any(path)
    assert run.series("loss").steps.tolist() == list(range(9, 200, 10))   # train_loss_step, not _epoch
    assert run.series("train_loss_epoch").steps.tolist() == [49, 99, 149, 199]
    assert symptom_steps(diagnose(run).to_json(), "loss-nonfinite") == [159]


# --- plain tables, and the report on an import -----------------------------------------

def test_plain_csv_and_jsonl_diagnose_and_report(tmp_path, diagnose_json, cli):
    rows = [{"step": i, "loss": 1.0 / (i + 1) if i != 70 else float("inf"), "accuracy": i / 100, "phase": "train"}
            for i in range(100)]
    csv_path = tmp_path / "log.csv"
    csv_path.write_text("step,loss,accuracy,phase\n" + "".join(
        f"{r['step']},{r['loss']},{r['accuracy']},{r['phase']}\n" for r in rows))
    jsonl = tmp_path / "log.jsonl"
    jsonl.write_text("".join(json.dumps({"step": r["step"], "train": {"loss": r["loss"]}}) + "\n" for r in rows))
    for path in (csv_path, jsonl):
        run = load_any(path)
        assert run.series("loss").values[70] == np.inf and len(run.series("loss")) == 100
        _, doc = diagnose_json(path)
        assert symptom_steps(doc, "loss-nonfinite") == [70], path
    assert load_any(csv_path).meta["import"]["ignored"] == ["phase"]
    out = tmp_path / "r.html"
    r = run_cli("report", jsonl, "-o", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "<div class=plot id='loss'><h3>Loss</h3><div" in text and "log.jsonl" in text


def test_tensorboard_resumed_run_killed_writer_and_corrupt_record(tb_writer, tmp_path):
    folder = tmp_path / "resumed"
    w = tb_writer(str(folder), filename_suffix=".a")
    for i in range(100):
        w.add_scalar("loss", 1.0, i)          # the first attempt reached step 99 and died
        if i < 50:
            w.add_scalar("epoch_loss", 1.0, i)
    w.close()
    w = tb_writer(str(folder), filename_suffix=".b")
    for i in range(60, 80):
        w.add_scalar("loss", 2.0, i)          # resumed from the step-60 checkpoint, now at 79
    w.close()
    # TensorBoard (EventAccumulator, version-2 files) keeps all 120 points and draws the
    # attempts over each other; a series holds one value per step, so the newest attempt
    # wins and the old attempt's 80..99 are dropped, counted, not silently mixed in.
    run = load_any(folder)
    s = run.series("loss")
    assert s.steps.tolist() == list(range(80)) and set(s.values[60:]) == {2.0} and set(s.values[:60]) == {1.0}
    assert run.meta["import"]["dropped_points"] == {"loss": 40}
    assert len(run.series("epoch_loss")) == 50   # a tag the new attempt did not log is untouched
    # A file cut mid-record (kill -9 of the writer) reads up to the cut.
    event = sorted(folder.iterdir())[0]
    cut = tmp_path / "cut" / event.name
    cut.parent.mkdir()
    cut.write_bytes(event.read_bytes()[:-7])
    assert len(load_any(cut).series("loss")) == 99
    # A flipped byte inside is a corrupt file, not a silently shorter run.
    data = bytearray(event.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad = tmp_path / "bad" / event.name
    bad.parent.mkdir()
    bad.write_bytes(bytes(data))
    with pytest.raises(UserError, match="corrupt record at byte"):
        load_any(bad)


def test_tensorboard_purge_step_marker_and_steps_going_back_in_one_file(tb_writer, tmp_path):
    folder = tmp_path / "purged"
    w = tb_writer(str(folder), filename_suffix=".a")
    for i in range(100):
        w.add_scalar("loss", 1.0, i)
        w.add_scalar("acc", 0.5, i)
    w.close()
    w = tb_writer(str(folder), filename_suffix=".b", purge_step=60)   # TensorBoard purges every tag from 60
    for i in range(60, 70):
        w.add_scalar("loss", 2.0, i)
    w.close()
    run = load_any(folder)
    assert run.series("loss").steps.tolist() == list(range(70)) and run.series("acc").steps.tolist() == list(range(60))
    assert run.meta["import"]["dropped_points"] == {"loss": 40, "acc": 40}
    # One writer whose step goes back (a per-epoch batch counter) is no restart: kept.
    one = tmp_path / "one"
    w = tb_writer(str(one))
    for epoch in range(3):
        for b in range(10 - epoch):
            w.add_scalar("loss", float(epoch), b)
    w.close()
    run = load_any(one)
    assert run.series("loss").values.tolist() == [2.0] * 8 + [1.0, 0.0] and "dropped_points" not in run.meta["import"]


def test_tensorboard_newest_writer_wins_past_ten_writers(tb_writer, tmp_path):
    """Event file names carry an unpadded writer counter (``...pid.10`` sorts before
    ``...pid.9``) and whole seconds: the newest attempt is found by its first event's time."""
    for k in range(12):
        w = tb_writer(str(tmp_path))
        for i in range(10):
            w.add_scalar("loss", float(k), i)   # each attempt restarted from step 0
        w.close()
    run = load_any(tmp_path)
    assert set(run.series("loss").values) == {11.0} and run.meta["import"]["dropped_points"] == {"loss": 110}


def test_tensorboard_tags_on_different_step_axes_keep_their_points(tb_writer, tmp_path, diagnose_json):
    """train/loss against the global step, epoch/val_loss against the epoch, one writer:
    the epoch tag's small steps must not purge the training loss (a NaN run read healthy)."""
    folder = tmp_path / "axes"
    w = tb_writer(str(folder))
    for i in range(500):
        w.add_scalar("train/loss", float("nan") if i >= 450 else 2.0 * math.exp(-i / 100), i)
        if i % 100 == 99:
            w.add_scalar("epoch/val_loss", 1.0, i // 100)
    w.close()
    run = load_any(folder)
    assert len(run.series("loss")) == 500 and len(run.series("epoch/val_loss")) == 5
    _, doc = diagnose_json(folder)
    assert symptom_steps(doc, "loss-nonfinite") == [450]


def test_report_lr_legend_splits_only_traindocs_own_optimizer_group_names(tmp_path):
    from traindoc.report.html import build_plots

    src = tmp_path / "lrs.csv"
    src.write_text("step,loss,lr/0/1,lr/encoder,lr/Adam/pg2\n" + "".join(f"{i},1.0,0.1,0.01,0.001\n" for i in range(5)))
    lr = next(p for p in build_plots(diagnose(load_any(src)), 0) if p.key == "lr")
    assert sorted(t.name for t in lr.fig.data) == ["lr/Adam/pg2", "lr/encoder", "optimizer 0, group 1"]


def test_public_api_reads_another_tools_log(tmp_path):
    import traindoc

    path = write_hf(tmp_path / "trainer_state.json", hf_state(steps=50))
    assert "load_any" in traindoc.__all__
    d = traindoc.diagnose(traindoc.load_any(path))
    assert d.run.meta["import"]["format"] == "huggingface" and d.exit_code == 0


def test_every_rule_runs_on_imports_without_failing(tmp_path):
    """Rules written against recorded runs meet runs with no model, optimizer or
    environment metadata: none may crash (a crash would be an internal finding)."""
    sources = [
        write_hf(tmp_path / "hf" / "trainer_state.json", hf_state(blowup_at=200)),
        DATA / "lightning_metrics.csv",
        write_lightning(tmp_path / "lt", lightning_rows(nan_at=100)),
    ]
    csv_path = tmp_path / "t.csv"
    csv_path.write_text("step,loss,lr,grad_norm,step_time,data_time\n" + "".join(
        f"{i},{3 * math.exp(-i / 30) if i != 77 else 'nan'},0.1,{1 + (i == 50) * 100},0.01,{0.009 if i > 60 else 0.001}\n"
        for i in range(120)))
    sources.append(csv_path)
    for src in sources:
        d = diagnose(load_any(src))
        assert d.internal == [], (src, [f.message for f in d.internal])
        assert d.symptoms, src
