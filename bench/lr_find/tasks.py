"""The three tasks of the LR-finder benchmark (issue 9): an MLP with SGD, a small CNN with
Adam, a character LSTM with AdamW. Synthetic data generated from the seed; the same seed
gives the same initial weights and the same batch order to every tool."""

from __future__ import annotations

import math

import torch
from torch import nn

TASKS = ("mlp-sgd", "cnn-adam", "lstm-adamw")
BATCH = 64


def _text(n: int, g: torch.Generator) -> torch.Tensor:
    """Character ids of a synthetic text: words from a fixed vocabulary, sentences of
    4-9 words: structure a character LSTM can learn within a few hundred steps."""
    words = ["the", "model", "loss", "falls", "rises", "when", "rate", "is", "too", "high", "low", "and",
             "gradient", "step", "batch", "data", "learns", "slowly", "fast", "train"]
    out: list[int] = []
    while len(out) < n:
        k = int(torch.randint(4, 10, (1,), generator=g))
        sent = " ".join(words[int(i)] for i in torch.randint(0, len(words), (k,), generator=g)) + ". "
        out += [ord(c) - 32 for c in sent]
    return torch.tensor(out[:n])


class CharLSTM(nn.Module):
    def __init__(self, vocab: int = 96, hidden: int = 128):
        super().__init__()
        self.emb = nn.Embedding(vocab, 32)
        self.lstm = nn.LSTM(32, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, x):
        h, _ = self.lstm(self.emb(x))
        return self.head(h)


def build(task: str, seed: int):
    """(model, optimizer class and kwargs, batches(steps) -> list of (x, y), loss_fn)."""
    g = torch.Generator().manual_seed(1000 + seed)
    torch.manual_seed(seed)
    if task == "mlp-sgd":
        X = torch.randn(8192, 32, generator=g)
        W = torch.randn(32, 10, generator=g)
        y = (X @ W + 0.5 * torch.randn(8192, 10, generator=g)).argmax(1)
        model = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 10))
        opt = (torch.optim.SGD, {"momentum": 0.9})
        data = (X, y)
    elif task == "cnn-adam":
        protos = torch.randn(10, 1, 16, 16, generator=g)
        y = torch.randint(0, 10, (8192,), generator=g)
        X = protos[y] * 0.6 + torch.randn(8192, 1, 16, 16, generator=g)
        model = nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                              nn.Flatten(), nn.Linear(32 * 16, 64), nn.ReLU(), nn.Linear(64, 10))
        opt = (torch.optim.Adam, {})
        data = (X, y)
    elif task == "lstm-adamw":
        text = _text(200_000, g)
        model = CharLSTM()
        opt = (torch.optim.AdamW, {"weight_decay": 0.01})
        data = (text, None)
    else:
        raise SystemExit(f"unknown task {task}")

    def batches(steps: int, offset: int = 0):
        bg = torch.Generator().manual_seed(2000 + seed)
        out = []
        for _ in range(steps):
            if task == "lstm-adamw":
                t = data[0]
                i = torch.randint(0, len(t) - 33, (BATCH,), generator=bg)
                seq = torch.stack([t[j: j + 33] for j in i.tolist()])
                out.append((seq[:, :-1], seq[:, 1:]))
            else:
                i = torch.randint(0, len(data[0]), (BATCH,), generator=bg)
                out.append((data[0][i], data[1][i]))
        return out

    def loss_fn(out, y):
        if out.ndim == 3:
            return nn.functional.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))
        return nn.functional.cross_entropy(out, y)

    return model, opt, batches, loss_fn


def train(task: str, seed: int, lr: float, steps: int = 300) -> float:
    """Mean training loss over the last 10 % of ``steps`` constant-rate steps (inf when
    it diverged)."""
    model, (cls, kw), batches, loss_fn = build(task, seed)
    opt = cls(model.parameters(), lr=lr, **kw)
    tail = []
    for t, (x, y) in enumerate(batches(steps)):
        loss = loss_fn(model(x), y)
        if not torch.isfinite(loss):
            return math.inf
        opt.zero_grad()
        loss.backward()
        opt.step()
        if t >= steps - steps // 10:
            tail.append(loss.item())
    return sum(tail) / len(tail)
