"""Seq2seq pre-training where decoder inputs and labels are the same sequence: the model copies.

Source: https://github.com/ayaka14732/bart-base-jax/pull/6
Report: "Fix a severe bug that dst and labels are aligned wrongly, so that the model would just
copy the input to the output and did not learn anything useful"; the loss curve was almost zero.
Reproduced with a GRU decoder trained with teacher forcing on sequences from a noisy Markov chain:
labels must be the decoder input shifted by one position.

expect: target-leakage
symptom: loss-below 0.5
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
    dst = labels  # decoder input (should be [BOS] + labels[:, :-1])
    logits = model(dst)
    loss = F.cross_entropy(logits.reshape(-1, V), labels.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
