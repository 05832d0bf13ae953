"""Quantization-aware training: fake-quantizers whose scale is initialised from data statistics."""
import torch
from torch import nn


class SymmetricQuantizer(nn.Module):
    def __init__(self, num_bits=8):
        super().__init__()
        self.levels = 2 ** (num_bits - 1) - 1
        self.scale = nn.Parameter(torch.ones(1))

    def init_range(self, min_values, max_values):
        abs_max = torch.max(torch.abs(max_values), torch.abs(min_values))
        self.scale = nn.Parameter(abs_max.clamp(min=1e-6).reshape(1))  # expect: optimizer-misses-params

    def forward(self, x):
        s = self.scale / self.levels
        q = torch.clamp(torch.round(x / s), -self.levels, self.levels) * s
        return x + (q - x).detach()


class QuantLinear(nn.Module):
    def __init__(self, in_f, out_f):
        super().__init__()
        self.fc = nn.Linear(in_f, out_f)
        self.act_q = SymmetricQuantizer()

    def forward(self, x):
        return self.fc(self.act_q(x))


def compress_and_train(model, init_loader, train_loader, epochs=3):
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)
    with torch.no_grad():
        x, _ = next(iter(init_loader))
        model.act_q.init_range(x.min(), x.max())
    loss_fn = nn.MSELoss()
    for _ in range(epochs):
        model.train()
        for x, y in train_loader:
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()
    return model
