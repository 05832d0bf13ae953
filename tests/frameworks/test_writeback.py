"""The diagnosis written back into the tools the script already logs to (TensorBoard,
MLflow, W&B): found next to the script's own data, at the script's own steps."""

import shutil
import sys
import types

import pytest

import traindoc
from conftest import run_cli

from .test_frameworks import SCRIPTS


def _anomaly_step(run):
    return min(e["step"] for e in run.events() if e["kind"] == "anomaly")


def test_tensorboard_logs_get_the_diagnosis_and_anomaly_markers(tmp_path):
    pytest.importorskip("tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    shutil.copy(SCRIPTS / "tb_nan.py", tmp_path / "tb_nan.py")
    r = run_cli("run", "--out", "run", "tb_nan.py", cwd=tmp_path)
    assert "added to the TensorBoard logs in" in r.stderr and "tb/exp1" in r.stderr, r.stderr[-2000:]
    ea = EventAccumulator(str(tmp_path / "tb" / "exp1"), size_guidance={"tensors": 0, "scalars": 0})
    ea.Reload()
    assert "train/loss" in ea.Tags()["scalars"]  # the script's own data is untouched
    marks = [e.step for e in ea.Scalars("traindoc/anomaly")]
    assert marks and marks[0] == _anomaly_step(traindoc.open_run(tmp_path / "run"))
    text = [t for t in ea.Tags()["tensors"] if t.startswith("traindoc/diagnosis")]
    body = ea.Tensors(text[0])[0].tensor_proto.string_val[0].decode()
    assert "data-nonfinite" in body and "traindoc explain" in body
    # nothing is written where the script logged nothing, and --no-writeback turns it off
    shutil.rmtree(tmp_path / "run")
    shutil.rmtree(tmp_path / "tb")
    r = run_cli("run", "--no-writeback", "--out", "run", "tb_nan.py", cwd=tmp_path)
    assert "TensorBoard logs" not in r.stderr
    assert not list((tmp_path / "tb" / "exp1").glob("*.traindoc"))


def test_mlflow_run_gets_the_diagnosis(tmp_path, monkeypatch):
    pytest.importorskip("mlflow")
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    shutil.copy(SCRIPTS / "tb_nan.py", tmp_path / "tb_nan.py")
    r = run_cli("run", "--out", "run", "tb_nan.py", "--mlflow", cwd=tmp_path)
    assert "added to MLflow run" in r.stderr, r.stderr[-2000:]
    import mlflow

    client = mlflow.MlflowClient(tracking_uri=f"file:{tmp_path / 'mlruns'}")
    run = client.search_runs(experiment_ids=["0"])[0]
    assert run.data.tags["traindoc.top_cause"] == "data-nonfinite"
    hist = client.get_metric_history(run.info.run_id, "traindoc_anomaly")
    assert [m.step for m in hist][0] == _anomaly_step(traindoc.open_run(tmp_path / "run"))
    path = client.download_artifacts(run.info.run_id, "traindoc/diagnosis.md", str(tmp_path))
    assert "data-nonfinite" in open(path).read()


def test_wandb_live_run_gets_summary_and_an_alert(tmp_path, monkeypatch):
    """W&B is not installed here (and needs the network): this checks the calls traindoc
    makes on a live run object against the documented API (run.summary, wandb.alert)."""
    from traindoc.diagnose import diagnose
    from traindoc.integrations.writeback import mirror
    from traindoc.rules.util import fmt  # noqa: F401 - the rules are importable

    alerts = []
    fake = types.SimpleNamespace(run=types.SimpleNamespace(id="abc123", summary={}),
                                 alert=lambda **kw: alerts.append(kw),
                                 AlertLevel=types.SimpleNamespace(ERROR="ERROR"))
    monkeypatch.setitem(sys.modules, "wandb", fake)
    shutil.copy(SCRIPTS / "tb_nan.py", tmp_path / "tb_nan.py")
    run_cli("run", "--no-writeback", "--out", "run", "tb_nan.py", cwd=tmp_path)
    lines = mirror(diagnose(tmp_path / "run"), tmp_path / "run", cwd=tmp_path / "run")
    assert any("W&B run abc123" in x for x in lines)
    assert fake.run.summary["traindoc/top_cause"] == "data-nonfinite"
    assert alerts and alerts[0]["level"] == "ERROR" and "data-nonfinite" in alerts[0]["title"]
    monkeypatch.setitem(sys.modules, "wandb", types.SimpleNamespace(run=None))
    assert mirror(diagnose(tmp_path / "run"), tmp_path / "run", cwd=tmp_path / "run") == []


def test_wandb_run_the_script_finished_gets_the_diagnosis_before_it_closes(tmp_path):
    """A real W&B run in offline mode (no network): the script calls wandb.finish() itself,
    so at traindoc's end there is no live run; the summary is written at the finish."""
    pytest.importorskip("wandb")
    shutil.copy(SCRIPTS / "tb_nan.py", tmp_path / "tb_nan.py")
    env = {"WANDB_SILENT": "true", "WANDB_DIR": str(tmp_path), "WANDB_MODE": "offline"}
    r = run_cli("run", "--out", "run", "tb_nan.py", "--wandb", cwd=tmp_path, env=env)
    rid = next(line.split()[-1] for line in r.stdout.splitlines() if line.startswith("run id"))
    assert f"wandb finish (step 32) was added to W&B run {rid}" in r.stderr, r.stderr[-2000:]
    (log,) = (tmp_path / "wandb").glob(f"offline-run-*-{rid}/run-{rid}.wandb")
    data = log.read_bytes()  # the run's record log: the summary update is in it
    assert b"traindoc/top_cause" in data and b"data-nonfinite" in data
    # --no-writeback: nothing is added
    shutil.rmtree(tmp_path / "run")
    r = run_cli("run", "--no-writeback", "--out", "run", "tb_nan.py", "--wandb", cwd=tmp_path, env=env)
    rid = next(line.split()[-1] for line in r.stdout.splitlines() if line.startswith("run id"))
    (log,) = (tmp_path / "wandb").glob(f"offline-run-*-{rid}/run-{rid}.wandb")
    assert b"traindoc/top_cause" not in log.read_bytes() and "W&B" not in r.stderr
