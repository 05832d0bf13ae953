"""Deeply supervised change detection (two acquisition dates); BCE + dice on every side output."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class SideHead(nn.Module):
    def __init__(self, cin):
        super().__init__()
        self.conv = nn.Conv2d(cin, 1, 1)
        self.act = nn.Sigmoid()

    def forward(self, x, size):
        x = nn.functional.interpolate(self.conv(x), size=size, mode="bilinear", align_corners=False)
        return self.act(x)


class FusionNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(6, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU())
        self.enc3 = nn.Sequential(nn.Conv2d(64, 128, 3, stride=2, padding=1), nn.BatchNorm2d(128), nn.ReLU())
        self.heads = nn.ModuleList([SideHead(32), SideHead(64), SideHead(128)])

    def forward(self, t1, t2):
        size = t1.shape[-2:]
        f1 = self.enc1(torch.cat([t1, t2], dim=1))
        f2 = self.enc2(f1)
        f3 = self.enc3(f2)
        return [head(f, size) for head, f in zip(self.heads, (f1, f2, f3))]


class DiceBCELoss(nn.Module):
    def __init__(self, smooth=1.0):
        super().__init__()
        self.bce = nn.BCELoss()
        self.smooth = smooth

    def forward(self, pred, target):
        bce = self.bce(torch.sigmoid(pred), target)  # expect: sigmoid-before-bce
        inter = (pred * target).sum()
        dice = 1 - (2.0 * inter + self.smooth) / (pred.sum() + target.sum() + self.smooth)
        return bce + dice


def train(epochs=5):
    t1, t2 = torch.rand(64, 3, 64, 64), torch.rand(64, 3, 64, 64)
    label = (torch.rand(64, 1, 64, 64) > 0.8).float()
    loader = DataLoader(TensorDataset(t1, t2, label), batch_size=8, shuffle=True)
    model = FusionNet()
    criterion = DiceBCELoss()
    opt = torch.optim.Adam(model.parameters(), lr=1e-4)
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for a, b, y in loader:
            outputs = model(a, b)
            loss = sum(criterion(o, y) for o in outputs)
            opt.zero_grad()
            loss.backward()
            opt.step()
            running += loss.item()
        print(f"epoch {epoch}: loss {running / len(loader):.4f}")


if __name__ == "__main__":
    train()
