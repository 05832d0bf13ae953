"""Memory-augmented reconstruction model for sensor anomaly detection -- fixed as in the author's fix:
the memory keys and values are wrapped in `nn.Parameter`, so they are registered with the module, handed
to the optimizer and learned along with the encoder (nothing else changed).
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

W = 32
t = torch.arange(W).float()
harmonics = torch.tensor([2.0, 4.0, 6.0])


def windows(n, anomalous=False):
    amp = 0.5 + torch.rand(n, 3)
    phase = 2 * math.pi * torch.rand(n, 3)
    x = (amp[:, :, None] * torch.sin(2 * math.pi * harmonics[None, :, None] * t / W + phase[:, :, None])).sum(1)
    if anomalous:
        x = x + 0.8 * torch.sin(2 * math.pi * 11.0 * t / W + 2 * math.pi * torch.rand(n, 1))
    return x + 0.1 * torch.randn(n, W)


class NormalityMemory(nn.Module):
    def __init__(self, slots, key_dim, value_dim):
        super().__init__()
        self.keys = nn.Parameter(torch.randn(slots, key_dim))
        self.values = nn.Parameter(torch.randn(slots, value_dim))

    def forward(self, q):
        attn = torch.softmax(q @ self.keys.t() / math.sqrt(q.shape[1]), dim=1)
        return attn @ self.values


class MemoryAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(W, 64), nn.ReLU(), nn.Linear(64, 16))
        self.memory = NormalityMemory(40, 16, W)

    def forward(self, x):
        return self.memory(self.encoder(x))


X_train, X_val, X_anom = windows(4000), windows(1000), windows(400, anomalous=True)
model = MemoryAE()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(12):
    perm = torch.randperm(len(X_train))
    for i in range(0, len(X_train), 64):
        xb = X_train[perm[i:i + 64]]
        loss = ((model(xb) - xb) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        err_val = ((model(X_val) - X_val) ** 2).mean(1)
        err_anom = ((model(X_anom) - X_anom) ** 2).mean(1)
    val = err_val.mean().item()
    acc = (err_anom > err_val.quantile(0.95)).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} detected {acc:.3f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
