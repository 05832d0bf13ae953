"""BCD to seven-segment tanh network -- fixed by drawing the initial weights from [-0.5, 0.5] instead of
[-5, 5], so hidden and output units start in the responsive middle of tanh and wrongly signed segments
still receive gradient (nothing else changed).
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

SEGMENTS = torch.tensor([[1, 1, 1, 1, 1, 1, 0], [0, 1, 1, 0, 0, 0, 0], [1, 1, 0, 1, 1, 0, 1],
                         [1, 1, 1, 1, 0, 0, 1], [0, 1, 1, 0, 0, 1, 1], [1, 0, 1, 1, 0, 1, 1],
                         [1, 0, 1, 1, 1, 1, 1], [1, 1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1, 1],
                         [1, 1, 1, 1, 0, 1, 1]]).float() * 2 - 1
BCD = torch.tensor([[(d >> b) & 1 for b in (3, 2, 1, 0)] for d in range(10)]).float() * 2 - 1
INIT_RANGE = 0.5


def readings(n):
    d = torch.randint(0, 10, (n,))
    return BCD[d] + 0.3 * torch.randn(n, 4), SEGMENTS[d]


X_train, Y_train = readings(4000)
X_test, Y_test = readings(1000)
net = nn.Sequential(nn.Linear(4, 20), nn.Tanh(), nn.Linear(20, 7), nn.Tanh())
with torch.no_grad():
    for p in net.parameters():
        p.uniform_(-INIT_RANGE, INIT_RANGE)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
loader = DataLoader(TensorDataset(X_train, Y_train), batch_size=32, shuffle=True)

for epoch in range(6):
    for xb, yb in loader:
        loss = ((net(xb) - yb) ** 2).sum(1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = net(X_test)
        test_loss = ((out - Y_test) ** 2).sum(1).mean().item()
        acc = (out.sign() == Y_test).float().mean().item()
    print(f"epoch {epoch} test error {test_loss:.4f} segment acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
