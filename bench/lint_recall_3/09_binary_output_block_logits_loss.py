# Source: https://github.com/NVIDIA-Merlin/models/pull/1175
# Pitfall: The binary output block applies a sigmoid in forward while its default loss is
# BCEWithLogitsLoss, so the sigmoid is applied twice to the click score.
# Reproduced in our own words, not the original code.
import torch
from torch import nn


class BinaryTarget(nn.Module):
    def __init__(self, in_features, target_name="click"):
        super().__init__()
        self.target_name = target_name
        self.to_score = nn.Linear(in_features, 1)
        self.loss = nn.BCEWithLogitsLoss()

    def forward(self, hidden):
        return torch.sigmoid(self.to_score(hidden)).squeeze(-1)

    def compute_loss(self, hidden, batch_targets):
        pred = self(hidden)
        target = batch_targets[self.target_name].float()
        return self.loss(pred, target)  # expect: sigmoid-before-bce-with-logits


def fit(tower, head, loader, optimizer, epochs=1):
    for _ in range(epochs):
        tower.train()
        head.train()
        for features, targets in loader:
            optimizer.zero_grad()
            loss = head.compute_loss(tower(features), targets)
            loss.backward()
            optimizer.step()
