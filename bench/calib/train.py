"""Calibration runs for the symptom rules: several model families, optimizers, batch
sizes and seeds, healthy or with one injected symptom.

    python bench/calib/train.py --model lm --opt adam --lr 3e-3 --seed 1 --fault none
faults: none | spike (one batch x30 at 60% of the run) | lr-high | lr-low | diverge |
        slow (one step sleeps) | plateau-high (labels random)
"""
import argparse
import math
import time

import torch
from torch import nn

p = argparse.ArgumentParser()
p.add_argument("--model", default="mlp", choices=["mlp", "cnn", "lm", "rnn", "logreg"])
p.add_argument("--opt", default="adam", choices=["sgd", "adam", "adamw", "momentum"])
p.add_argument("--lr", type=float, default=None)
p.add_argument("--bs", type=int, default=32)
p.add_argument("--steps", type=int, default=300)
p.add_argument("--seed", type=int, default=0)
p.add_argument("--fault", default="none")
p.add_argument("--sched", default="none", choices=["none", "cosine"])  # linear warmup + cosine decay
p.add_argument("--dropout", type=float, default=0.0)
a = p.parse_args()
torch.manual_seed(a.seed)
torch.set_num_threads(1)

V, T = 64, 32


def make_batch(step):
    g = torch.Generator().manual_seed(a.seed * 100003 + step)
    if a.model in ("mlp", "logreg"):
        x = torch.randn(a.bs, 20, generator=g)
        w = torch.linspace(-1, 1, 20)
        y = (x @ w > 0).long() if a.model == "logreg" else (x @ w).unsqueeze(1) + 0.3 * torch.randn(a.bs, 1, generator=g)
    elif a.model == "cnn":
        y = torch.randint(0, 4, (a.bs,), generator=g)
        x = torch.randn(a.bs, 1, 12, 12, generator=g) * 0.5
        for i in range(a.bs):
            c = int(y[i])
            x[i, 0, (c // 2) * 6:(c // 2) * 6 + 6, (c % 2) * 6:(c % 2) * 6 + 6] += 1.0
    else:
        start = torch.randint(0, V, (a.bs, 1), generator=g)
        x = (start + torch.arange(T + 1) * 3) % V  # learnable: next = prev + 3
        x, y = x[:, :-1], x[:, 1:]
    if a.fault == "plateau-high":
        y = y[torch.randperm(len(y), generator=g)] if y.dim() else y
    if a.fault == "spike" and step == int(a.steps * 0.6):
        if x.is_floating_point():
            x = x * 30
        else:
            y = torch.randint(0, V, y.shape, generator=g)  # garbage targets for one batch
    return x, y


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 64)
        self.pos = nn.Parameter(torch.zeros(T, 64))
        layer = nn.TransformerEncoderLayer(64, 4, 128, dropout=a.dropout, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.out = nn.Linear(64, V)

    def forward(self, x):
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1])
        return self.out(self.enc(self.emb(x) + self.pos, mask=mask, is_causal=True))


if a.model == "mlp":
    model, loss_fn, lr0 = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1)), nn.MSELoss(), 1e-3
elif a.model == "logreg":
    model, loss_fn, lr0 = nn.Linear(20, 2), nn.CrossEntropyLoss(), 1e-2
elif a.model == "cnn":
    model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1),
                          nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 4))
    loss_fn, lr0 = nn.CrossEntropyLoss(), 3e-3
elif a.model == "rnn":
    class RNN(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(V, 32)
            self.gru = nn.GRU(32, 64, batch_first=True)
            self.out = nn.Linear(64, V)

        def forward(self, x):
            return self.out(self.gru(self.emb(x))[0])
    model, loss_fn, lr0 = RNN(), nn.CrossEntropyLoss(), 3e-3
else:
    model, loss_fn, lr0 = LM(), nn.CrossEntropyLoss(), 1e-3

lr = a.lr if a.lr is not None else lr0
if a.opt == "sgd":
    lr = a.lr if a.lr is not None else lr0 * 30
elif a.opt == "momentum" and a.model in ("cnn", "rnn"):
    lr = a.lr if a.lr is not None else lr0 * 10  # at lr0 they barely learn in 300 steps
if a.fault == "lr-high":
    lr *= 300
if a.fault == "lr-low":
    lr *= 1e-4
opt = {"sgd": lambda: torch.optim.SGD(model.parameters(), lr=lr),
       "momentum": lambda: torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9),
       "adam": lambda: torch.optim.Adam(model.parameters(), lr=lr),
       "adamw": lambda: torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)}[a.opt]()
sched = None
if a.sched == "cosine":
    warm = max(1, a.steps // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / warm if s < warm else 0.5 * (1 + math.cos(math.pi * (s - warm) / (a.steps - warm))))
for step in range(a.steps):
    x, y = make_batch(step)
    out = model(x)
    loss = loss_fn(out.reshape(-1, out.shape[-1]) if a.model in ("lm", "rnn") else out, y.reshape(-1) if a.model in ("lm", "rnn") else y)
    opt.zero_grad()
    loss.backward()
    if a.fault == "diverge":
        for g in opt.param_groups:
            g["lr"] = lr * (1.03 ** step)
    if a.fault == "slow" and step == a.steps // 2:
        time.sleep(0.5)
    opt.step()
    if sched is not None:
        sched.step()
print("final", loss.item())
