"""A loss spike, not a NaN: dataset index 932 has a target 300x the usual scale (a unit
error upstream). Prints every loss with repr() so runs can be compared bit for bit."""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

BAD = 932


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(1)
    x = torch.randn(1024, 16, generator=g)
    y = x[:, :3].sum(1) + 0.3 * torch.randn(1024, generator=g)
    y[BAD] = 300.0
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, 1))
    loader = DataLoader(TensorDataset(x, y), batch_size=16, shuffle=True, generator=torch.Generator().manual_seed(0))
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    losses = []
    for xb, yb in loader:
        loss = nn.functional.mse_loss(model(xb).squeeze(-1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    print(" ".join(repr(v) for v in losses))


if __name__ == "__main__":
    main()
