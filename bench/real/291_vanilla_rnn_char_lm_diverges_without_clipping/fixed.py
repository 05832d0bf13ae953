"""Vanilla-RNN character language model -- fixed the way the tutorial's RNN chapter trains it: the
gradient norm is clipped to 1 before every SGD step, so the occasional exploded gradient from
back-propagating through 120 steps can no longer throw the recurrent weights away (nothing else
changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

ALPHA = "abcdefghijklmnopqrstuvwxyz ."
V, WIN = len(ALPHA), 120
words = ["".join(ALPHA[i] for i in torch.randint(0, 26, (int(torch.randint(2, 7, ())),)).tolist())
         for _ in range(30)]
nxt = torch.randint(0, 30, (30, 3))


def text(n_chars):
    out, w = [], 0
    while sum(len(s) for s in out) < n_chars:
        w = int(nxt[w, torch.randint(0, 3, ())])
        out.append(words[w] + (". " if torch.rand(()) < 0.1 else " "))
    return torch.tensor([ALPHA.index(c) for c in "".join(out)[:n_chars]])


corpus, held = text(40000), text(64 * (WIN + 1)).view(64, WIN + 1)


class CharRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(V, 32)
        self.rnn = nn.RNN(32, 128, batch_first=True)
        self.out = nn.Linear(128, V)

    def forward(self, x):
        h, _ = self.rnn(self.emb(x))
        return self.out(h)


model = CharRNN()
opt = torch.optim.SGD(model.parameters(), lr=3.0)


def step_update():
    nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    opt.step()


losses = []
for step in range(600):
    starts = torch.randint(0, len(corpus) - WIN - 1, (32,))
    batch = torch.stack([corpus[s:s + WIN + 1] for s in starts.tolist()])
    logits = model(batch[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, V), batch[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    step_update()
    losses.append(loss.item())
    if step % 100 == 99:
        print(f"step {step + 1} loss {sum(losses[-100:]) / 100:.4f}")

with torch.no_grad():
    acc = (model(held[:, :-1]).argmax(-1) == held[:, 1:]).float().mean().item()
print(f"final_loss={sum(losses[-50:]) / 50:.6g} acc={acc:.4f}")
