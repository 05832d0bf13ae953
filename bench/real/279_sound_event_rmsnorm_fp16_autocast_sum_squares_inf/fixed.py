"""Gain-invariant sound-event classifier under float16 autocast -- fixed as the PR describes for
regular RMSNorm implementations: the norm casts its input to float32, computes the mean square and the
normalisation there and casts the result back, so loud clips no longer overflow to inf and get zeroed.
Nothing else changed.
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

BANDS, EVENTS = 40, 6
envelopes = torch.rand(EVENTS, BANDS) ** 2 + 0.05


def clips(n):
    y = torch.randint(0, EVENTS, (n,))
    gain = 10 ** (4 * torch.rand(n, 1))
    energy = envelopes[y] * (1 + 1.0 * torch.randn(n, BANDS)).abs() * gain
    return energy, y


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        xf = x.float()
        ms = xf.pow(2).mean(-1, keepdim=True)
        return (xf * torch.rsqrt(ms + self.eps)).to(x.dtype) * self.weight


model = nn.Sequential(nn.Linear(BANDS, 64), RMSNorm(64), nn.Linear(64, 64), nn.GELU(),
                      nn.Linear(64, EVENTS))
X, y = clips(4000)
X_test, y_test = clips(1000)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)

for epoch in range(10):
    for xb, yb in loader:
        with torch.autocast("cpu", dtype=torch.float16):
            logits = model(xb)
        loss = F.cross_entropy(logits.float(), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
        logits = model(X_test).float()
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
