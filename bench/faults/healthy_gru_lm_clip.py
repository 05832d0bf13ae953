"""expect: healthy. A character-level GRU language model on a synthetic grammar, Adam with
gradient clipping (clip_grad_norm_ 1.0), mean cross-entropy over tokens."""
import argparse

import torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
V, T = 20, 24


def batch(bs):
    start = torch.randint(0, V, (bs, 1))
    step = torch.randint(1, 4, (bs, 1))
    seq = (start + step * torch.arange(T + 1)) % V
    noise = torch.rand(bs, T + 1) < 0.05
    seq = torch.where(noise, torch.randint(0, V, (bs, T + 1)), seq)
    return seq[:, :-1], seq[:, 1:]


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.gru = nn.GRU(32, 64, batch_first=True)
        self.out = nn.Linear(64, V)

    def forward(self, x):
        return self.out(self.gru(self.emb(x))[0])


lm = LM()
opt = torch.optim.Adam(lm.parameters(), lr=3e-3)
for step in range(250):
    x, y = batch(32)
    loss = nn.functional.cross_entropy(lm(x).reshape(-1, V), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(lm.parameters(), 1.0)
    opt.step()
