# Source: https://github.com/deepset-ai/FARM/issues/229
# Pitfall: the regression head squeezes its logits to (B,) while labels are (B, 1); MSELoss
# broadcasts to (B, B) and trains on the wrong quantity (fixed in FARM #230).
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class RegressionHead(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.feed_forward = nn.Linear(dim, 1)
        self.loss_fct = nn.MSELoss(reduction="none")

    def forward(self, x):
        return self.feed_forward(x).squeeze(-1)

    def logits_to_loss(self, logits, label_ids):
        return self.loss_fct(logits, label_ids.float())  # expect: loss-shape-broadcast


def train(model, head, loader, optimizer):
    for x, label_ids in loader:  # label_ids: (B, 1)
        optimizer.zero_grad()
        loss = head.logits_to_loss(head(model(x)), label_ids).mean()
        loss.backward()
        optimizer.step()
