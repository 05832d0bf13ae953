"""EEG motor-imagery decoding (EEGNet) with leave-one-session-out folds."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def standardize(x, m=None, s=None):
    if m is None and s is None:
        m = np.mean(x, axis=(0, -1))
        s = np.std(x, axis=(0, -1))
    return (x - m.reshape(1, -1, 1)) / (1e-14 + s.reshape(1, -1, 1)), m, s


def get_dataloader(batch_size, xy_train, xy_valid, xy_test):
    x_train, y_train = xy_train
    x_valid, y_valid = xy_valid
    x_test, y_test = xy_test

    x_train, m, s = standardize(x_train)
    x_valid, _, _ = standardize(x_valid, m, s)
    x_test, _, _ = standardize(x_test, m, s)

    def to_ds(x, y):
        return TensorDataset(torch.from_numpy(x[:, None]).float(), torch.from_numpy(y).long())

    train_loader = DataLoader(to_ds(x_train, y_train), batch_size=batch_size, pin_memory=True)  # expect: train-loader-not-shuffled
    valid_loader = DataLoader(to_ds(x_valid, y_valid), batch_size=batch_size, pin_memory=True)
    test_loader = DataLoader(to_ds(x_test, y_test), batch_size=batch_size, pin_memory=True)
    return train_loader, valid_loader, test_loader


class EEGNet(nn.Module):
    def __init__(self, chans=22, samples=500, classes=4, f1=8, d=2, f2=16, dropout=0.5):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, f1, (1, 64), padding=(0, 32), bias=False), nn.BatchNorm2d(f1),
            nn.Conv2d(f1, f1 * d, (chans, 1), groups=f1, bias=False), nn.BatchNorm2d(f1 * d), nn.ELU(),
            nn.AvgPool2d((1, 4)), nn.Dropout(dropout),
            nn.Conv2d(f1 * d, f2, (1, 16), padding=(0, 8), groups=f1 * d, bias=False),
            nn.Conv2d(f2, f2, 1, bias=False), nn.BatchNorm2d(f2), nn.ELU(),
            nn.AvgPool2d((1, 8)), nn.Dropout(dropout),
        )
        self.classifier = nn.LazyLinear(classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def fit(model, loaders, epochs=300, device="cuda"):
    train_loader, valid_loader, _ = loaders
    model.to(device)
    model(next(iter(train_loader))[0].to(device))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    best_acc = 0.0
    for epoch in range(epochs):
        model.train()
        for x, y in train_loader:
            x, y = x.to(device), y.to(device)
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        model.eval()
        correct = 0
        with torch.no_grad():
            for x, y in valid_loader:
                correct += (model(x.to(device)).argmax(1).cpu() == y).sum().item()
        best_acc = max(best_acc, correct / len(valid_loader.dataset))
    return best_acc
