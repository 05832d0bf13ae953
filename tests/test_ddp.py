"""Rank-aware: under torchrun each rank records its own part; diagnose reads them together."""

import json
import os
import shutil
import subprocess
import sys

import pytest

import traindoc
from conftest import ROOT, SCRIPTS, _env, run_cli


@pytest.mark.slow
def test_torchrun_two_ranks_gloo(tmp_path):
    env = _env()
    env["MASTER_PORT"] = "29533"
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2", "--master_port=29533",
           "-m", "traindoc", "run", "--out", str(tmp_path / "r"), str(SCRIPTS / "ddp_train.py")]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    run = traindoc.open_run(tmp_path / "r")
    assert run.ranks == [0, 1]
    l0, l1 = run.series("loss", 0), run.series("loss", 1)
    assert len(l0) == len(l1) == 10
    assert (l0.values[:5] != l1.values[:5]).all()  # per-rank losses differ
    d = run_cli("diagnose", tmp_path / "r", "--json")
    doc = json.loads(d.stdout)
    nonfinite = [s for s in doc["symptoms"] if s["name"] == "loss-nonfinite"]
    # rank 1's loss went NaN at step 5; rank 0's loss only after the NaN gradients arrived
    first = min(nonfinite, key=lambda s: (s["step"], s["location"]["rank"]))
    assert first["step"] == 5 and first["location"]["rank"] == 1
    # the causes speak of rank 1 (its batch, its samples), and one rank prints the diagnosis
    top = doc["causes"][0]
    assert top["location"]["rank"] == 1 and top["location"]["step"] == 5
    assert 81 in top["location"]["samples"] and d.returncode == 1
    assert r.stderr.count("What the run showed") == 1
    # a rank's bundle replays without torchrun, as a one-process job
    rep = run_cli("replay", tmp_path / "r" / "bundles" / "step-000005-r1", "--json", cwd=tmp_path)
    assert rep.returncode == 1 and "replayed as one process" in rep.stderr, rep.stderr[-2000:]
    assert json.loads(rep.stdout)["bad_indices"] == [81]
