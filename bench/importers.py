"""How fast the importers read realistic logs, next to pandas as a reference.

    python bench/importers.py [--rows 1000000]

Writes, in a temp folder: a plain CSV of ROWS steps x 4 metrics, the same as JSONL, a
Lightning-style sparse metrics.csv, a trainer_state.json with ROWS/10 log records, and a
TensorBoard folder of ROWS/10 steps x 4 tags (torch's SummaryWriter). Prints one table:
file size, traindoc's read time (median of 3, through ``load_any``: parse + name map +
arrays), and pandas' ``read_csv`` / ``read_json(lines=True)`` on the same file where it
applies (pandas only parses; it does not map names or build series).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from traindoc.importers import load_any


def timed(fn, reps=3) -> float:
    out = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def write_inputs(root: Path, rows: int) -> dict[str, Path]:
    rng = np.random.default_rng(0)
    loss = 3 * np.exp(-np.arange(rows) / (rows / 5)) + 0.05 * rng.random(rows)
    files = {}
    p = root / "plain.csv"
    with open(p, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["step", "loss", "lr", "grad_norm", "accuracy"])
        for i in range(rows):
            w.writerow([i, repr(float(loss[i])), 1e-3, repr(float(1 + rng.random())), i / rows])
    files["csv"] = p
    p = root / "plain.jsonl"
    with open(p, "w") as fh:
        for i in range(rows):
            fh.write(json.dumps({"step": i, "loss": float(loss[i]), "lr": 1e-3, "grad_norm": 1.5, "accuracy": i / rows}) + "\n")
    files["jsonl"] = p
    p = root / "lightning" / "metrics.csv"
    p.parent.mkdir()
    with open(p, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["epoch", "lr-Adam", "step", "train_loss_step", "val_loss"])
        w.writeheader()
        for i in range(rows // 2):
            w.writerow({"lr-Adam": 1e-3, "step": i})
            w.writerow({"epoch": i // 1000, "step": i, "train_loss_step": float(loss[i])})
    files["lightning"] = p
    n = rows // 10
    hist = [{"epoch": i / 1000, "grad_norm": 1.5, "learning_rate": 5e-5, "loss": float(loss[i]), "step": i}
            for i in range(1, n + 1)]
    p = root / "hf" / "trainer_state.json"
    p.parent.mkdir()
    p.write_text(json.dumps({"global_step": n, "log_history": hist}, indent=2, sort_keys=True))
    files["huggingface"] = p
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        return files
    w = SummaryWriter(str(root / "tb"))
    for i in range(n):
        w.add_scalar("train/loss", float(loss[i]), i)
        w.add_scalar("train/learning_rate", 1e-3, i)
        w.add_scalar("train/grad_norm", 1.5, i)
        w.add_scalar("eval/accuracy", math.sin(i), i)
    w.close()
    files["tensorboard"] = root / "tb"
    return files


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    a = ap.parse_args()
    try:
        import pandas as pd
    except ImportError:
        pd = None
    with tempfile.TemporaryDirectory() as tmp:
        files = write_inputs(Path(tmp), a.rows)
        print(f"{'source':<12} {'points':>10} {'MB':>7} {'traindoc s':>11} {'Mpoints/s':>10} {'pandas s':>9}")
        for kind, path in files.items():
            run = load_any(path)
            points = sum(len(run.series(n)) for n in run.names())
            size = sum(f.stat().st_size for f in ([path] if path.is_file() else path.rglob("*") if path.is_dir() else []))
            t = timed(lambda: load_any(path))
            ref = ""
            if pd is not None and kind in ("csv", "lightning"):
                ref = f"{timed(lambda: pd.read_csv(path)):.2f}"
            elif pd is not None and kind == "jsonl":
                ref = f"{timed(lambda: pd.read_json(path, lines=True)):.2f}"
            print(f"{kind:<12} {points:>10,} {size / 1e6:>7.1f} {t:>11.2f} {points / t / 1e6:>10.2f} {ref:>9}")


if __name__ == "__main__":
    main()
