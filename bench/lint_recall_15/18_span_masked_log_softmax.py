"""Span-start predictor for reading comprehension with a masked log-softmax over passage tokens."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def masked_log_softmax(vector, mask, dim=-1):
    if mask is not None:
        mask = mask.float()
        vector = vector + mask.log()  # expect: fully-masked-softmax
    return F.log_softmax(vector, dim=dim)


class SpanStart(nn.Module):
    def __init__(self, vocab, dim=128):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=0)
        self.enc = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.start = nn.Linear(2 * dim, 1)

    def forward(self, passage, passage_mask):
        h, _ = self.enc(self.emb(passage))
        logits = self.start(h).squeeze(-1)
        return masked_log_softmax(logits, passage_mask)


def train_epoch(model, loader, optimizer):
    model.train()
    total = 0.0
    for passage, passage_mask, span_start in loader:
        log_probs = model(passage, passage_mask)
        loss = F.nll_loss(log_probs, span_start)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)
