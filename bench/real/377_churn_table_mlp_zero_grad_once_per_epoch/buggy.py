"""Telecom churn classifier on a customer table (12 standardised numeric columns: tenure, monthly charges, support calls, data usage and the like; binary churn label), an MLP (12 -> 32 ReLU -> 2 logits), cross-entropy, SGD with momentum 0.9 and lr 0.02, DataLoader batches of 64, 8 epochs. The loop clears the gradients once at the start of every epoch instead of before every batch, so each `backward()` adds onto all the gradients of the epoch so far: the step taken at batch k uses the sum of k batch gradients, the effective step size grows through every epoch, and the optimiser keeps overshooting -- the loss jumps around at a level far above the one the same network reaches when the gradients are cleared per batch.

Source: https://github.com/pytorch/pytorch/issues/47175 ([feature request] Show warning if optimizer.zero_grad() was not called before optimizer.step())
Report: "It is easy to introduce an extremely nasty bug in your code by forgetting to call `zero_grad()` or
calling it at the beginning of each epoch instead of the beginning of each iteration." Reproduced with
4,000 synthetic customers whose churn depends on a nonlinear mix of the columns, with `zero_grad()` placed
at the top of the epoch loop. The printed loss is the mean cross-entropy on 1,000 held-out customers,
`acc` the held-out accuracy.

expect: missing-zero-grad
symptom: final-loss-ratio 2
batch: 23
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def customers(n):
    x = torch.randn(n, 12)
    score = 1.2 * x[:, 0] - 0.9 * x[:, 1] + 0.8 * x[:, 2] * x[:, 3] + 0.6 * torch.tanh(2 * x[:, 4]) - 0.5 * x[:, 5] ** 2
    y = (score + 0.3 * torch.randn(n) > -0.3).long()
    return x, y


X_train, y_train = customers(4000)
X_test, y_test = customers(1000)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

model = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)

for epoch in range(8):
    model.train()
    opt.zero_grad()
    running = 0.0
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        opt.step()
        running += loss.item() * len(xb)
    print(f"epoch {epoch}: train loss {running / len(X_train):.4f}")

model.eval()
with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
