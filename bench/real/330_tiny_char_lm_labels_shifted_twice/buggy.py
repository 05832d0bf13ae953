"""Tiny character-level language model for pre-training: a GRU reads token windows from a synthetic corpus and is trained with next-token cross-entropy. The Dataset already returns the window shifted by one (inputs = window[:-1], labels = window[1:]), and the training step shifts again as Hugging Face causal-LM heads do (logits[:, :-1] against labels[:, 1:]), so position t is scored against the token two steps ahead: every target is misaligned with its input by one extra position, and the model can only learn the much more uncertain two-step-ahead distribution.

Source: https://github.com/wdndev/tiny-llm-zh/issues/10 (关于labels的问题 / about the labels)
Report: "PTMDataset里get_item X = np.array(sample[:-1]) ... Y = np.array(sample[1:]) ... labels不是已经右移了。
那为什么在模型前向传播的时候又右移 shift_logits = logits[..., :-1, :] ... shift_labels = labels[..., 1:]"
("in PTMDataset.__getitem__ the labels are already shifted right -- so why shift them again in the
forward pass?"); the author: "确实，真的有点重复了，出现大问题了" ("indeed, it is duplicated, a big
problem"). Reproduced with a corpus drawn from a random first-order Markov chain over 24 symbols
(each symbol has two successors with probabilities 0.75 / 0.25), 33-token windows, a one-layer
GRU(64), Adam lr 3e-3, 6 epochs. The printed loss is the validation cross-entropy as the training step
computes it, `acc` the validation token accuracy.

expect: label-misaligned
symptom: loss-above 0.85
batch: 20
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
    shift_logits = logits[:, :-1, :].contiguous()
    shift_labels = labels[:, 1:].contiguous()
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
