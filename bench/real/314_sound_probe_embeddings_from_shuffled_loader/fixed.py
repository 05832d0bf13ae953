"""Two-stage sound-event classifier: a frozen filter-bank encoder turns each clip into an embedding collected batch by batch from a DataLoader, and a small MLP probe is trained full-batch on (embeddings, labels).

Fixed: the extraction DataLoader no longer shuffles, so the stacked embeddings stay in dataset
order and line up with the label tensor.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

CLASSES, LENGTH, RATE = 8, 2048, 4096.0
base_pitch = torch.linspace(180.0, 900.0, CLASSES)
t = torch.arange(LENGTH) / RATE


def clips(n):
    y = torch.randint(0, CLASSES, (n,))
    f0 = base_pitch[y] * (1 + 0.03 * torch.randn(n))
    phase = 2 * math.pi * torch.rand(n, 3, 1)
    wave = sum((0.6 ** k) * torch.sin(2 * math.pi * (k + 1) * f0[:, None] * t + phase[:, k])
               for k in range(3))
    amp = 0.5 + torch.rand(n, 1)
    return (amp * wave + 0.3 * torch.randn(n, LENGTH)).unsqueeze(1), y


class FilterBank(nn.Module):
    def __init__(self, bands=24, width=33):
        super().__init__()
        freqs = torch.linspace(100.0, 2000.0, bands)
        k = torch.arange(width) - width // 2
        window = torch.hann_window(width, periodic=False)
        self.register_buffer("w", (torch.cos(2 * math.pi * freqs[:, None] * k / RATE) * window).unsqueeze(1))

    def forward(self, x):
        return torch.log1p(F.conv1d(x, self.w).abs().mean(-1))


encoder = FilterBank().eval()


def embed(x):
    loader = DataLoader(TensorDataset(x), batch_size=128, shuffle=False)
    with torch.no_grad():
        return torch.cat([encoder(xb) for (xb,) in loader])


X_train, y_train = clips(2400)
X_test, y_test = clips(600)
E_train, E_test = embed(X_train), embed(X_test)
mu, sd = E_train.mean(0), E_train.std(0) + 1e-6
E_train, E_test = (E_train - mu) / sd, (E_test - mu) / sd

probe = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, CLASSES))
opt = torch.optim.Adam(probe.parameters(), lr=1e-2)
for step in range(300):
    loss = F.cross_entropy(probe(E_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} train {loss.item():.4f}")

with torch.no_grad():
    logits = probe(E_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
