"""Malware-report classifier -- fixed with the function proposed in the issue: after min-max scaling
the extractor maps values above 1 to ln(x) + 1 and values below 0 to -ln(1 - x), so reports far
outside the schema sample stay within a few units (nothing else changed).
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

FIELDS = 10


def make_reports(n):
    malicious = (torch.rand(n) < 0.4).float()
    mu = torch.linspace(2, 8, FIELDS)
    shift = torch.tensor([0.8, -0.5, 0.6, 0.0, 0.7, -0.6, 0.4, 0.5, -0.3, 0.6])
    logv = mu + shift * malicious[:, None] + 0.7 * torch.randn(n, FIELDS)
    values = torch.exp(logv)
    rows = torch.rand(n) < 0.005
    cols = torch.randint(0, FIELDS, (n,))
    values[rows, cols[rows]] *= 10 ** (3 + torch.rand(int(rows.sum())))
    return values, malicious


class ScalarExtractor:
    def __init__(self, schema_sample):
        self.lo = schema_sample.min(0).values
        self.hi = schema_sample.max(0).values

    def __call__(self, x):
        z = (x - self.lo) / (self.hi - self.lo)
        return torch.where(z > 1, torch.log(z.clamp(min=1)) + 1, torch.where(z < 0, -torch.log(1 - z.clamp(max=0)), z))


X, y = make_reports(7000)
X_train, y_train, X_test, y_test = X[:6000], y[:6000], X[6000:], y[6000:]
extract = ScalarExtractor(X_train[:400])
F_train, F_test = extract(X_train), extract(X_test)

model = nn.Sequential(nn.Linear(FIELDS, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loader = DataLoader(TensorDataset(F_train, y_train), batch_size=64, shuffle=True)

for epoch in range(8):
    total, count = 0.0, 0
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
        count += len(yb)
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    acc = ((model(F_test).squeeze(1) > 0).float() == y_test).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
