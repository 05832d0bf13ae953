"""The Hugging Face Trainer hides a NaN loss by default (logging_nan_inf_filter=True): the
logged loss stays finite (0.0 once every step is NaN) while grad_norm is NaN. The log as
a real Trainer wrote it for a run with a NaN row (tests/frameworks/scripts/hf_trainer.py)."""

import json

from conftest import run_cli

STATE = {"global_step": 32, "log_history": [
    {"epoch": 0.16, "grad_norm": 1.9148, "learning_rate": 0.0085, "loss": 2.912, "step": 5},
    {"epoch": 0.31, "grad_norm": 1.8760, "learning_rate": 0.0069, "loss": 3.202, "step": 10},
    {"epoch": 0.47, "grad_norm": 3.3866, "learning_rate": 0.0053, "loss": 4.101, "step": 15},
    {"epoch": 0.62, "grad_norm": float("nan"), "learning_rate": 0.0041, "loss": 2.181, "step": 20},
    {"epoch": 0.78, "grad_norm": float("nan"), "learning_rate": 0.0025, "loss": 0.0, "step": 25},
    {"epoch": 0.94, "grad_norm": float("nan"), "learning_rate": 0.0009, "loss": 0.0, "step": 30},
    {"epoch": 1.0, "step": 32, "train_loss": 1.937, "train_runtime": 0.07},
]}


def test_a_nan_hidden_by_the_trainers_filter_is_found_and_fails_the_gate(tmp_path):
    (tmp_path / "trainer_state.json").write_text(json.dumps(STATE))  # NaN as the Trainer writes it
    r = run_cli("diagnose", tmp_path, "--json")
    assert r.returncode == 1, r.stdout + r.stderr
    doc = json.loads(r.stdout)
    (sym,) = [s for s in doc["symptoms"] if s["name"] == "loss-nonfinite"]
    assert sym["step"] == 20 and "logging_nan_inf_filter" in sym["message"] and "0.0 at 2" in sym["message"]
    assert [s for s in doc["symptoms"] if s["name"] == "grad-nonfinite"]


def test_a_loss_that_blows_up_in_a_sparse_log_names_the_rate(tmp_path):
    """An lr=1.0 Trainer run logged every 10 steps: the loss climbs 4.8 -> 118 with no NaN.
    14 logged points (each an average over its 10 steps) are enough to call the trend; the
    cause is the rate, said with what the log cannot tell apart."""
    losses = [4.8, 4.6, 5.5, 9.0, 20.0, 45.0, 93.0, 101.0, 117.0, 110.0, 121.0, 115.0, 119.0, 117.0]
    log = [{"epoch": (i + 1) / 14, "step": (i + 1) * 10, "loss": v, "learning_rate": 1.0}
           for i, v in enumerate(losses)]
    (tmp_path / "trainer_state.json").write_text(json.dumps({"global_step": 140, "log_history": log}))
    r = run_cli("diagnose", tmp_path, "--json")
    doc = json.loads(r.stdout)
    assert r.returncode == 1 and [s["name"] for s in doc["symptoms"]] == ["loss-divergence"]
    assert doc["causes"][0]["name"] == "lr-too-high" and "no update sizes" in doc["causes"][0]["message"]
    # the same log with a falling loss stays quiet
    for i, e in enumerate(log):
        e["loss"] = 4.8 * 0.85 ** i
    (tmp_path / "trainer_state.json").write_text(json.dumps({"global_step": 140, "log_history": log}))
    doc = json.loads(run_cli("diagnose", tmp_path, "--json").stdout)
    assert doc["causes"] == [] and doc["symptoms"] == []
