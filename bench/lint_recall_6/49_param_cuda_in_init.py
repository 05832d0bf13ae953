# Source: https://github.com/pytorch/pytorch/issues/20089
# Pitfall: a module creates nn.Parameter(...) and immediately calls .cuda() on it in __init__; the attribute holds
#   the non-leaf copy, so it is missing from module.parameters() and no optimizer ever updates it.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class GatedMixer(nn.Module):
    def __init__(self, dim=10):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.gate = nn.Parameter(torch.ones(dim)).cuda()  # expect: non-leaf-parameter

    def forward(self, x):
        return torch.sigmoid(self.gate) * self.proj(x)


def fit(steps=100):
    model = GatedMixer().cuda()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        x = torch.randn(32, 10, device="cuda")
        y = torch.randn(32, 10, device="cuda")
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    return model
