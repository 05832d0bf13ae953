# Source: https://github.com/itakurah/focal-loss-pytorch/pull/5
# Pitfall: the focal loss applies sigmoid to the inputs and then calls
# binary_cross_entropy_with_logits on the probabilities: sigmoid twice, every score >= 0.5.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
from torch import nn


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, alpha=0.25):
        super().__init__()
        self.gamma, self.alpha = gamma, alpha

    def forward(self, inputs, targets):
        probs = torch.sigmoid(inputs)
        bce = F.binary_cross_entropy_with_logits(probs, targets, reduction="none")  # expect: sigmoid-before-bce-with-logits
        p_t = probs * targets + (1 - probs) * (1 - targets)
        return (self.alpha * (1 - p_t) ** self.gamma * bce).mean()
