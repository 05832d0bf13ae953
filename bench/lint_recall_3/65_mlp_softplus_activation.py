# Source: https://github.com/rushter/MLAlgorithms/pull/30
# Pitfall: The softplus activation of the small neural-network library is written as log(1 + exp(z)),
# which overflows to inf for large z; the fix rewrites it in a numerically stable form.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def softplus(z):
    return torch.log(1 + torch.exp(z))  # expect: unshifted-logsumexp


class SoftplusMLP(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        return self.fc2(softplus(self.fc1(x)))


def fit(model, x, y, epochs=100, lr=1e-2):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
    return model
