"""Regression with a backbone whose output head is attached after setup."""
import torch
import torch.nn as nn


class Regressor(nn.Module):
    def __init__(self, in_dim):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
        self.head = None

    def attach_head(self, out_dim):
        self.head = nn.Linear(64, out_dim)

    def forward(self, x):
        return self.head(self.backbone(x))


def fit(x, y, epochs=100, lr=1e-3):
    model = Regressor(x.size(1))
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.attach_head(y.size(1))  # expect: optimizer-misses-params
    loss_fn = nn.MSELoss()
    for epoch in range(epochs):
        optimizer.zero_grad()
        pred = model(x)
        loss = loss_fn(pred, y)
        loss.backward()
        optimizer.step()
        if epoch % 10 == 0:
            print(f"epoch {epoch}: loss {loss.item():.4f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(42)
    xs = torch.ones(256, 2)
    ys = torch.full((256, 1), 10.0)
    fit(xs, ys)
