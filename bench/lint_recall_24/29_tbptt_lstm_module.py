"""Truncated-BPTT training of an LSTM tagger over long sequences, one split at a time."""
import torch
from torch import nn


class Tagger(nn.Module):
    def __init__(self, vocab, n_tags, dim=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.lstm = nn.LSTM(dim, dim, batch_first=True)
        self.out = nn.Linear(dim, n_tags)

    def forward(self, tokens, hiddens=None):
        out, hiddens = self.lstm(self.emb(tokens), hiddens)
        return self.out(out), hiddens


def train_epoch(model, optimizer, loader, split_size=50):
    model.train()
    loss_fn = nn.CrossEntropyLoss()
    for tokens, tags in loader:
        hiddens = None
        for start in range(0, tokens.size(1), split_size):
            x = tokens[:, start:start + split_size]
            y = tags[:, start:start + split_size]
            logits, new_hiddens = model(x, hiddens)
            loss = loss_fn(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            hiddens = new_hiddens  # expect: hidden-state-not-detached
