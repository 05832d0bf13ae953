"""Frame-level voice-conversion network -- fixed as the author describes: per-bin mean and std are
computed over all training frames concatenated, and source and target features are normalized with
them (predictions are mapped back to log-mel for the reported error; nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

BINS, PHONES, FRAMES = 40, 30, 64
f = torch.linspace(0, 1, BINS)
formants = torch.sort(torch.rand(PHONES, 3), 1).values * 0.9 + 0.05
amps = 0.5 + torch.rand(PHONES, 3)


def envelope(phone_ids, warp, tilt, gain):
    fc = (formants[phone_ids] * warp).clamp(0, 1)                     # (..., 3)
    peaks = (amps[phone_ids].unsqueeze(-1) * torch.exp(-((f - fc.unsqueeze(-1)) ** 2) / 0.004)).sum(-2)
    power = gain * (peaks + 0.02) * torch.exp(-tilt * f)
    return torch.log(power + 1e-5)


def make_pairs(n):
    seqs = torch.empty(n, FRAMES, dtype=torch.long)
    for i in range(n):
        ids = torch.randint(0, PHONES, (12,))
        dur = torch.multinomial(torch.ones(12), FRAMES, replacement=True).sort().values
        seqs[i] = ids[dur]
    src = envelope(seqs, 1.0, 3.0, 0.01) + 0.05 * torch.randn(n, FRAMES, BINS)
    tgt = envelope(seqs, 1.12, 1.5, 0.03) + 0.05 * torch.randn(n, FRAMES, BINS)
    return src, tgt


class Converter(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.lstm = nn.LSTM(BINS, hidden, num_layers=2, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(2 * hidden, BINS)

    def forward(self, x):
        return self.proj(self.lstm(x)[0])


src, tgt = make_pairs(560)
test_src, test_tgt = src[480:], tgt[480:]
src, tgt = src[:480], tgt[:480]

# mean/std over all training frames concatenated
in_mean, in_std = src.reshape(-1, BINS).mean(0), src.reshape(-1, BINS).std(0)
out_mean, out_std = tgt.reshape(-1, BINS).mean(0), tgt.reshape(-1, BINS).std(0)

loader = DataLoader(TensorDataset((src - in_mean) / in_std, (tgt - out_mean) / out_std), batch_size=16, shuffle=True)
model = Converter()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(8):
    total, count = 0.0, 0
    for x, y in loader:
        pred = model(x)
        loss = nn.functional.mse_loss(pred, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        raw = nn.functional.mse_loss(pred.detach() * out_std + out_mean, y * out_std + out_mean)
        total += raw.item()
        count += 1
    print(f"epoch {epoch} mse (log-mel) {total / count:.4f}")

with torch.no_grad():
    pred = model((test_src - in_mean) / in_std) * out_std + out_mean
    rms = ((pred - test_tgt) ** 2).mean(-1).sqrt()
    acc = (rms < 0.5).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
