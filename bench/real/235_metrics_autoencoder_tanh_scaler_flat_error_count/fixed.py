"""Service-metrics anomaly autoencoder with a tanh-estimator scaler -- fixed as in the PR: a metric
whose training std is (numerically) zero gets std 1.0, so the flat error-count metric scales to a
constant 0.5 instead of NaN (nothing else changed).
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

STEPS, METRICS = 12, 6


def make_windows(n):
    t0 = torch.rand(n, 1) * 2 * math.pi
    t = t0 + torch.arange(STEPS) * 0.05
    latency = 120 + 30 * torch.sin(t) + 5 * torch.randn(n, STEPS)
    cpu = 55 + 20 * torch.sin(t + 0.4) + 3 * torch.randn(n, STEPS)
    mem = 2048 + 300 * torch.sin(t / 2) + 40 * torch.randn(n, STEPS)
    rate = 900 + 400 * torch.sin(t - 0.3) + 30 * torch.randn(n, STEPS)
    queue = 8 + 4 * torch.sin(t + 1.0) + torch.randn(n, STEPS)
    errors = torch.zeros(n, STEPS)
    return torch.stack([latency, cpu, mem, rate, queue, errors], dim=2)


class TanhScaler:
    def fit(self, x):
        flat = x.reshape(-1, x.shape[-1])
        self.mean, self.std = flat.mean(0), flat.std(0)
        self.std[self.std < 1e-6] = 1.0
        return self

    def transform(self, x):
        return 0.5 * (torch.tanh(0.01 * (x - self.mean) / self.std) + 1)


class Trainer:
    def __init__(self, model, lr, batch_size):
        self.model, self.batch_size = model, batch_size
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def errors(self, x):
        with torch.no_grad():
            return ((self.model(x) - x) ** 2).mean(1)

    def fit(self, x, epochs):
        for epoch in range(epochs):
            perm, total = torch.randperm(len(x)), 0.0
            for i in range(0, len(x), self.batch_size):
                xb = x[perm[i:i + self.batch_size]]
                loss = ((self.model(xb) - xb) ** 2).mean()
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
                total += loss.item() * len(xb)
            self.last_loss = total / len(x)
            print(f"epoch {epoch} recon {self.last_loss:.6f}")
        return self


train = make_windows(3000)
test = make_windows(300)
test[:, 6:9, 0] += 400.0
scaler = TanhScaler().fit(train)
train_s = scaler.transform(train).reshape(len(train), -1)
test_s = scaler.transform(test).reshape(len(test), -1)

D = STEPS * METRICS
model = nn.Sequential(nn.Linear(D, 48), nn.ReLU(), nn.Linear(48, 16), nn.ReLU(), nn.Linear(16, 48), nn.ReLU(),
                      nn.Linear(48, D))
trainer = Trainer(model, lr=1e-3, batch_size=64).fit(train_s, epochs=8)
threshold = torch.quantile(trainer.errors(train_s), 0.99)
acc = (trainer.errors(test_s) > threshold).float().mean().item()
print(f"final_loss={trainer.last_loss:.6g} acc={acc:.4f}")
