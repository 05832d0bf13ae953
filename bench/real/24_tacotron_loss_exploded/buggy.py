"""Tacotron-style spectrogram decoder: "loss exploded", fixed by decreasing the learning rate.

Source: https://github.com/barronalex/Tacotron/issues/7
Report: training stopped with "loss exploded"; "I decreased the learning rate, and then restored
training" (0.001 -> 0.0005 -> ... -> 0.00005). Reproduced with a small GRU decoder regressing
mel-like frames (L1 loss) with teacher forcing, trained with SGD+momentum at too large a rate.

expect: lr-too-high
symptom: final-loss-ratio 3
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--lr", type=float, default=5.0)
args = ap.parse_args()
torch.manual_seed(args.seed)

N_MELS, T = 20, 30
freqs = torch.linspace(0.5, 3.0, N_MELS)


def batch(n):
    phase = torch.rand(n, 1, 1) * 6.28
    t = torch.arange(T).float()[None, :, None]
    return torch.sin(freqs[None, None] * t * 0.2 + phase) * torch.exp(-t / 40)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.prenet = nn.Sequential(nn.Linear(N_MELS, 64), nn.ReLU())
        self.rnn = nn.GRU(64, 128, batch_first=True)
        self.proj = nn.Linear(128, N_MELS)

    def forward(self, prev_frames):
        return self.proj(self.rnn(self.prenet(prev_frames))[0])


model = Decoder()
opt = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
losses = []
for step in range(120):
    mel = batch(16)
    prev = torch.cat([torch.zeros(16, 1, N_MELS), mel[:, :-1]], 1)
    loss = (model(prev) - mel).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
