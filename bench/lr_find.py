"""LR finders side by side (issue 9): traindoc lr-find, torch-lr-finder and Lightning's
lr_find, on 3 tasks x 3 seeds, each judged by 300 constant-rate steps at its suggestion
against a 13-point grid (1e-5 .. 10, half-decade spacing) run with the same initial
weights and batch order.

    python bench/lr_find.py [--seeds 0,1,2] [--tasks mlp-sgd,cnn-adam,lstm-adamw] [--jobs 2]

A suggestion *lands* when it is within 3x of the grid's best rate; it *fails* when 300
steps at it diverge, make no progress (final loss at least 95 % of the first step's), or
end above twice the grid's best loss. The spread is the largest minus the smallest
log10 suggestion over the seeds (decades). torch-lr-finder's suggestion is its plot's
(steepest slope, skipping 10 points at the start and 5 at the end); Lightning's is
``lr_finder.suggestion()``; both with their default sweeps (100 steps; torch-lr-finder
1e-7 .. 10 with our start rate, Lightning 1e-8 .. 1). Needs ``pip install
torch-lr-finder lightning``; a tool that is missing is left out of the table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import warnings
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent / "lr_find"
sys.path.insert(0, str(HERE))
GRID = [10 ** (-5 + 0.5 * k) for k in range(13)]
STEPS = 300


def _grid_point(args):
    import torch

    torch.set_num_threads(1)
    from tasks import train

    task, seed, lr = args
    return task, seed, lr, train(task, seed, lr, STEPS)


def first_loss(task: str, seed: int) -> float:
    import torch

    from tasks import build

    model, _, batches, loss_fn = build(task, seed)
    x, y = batches(1)[0]
    with torch.no_grad():
        return float(loss_fn(model(x), y))


def traindoc_suggestion(task: str, seed: int) -> float | None:
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE", "TRAINDOC_ALLOW_UNSANDBOXED": "1"}
    r = subprocess.run([sys.executable, "-m", "traindoc", "lr-find", "--json", "--no-sandbox",
                        str(HERE / "train_task.py"), "--task", task, "--seed", str(seed)],
                       capture_output=True, text=True, env=env, timeout=900)
    try:
        return json.loads(r.stdout).get("suggestion")
    except ValueError:
        print(f"traindoc lr-find failed on {task}/{seed}: {r.stderr.strip()[-300:]}", file=sys.stderr)
        return None


def torch_lr_finder_suggestion(task: str, seed: int) -> float | None:
    import torch
    from torch_lr_finder import LRFinder

    from tasks import build

    torch.set_num_threads(1)
    model, (cls, kw), batches, loss_fn = build(task, seed)
    opt = cls(model.parameters(), lr=1e-7, **kw)
    loader = torch.utils.data.DataLoader(batches(100), batch_size=None)
    finder = LRFinder(model, opt, loss_fn, device="cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        finder.range_test(loader, end_lr=10, num_iter=100)
    lrs, losses = finder.history["lr"][10:-5], finder.history["loss"][10:-5]
    if len(losses) < 2:
        return None
    return float(lrs[int(np.gradient(np.array(losses)).argmin())])


def lightning_suggestion(task: str, seed: int) -> float | None:
    import logging

    import lightning as L
    import torch
    from lightning.pytorch.tuner import Tuner

    from tasks import build

    logging.getLogger("lightning").setLevel(logging.ERROR)
    logging.getLogger("lightning.pytorch").setLevel(logging.ERROR)
    torch.set_num_threads(1)
    model, (cls, kw), batches, loss_fn = build(task, seed)

    class Module(L.LightningModule):
        def __init__(self):
            super().__init__()
            self.model = model
            self.lr = 1e-3

        def training_step(self, batch, i):
            x, y = batch
            return loss_fn(self.model(x), y)

        def configure_optimizers(self):
            return cls(self.parameters(), lr=self.lr, **kw)

        def train_dataloader(self):
            return torch.utils.data.DataLoader(batches(120), batch_size=None)

    trainer = L.Trainer(accelerator="cpu", logger=False, enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False, max_epochs=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = Tuner(trainer).lr_find(Module(), update_attr=False)
    return res.suggestion() if res is not None else None


TOOLS = {"traindoc": traindoc_suggestion, "torch-lr-finder": torch_lr_finder_suggestion,
         "lightning": lightning_suggestion}


def _suggest(args):
    tool, task, seed = args
    try:
        return tool, task, seed, TOOLS[tool](task, seed)
    except ImportError as exc:
        return tool, task, seed, f"missing: {exc.name}"
    except Exception as exc:  # noqa: BLE001 - a tool that crashes fails that case
        return tool, task, seed, f"error: {type(exc).__name__}: {exc}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--tasks", default=",".join(__import__("tasks").TASKS))
    ap.add_argument("--tools", default=",".join(TOOLS))
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    tasks = a.tasks.split(",")
    tools = a.tools.split(",")
    with ProcessPoolExecutor(a.jobs) as ex:
        grid = {}
        for task, seed, lr, loss in ex.map(_grid_point, [(t, s, lr) for t in tasks for s in seeds for lr in GRID]):
            grid.setdefault((task, seed), {})[lr] = loss
        sugg = {}
        for tool, task, seed, lr in ex.map(_suggest, [(tl, t, s) for tl in tools for t in tasks for s in seeds]):
            sugg[(tool, task, seed)] = lr
        wanted = [(k, v) for k, v in sugg.items() if isinstance(v, float) and v > 0]
        trained = dict(zip([k for k, _ in wanted],
                           [r[3] for r in ex.map(_grid_point, [(k[1], k[2], v) for k, v in wanted])]))
    print(f"{'task':11s} {'seed':>4s} {'grid best':>10s} {'loss':>7s}  " +
          "  ".join(f"{t:>26s}" for t in tools))
    score = {t: {"land": 0, "fail": 0, "n": 0} for t in tools}
    spread: dict[tuple[str, str], list[float]] = {}
    for task in tasks:
        for seed in seeds:
            g = grid[(task, seed)]
            best_lr = min(g, key=lambda k: g[k])
            best = g[best_lr]
            first = first_loss(task, seed)
            cells = []
            for tool in tools:
                lr = sugg[(tool, task, seed)]
                score[tool]["n"] += 1
                if not isinstance(lr, float) or lr <= 0:
                    score[tool]["fail"] += 1
                    cells.append(f"{str(lr)[:26]:>26s}")
                    continue
                spread.setdefault((tool, task), []).append(math.log10(lr))
                loss = trained[(tool, task, seed)]
                land = abs(math.log10(lr / best_lr)) <= math.log10(3)
                fail = not math.isfinite(loss) or loss >= 0.95 * first or loss > 2 * best
                score[tool]["land"] += land
                score[tool]["fail"] += fail
                tag = "FAIL" if fail else ("ok" if land else "off")  # a fail is a fail, even within 3x
                cells.append(f"{lr:9.2e} {loss:7.3f} {tag:>4s}".rjust(26))
            print(f"{task:11s} {seed:4d} {best_lr:10.1e} {best:7.3f}  " + "  ".join(cells))
    print()
    print(f"{'tool':16s} {'within 3x':>10s} {'fails':>6s}  spread across seeds (decades, per task)")
    for tool in tools:
        s = score[tool]
        sp = ", ".join(f"{t}: {max(v) - min(v):.2f}" for (tl, t), v in spread.items() if tl == tool and len(v) > 1)
        print(f"{tool:16s} {s['land']:>4d} / {s['n']:<3d} {s['fail']:>6d}  {sp}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
