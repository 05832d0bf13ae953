"""Customer-churn classifier on tabular features (binary target)."""
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ChurnNet(nn.Module):
    def __init__(self, n_features):
        super().__init__()
        self.body = nn.Sequential(
            nn.Linear(n_features, 64), nn.ReLU(), nn.BatchNorm1d(64),
            nn.Linear(64, 32), nn.ReLU(),
            nn.Linear(32, 1),
        )
        self.sigmoid = nn.Sigmoid()

    def forward(self, x):
        return self.sigmoid(self.body(x))


def make_loaders(csv_path, target="churned", batch_size=256):
    df = pd.read_csv(csv_path)
    y = torch.tensor(df.pop(target).values, dtype=torch.float32).view(-1, 1)
    x = torch.tensor(((df - df.mean()) / df.std().replace(0, 1)).values, dtype=torch.float32)
    n_val = len(df) // 5
    train = TensorDataset(x[n_val:], y[n_val:])
    val = TensorDataset(x[:n_val], y[:n_val])
    return DataLoader(train, batch_size=batch_size, shuffle=True), DataLoader(val, batch_size=batch_size)


def fit(csv_path, epochs=30):
    train_loader, val_loader = make_loaders(csv_path)
    model = ChurnNet(train_loader.dataset.tensors[0].shape[1])
    bce_loss = nn.BCELoss()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        for xb, yb in train_loader:
            probabilities = model(xb)
            loss = bce_loss(probabilities, yb)  # expect: sigmoid-before-bce
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        with torch.no_grad():
            hits = sum(((model(xb) > 0.5).float() == yb).sum().item() for xb, yb in val_loader)
        print(f"epoch {epoch}: val acc {hits / len(val_loader.dataset):.3f}")
