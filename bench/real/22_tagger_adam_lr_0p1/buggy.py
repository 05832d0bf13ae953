"""BiLSTM sequence tagger: lr 0.001 trains, lr 0.01 or 0.1 -> the loss falls, then rises / NaN.

Source: https://github.com/guillaumegenthial/sequence_tagging/issues/47
Report (here with lr 0.5): "when I use lr = 0.001 in my model, there is no problem; but lr = 0.01 or 0.1, the train
loss decreases first and then increases" (then nan, f1 0.02). Fix: the smaller learning rate.

expect: lr-too-high
symptom: final-loss-ratio 2
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--lr", type=float, default=0.5)
args = ap.parse_args()
torch.manual_seed(args.seed)

n_words, n_tags, L = 60, 5, 14
word_tag = torch.randint(0, n_tags, (n_words,))


def batch(n):
    w = torch.randint(0, n_words, (n, L))
    tags = word_tag[w].clone()
    tags[:, 1:] = torch.where(w[:, :-1] % 7 == 0, (tags[:, 1:] + 1) % n_tags, tags[:, 1:])  # context matters
    return w, tags


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(n_words, 32)
        self.lstm = nn.LSTM(32, 32, batch_first=True, bidirectional=True)
        self.proj = nn.Linear(64, n_tags)

    def forward(self, w):
        return self.proj(self.lstm(self.emb(w))[0])


model = Tagger()
opt = torch.optim.Adam(model.parameters(), lr=args.lr)
loss_fn = nn.CrossEntropyLoss()
losses = []
for step in range(150):
    w, t = batch(32)
    loss = loss_fn(model(w).reshape(-1, n_tags), t.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
w, t = batch(500)
with torch.no_grad():
    acc = (model(w).argmax(-1) == t).float().mean().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={acc:.4f}")
