"""Gradient-sync check between a plain model and a DDP-style wrapped copy."""
import copy

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class RegressionNet(nn.Module):
    def __init__(self, n_in=8):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def make_loader(n=256, batch_size=16):
    x = torch.randn(n, 8)
    y = x.sum(dim=1)
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=True)


def grads_of(model):
    return [p.grad.detach().clone() for p in model.parameters()]


def sync_test(device):
    model = RegressionNet().to(device)
    twin = copy.deepcopy(model)
    loader = make_loader()
    inputs, targets = next(iter(loader))
    inputs.to(device)  # expect: tensor-op-result-discarded
    targets.to(device)  # expect: tensor-op-result-discarded

    loss_fn = nn.MSELoss()
    loss_fn(model(inputs), targets).backward()
    loss_fn(twin(inputs), targets).backward()

    for g_a, g_b in zip(grads_of(model), grads_of(twin)):
        assert torch.allclose(g_a, g_b), "gradients diverged between the two copies"
    return True


if __name__ == "__main__":
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    print("in sync:", sync_test(dev))
