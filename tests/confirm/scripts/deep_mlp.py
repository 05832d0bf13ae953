"""A 8-layer tanh MLP; --std sets the weights' init std (0 keeps PyTorch's default)."""
import sys

import torch

torch.manual_seed(0)
std = float(sys.argv[1]) if len(sys.argv) > 1 else 0.0
layers = []
for _ in range(8):
    lin = torch.nn.Linear(64, 64)
    if std:
        torch.nn.init.normal_(lin.weight, std=std)
    layers += [lin, torch.nn.Tanh()]
model = torch.nn.Sequential(*layers, torch.nn.Linear(64, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.01)
for _ in range(5):
    x = torch.randn(32, 64)
    loss = (model(x) - x[:, :1]).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
