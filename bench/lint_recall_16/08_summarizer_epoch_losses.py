"""Pointer-style extractive summarizer: per-epoch loss history for plotting."""
import time

import torch
import torch.nn as nn


class Highlighter(nn.Module):
    def __init__(self, vocab_size, emb=64, hid=128, max_len=20):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb)
        self.encoder = nn.LSTM(emb, hid, batch_first=True, bidirectional=True)
        self.pointer = nn.Linear(2 * hid, max_len)

    def forward(self, tokens):
        enc, _ = self.encoder(self.embedding(tokens))
        return self.pointer(enc)  # (batch, seq, max_len) scores


def train_epoch(train_iter, test_iter, criterion, model, optimizer):
    model.train()
    batch_loss_train = None
    for tokens, target in train_iter:
        optimizer.zero_grad()
        scores = model(tokens)
        batch_loss_train = criterion(scores.transpose(1, 2), target)
        batch_loss_train.backward()
        optimizer.step()

    model.eval()
    epoch_loss_eval = 0.0
    with torch.no_grad():
        for tokens, target in test_iter:
            scores = model(tokens)
            epoch_loss_eval += criterion(scores.transpose(1, 2), target).item()
    # the last training batch's loss is reported for the epoch
    return batch_loss_train, epoch_loss_eval


def train(train_iter, test_iter, criterion, model, optimizer, num_epochs=10):
    train_loss, eval_loss = [], []
    for epoch in range(num_epochs):
        start = time.time()
        epoch_loss_train, epoch_loss_eval = train_epoch(train_iter, test_iter, criterion, model, optimizer)
        train_loss.append(epoch_loss_train)  # expect: running-loss-keeps-graph
        eval_loss.append(epoch_loss_eval)
        print(f"Epoch: {epoch} | loss eval: {eval_loss[-1]:.4f} | time: {time.time() - start:.1f}s")
    return train_loss, eval_loss
