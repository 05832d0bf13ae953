"""GOTURN-style regression tracker: train on frame pairs, then evaluate on a held-out sequence."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class GoNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 32, 5, stride=2), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(6),
        )
        self.classifier = nn.Sequential(
            nn.Linear(64 * 6 * 6 * 2, 512), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(512, 512), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(512, 4),
        )

    def forward(self, prev, curr):
        a = self.features(prev).flatten(1)
        b = self.features(curr).flatten(1)
        return self.classifier(torch.cat([a, b], dim=1))


class Tester:
    def __init__(self, model, loader):
        self.model = model
        self.loader = loader

    def evaluate(self):
        errors = []
        with torch.no_grad():
            for prev, curr, box in self.loader:
                pred = self.model(prev, curr)  # expect: validation-in-train-mode
                errors.append((pred - box).abs().mean().item())
        return sum(errors) / len(errors)


def train(model, loader, epochs=2):
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-5, momentum=0.9, weight_decay=5e-4)
    loss_fn = nn.L1Loss()
    model.train()
    for _ in range(epochs):
        for prev, curr, box in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(prev, curr), box)
            loss.backward()
            optimizer.step()


if __name__ == "__main__":
    prev = torch.randn(8, 3, 112, 112)
    curr = torch.randn(8, 3, 112, 112)
    boxes = torch.rand(8, 4)
    ds = TensorDataset(prev, curr, boxes)
    net = GoNet()
    train(net, DataLoader(ds, batch_size=4, shuffle=True))
    print(Tester(net, DataLoader(ds, batch_size=4)).evaluate())
