"""Reversible-network object classifier -- fixed as the maintainer suggests, by clipping the gradient norm
to 0.25 before every SGD step, so the compounding gradients of the coupling stack can no longer throw the
weights into overflow (nothing else changed).
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

D, CLASSES, BLOCKS = 64, 10, 16
prototypes = torch.randn(CLASSES, D)


def descriptors(n):
    y = torch.randint(0, CLASSES, (n,))
    return prototypes[y] + 2.0 * torch.randn(n, D), y


class AdditiveCoupling(nn.Module):
    def __init__(self, half):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(half, 64), nn.ReLU(), nn.Linear(64, half))
        self.g = nn.Sequential(nn.Linear(half, 64), nn.ReLU(), nn.Linear(64, half))

    def forward(self, x):
        x1, x2 = x.chunk(2, dim=1)
        y1 = x1 + self.f(x2)
        y2 = x2 + self.g(y1)
        return torch.cat([y1, y2], dim=1)


X_train, y_train = descriptors(10000)
X_test, y_test = descriptors(1000)
model = nn.Sequential(nn.Linear(D, D), *[AdditiveCoupling(D // 2) for _ in range(BLOCKS)], nn.Linear(D, CLASSES))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=256, shuffle=True)

for epoch in range(4):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.25)
        opt.step()
    sched.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} last batch {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
