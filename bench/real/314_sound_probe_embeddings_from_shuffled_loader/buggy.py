"""Two-stage sound-event classifier: a frozen filter-bank encoder (fixed 1-D convolution filters, rectified and pooled into log band energies) turns each 0.5 s clip into an embedding, the embeddings are collected batch by batch from a DataLoader into one tensor, and a small MLP probe is then trained full-batch on (embeddings, labels). The extraction loader was built with shuffle=True, copied from the training loader, so the stacked embeddings come out in a random order while the label tensor stays in dataset order: the probe is trained and scored on embeddings paired with the labels of other clips, learns nothing that transfers, and the accuracy stays at chance.

Source: https://github.com/facebookarchive/C3D/issues/57 (Accuracy difference)
Report: "the testing accuracy while training was 100%. However, when I used the same trained network
to extract fc6,fc7 and prob on the same testing dataset, the accuracy computed from .prob is around
50%, which is weird." (answer: "I would turn off shuffle in c3d_samplenet_feature_extractor_frm.txt
and in conv3d_samplenet_test.txt.") Reproduced with 2,400 synthetic clips of 8 sound classes
(class-specific harmonic stacks with random pitch jitter, amplitude and noise), 24 fixed random
filters of width 33, embeddings gathered from DataLoader(batch_size=128, shuffle=True), then an MLP
24-64-8 trained full-batch with Adam lr 1e-2 for 300 steps. The printed loss is the probe's
cross-entropy on 600 held-out clips (extracted the same way), `acc` its accuracy there.

expect: label-misaligned
symptom: acc-below 0.3
batch: 19
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
    loader = DataLoader(TensorDataset(x), batch_size=128, shuffle=True)
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
