"""Sound-event classifier on raw mel-band energies (40 bands, 6 event classes) whose first layer is a
linear projection followed by a hand-written RMSNorm -- the norm is what makes the network
indifferent to the clip's recording gain, so the energies are fed in unscaled -- trained under
float16 autocast on CPU. The RMSNorm squares and averages its input in the dtype it receives, which
under autocast is float16: for loud clips the projected activations exceed ~256, their squares exceed
float16's maximum of 65504, the mean square becomes inf, rsqrt(inf) = 0, and the normalised features
of every loud clip are silently all zeros. Those clips all look identical to the rest of the network,
so a large share of the clips cannot be classified no matter how long it trains.

Source: https://github.com/xlite-dev/LeetCUDA/pull/335 (bugfix: fix layernorm & rmsnorm f16 overflow)
Report: "Recently, I find float16 will overflow in `layer_norm` and `rms_norm` and get zero after
dividing infinity. That's why regular rms-norm impl will cast inputs to float32 and truncate to f16
after norm, e.g. Qwen3RMSNorm". Reproduced with 4,000 synthetic clips (class-specific spectral
envelopes, noise, recording gains spread log-uniformly over four decades), Linear(40, 64) ->
RMSNorm -> 2-layer MLP, Adam (lr 2e-3) for 10 epochs of batch 64 under
torch.autocast("cpu", dtype=torch.float16). The printed loss is the cross-entropy on 1,000 held-out
clips, `acc` the accuracy there.

expect: fp16-overflow
symptom: acc-below 0.85
batch: 16
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

BANDS, EVENTS = 40, 6
envelopes = torch.rand(EVENTS, BANDS) ** 2 + 0.05


def clips(n):
    y = torch.randint(0, EVENTS, (n,))
    gain = 10 ** (4 * torch.rand(n, 1))
    energy = envelopes[y] * (1 + 1.0 * torch.randn(n, BANDS)).abs() * gain
    return energy, y


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        ms = x.pow(2).mean(-1, keepdim=True)
        return x * torch.rsqrt(ms + self.eps) * self.weight


model = nn.Sequential(nn.Linear(BANDS, 64), RMSNorm(64), nn.Linear(64, 64), nn.GELU(),
                      nn.Linear(64, EVENTS))
X, y = clips(4000)
X_test, y_test = clips(1000)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)

for epoch in range(10):
    for xb, yb in loader:
        with torch.autocast("cpu", dtype=torch.float16):
            logits = model(xb)
        loss = F.cross_entropy(logits.float(), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
        logits = model(X_test).float()
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} acc {acc:.3f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
