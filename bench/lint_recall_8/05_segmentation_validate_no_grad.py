# Source: https://github.com/hszhao/semseg/issues/60
# Pitfall: the per-epoch validation puts the net in eval mode but runs the forward pass with autograd
# on, so every batch builds a graph and the validation phase runs out of GPU memory.
# Reproduced in our own words, not the original code.
import time

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class AverageMeter:
    def __init__(self):
        self.sum, self.count = 0.0, 0

    def update(self, val, n=1):
        self.sum += val * n
        self.count += n

    @property
    def avg(self):
        return self.sum / max(self.count, 1)


class TinySegNet(nn.Module):
    def __init__(self, classes=21):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                                 nn.Conv2d(32, 64, 3, stride=2, padding=1), nn.BatchNorm2d(64), nn.ReLU())
        self.cls = nn.Conv2d(64, classes, 1)

    def forward(self, x):
        out = self.cls(self.enc(x))
        return F.interpolate(out, size=x.shape[-2:], mode="bilinear", align_corners=False)


def validate(val_loader, model, criterion, device):
    loss_meter, time_meter = AverageMeter(), AverageMeter()
    model.eval()
    end = time.time()
    for images, masks in val_loader:
        images = images.to(device)
        masks = masks.to(device)
        output = model(images)  # expect: validation-in-train-mode
        loss = criterion(output, masks)
        loss_meter.update(loss.item(), images.size(0))
        time_meter.update(time.time() - end)
        end = time.time()
    model.train()
    return loss_meter.avg


if __name__ == "__main__":
    device = "cpu"
    imgs = torch.randn(16, 3, 64, 64)
    masks = torch.randint(0, 21, (16, 64, 64))
    val_loader = DataLoader(TensorDataset(imgs, masks), batch_size=4)
    net = TinySegNet().to(device)
    crit = nn.CrossEntropyLoss(ignore_index=255)
    print(validate(val_loader, net, crit, device))
