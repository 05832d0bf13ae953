"""Span-extraction model: masked log-softmax over passage positions, NLL on gold starts."""
import torch
from torch import nn
import torch.nn.functional as F


def masked_log_softmax(vector, mask):
    if mask is not None:
        mask = mask.float()
        vector = vector + mask.log()  # expect: unguarded-zero, fully-masked-softmax
    return F.log_softmax(vector, dim=1)


class SpanStartScorer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.encoder = nn.LSTM(hidden, hidden, batch_first=True, bidirectional=True)
        self.start = nn.Linear(2 * hidden, 1)

    def forward(self, embedded, passage_mask, span_start=None):
        encoded, _ = self.encoder(embedded)
        logits = self.start(encoded).squeeze(-1)
        log_probs = masked_log_softmax(logits, passage_mask)
        output = {"span_start_logits": logits, "log_probs": log_probs}
        if span_start is not None:
            output["loss"] = F.nll_loss(log_probs, span_start)
        return output


def train(model, batches, epochs=3, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(epochs):
        model.train()
        for embedded, mask, start in batches:
            optimizer.zero_grad()
            loss = model(embedded, mask, start)["loss"]
            loss.backward()
            optimizer.step()
