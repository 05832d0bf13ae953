"""Binary classification with 86 % / 14 % classes: every validation prediction is the majority.

Source: https://github.com/abhuse/polyloss-pytorch/issues/5
Report: "class 0: 86.2 %, class 1: 13.8 % of 462 data points ... all my validation predictions
turn out to be 0, which is the majority class. How should I set the criterion's weight?" The fix
weights the loss by inverse class frequency. `acc` below is the balanced accuracy.

expect: class-imbalance
symptom: acc-below 0.6
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

n = 462
y = (torch.rand(n) < 0.138).long()
X = torch.randn(n, 12)
X[:, :3] += 0.7 * y[:, None].float()  # weak signal in three features
n_val = 92
X_tr, y_tr, X_val, y_val = X[n_val:], y[n_val:], X[:n_val], y[:n_val]

model = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 2))
criterion = nn.CrossEntropyLoss(reduction="mean")
optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
losses = []
for epoch in range(40):
    for i in range(0, len(X_tr), 32):
        loss = criterion(model(X_tr[i:i + 32]), y_tr[i:i + 32])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
with torch.no_grad():
    pred = model(X).argmax(1)
recall = [((pred == c) & (y == c)).sum().item() / max((y == c).sum().item(), 1) for c in (0, 1)]
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={sum(recall) / 2:.4f}")
