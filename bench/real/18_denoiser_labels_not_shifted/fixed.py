"""Fixed version of 18_denoiser_labels_not_shifted/buggy.py (the source and the report are in its docstring).

Fix: decoder input = [BOS] + labels[:-1] (labels shifted by one).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

V, L, BOS = 16, 20, 0
trans = torch.softmax(torch.randn(V, V) * 1.5, dim=1)


def sample(n):
    seq = torch.zeros(n, L, dtype=torch.long)
    seq[:, 0] = torch.randint(1, V, (n,))
    for t in range(1, L):
        seq[:, t] = torch.multinomial(trans[seq[:, t - 1]], 1).squeeze(1)
    return seq


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.gru = nn.GRU(32, 64, batch_first=True)
        self.out = nn.Linear(64, V)

    def forward(self, dst):
        h, _ = self.gru(self.emb(dst))
        return self.out(h)


model = Decoder()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
losses = []
for step in range(150):
    labels = sample(32)
    dst = torch.cat([torch.full((len(labels), 1), BOS), labels[:, :-1]], 1)  # decoder input
    logits = model(dst)
    loss = F.cross_entropy(logits.reshape(-1, V), labels.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
