"""Lab-experiment success classifier -- fixed by feeding the six measurements themselves instead of
whether each one exceeded its threshold, so runs with different outcomes no longer collapse onto the
same 0/1 input pattern; nothing else changed.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

weights = torch.tensor([1.5, -1.0, 0.8, 2.0, -0.6, 1.2])


def run_experiments(n):
    m = torch.randn(n, 6)
    success = (m @ weights > 0.3).float()
    flip = torch.rand(n) < 0.03
    success[flip] = 1 - success[flip]
    return m, success


def encode(m):
    return m


m_train, y_train = run_experiments(6000)
m_test, y_test = run_experiments(2000)
X_train, X_test = encode(m_train), encode(m_test)

model = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(300):
    loss = F.binary_cross_entropy_with_logits(model(X_train).squeeze(1), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} bce {loss.item():.4f}")

with torch.no_grad():
    logits = model(X_test).squeeze(1)
    test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
    acc = ((logits > 0).float() == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
