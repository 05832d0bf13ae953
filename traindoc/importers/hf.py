"""Hugging Face ``Trainer``: the ``log_history`` of a ``trainer_state.json``.

The Trainer writes that file into every ``checkpoint-N`` folder (and into ``output_dir``
on ``trainer.save_state()``); its ``log_history`` is the whole run so far, one record per
logging event: ``{"loss", "grad_norm", "learning_rate", "epoch", "step"}`` every
``logging_steps``, ``{"eval_loss", "eval_<metric>", "eval_runtime", ..., "step"}`` per
evaluation, and one closing record with ``train_runtime``, ``train_loss``, ``total_flos``.
``loss`` is the mean over the last ``logging_steps`` steps, and with the default
``logging_nan_inf_filter=True`` a non-finite step loss is replaced before averaging:
the log can hide a NaN loss that ``grad_norm`` still shows.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..errors import UserError
from .base import ImportedRun, build

STATE = "trainer_state.json"
_SUMMARY = {"train_runtime", "train_samples_per_second", "train_steps_per_second", "total_flos", "train_loss"}
_CONFIG = ("global_step", "max_steps", "num_train_epochs", "logging_steps", "eval_steps", "save_steps",
           "train_batch_size", "best_metric", "best_model_checkpoint", "epoch")
_CHECKPOINT = re.compile(r"^checkpoint-(\d+)$")


def latest_checkpoint(folder: Path) -> Path | None:
    """``output_dir/checkpoint-N/trainer_state.json`` with the largest N (it holds the
    history of all the earlier ones)."""
    found = [(int(m.group(1)), p / STATE) for p in folder.iterdir()
             if p.is_dir() and (m := _CHECKPOINT.match(p.name)) and (p / STATE).is_file()]
    return max(found)[1] if found else None


def _short(exc: BaseException) -> str:
    return "nested too deeply" if isinstance(exc, RecursionError) else str(exc)


def is_trainer_state(obj: Any) -> bool:
    return isinstance(obj, dict) and isinstance(obj.get("log_history"), list)


def load(path: Path) -> ImportedRun:
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise UserError(f"{path}: not a JSON file ({_short(exc)})") from None
    if not is_trainer_state(obj):
        raise UserError(f"{path}: not a Hugging Face trainer_state.json (no log_history list)")
    points: dict[str, dict[int, float]] = {}
    ignored: set[str] = set()
    summary: dict[str, Any] = {}
    for i, rec in enumerate(obj["log_history"]):
        if not isinstance(rec, dict):
            raise UserError(f"{path}: log_history[{i}] is not an object")
        step = rec.get("step")
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise UserError(f"{path}: log_history[{i}] has no whole step (step={step!r})")
        if _SUMMARY & rec.keys():
            summary.update({k: v for k, v in rec.items() if k != "step"})
            continue
        for k, v in rec.items():
            if k == "step":
                continue
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                ignored.add(k)
                continue
            points.setdefault(k, {})[step] = float(v)
    if not points:
        raise UserError(f"{path}: log_history holds no metric (was logging_steps larger than the run?)")
    trainer = {k: obj[k] for k in _CONFIG if k in obj}
    if summary:
        trainer["summary"] = summary
    meta: dict[str, Any] = {"trainer": trainer}
    if isinstance(obj.get("global_step"), int):
        meta["steps"] = obj["global_step"]
    return build(path, "huggingface", points, meta, ignored=ignored)
