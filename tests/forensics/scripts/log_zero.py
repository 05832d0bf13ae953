"""Mechanism (b): log(0) in a hand-written cross-entropy. Dataset index 100 has features
1 000x larger than the rest: its logits are hundreds apart, the probability of its
(least likely) label underflows to 0 and log(0) = -inf."""
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

BAD = 100


class SoftmaxCrossEntropy(nn.Module):
    def forward(self, logits, y):
        p = torch.softmax(logits, dim=1).gather(1, y[:, None]).squeeze(1)
        return -torch.log(p).mean()


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
    g = torch.Generator().manual_seed(1)
    x = torch.randn(256, 20, generator=g)
    y = torch.randint(0, 5, (256,), generator=g)
    x[BAD] *= 1000.0
    with torch.no_grad():
        y[BAD] = int(model(x[BAD : BAD + 1]).argmin())
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=False)
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    criterion = SoftmaxCrossEntropy()
    guard = "--guard-before-backward" in sys.argv
    for step, (xb, yb) in enumerate(loader):
        loss = criterion(model(xb), yb)
        if guard and not torch.isfinite(loss):  # a common guard: stop before backward
            sys.exit(f"step {step}: loss {loss.item()}, stopping")
        opt.zero_grad()
        loss.backward()
        opt.step()
        if torch.isnan(loss) or torch.isinf(loss):
            raise RuntimeError(f"step {step}: non-finite loss {loss.item()}")


if __name__ == "__main__":
    main()
