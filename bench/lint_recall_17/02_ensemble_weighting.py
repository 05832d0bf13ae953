"""Learned weighting of per-model predictions in a small regression ensemble."""
import torch
import torch.nn as nn


class WeightedEnsemble(nn.Module):
    def __init__(self, members):
        super().__init__()
        self.members = nn.ModuleList(members)
        self.raw_weights = nn.Parameter(torch.zeros(len(members)))

    def forward(self, x):
        preds = torch.stack([m(x) for m in self.members], dim=0)  # (M, N, T)
        weights = nn.Softmax()(self.raw_weights).reshape(-1, 1, 1)  # expect: softmax-without-dim
        return (weights * preds).sum(dim=0)


def make_member(in_dim, out_dim):
    return nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Linear(64, out_dim))


def fit(features, targets, n_members=5, epochs=100, lr=1e-3):
    model = WeightedEnsemble([make_member(features.shape[1], targets.shape[1]) for _ in range(n_members)])
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.MSELoss()
    for epoch in range(epochs):
        model.train()
        optimizer.zero_grad()
        loss = loss_fn(model(features), targets)
        loss.backward()
        optimizer.step()
        if epoch % 10 == 0:
            print(epoch, loss.item())
    return model


if __name__ == "__main__":
    x = torch.randn(512, 16)
    y = torch.randn(512, 3)
    fit(x, y)
