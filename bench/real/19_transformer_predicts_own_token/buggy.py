"""Autoregressive transformer trained to predict token N from tokens 0..N inclusive.

Source: https://github.com/Project-MONAI/GenerativeModels/issues/314
Report: "currently, we are training them to predict token N, given tokens 0-N inclusive! To fix
this we need to shift the targets by one": loss = ce_loss(logits[:, :, :-1], target[:, 1:]).
Reproduced with a one-layer causal transformer over sequences of quantised latent codes.

expect: target-leakage
symptom: loss-below 0.5
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

CODES, SEQ = 32, 16
# "latent" code sequences: smooth random walks over the codebook
steps = torch.randint(-2, 3, (2000, SEQ))
latent = (torch.randint(0, CODES, (2000, 1)) + steps.cumsum(1)) % CODES


class Transformer(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(CODES, 48)
        self.pos = nn.Embedding(SEQ, 48)
        self.layer = nn.TransformerEncoderLayer(48, 4, 96, dropout=0.0, batch_first=True)
        self.head = nn.Linear(48, CODES)

    def forward(self, x):
        mask = nn.Transformer.generate_square_subsequent_mask(x.shape[1])
        h = self.tok(x) + self.pos(torch.arange(x.shape[1]))
        return self.head(self.layer(h, src_mask=mask, is_causal=True)).transpose(1, 2)  # (B, C, T)


model = Transformer()
ce_loss = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
epoch_loss = []
for step in range(120):
    idx = torch.randint(0, 2000, (32,))
    batch = latent[idx]
    logits = model(batch)
    loss = ce_loss(logits, batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    epoch_loss.append(loss.item())
print(f"final_loss={sum(epoch_loss[-10:]) / 10:.6g} acc={0.0:.4f}")
