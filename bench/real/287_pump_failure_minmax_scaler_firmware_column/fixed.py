"""Pump-failure classifier -- fixed as in the report: the min-max scaler drops columns whose min
equals their max (the constant firmware column) once it has learned the statistics, so no 0/0
reaches the network (the input layer takes the remaining columns; nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

scales = torch.tensor([1.0, 50.0, 0.2, 300.0, 5.0, 1200.0, 0.05, 20.0, 80.0, 3.0])
offsets = torch.tensor([0.0, 400.0, 1.0, 2000.0, 10.0, 5000.0, 0.5, 60.0, 0.0, 7.0])
coef = torch.tensor([1.6, -1.2, 0.0, 0.9, 0.0, 0.0, -1.4, 0.0, 0.0, 0.0])


def pump_records(n):
    z = torch.randn(n, 10)
    fail = (torch.rand(n) < torch.sigmoid(z @ coef - 0.3)).float()
    firmware = torch.full((n, 1), 4.2)
    return torch.cat([z * scales + offsets, firmware], 1), fail


class MinMaxScaler:
    def fit(self, x):
        self.lo, self.hi = x.min(0).values, x.max(0).values
        self.keep = self.hi > self.lo
        return self

    def transform(self, x):
        return ((x - self.lo) / (self.hi - self.lo))[:, self.keep]


x_tr, y_tr = pump_records(4000)
x_te, y_te = pump_records(1000)
scaler = MinMaxScaler().fit(x_tr)
x_tr, x_te = scaler.transform(x_tr), scaler.transform(x_te)

model = nn.Sequential(nn.Linear(int(scaler.keep.sum()), 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.BCEWithLogitsLoss()
loader = DataLoader(TensorDataset(x_tr, y_tr), batch_size=128, shuffle=True)
for epoch in range(8):
    total = 0.0
    for xb, yb in loader:
        loss = loss_fn(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    print(f"epoch {epoch + 1} bce {total / len(y_tr):.4f}")

with torch.no_grad():
    acc = ((model(x_te).squeeze(1) > 0).float() == y_te).float().mean().item()
print(f"final_loss={total / len(y_tr):.6g} acc={acc:.4f}")
