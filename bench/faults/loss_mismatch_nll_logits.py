"""Fault: loss-mismatch. nn.NLLLoss applied to raw logits: NLLLoss expects
log-probabilities (log_softmax output) and just returns -x[target]. On logits that is
unbounded below, so the optimizer pushes the target logit up forever: the loss goes
negative and keeps falling without limit while accuracy is no better than a model that
learned nothing useful about the other classes.

Mechanism: the log_softmax before NLLLoss was forgotten.
"""
import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class TextCNN(nn.Module):
    def __init__(self, vocab=1000, d=32, n_cls=4):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.conv = nn.Conv1d(d, 64, 3, padding=1)
        self.fc = nn.Linear(64, n_cls)

    def forward(self, tok):
        h = torch.relu(self.conv(self.emb(tok).transpose(1, 2)))
        return self.fc(h.max(-1).values)      # logits


def synth(seed, n=4000, L=24):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    tok = torch.randint(0, 1000, (n, L), generator=g)
    key = torch.randint(0, L, (n,), generator=g)
    tok[torch.arange(n), key] = 10 + y * 5    # a class-specific keyword somewhere
    return tok, y


ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--epochs", type=int, default=3)
a = ap.parse_args()
torch.manual_seed(a.seed)
tok, y = synth(a.seed)
model = TextCNN()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
nll = nn.NLLLoss()
step = 0
for ep in range(a.epochs):
    for t, yy in DataLoader(TensorDataset(tok, y), batch_size=64, shuffle=True):
        loss = nll(model(t), yy)              # should be nll(log_softmax(model(t)), yy)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step % 20 == 0:
            print(f"epoch {ep} step {step} loss {loss.item():.3f}")
        step += 1
with torch.no_grad():
    print("accuracy", (model(tok).argmax(1) == y).float().mean().item())
