"""One benchmark task as a plain training script (what `traindoc lr-find` runs):
python train_task.py --task cnn-adam --seed 0 --lr 1e-3 --steps 300"""
import argparse
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
from tasks import build  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--task", required=True)
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--lr", type=float, default=1e-3)
ap.add_argument("--steps", type=int, default=300)
a = ap.parse_args()
torch.set_num_threads(1)
model, (cls, kw), batches, loss_fn = build(a.task, a.seed)
opt = cls(model.parameters(), lr=a.lr, **kw)
for x, y in batches(a.steps):
    loss = loss_fn(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
