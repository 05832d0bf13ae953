"""Real inputs for the importers, written the way each tool writes them.

- TensorBoard: ``torch.utils.tensorboard.SummaryWriter`` itself (skipped without the
  ``tensorboard`` package, the extra ``traindoc[tensorboard]``).
- Hugging Face: ``TrainerState.save_to_json``'s layout (``json.dumps(asdict(state),
  indent=2, sort_keys=True)``, Python's ``NaN``/``Infinity`` tokens included) with the
  records ``Trainer`` logs: train every ``logging_steps``, eval, and the closing summary.
- Lightning: ``CSVLogger``'s ``metrics.csv`` (lightning_fabric ``_ExperimentWriter``:
  sorted header, one sparse row per ``log_metrics`` call, ``step`` = global step), and a
  file written by Lightning 2.x itself under ``data/``.
"""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"


def hf_state(steps: int = 300, logging_steps: int = 10, eval_steps: int = 100, blowup_at: int | None = None) -> dict:
    """A trainer_state.json dict. ``blowup_at``: grad_norm and loss explode from there,
    grad_norm turns NaN 20 steps later (the loss is NaN-filtered by the Trainer)."""
    hist = []
    for s in range(logging_steps, steps + 1, logging_steps):
        loss = 2.5 * math.exp(-s / 120) + 0.3
        gn = 1.5 + 0.2 * math.sin(s)
        if blowup_at is not None and s >= blowup_at:
            k = (s - blowup_at) / logging_steps + 1
            loss, gn = loss * 3 ** k, gn * 50 ** k
            if s >= blowup_at + 20:
                gn = float("nan")
        hist.append({"epoch": round(s / 100, 2), "grad_norm": gn, "learning_rate": 5e-5 * (1 - s / steps),
                     "loss": round(loss, 4), "step": s})
        if s % eval_steps == 0:
            hist.append({"epoch": round(s / 100, 2), "eval_accuracy": 0.5 + s / 1000, "eval_loss": loss + 0.1,
                         "eval_runtime": 1.52, "eval_samples_per_second": 131.5, "eval_steps_per_second": 16.4,
                         "step": s})
    hist.append({"epoch": steps / 100, "step": steps, "total_flos": 1.2e14, "train_loss": 0.9,
                 "train_runtime": 60.1, "train_samples_per_second": 26.6, "train_steps_per_second": 3.3})
    return {
        "best_global_step": None, "best_metric": None, "best_model_checkpoint": None, "epoch": steps / 100,
        "eval_steps": eval_steps, "global_step": steps, "is_hyper_param_search": False,
        "is_local_process_zero": True, "is_world_process_zero": True, "log_history": hist,
        "logging_steps": logging_steps, "max_steps": steps, "num_input_tokens_seen": 0, "num_train_epochs": 3,
        "save_steps": 100, "stateful_callbacks": {"TrainerControl": {"args": {
            "should_epoch_stop": False, "should_evaluate": False, "should_log": False, "should_save": True,
            "should_training_stop": True}, "attributes": {}}},
        "total_flos": 1.2e14, "train_batch_size": 8, "trial_name": None, "trial_params": None,
    }


def write_hf(path: Path, state: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n")
    return path


def write_lightning(folder: Path, rows: list[dict]) -> Path:
    """CSVLogger's metrics.csv: the header is every key ever logged, sorted."""
    folder.mkdir(parents=True, exist_ok=True)
    keys = sorted(set().union(*rows))
    with open(folder / "metrics.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    (folder / "hparams.yaml").write_text("lr: 0.001\n")
    return folder / "metrics.csv"


def lightning_rows(steps: int = 200, nan_at: int | None = None) -> list[dict]:
    """What self.log("train_loss", on_step=True, on_epoch=True), self.log("val_loss") and
    LearningRateMonitor log: step rows every 10 steps (log_every_n_steps), epoch rows."""
    rows, per_epoch = [], 50
    for s in range(9, steps, 10):   # Lightning logs at (global_step + 1) % 10 == 0, step = global_step
        loss = 2.0 * math.exp(-s / 60) + 0.1
        if nan_at is not None and s >= nan_at:
            loss = float("nan")
        rows.append({"epoch": s // per_epoch, "lr-Adam": 1e-3, "step": s, "train_loss_step": loss})
        if (s + 1) % per_epoch == 0:
            e = s // per_epoch
            rows.append({"epoch": e, "step": s, "val_loss": loss + 0.05})
            rows.append({"epoch": e, "step": s, "train_loss_epoch": loss + 0.02})
    return rows


@pytest.fixture
def cli(capsys):
    """``traindoc ARGS`` in this process (the same ``main`` as the console script, without
    a torch import per call): (exit code, stdout, stderr)."""
    from traindoc.cli import main

    def call(*args) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return call


@pytest.fixture
def tb_writer():
    pytest.importorskip("tensorboard", reason="the extra traindoc[tensorboard] is not installed")
    from torch.utils.tensorboard import SummaryWriter

    return SummaryWriter
