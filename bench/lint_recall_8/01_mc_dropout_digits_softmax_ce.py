# Source: https://github.com/danielkelshaw/ConcreteDropout/issues/11
# Pitfall: the classifier's forward ends in softmax and the training step hands those probabilities
# to F.cross_entropy, which applies log_softmax again: gradients shrink and learning stalls.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class SpotDropoutNet(nn.Module):
    def __init__(self, n_in=784, width=256, n_classes=10, p=0.2):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_in, width), nn.ReLU(), nn.Dropout(p),
            nn.Linear(width, width), nn.ReLU(), nn.Dropout(p),
        )
        self.out = nn.Linear(width, n_classes)

    def forward(self, x):
        h = self.body(x.flatten(1))
        return F.softmax(self.out(h), dim=1)


def run_epoch(net, loader, opt, device):
    net.train()
    seen, total = 0, 0.0
    for images, targets in loader:
        images, targets = images.to(device), targets.to(device)
        opt.zero_grad()
        scores = net(images)
        loss = F.cross_entropy(scores, targets)  # expect: softmax-before-cross-entropy
        loss.backward()
        opt.step()
        total += loss.item() * images.size(0)
        seen += images.size(0)
    return total / seen


def evaluate(net, loader, device):
    net.eval()
    hits = 0
    with torch.no_grad():
        for images, targets in loader:
            pred = net(images.to(device)).argmax(dim=1)
            hits += (pred.cpu() == targets).sum().item()
    net.train()
    return hits / len(loader.dataset)


if __name__ == "__main__":
    device = "cpu"
    xs, ys = torch.rand(512, 1, 28, 28), torch.randint(0, 10, (512,))
    train_dl = DataLoader(TensorDataset(xs, ys), batch_size=64, shuffle=True)
    test_dl = DataLoader(TensorDataset(xs[:128], ys[:128]), batch_size=128)
    net = SpotDropoutNet().to(device)
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    for epoch in range(3):
        print(epoch, run_epoch(net, train_dl, opt, device), evaluate(net, test_dl, device))
