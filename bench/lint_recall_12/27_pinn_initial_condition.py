"""Physics-informed network: initial-condition loss + PDE residual on collocation points."""
import math

import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, in_dim=3, hidden=64, depth=4):
        super().__init__()
        layers = [nn.Linear(in_dim, hidden), nn.Tanh()]
        for _ in range(depth - 1):
            layers += [nn.Linear(hidden, hidden), nn.Tanh()]
        layers.append(nn.Linear(hidden, 1))
        self.net = nn.Sequential(*layers)

    def forward(self, x):
        return self.net(x)


class InitialCondition:
    def __init__(self, dataset, weight=1.0):
        self.dataset = dataset
        self.weight = weight
        self.loss = nn.MSELoss()

    def __call__(self, x, model):
        # u(x, y, t=0) = sin(pi * x)
        y = torch.sin(math.pi * x[:, 0])
        prediction = model(x)
        return self.weight * self.loss(prediction, y)  # expect: loss-shape-broadcast


def residual(model, xyt):
    xyt = xyt.clone().requires_grad_(True)
    u = model(xyt)
    grads = torch.autograd.grad(u.sum(), xyt, create_graph=True)[0]
    u_t = grads[:, 2:3]
    u_x = grads[:, 0:1]
    return ((u_t + u * u_x) ** 2).mean()


def train(model, ic_loader, collocation, epochs=1000, lr=1e-3):
    ic = InitialCondition(ic_loader.dataset)
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        for (x,) in ic_loader:
            opt.zero_grad()
            loss = ic(x, model) + residual(model, collocation)
            loss.backward()
            opt.step()
