"""Memory over a long run: does the monitor hold on to anything step after step?

For each way of training (a row of the compatibility matrix: a DataLoader loop, a
hand-written SGD update, nanoGPT's ``get_batch()``, a NaN guard that skips backward,
gradient accumulation, LBFGS's closure, two optimizers, Lightning's automatic and manual
optimization, an Accelerate loop, two phases with their own optimizers, the Hugging Face
Trainer), the same tiny model trains for ``--steps`` steps
twice, plain (``python script.py``) and monitored (``traindoc run script.py``), rows
interleaved (plain, monitored, next row ...). The script itself reads its resident memory
(VmRSS) after a warm-up (10 % of the steps), half-way and at the end; the table shows the
growth from the warm-up to the end in each mode, and the monitored run's growth over its
second half: a monitor that holds a bounded amount grows early (SQLite's page cache, the
sampler's windows) and then stays flat; a leak grows as much in the second half as in the
first. A model
this small makes any per-step leak of the monitor visible (a few hundred bytes a step is
megabytes over 10 000 steps) where a real model's activations would hide it.

    OMP_WAIT_POLICY=PASSIVE python bench/memory.py [--steps 10000] [--only NAME,...]

Rows whose framework is not installed are skipped and named.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# prepended to every script: reads VmRSS (kB) after the warm-up and at the end
_HEAD = '''
import json, os, sys, torch
torch.manual_seed(0); torch.set_num_threads(1)
STEPS = int(os.environ["BENCH_STEPS"]); WARM = max(1, STEPS // 10); _rss = {}
def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
def mark(step):
    if step == WARM: _rss["warm"] = rss_kb()
    if step == STEPS // 2: _rss["mid"] = rss_kb()
def report():
    _rss["end"] = rss_kb()
    import gc  # the trained weights' fingerprint: the same bits plain and monitored (no observer effect)
    _rss["weights"] = repr(sum(float(o.detach().double().sum()) for o in gc.get_objects()
                               if isinstance(o, torch.nn.Parameter)))
    print("BENCH_RSS " + json.dumps(_rss), file=sys.stderr)
from torch import nn
import torch.nn.functional as F
def net(): return nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
X, Y = torch.randn(4096, 32), torch.randint(0, 10, (4096,))
'''

ROWS: dict[str, tuple[str | None, str]] = {
    "DataLoader + Adam": (None, '''
from torch.utils.data import DataLoader, TensorDataset
m = net(); opt = torch.optim.Adam(m.parameters(), 1e-3)
dl = DataLoader(TensorDataset(X, Y), batch_size=32, shuffle=True, drop_last=True)
step = 0
while step < STEPS:
    for x, y in dl:
        loss = F.cross_entropy(m(x), y); opt.zero_grad(); loss.backward(); opt.step()
        step += 1; mark(step)
        if step >= STEPS: break
report()
'''),
    "hand-written SGD update": (None, '''
m = net()
for step in range(1, STEPS + 1):
    i = torch.randint(0, len(X), (32,))
    loss = F.cross_entropy(m(X[i]), Y[i]); loss.backward()
    with torch.no_grad():
        for p in m.parameters():
            p.add_(p.grad, alpha=-0.05); p.grad = None
    mark(step)
report()
'''),
    "get_batch() + AdamW": (None, '''
data = torch.randint(0, 10, (100000,))
emb = nn.Embedding(10, 32); m = nn.Sequential(emb, nn.Flatten(), nn.Linear(8 * 32, 10))
opt = torch.optim.AdamW(m.parameters(), 1e-3)
def get_batch():
    ix = torch.randint(len(data) - 9, (32,))
    return torch.stack([data[j:j + 8] for j in ix]), data[ix + 8]
for step in range(1, STEPS + 1):
    x, y = get_batch()
    loss = F.cross_entropy(m(x), y); opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    mark(step)
report()
'''),
    "NaN guard (skip backward)": (None, '''
m = net(); opt = torch.optim.SGD(m.parameters(), 0.05, momentum=0.9)
for step in range(1, STEPS + 1):
    i = torch.randint(0, len(X), (32,))
    x = X[i].clone()
    if step % 97 == 0: x[0, 0] = float("nan")  # a bad sample now and then
    loss = F.cross_entropy(m(x), Y[i])
    if not torch.isfinite(loss):
        mark(step); continue  # the guard: never backpropagated
    opt.zero_grad(); loss.backward(); opt.step(); mark(step)
report()
'''),
    "gradient accumulation x4": (None, '''
m = net(); opt = torch.optim.Adam(m.parameters(), 1e-3)
for step in range(1, STEPS + 1):
    for _ in range(4):
        i = torch.randint(0, len(X), (8,))
        (F.cross_entropy(m(X[i]), Y[i]) / 4).backward()
    opt.step(); opt.zero_grad(); mark(step)
report()
'''),
    "LBFGS closure": (None, '''
m = net(); opt = torch.optim.LBFGS(m.parameters(), lr=0.5, max_iter=2, history_size=5,
                                   line_search_fn="strong_wolfe")
for step in range(1, STEPS + 1):
    i = torch.randint(0, len(X), (64,))
    def closure():
        opt.zero_grad(); loss = F.cross_entropy(m(X[i]), Y[i]); loss.backward(); return loss
    opt.step(closure); mark(step)
report()
'''),
    "two optimizers (GAN)": (None, '''
G = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 32))
D = nn.Sequential(nn.Linear(32, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
og = torch.optim.Adam(G.parameters(), 2e-4, betas=(0.5, 0.999)); od = torch.optim.Adam(D.parameters(), 2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss()
for step in range(1, STEPS + 1):
    real = X[torch.randint(0, len(X), (32,))]; fake = G(torch.randn(32, 8))
    od.zero_grad(); ld = bce(D(real), torch.ones(32, 1)) + bce(D(fake.detach()), torch.zeros(32, 1)); ld.backward(); od.step()
    og.zero_grad(); lg = bce(D(fake), torch.ones(32, 1)); lg.backward(); og.step()
    mark(step)
report()
'''),
    "Lightning (automatic optimization)": ("lightning", '''
import lightning as L
from torch.utils.data import DataLoader, TensorDataset
class Mod(L.LightningModule):
    def __init__(self):
        super().__init__(); self.m = net()
    def training_step(self, batch, i):
        x, y = batch; return F.cross_entropy(self.m(x), y)
    def on_train_batch_end(self, *a):
        mark(self.global_step)
    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), 1e-3)
dl = DataLoader(TensorDataset(X, Y), batch_size=32, shuffle=True, drop_last=True)
L.Trainer(max_steps=STEPS, logger=False, enable_checkpointing=False, enable_progress_bar=False,
          enable_model_summary=False, accelerator="cpu", devices=1).fit(Mod(), dl)
report()
'''),
    "Lightning (manual optimization)": ("lightning", '''
import lightning as L
from torch.utils.data import DataLoader, TensorDataset
class Mod(L.LightningModule):
    def __init__(self):
        super().__init__(); self.m = net(); self.automatic_optimization = False
    def training_step(self, batch, i):
        opt = self.optimizers(); x, y = batch
        loss = F.cross_entropy(self.m(x), y); opt.zero_grad(); self.manual_backward(loss); opt.step()
    def on_train_batch_end(self, *a):
        mark(self.global_step)
    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), 1e-3)
dl = DataLoader(TensorDataset(X, Y), batch_size=32, shuffle=True, drop_last=True)
L.Trainer(max_steps=STEPS, logger=False, enable_checkpointing=False, enable_progress_bar=False,
          enable_model_summary=False, accelerator="cpu", devices=1).fit(Mod(), dl)
report()
'''),
    "Accelerate loop (accumulation x2)": ("accelerate", '''
from accelerate import Accelerator
from torch.utils.data import DataLoader, TensorDataset
acc = Accelerator(cpu=True, gradient_accumulation_steps=2)
m = net(); opt = torch.optim.Adam(m.parameters(), 1e-3)
dl = DataLoader(TensorDataset(X, Y), batch_size=16, shuffle=True, drop_last=True)
m, opt, dl = acc.prepare(m, opt, dl)
step = 0; micro = 0
while step < STEPS:
    for x, y in dl:
        with acc.accumulate(m):
            acc.backward(F.cross_entropy(m(x), y)); opt.step(); opt.zero_grad()
        micro += 1
        if micro % 2 == 0:
            step += 1; mark(step)
        if step >= STEPS: break
report()
'''),
    "two phases (warm-up, then fine-tune with a new optimizer)": (None, '''
m = net()
def train(opt, first, last):
    for step in range(first, last + 1):
        i = torch.randint(0, len(X), (32,))
        loss = F.cross_entropy(m(X[i]), Y[i]); opt.zero_grad(); loss.backward(); opt.step(); mark(step)
train(torch.optim.SGD(m.parameters(), 0.05), 1, STEPS // 5)
train(torch.optim.Adam(m[2].parameters(), 1e-3), STEPS // 5 + 1, STEPS)
report()
'''),
    "Hugging Face Trainer": ("transformers", '''
import transformers
from transformers import Trainer, TrainingArguments, TrainerCallback
transformers.logging.set_verbosity_error()
class Mod(nn.Module):
    def __init__(self):
        super().__init__(); self.m = net()
    def forward(self, x, labels=None):
        logits = self.m(x); return {"loss": F.cross_entropy(logits, labels), "logits": logits}
class DS(torch.utils.data.Dataset):
    def __len__(self): return len(X)
    def __getitem__(self, i): return {"x": X[i], "labels": Y[i]}
class Mark(TrainerCallback):
    def on_step_end(self, args, state, control, **kw): mark(state.global_step)
import tempfile
args = TrainingArguments(output_dir=tempfile.mkdtemp(), max_steps=STEPS, per_device_train_batch_size=32,
                         report_to=[], save_strategy="no", logging_steps=1000, disable_tqdm=True,
                         use_cpu=True, dataloader_num_workers=0)
Trainer(model=Mod(), args=args, train_dataset=DS(), callbacks=[Mark()]).train()
report()
'''),
}


def run_one(script: Path, monitored: bool, steps: int, out: Path) -> dict:
    env = {**os.environ, "BENCH_STEPS": str(steps), "OMP_WAIT_POLICY": "PASSIVE",
           "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-m", "traindoc", "run", "--out", str(out), str(script)] if monitored \
        else [sys.executable, str(script)]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=script.parent)
    wall = time.perf_counter() - t0
    line = next((ln for ln in p.stderr.splitlines() if ln.startswith("BENCH_RSS ")), None)
    if p.returncode != 0 or line is None:
        raise SystemExit(f"{script.name} ({'monitored' if monitored else 'plain'}) failed "
                         f"(exit {p.returncode}):\n{p.stderr[-2000:]}")
    rss = json.loads(line.split(" ", 1)[1])
    return {"warm_mb": rss["warm"] / 1024, "mid_mb": rss["mid"] / 1024, "end_mb": rss["end"] / 1024, "wall": wall,
            "weights": rss["weights"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=10000)
    ap.add_argument("--only", default="", help="comma-separated substrings of row names")
    a = ap.parse_args()
    rows = [n for n in ROWS if not a.only or any(s.lower() in n.lower() for s in a.only.split(","))]
    print(f"{a.steps} steps per run; growth of resident memory from the warm-up ({a.steps // 10} steps) to the end, "
          "and over the monitored run's second half")
    print(f"{'row':36s} | {'plain growth':>12s} | {'monitored growth':>16s} | {'monitored, 2nd half':>19s} | "
          f"{'monitored RSS':>13s} | {'wall plain / mon':>16s} | same weights")
    with tempfile.TemporaryDirectory() as tmp:
        for k, name in enumerate(rows):
            need, body = ROWS[name]
            if need and importlib.util.find_spec(need) is None:
                print(f"{name:36s} | skipped: {need} is not installed")
                continue
            script = Path(tmp) / f"bench_{k}_{name.split()[0].lower().strip('()-')}.py"  # never a module's own name
            script.write_text(_HEAD + textwrap.dedent(body))
            plain = run_one(script, False, a.steps, Path(tmp) / "unused")
            mon = run_one(script, True, a.steps, Path(tmp) / f"run-{script.stem}")
            gp, gm = plain["end_mb"] - plain["warm_mb"], mon["end_mb"] - mon["warm_mb"]
            second = mon["end_mb"] - mon["mid_mb"]
            print(f"{name:36s} | {gp:9.1f} MB | {gm:13.1f} MB | {second:16.1f} MB | {mon['end_mb']:10.0f} MB | "
                  f"{plain['wall']:6.1f} / {mon['wall']:5.1f} s | "
                  f"{'yes' if plain['weights'] == mon['weights'] else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
