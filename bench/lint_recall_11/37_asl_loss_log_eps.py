"""Asymmetric loss for multi-label image tagging, and the training step that uses it."""
import torch
import torch.nn as nn


class AsymmetricLoss(nn.Module):
    def __init__(self, gamma_neg=4, gamma_pos=1, clip=0.05, disable_torch_grad_focal_loss=True):
        super().__init__()
        self.gamma_neg = gamma_neg
        self.gamma_pos = gamma_pos
        self.clip = clip
        self.disable_torch_grad_focal_loss = disable_torch_grad_focal_loss

    def forward(self, x, y):
        xs_pos = torch.sigmoid(x)
        xs_neg = 1 - xs_pos
        if self.clip is not None and self.clip > 0:
            xs_neg = (xs_neg + self.clip).clamp(max=1)
        los_pos = y * torch.log(xs_pos)  # expect: log-of-softmax, unguarded-zero
        los_neg = (1 - y) * torch.log(xs_neg)  # expect: unguarded-zero
        loss = los_pos + los_neg
        if self.gamma_neg > 0 or self.gamma_pos > 0:
            with torch.set_grad_enabled(not self.disable_torch_grad_focal_loss):
                pt = xs_pos * y + xs_neg * (1 - y)
                one_sided_gamma = self.gamma_pos * y + self.gamma_neg * (1 - y)
                one_sided_w = torch.pow(1 - pt, one_sided_gamma)
            loss = loss * one_sided_w
        return -loss.sum()


def train_step(model, images, targets, optimizer, criterion=AsymmetricLoss()):
    model.train()
    logits = model(images).float()
    loss = criterion(logits, targets.float())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()
