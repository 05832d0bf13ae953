"""Unsupervised domain adaptation with a rotation-prediction auxiliary head (ResNet-ish trunk)."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


def rotate_batch(x):
    labels = torch.randint(0, 4, (x.size(0),))
    rotated = torch.stack([torch.rot90(img, int(k), dims=(1, 2)) for img, k in zip(x, labels)])
    return rotated, labels


class Trunk(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())

    def forward(self, x):
        return self.conv(x)


def main(epochs=3):
    net, head_cls, head_rot = Trunk(), nn.Linear(32, 10), nn.Linear(32, 4)
    parameters = list(net.parameters()) + list(head_cls.parameters()) + list(head_rot.parameters())
    optimizer = optim.SGD(parameters, lr=0.1, momentum=0.9, weight_decay=5e-4)
    scheduler = optim.lr_scheduler.MultiStepLR(optimizer, [2], gamma=0.1)
    src = [(torch.randn(16, 3, 32, 32), torch.randint(0, 10, (16,))) for _ in range(2)]
    tgt = [torch.randn(16, 3, 32, 32) for _ in range(2)]
    for epoch in range(1, epochs + 1):
        scheduler.step()  # expect: scheduler-before-optimizer
        net.train()
        for (xs, ys), xt in zip(src, tgt):
            optimizer.zero_grad()
            loss = F.cross_entropy(head_cls(net(xs)), ys)
            xr, yr = rotate_batch(xt)
            loss = loss + F.cross_entropy(head_rot(net(xr)), yr)
            loss.backward()
            optimizer.step()
        print(epoch, loss.item(), optimizer.param_groups[0]["lr"])


if __name__ == "__main__":
    main()
