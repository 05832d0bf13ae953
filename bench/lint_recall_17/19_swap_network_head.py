"""Staged training: pretrain a small net, then swap in a larger head and keep training."""
import torch
from torch import nn, optim


class Backbone(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.rnn = nn.LSTM(hidden, hidden, batch_first=True)

    def forward(self, x):
        out, _ = self.rnn(self.embed(x))
        return out[:, -1]


class Classifier(nn.Module):
    def __init__(self, vocab, hidden, n_out):
        super().__init__()
        self.backbone = Backbone(vocab, hidden)
        self.head = nn.Linear(hidden, n_out)

    def forward(self, x):
        return self.head(self.backbone(x))


def run_epochs(model, optimizer, batches, epochs):
    loss_fn = nn.CrossEntropyLoss()
    for _ in range(epochs):
        model.train()
        for x, y in batches:
            optimizer.zero_grad()
            loss = loss_fn(model(x), y)
            loss.backward()
            optimizer.step()


def main(batches, vocab=20, hidden=64):
    model = Classifier(vocab, hidden, 2)
    optimizer = optim.Adam(model.parameters(), lr=3e-2)
    run_epochs(model, optimizer, batches, epochs=5)

    # second stage: a deeper head for the same task
    model.head = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 2))  # expect: optimizer-misses-params
    run_epochs(model, optimizer, batches, epochs=5)
    return model
