# Source: https://github.com/mathiaszinnen/focal_loss_torch/issues/3
# Pitfall: the multi-class focal loss takes torch.log(p_t) of a probability that can be exactly
#   0, giving -inf and NaN gradients; the maintainer added an epsilon inside the log.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, weights=None, ignore_index=-100):
        super().__init__()
        self.gamma = gamma
        self.weights = weights
        self.ignore_index = ignore_index

    def forward(self, x, target):
        # x: probabilities (B, C) produced by the model's softmax head
        keep = target != self.ignore_index
        x, target = x[keep], target[keep]
        p_t = x.gather(1, target.unsqueeze(1)).squeeze(1)
        fl = -1 * (1 - p_t) ** self.gamma * torch.log(p_t)  # expect: unguarded-zero
        if self.weights is not None:
            fl = fl * self.weights[target]
        return fl.mean()


def train(model, loader, epochs=10):
    """model is any classifier whose head already returns class probabilities."""
    criterion = FocalLoss(gamma=2.0)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        for features, labels in loader:
            optimizer.zero_grad()
            loss = criterion(model(features), labels)
            loss.backward()
            optimizer.step()
