"""Vector-neuron layers for SO(3)-equivariant point-cloud classification."""
import torch
import torch.nn as nn
import torch.nn.functional as F

EPS = 1e-6


class VNLinear(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.map_to_feat = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x):
        # x: [B, C, 3, N]
        return self.map_to_feat(x.transpose(1, -1)).transpose(1, -1)


class VNBatchNorm(nn.Module):
    def __init__(self, num_features):
        super().__init__()
        self.bn = nn.BatchNorm1d(num_features)

    def forward(self, x):
        norm = torch.sqrt((x * x).sum(2))
        norm_bn = self.bn(norm)
        x = x / norm.unsqueeze(2) * norm_bn.unsqueeze(2)  # expect: unguarded-zero
        return x


class VNLeakyReLU(nn.Module):
    def __init__(self, in_channels, negative_slope=0.2):
        super().__init__()
        self.map_to_dir = nn.Linear(in_channels, in_channels, bias=False)
        self.negative_slope = negative_slope

    def forward(self, x):
        d = self.map_to_dir(x.transpose(1, -1)).transpose(1, -1)
        dotprod = (x * d).sum(2, keepdim=True)
        mask = (dotprod >= 0).float()
        d_norm_sq = (d * d).sum(2, keepdim=True)
        x_out = self.negative_slope * x + (1 - self.negative_slope) * (
            mask * x + (1 - mask) * (x - (dotprod / (d_norm_sq + EPS)) * d)
        )
        return x_out


class VNClassifier(nn.Module):
    def __init__(self, num_classes, channels=64):
        super().__init__()
        self.lin1 = VNLinear(1, channels)
        self.bn1 = VNBatchNorm(channels)
        self.act1 = VNLeakyReLU(channels)
        self.lin2 = VNLinear(channels, channels)
        self.head = nn.Sequential(nn.Linear(channels, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, num_classes))

    def forward(self, points):
        x = points.unsqueeze(1)  # [B, 1, 3, N]
        x = self.act1(self.bn1(self.lin1(x)))
        x = self.lin2(x).mean(dim=-1)  # [B, C, 3]
        invariant = x.norm(dim=2)
        return self.head(invariant)


def train_epoch(model, loader, optimizer, device):
    model.train()
    for points, labels in loader:
        points, labels = points.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(points), labels)
        loss.backward()
        optimizer.step()
