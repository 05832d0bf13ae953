# Source: https://github.com/rwightman/efficientdet-pytorch/pull/77
# Pitfall: the detector's focal loss writes the BCE term as log1p(exp(-logits)), which overflows
#   to inf (and NaN gradients) for large negative logits; the maintainer pointed to softplus instead.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


def focal_loss_legacy(logits, targets, alpha=0.25, gamma=2.0, normalizer=1.0):
    positive_label_mask = targets == 1.0
    neg_logits = -1.0 * logits
    modulator = torch.exp(gamma * targets * neg_logits - gamma * torch.log1p(torch.exp(neg_logits)))  # expect: unshifted-logsumexp
    bce = torch.clamp(logits, min=0) - logits * targets + torch.log1p(torch.exp(-torch.abs(logits)))
    loss = modulator * bce
    weighted = torch.where(positive_label_mask, alpha * loss, (1.0 - alpha) * loss)
    return weighted.sum() / normalizer


class DetectionLoss(nn.Module):
    def __init__(self, num_classes, alpha=0.25, gamma=1.5):
        super().__init__()
        self.num_classes = num_classes
        self.alpha = alpha
        self.gamma = gamma

    def forward(self, cls_outputs, cls_targets, num_positives):
        normalizer = num_positives.sum().clamp(min=1.0)
        total = 0.0
        for level_logits, level_targets in zip(cls_outputs, cls_targets):
            onehot = (level_targets.unsqueeze(-1) == torch.arange(self.num_classes, device=level_targets.device)).float()
            total = total + focal_loss_legacy(level_logits, onehot, self.alpha, self.gamma, normalizer)
        return total


def train_step(model, loss_fn, optimizer, images, cls_targets, num_positives):
    model.train()
    cls_outputs = model(images)
    loss = loss_fn(cls_outputs, cls_targets, num_positives)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
