"""traindoc confirm end to end: real scripts re-executed through the CLI."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent / "scripts"
ENV = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "TRAINDOC_ALLOW_UNSANDBOXED": "1", "TRAINDOC_REPLAY": "0"}


def td(*args, cwd):
    return subprocess.run([sys.executable, "-m", "traindoc", *map(str, args)], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=900)


def record(tmp_path, script, *args):
    shutil.copy(HERE / script, tmp_path / script)
    r = td("run", "--out", "run", script, *args, cwd=tmp_path)
    assert (tmp_path / "run").is_dir(), r.stderr
    return tmp_path / "run"


def test_nan_from_a_high_lr_is_confirmed_by_lr_x01(tmp_path):
    run = record(tmp_path, "sliced_lr_high.py")
    r = td("confirm", "--json", "--only", "lr-scale,clip-grads,mean-reduction", run, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    verdicts = {x["cause"]: x["verdict"] for x in doc["experiments"]["results"]}
    assert verdicts["lr-too-high"] == "confirmed"
    assert verdicts["loss-reduction"] == "inconclusive"  # a mean loss: nothing to average
    assert doc["causes"][0]["name"] == "lr-too-high" and doc["causes"][0]["severity"] == "error"
    assert any(e.get("experiment") == "lr-scale" for e in doc["causes"][0]["evidence"])
    # the verdicts are kept: a plain diagnose ranks the same way
    again = json.loads(td("diagnose", "--json", run, cwd=tmp_path).stdout)
    assert again["causes"][0]["name"] == "lr-too-high"
    assert (run / "confirm.json").is_file()


def test_healthy_run_has_nothing_confirmed(tmp_path):
    run = record(tmp_path, "healthy.py")
    r = td("confirm", run, cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Experiments" in r.stdout and "confirmed" not in r.stdout.replace("not confirmed", "")
    doc = json.loads((run / "confirm.json").read_text())
    assert {x["verdict"] for x in doc["results"]} <= {"refuted", "inconclusive"}
    assert doc["runs"]["baseline"]["steps"] > 50


def test_bad_input_is_one_line_and_exit_2(tmp_path):
    log = tmp_path / "log.csv"
    log.write_text("step,loss\n" + "".join(f"{i},{2 - i / 100}\n" for i in range(50)))
    r = td("confirm", log, cwd=tmp_path)
    assert r.returncode == 2 and "traindoc: error:" in r.stderr and "Traceback" not in r.stderr
    r = td("confirm", tmp_path / "nope", cwd=tmp_path)
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_changed_script_is_refused(tmp_path):
    run = record(tmp_path, "sliced_lr_high.py", "0.01")
    (tmp_path / "sliced_lr_high.py").write_text((tmp_path / "sliced_lr_high.py").read_text() + "\n# edited\n")
    r = td("confirm", run, cwd=tmp_path)
    assert r.returncode == 2 and "changed since the run" in r.stderr
