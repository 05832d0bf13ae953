"""Fault: params-not-updated. An encoder-decoder regression where the encoder's output
is passed through .detach() (left over from a debugging session that plotted the
features with .numpy()). The graph is cut: the encoder's parameters get no gradient
(grad stays None) and never move, so only the decoder learns on top of random features.

Mechanism: parameters cut off from the graph by a stray .detach().
"""
import argparse

import torch
import torch.nn.functional as F
from torch import nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv1d(4, 16, 5, padding=2)
        self.proj = nn.Linear(16 * 32, 32)

    def forward(self, x):
        return self.proj(F.relu(self.conv(x)).flatten(1))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 1)

    def forward(self, z):
        return self.fc(torch.tanh(z)).squeeze(-1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    enc, dec = Encoder(), Decoder()
    params = list(enc.parameters()) + list(dec.parameters())
    opt = torch.optim.SGD(params, lr=0.05, momentum=0.9)
    for step in range(300):
        x = torch.randn(64, 4, 32)
        y = (x[:, 0, :16].mean(1) - x[:, 1, 16:].mean(1)) * 3
        z = enc(x).detach()
        loss = F.mse_loss(dec(z), y)
        opt.zero_grad()
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
