"""Multi-class classifier whose dataset stores one-hot label vectors."""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class OneHotDataset(Dataset):
    def __init__(self, features: np.ndarray, labels: np.ndarray, n_classes: int):
        self.x = torch.tensor(features, dtype=torch.float32)
        self.y = torch.zeros(len(labels), n_classes, dtype=torch.int32)
        self.y[torch.arange(len(labels)), torch.as_tensor(labels, dtype=torch.long)] = 1

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


class MLP(nn.Module):
    def __init__(self, n_in, n_classes, hidden=128):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

    def forward(self, x):
        return self.net(x)


def fit(model, train_ds, val_ds, epochs=25, lr=1e-3):
    train_dl = DataLoader(train_ds, batch_size=64, shuffle=True)
    val_dl = DataLoader(val_ds, batch_size=256)
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_dl:
            optimizer.zero_grad()
            outputs = model(xb)
            loss = criterion(outputs, yb)  # expect: one-hot-target
            loss.backward()
            optimizer.step()
        model.eval()
        hits = 0
        with torch.no_grad():
            for xb, yb in val_dl:
                hits += (model(xb).argmax(dim=1) == yb.argmax(dim=1)).sum().item()
        print(f"epoch {epoch}: val acc {hits / len(val_ds):.3f}")
