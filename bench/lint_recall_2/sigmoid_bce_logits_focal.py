# Source: https://github.com/itakurah/focal-loss-pytorch/pull/5
# Pitfall: The focal loss passes torch.sigmoid(inputs) to F.binary_cross_entropy_with_logits, which applies its own sigmoid; the second sigmoid maps everything into [0.5, 0.73], so the loss never sees a confident prediction.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinaryFocalLoss(nn.Module):
    def __init__(self, gamma=2.0, alpha=0.25):
        super().__init__()
        self.gamma = gamma
        self.alpha = alpha

    def forward(self, inputs, targets):
        probs = torch.sigmoid(inputs)
        bce = F.binary_cross_entropy_with_logits(probs, targets, reduction="none")  # expect: sigmoid-before-bce-with-logits
        p_t = probs * targets + (1 - probs) * (1 - targets)
        alpha_t = self.alpha * targets + (1 - self.alpha) * (1 - targets)
        return (alpha_t * (1 - p_t) ** self.gamma * bce).mean()


def train_detector_head(head, feats, labels, steps=200):
    criterion = BinaryFocalLoss()
    optimizer = torch.optim.SGD(head.parameters(), lr=0.01, momentum=0.9)
    head.train()
    for _ in range(steps):
        optimizer.zero_grad()
        loss = criterion(head(feats), labels)
        loss.backward()
        optimizer.step()
    return head
