"""Equilibrium aggregation: the pooled output is found by inner gradient descent."""
import torch
from torch import nn


class ResNetPotential(nn.Module):
    def __init__(self, in_dim, out_dim, hidden=(32, 32)):
        super().__init__()
        dims = [in_dim + out_dim, *hidden, 1]
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(dims[:-1], dims[1:])])

    def forward(self, x, y, index):
        h = torch.cat([x, y[index]], dim=-1)
        for layer in self.layers[:-1]:
            h = torch.relu(layer(h))
        energy = self.layers[-1](h).squeeze(-1)
        return torch.zeros(y.size(0), device=y.device).index_add_(0, index, energy)


class EquilibriumAggregation(nn.Module):
    def __init__(self, in_channels, out_channels, num_steps=5, step_size=0.1):
        super().__init__()
        self.potential = ResNetPotential(in_channels, out_channels)
        self.output_dim = out_channels
        self.num_steps = num_steps
        self.lamb = nn.Parameter(torch.tensor(0.1))
        self.step_size = step_size

    def init_output(self, x, dim_size):
        return torch.zeros(dim_size, self.output_dim, requires_grad=True).to(x.device)  # expect: non-leaf-parameter

    def energy(self, x, y, index):
        return self.potential(x, y, index).sum() + self.lamb.abs() * (y ** 2).sum()

    def forward(self, x, index, dim_size):
        with torch.enable_grad():
            y = self.init_output(x, dim_size)
            for _ in range(self.num_steps):
                grad = torch.autograd.grad(self.energy(x, y, index), y, create_graph=True)[0]
                y = y - self.step_size * grad
        return y
