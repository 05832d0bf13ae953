"""Class-balanced focal loss for long-tailed action recognition."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class CBFocalLoss(nn.Module):
    def __init__(self, samples_per_cls, beta=0.9999, gamma=2.0, loss_weight=1.0):
        super().__init__()
        self.num_classes = len(samples_per_cls)
        effective_num = 1.0 - np.power(beta, samples_per_cls)
        weights = (1.0 - beta) / np.array(effective_num)
        self.weights = list(weights / np.sum(weights) * self.num_classes)
        self.gamma = gamma
        self.loss_weight = loss_weight

    def forward(self, cls_score, label):
        weights = torch.tensor(self.weights, device=cls_score.device).float()
        label_one_hot = F.one_hot(label, self.num_classes).float()
        weights = (weights.unsqueeze(0).repeat(label_one_hot.shape[0], 1) * label_one_hot).sum(1)
        weights = weights.unsqueeze(1).repeat(1, self.num_classes)

        bce = F.binary_cross_entropy_with_logits(cls_score, label_one_hot, reduction="none")
        modulator = 1.0
        if self.gamma:
            modulator = torch.exp(-self.gamma * label_one_hot * cls_score - self.gamma *
                                  torch.log(1 + torch.exp(-1.0 * cls_score)))  # expect: unshifted-logsumexp
        loss = modulator * bce
        focal_loss = torch.sum(weights * loss) / torch.sum(label_one_hot)
        return self.loss_weight * focal_loss


def train_step(model, clips, labels, criterion, optimizer):
    model.train()
    optimizer.zero_grad()
    loss = criterion(model(clips), labels)
    loss.backward()
    optimizer.step()
    return loss.item()
