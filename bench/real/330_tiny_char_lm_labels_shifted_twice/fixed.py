"""Tiny character-level GRU language model -- fixed by scoring the logits against the labels the
Dataset already shifted by one (no second shift in the training step), so position t is trained on
the token that actually follows it (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

V, WIN = 24, 33
succ = torch.stack([torch.randperm(V)[:2] for _ in range(V)])


def corpus(n_tokens):
    toks = [int(torch.randint(V, (1,)))]
    coins = torch.rand(n_tokens)
    for c in coins.tolist():
        toks.append(int(succ[toks[-1], 0 if c < 0.75 else 1]))
    return torch.tensor(toks)


class WindowDataset(Dataset):
    def __init__(self, tokens):
        self.windows = tokens[: len(tokens) // WIN * WIN].view(-1, WIN)

    def __len__(self):
        return len(self.windows)

    def __getitem__(self, i):
        w = self.windows[i]
        return w[:-1], w[1:]


class CharLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.rnn = nn.GRU(32, 64, batch_first=True)
        self.head = nn.Linear(64, V)

    def forward(self, x):
        return self.head(self.rnn(self.emb(x))[0])


def lm_loss(logits, labels):
    shift_logits = logits.contiguous()
    shift_labels = labels.contiguous()
    loss = F.cross_entropy(shift_logits.view(-1, V), shift_labels.view(-1))
    acc = (shift_logits.argmax(-1) == shift_labels).float().mean()
    return loss, acc


train_dl = DataLoader(WindowDataset(corpus(60000)), batch_size=32, shuffle=True)
val_ds = WindowDataset(corpus(10000))
model = CharLM()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(6):
    model.train()
    for x, y in train_dl:
        loss, _ = lm_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        xv, yv = val_ds.windows[:, :-1], val_ds.windows[:, 1:]
        val_loss, val_acc = lm_loss(model(xv), yv)
    print(f"epoch {epoch} train {loss.item():.4f} val {val_loss.item():.4f} acc {val_acc.item():.3f}")

print(f"final_loss={val_loss.item():.6g} acc={val_acc.item():.4f}")
