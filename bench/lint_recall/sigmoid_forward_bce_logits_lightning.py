# Source: https://github.com/Lightning-AI/pytorch-lightning/pull/7096
# Pitfall: the transfer-learning example's forward returns torch.sigmoid(logits) while the
# loss is F.binary_cross_entropy_with_logits, so the loss sees probabilities as logits.
# Reproduced in our own words, not the original code.
import torch
import torch.nn.functional as F
from torch import nn


class TransferLearningModel(nn.Module):
    def __init__(self, backbone, n_features):
        super().__init__()
        self.backbone = backbone
        self.fc = nn.Sequential(nn.Linear(n_features, 256), nn.ReLU(), nn.Linear(256, 1))
        self.loss_func = F.binary_cross_entropy_with_logits

    def forward(self, x):
        x = self.fc(self.backbone(x).flatten(1))
        return torch.sigmoid(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_scores = self(x)
        return self.loss_func(y_scores, y.view(-1, 1).float())  # expect: sigmoid-before-bce-with-logits
