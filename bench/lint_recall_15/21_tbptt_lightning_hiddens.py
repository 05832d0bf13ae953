"""Truncated BPTT over long sequences, written as a manual loop over time splits."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CharLSTM(nn.Module):
    def __init__(self, vocab, hidden=256):
        super().__init__()
        self.emb = nn.Embedding(vocab, hidden)
        self.rnn = nn.LSTM(hidden, hidden, batch_first=True)
        self.out = nn.Linear(hidden, vocab)

    def forward(self, x, hiddens=None):
        h, hiddens = self.rnn(self.emb(x), hiddens)
        return self.out(h), hiddens


class TBPTTTrainer:
    def __init__(self, model, truncated_bptt_steps=35, lr=1e-3):
        self.model = model
        self.k = truncated_bptt_steps
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def training_step(self, split, hiddens):
        x, y = split
        logits, hiddens = self.model(x, hiddens)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), y.reshape(-1))
        return loss, hiddens

    def fit_batch(self, x, y):
        self.model.train()
        hiddens = None
        total = 0.0
        for t in range(0, x.size(1), self.k):
            split = (x[:, t:t + self.k], y[:, t:t + self.k])
            loss, new_hiddens = self.training_step(split, hiddens)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            hiddens = new_hiddens  # expect: hidden-state-not-detached
            total += loss.item()
        return total
