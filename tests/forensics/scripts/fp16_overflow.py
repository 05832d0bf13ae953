"""Mechanism (e): float16 overflow under autocast. Dataset index 30 has features ~6 000 (raw,
unnormalised units); in float16 the first matmul passes 65 504 and becomes inf, while the
same op in float32 is finite."""
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

BAD = 30


def main():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 1))
    with torch.no_grad():
        model[0].weight.copy_(model[0].weight.sign() * 0.2)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(256, 64, generator=g)
    x[BAD] = 6000.0 * model[0].weight[0].sign()
    y = torch.randn(256, generator=g)
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True, generator=torch.Generator().manual_seed(0))
    opt = torch.optim.SGD(model.parameters(), lr=1e-4)
    for step, (xb, yb) in enumerate(loader):
        with torch.autocast("cpu", dtype=torch.float16):
            out = model(xb).squeeze(-1)
        loss = nn.functional.mse_loss(out.float(), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if not torch.isfinite(loss):
            print(f"step {step}: loss {loss.item()}")
            sys.exit(1)


if __name__ == "__main__":
    main()
