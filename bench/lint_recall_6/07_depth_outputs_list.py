# Source: https://github.com/TRI-ML/packnet-sfm/pull/51
# Pitfall: every training step appends the un-detached loss tensor to the epoch's output list, so each
#   step's autograd graph stays referenced until the epoch ends and host/GPU memory grows without bound.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn


class DepthNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 1, 3, padding=1))

    def forward(self, rgb):
        return torch.nn.functional.softplus(self.enc(rgb))


class Trainer:
    def __init__(self, model, lr=2e-4):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)

    def photometric(self, depth, target):
        return (depth - target).abs().mean()

    def train_epoch(self, loader):
        self.model.train()
        outputs = []
        for rgb, target in loader:
            self.optimizer.zero_grad()
            depth = self.model(rgb)
            loss = self.photometric(depth, target)
            loss.backward()
            self.optimizer.step()
            outputs.append({"loss": loss})  # expect: running-loss-keeps-graph
        return outputs
