"""Active-learning strategy that refits a small neural surrogate on the points seen so far."""
import torch
import torch.nn as nn


class Surrogate(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 64), nn.Tanh(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


class Strategy:
    def __init__(self, dim, device="cpu"):
        self.device = torch.device(device)
        self.model = Surrogate(dim).to(self.device)
        self.train_inputs = None
        self.train_targets = None

    def add_data(self, x, y):
        x, y = torch.as_tensor(x, dtype=torch.float32), torch.as_tensor(y, dtype=torch.float32)
        if self.train_inputs is None:
            self.train_inputs, self.train_targets = (x,), y
        else:
            self.train_inputs = (torch.cat([self.train_inputs[0], x]),)
            self.train_targets = torch.cat([self.train_targets, y])

    def fit(self, iters=200):
        for inp in self.train_inputs:
            inp.to(self.device)  # expect: tensor-op-result-discarded
        self.train_targets = self.train_targets.to(self.device)
        opt = torch.optim.Adam(self.model.parameters(), lr=1e-2)
        self.model.train()
        for _ in range(iters):
            opt.zero_grad()
            pred = self.model(*self.train_inputs)
            loss = ((pred - self.train_targets) ** 2).mean()
            loss.backward()
            opt.step()
        self.model.eval()
