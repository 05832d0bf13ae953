"""Poisson regression of daily page views per article (an MLP on standardised article features
outputs a log-rate, the rate is its exponential, Poisson negative log-likelihood, Adam, DataLoader)
trained under CPU autocast with float16 to save time. The network's last Linear runs in float16,
so the log-rate and its exponential stay float16; the most-read articles get well over 65,504
views a day, and as soon as the model predicts such a rate (a log-rate above ~11.1) the
exponential overflows to inf in float16, the loss becomes inf - inf = NaN and the NaN gradient
poisons every weight.

Source: https://github.com/huggingface/transformers/issues/5651 (T5 fp16 overflow in forward (T5DenseReluDense))
Report: "after 34 iterations I get nan loss from the forward method ... the source of the nan is due
to an overflow ... The result of this forward is a tensor that has `inf` in one of its values,
which later on causes the nan loss ... this `inf` is caused due to a value of 66246.3906, which is
over the maximum value of 65504 in fp16. This issue only happens with fp16 (opt_level=\"O1\"), with
opt_level=\"O0\" everything is fine." Reproduced with 6,000 synthetic articles (8 standardised
features, true log-rate 8 + a linear and a quadratic term, so views range from tens to a few
hundred thousand), an MLP 8-64-64-1 with its output bias set to the log of the mean count, Adam
lr 1e-3, batches of 128, 10 epochs, forward and loss inside torch.autocast("cpu", torch.float16).
The printed loss is the mean Poisson deviance on 1,000 held-out articles, `acc` the share of
held-out articles predicted within a factor of 2.

expect: fp16-overflow
symptom: nonfinite
batch: 12
"""
import argparse
import contextlib

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

n = 7000
X = torch.randn(n, 8)
w = torch.tensor([1.1, -0.6, 0.5, 0.3, 0.0, 0.2, -0.3, 0.4])
log_rate = 8.0 + X @ w + 0.25 * X[:, 0] ** 2
views = torch.poisson(log_rate.exp())
Xtr, ytr, Xte, yte = X[:6000], views[:6000], X[6000:], views[6000:]

model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
with torch.no_grad():
    model[-1].bias.fill_(ytr.mean().log().item())
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=128, shuffle=True)


def precision():
    return torch.autocast("cpu", dtype=torch.float16)


def poisson_nll(log_rate, y):
    return (log_rate.exp() - y * log_rate).mean()


for epoch in range(10):
    total = 0.0
    for xb, yb in loader:
        with precision():
            lr_hat = model(xb).squeeze(1)
            loss = poisson_nll(lr_hat, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    print(f"epoch {epoch} nll {total / len(Xtr):.2f}")

with torch.no_grad():
    mu = model(Xte).squeeze(1).exp()
    dev = 2 * (torch.xlogy(yte, yte / mu) - (yte - mu))
    within = ((mu / yte.clamp(min=1)).log().abs() < 0.693).float().mean().item()
print(f"final_loss={dev.mean().item():.6g} acc={within:.4f}")
