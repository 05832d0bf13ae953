"""Fixed version of 35_topic_rnn_dying_relu/buggy.py (the source and the report are in its docstring).

Fix: a smaller learning rate (0.05).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--lr", type=float, default=0.05)
args = ap.parse_args()
torch.manual_seed(args.seed)

V, K = 200, 8
topics = torch.softmax(torch.randn(K, V) * 2, 1)


def docs(n):
    theta = torch.distributions.Dirichlet(torch.full((K,), 0.3)).sample((n,))
    counts = torch.distributions.Multinomial(60, probs=theta @ topics).sample()
    return counts, theta


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.h1 = nn.Linear(V, 128)
        self.h2 = nn.Linear(128, 128)
        self.out = nn.Linear(128, K)

    def forward(self, bow):
        h = F.relu(self.h1(bow))
        h = F.relu(self.h2(h))
        return F.log_softmax(self.out(h), 1)


enc = Encoder()
opt = torch.optim.SGD(enc.parameters(), lr=args.lr, momentum=0.9)
losses = []
for step in range(200):
    bow, theta = docs(64)
    # the inference network's topic proportions, fitted to the sampled proportions
    loss = -(theta * enc(bow)).sum(1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={0.0:.4f}")
