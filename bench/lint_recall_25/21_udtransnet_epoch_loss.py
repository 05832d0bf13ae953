"""Medical image segmentation (UDTransNet-style trainer): per-epoch loss and dice logging."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class WeightedDiceBCE(nn.Module):
    def __init__(self, dice_weight=0.5, bce_weight=0.5, smooth=1e-5):
        super().__init__()
        self.dice_weight, self.bce_weight, self.smooth = dice_weight, bce_weight, smooth

    def forward(self, logits, target):
        bce = F.binary_cross_entropy_with_logits(logits, target)
        prob = torch.sigmoid(logits)
        inter = (prob * target).sum(dim=(1, 2, 3))
        dice = (2 * inter + self.smooth) / (prob.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3)) + self.smooth)
        return self.dice_weight * (1 - dice.mean()) + self.bce_weight * bce


class SegNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 1, 1),
        )

    def forward(self, x):
        return self.net(x)


def train_one_epoch(loader, model, criterion, optimizer, epoch):
    model.train()
    loss_sum, dice_sum = 0.0, 0.0
    for i, (images, masks) in enumerate(loader):
        preds = model(images)
        out_loss = criterion(preds, masks)
        optimizer.zero_grad()
        out_loss.backward()
        optimizer.step()
        with torch.no_grad():
            hard = (torch.sigmoid(preds) > 0.5).float()
            dice = (2 * (hard * masks).sum() + 1e-5) / (hard.sum() + masks.sum() + 1e-5)
        loss_sum += out_loss  # expect: running-loss-keeps-graph
        dice_sum += dice.item()
    n = len(loader)
    print(f"epoch {epoch}: loss {float(loss_sum) / n:.4f} dice {dice_sum / n:.4f}")
    return float(loss_sum) / n


if __name__ == "__main__":
    imgs = torch.randn(64, 1, 96, 96)
    masks = (torch.rand(64, 1, 96, 96) > 0.7).float()
    dl = DataLoader(TensorDataset(imgs, masks), batch_size=4, shuffle=True)
    seg = SegNet()
    opt = torch.optim.Adam(seg.parameters(), lr=1e-3)
    for ep in range(3):
        train_one_epoch(dl, seg, WeightedDiceBCE(), opt, ep)
