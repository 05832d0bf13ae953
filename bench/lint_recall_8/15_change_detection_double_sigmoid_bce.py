# Source: https://github.com/GeoZcx/A-deeply-supervised-image-fusion-network-for-change-detection-in-remote-sensing-images/issues/1
# Pitfall: the change-detection net already ends in Sigmoid, and the loss applies sigmoid again and
# feeds that to BCELoss: probabilities are squashed into (0.5, 0.73), biasing and slowing training.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F


class FusionChangeNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU())
        self.fuse = nn.Conv2d(2 * ch, ch, 3, padding=1)
        self.out = nn.Sequential(nn.Conv2d(ch, 1, 1), nn.Sigmoid())

    def forward(self, t1, t2):
        f = torch.cat([self.enc(t1), self.enc(t2)], dim=1)
        return self.out(F.relu(self.fuse(f)))


def dice_term(prob, target, smooth=1.0):
    inter = (prob * target).sum()
    return 1 - (2 * inter + smooth) / (prob.sum() + target.sum() + smooth)


def change_loss(pred, target):
    bce = nn.BCELoss()(torch.sigmoid(pred), target)  # expect: sigmoid-before-bce
    return bce + dice_term(pred, target)


if __name__ == "__main__":
    net = FusionChangeNet()
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    for step in range(3):
        t1, t2 = torch.rand(2, 3, 64, 64), torch.rand(2, 3, 64, 64)
        mask = (torch.rand(2, 1, 64, 64) > 0.9).float()
        net.train()
        opt.zero_grad()
        loss = change_loss(net(t1, t2), mask)
        loss.backward()
        opt.step()
        print(step, loss.item())
