"""Character-level language model in the tutorial style: a vanilla tanh RNN (one layer, 128 units)
reads 120-character windows of a synthetic text and predicts the next character, trained with plain
SGD at a learning rate of 3 on the mean cross-entropy, with truncated BPTT over each window -- but
without the gradient-norm clipping the tutorial's RNN chapter relies on. Every few dozen steps one
window produces a gradient that back-propagation through 120 time steps has amplified by orders of
magnitude; the SGD step on it throws the recurrent weights into the saturated regime or to overflow,
and the loss climbs back up or turns NaN.

Source: https://github.com/zackchase/mxnet-the-straight-dope/pull/88 (For now, provide two RNN options (lstm and gru) only as vanilla RNNs seem to d…)
Report: "For now, provide two RNN options (lstm and gru) only as vanilla RNNs seem to diverge due to
gradient exploding... will fix vanilla RNNs soon". Reproduced with a 40,000-character text drawn
from a word-level Markov chain over 30 words, vocabulary of 28 characters, embedding 32, batches of
32 random windows, SGD lr 3.0, 600 steps. The printed loss is the mean training cross-entropy of
the last 50 steps, `acc` the next-character accuracy on 64 held-out windows.

expect: exploding-gradient
symptom: final-loss-ratio 1.5
batch: 17
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
