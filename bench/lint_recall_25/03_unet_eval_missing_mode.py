"""Binary segmentation with a small U-Net; dice score on the validation images every epoch."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self, n_channels=3):
        super().__init__()
        self.down1 = conv_block(n_channels, 32)
        self.down2 = conv_block(32, 64)
        self.up = nn.ConvTranspose2d(64, 32, 2, stride=2)
        self.dec = conv_block(64, 32)
        self.out = nn.Conv2d(32, 1, 1)

    def forward(self, x):
        d1 = self.down1(x)
        d2 = self.down2(F.max_pool2d(d1, 2))
        u = self.up(d2)
        return self.out(self.dec(torch.cat([u, d1], dim=1)))


def dice_coeff(pred, target, eps=1e-6):
    inter = (pred * target).sum()
    return (2 * inter + eps) / (pred.sum() + target.sum() + eps)


def eval_net(net, loader):
    tot = 0.0
    with torch.no_grad():
        for imgs, masks in loader:
            mask_pred = net(imgs)  # expect: validation-in-train-mode
            pred = (torch.sigmoid(mask_pred) > 0.5).float()
            tot += dice_coeff(pred, masks).item()
    return tot / max(len(loader), 1)


def train_net(epochs=5, lr=1e-3):
    imgs = torch.randn(256, 3, 64, 64)
    masks = (torch.rand(256, 1, 64, 64) > 0.5).float()
    train_loader = DataLoader(TensorDataset(imgs[:224], masks[:224]), batch_size=8, shuffle=True)
    val_loader = DataLoader(TensorDataset(imgs[224:], masks[224:]), batch_size=8)
    net = UNet()
    optimizer = torch.optim.RMSprop(net.parameters(), lr=lr, momentum=0.9)
    criterion = nn.BCEWithLogitsLoss()
    for epoch in range(epochs):
        net.train()
        epoch_loss = 0.0
        for batch_imgs, batch_masks in train_loader:
            loss = criterion(net(batch_imgs), batch_masks)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item()
        val_dice = eval_net(net, val_loader)
        print(f"epoch {epoch}: loss {epoch_loss / len(train_loader):.4f} val dice {val_dice:.4f}")


if __name__ == "__main__":
    train_net()
