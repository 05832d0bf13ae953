# Source: https://github.com/zoogzog/chexnet/issues/12
# Pitfall: the epoch-level loss mean is accumulated as losstensorMean += losstensor (a graph-carrying tensor)
#          instead of its value, so memory climbs until the first epoch ends in an out-of-memory error.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class DenseHead(nn.Module):
    def __init__(self, n_classes=14):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x))


class ChexTrainer:
    @staticmethod
    def epoch_train(model, loader, optimizer, loss_fn):
        model.train()
        loss_mean = 0
        for images, targets in loader:
            images, targets = images.cuda(), targets.cuda()
            optimizer.zero_grad()
            losstensor = loss_fn(model(images), targets)
            losstensor.backward()
            optimizer.step()
            loss_mean += losstensor  # expect: running-loss-keeps-graph
        return loss_mean / len(loader)

    @staticmethod
    def epoch_val(model, loader, loss_fn):
        model.eval()
        total = 0.0
        with torch.no_grad():
            for images, targets in loader:
                total += loss_fn(model(images.cuda()), targets.cuda()).item()
        model.train()
        return total / len(loader)


if __name__ == "__main__":
    x, y = torch.randn(96, 3, 64, 64), torch.randint(0, 2, (96, 14)).float()
    tr = DataLoader(TensorDataset(x[:64], y[:64]), batch_size=16, shuffle=True)
    va = DataLoader(TensorDataset(x[64:], y[64:]), batch_size=16)
    net = DenseHead().cuda()
    opt = torch.optim.Adam(net.parameters(), lr=1e-4, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-5)
    crit = nn.BCEWithLogitsLoss()
    for ep in range(3):
        print(ep, float(ChexTrainer.epoch_train(net, tr, opt, crit)), ChexTrainer.epoch_val(net, va, crit))
