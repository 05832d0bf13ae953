"""Backward-only NaN: an L2 normalisation written by hand, x / (sqrt(sum(x^2)) + eps);
dataset index 5 is an all-zero feature vector: the forward is finite, but sqrt's gradient
at 0 is 0/0 = NaN in the backward pass. The script checks the gradients after the step."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

BAD = 5


class Norm(nn.Module):
    def forward(self, x):
        n = torch.sqrt((x * x).sum(-1, keepdim=True))
        return x / (n + 1e-6)


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(256, 8, generator=g)
    x[BAD] = 0.0
    y = torch.randn(256, generator=g)
    model = nn.Sequential(nn.Linear(8, 8), Norm(), nn.Linear(8, 1))
    with torch.no_grad():
        model[0].bias.zero_()
    loader = DataLoader(TensorDataset(x, y), batch_size=32)
    opt = torch.optim.SGD(model.parameters(), lr=1e-2)
    for step, (xb, yb) in enumerate(loader):
        loss = nn.functional.mse_loss(model(xb).squeeze(-1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if any(not torch.isfinite(p.grad).all() for p in model.parameters()):
            raise SystemExit(f"step {step}: non-finite gradient")


if __name__ == "__main__":
    main()
