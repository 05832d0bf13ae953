# Source: https://github.com/sshaoshuai/Pointnet2.PyTorch/issues/28
# Pitfall: eval_one_epoch starts by calling model.train() instead of model.eval(), so BatchNorm uses
# (and updates) batch statistics and dropout stays on while the validation metrics are computed.
# Reproduced in our own words, not the original code.
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class PointSegHead(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU(),
                                 nn.Conv1d(64, 128, 1), nn.BatchNorm1d(128), nn.ReLU(), nn.Dropout(0.5))
        self.cls = nn.Conv1d(128, n_classes, 1)

    def forward(self, pts):
        return self.cls(self.mlp(pts.transpose(1, 2)))


def train_one_epoch(model, loader, optimizer):
    model.train()
    for pts, labels in loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(pts), labels)
        loss.backward()
        optimizer.step()


def eval_one_epoch(model, loader):
    model.train()  # expect: validation-in-train-mode
    iou_list = []
    with torch.no_grad():
        for pts, labels in loader:
            pred = model(pts).argmax(dim=1)
            inter = ((pred == 1) & (labels == 1)).sum().item()
            union = ((pred == 1) | (labels == 1)).sum().item()
            iou_list.append(inter / max(union, 1))
    return float(np.mean(iou_list))


if __name__ == "__main__":
    pts = torch.randn(32, 1024, 3)
    labels = (pts[..., 2] > 0).long()
    train_loader = DataLoader(TensorDataset(pts, labels), batch_size=8, shuffle=True)
    test_loader = DataLoader(TensorDataset(pts[:8], labels[:8]), batch_size=8)
    net = PointSegHead()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(2):
        train_one_epoch(net, train_loader, opt)
        print(epoch, eval_one_epoch(net, test_loader))
