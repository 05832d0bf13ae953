"""Fault: lr-too-low. A tiny transformer classifier with AdamW at lr=1e-6 (a fine-tuning
learning rate used to train from scratch). Every update moves the weights by ~1e-6: after
300 steps the loss has barely left log(4) and the model has learned nothing, though
gradients flow everywhere.

Mechanism: learning rate ~1000x too small for training from scratch.
"""
import argparse

import torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--lr", type=float, default=1e-6)
ap.add_argument("--steps", type=int, default=300)
args = ap.parse_args()
torch.manual_seed(args.seed)

VOCAB, T, D = 50, 16, 32


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(VOCAB, D)
        self.pos = nn.Parameter(torch.randn(T, D) * 0.02)
        layer = nn.TransformerEncoderLayer(D, 4, 64, dropout=0.0, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(D, 4)

    def forward(self, tok):
        return self.head(self.enc(self.emb(tok) + self.pos).mean(1))


def sample(bs):
    tok = torch.randint(0, VOCAB, (bs, T))
    y = (tok[:, :4].sum(1) % 4)  # label depends on the first four tokens
    return tok, y


model = Classifier()
opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
for step in range(args.steps):
    tok, y = sample(32)
    loss = nn.functional.cross_entropy(model(tok), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
