"""Turn what the user points ``diagnose`` / ``report`` at into a run the rules can read.

Accepted (see each module for the format's details and what it cannot show):

- a traindoc run folder (``traindoc run --out DIR``): everything the monitor recorded;
- TensorBoard: an ``events.out.tfevents.*`` file or a folder of them (:mod:`.tensorboard`);
- Hugging Face: a ``trainer_state.json``, a ``checkpoint-N`` folder holding one, or an
  ``output_dir`` of checkpoints (the latest is read) (:mod:`.hf`);
- Lightning: a ``metrics.csv`` or the ``version_N`` folder of a ``CSVLogger`` (:mod:`.table`);
- a plain ``.csv`` / ``.tsv`` / ``.jsonl`` with a step column (:mod:`.table`).

An import maps the tool's names to traindoc's (:mod:`.tags`) and returns an
:class:`~traindoc.importers.base.ImportedRun` with the reader's API, so every rule runs
unchanged; a rule whose series the tool never logged says "cannot tell". Nothing from
the files is executed.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import UserError
from ..store.reader import Run, is_run_folder, open_run
from . import hf, table, tensorboard
from .base import ImportedRun, build

__all__ = ["ImportedRun", "load_any"]

ACCEPTED = ("a traindoc run folder, a TensorBoard event file or folder, a trainer_state.json or a checkpoint "
            "folder, a Lightning metrics.csv or version folder, or a .csv/.jsonl with a step column")


def _table(path: Path, fmt: str) -> ImportedRun:
    reader = table.read_jsonl if path.suffix.lower() in (".jsonl", ".ndjson") else table.read_csv
    points, ignored = reader(path)
    return build(path, fmt, points, ignored=ignored)


def _file(p: Path) -> Run:
    name, suffix = p.name.lower(), p.suffix.lower()
    if tensorboard.is_event_file(p):
        return tensorboard.load(p)
    if name == hf.STATE:
        return hf.load(p)
    if suffix == ".json":
        try:
            obj = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise UserError(f"{p}: not a JSON file ({exc})") from None
        if hf.is_trainer_state(obj):
            return hf.load(p)
        raise UserError(f"{p}: a JSON file but not a trainer_state.json (no log_history); "
                        "a table of metrics goes in a .jsonl, one object per line")
    if suffix in (".jsonl", ".ndjson"):
        return _table(p, "jsonl")
    if suffix in (".csv", ".tsv"):
        return _table(p, "lightning" if name == "metrics.csv" else "csv")
    if name.endswith((".sqlite", ".sqlite-wal")):
        raise UserError(f"{p}: give the run folder that holds it, not the store file")
    raise UserError(f"{p}: unknown file type; expected {ACCEPTED}")


def _folder(p: Path) -> Run:
    if is_run_folder(p):
        return open_run(p)
    if (p / hf.STATE).is_file():
        return hf.load(p / hf.STATE)
    if (p / "metrics.csv").is_file():
        return _table(p / "metrics.csv", "lightning")
    if any(tensorboard.is_event_file(c) for c in p.iterdir()):
        return tensorboard.load(p)
    ckpt = hf.latest_checkpoint(p)
    if ckpt is not None:
        return hf.load(ckpt)
    versions = sorted(c.name for c in p.iterdir() if c.is_dir() and (c / "metrics.csv").is_file())
    if versions:
        raise UserError(f"{p}: holds {len(versions)} Lightning logs ({', '.join(versions[:8])}); give one of them")
    if tensorboard.event_dirs(p):
        return tensorboard.load(p)
    raise UserError(f"{p}: nothing traindoc reads in this folder; expected {ACCEPTED}")


def load_any(path: str | Path) -> Run:
    """Open ``path`` as a traindoc run or import another tool's logs. ``UserError`` (exit
    2, one line) for anything else: missing, empty, corrupt or unknown."""
    p = Path(path)
    if not p.exists():
        raise UserError(f"{p}: no such file or folder")
    if p.is_dir():
        return _folder(p)
    if p.stat().st_size == 0:
        raise UserError(f"{p}: empty file")
    return _file(p)
