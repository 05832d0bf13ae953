"""A small sklearn-style wrapper around a point-cloud classifier (skorch-like API)."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class PointNetLite(nn.Module):
    def __init__(self, num_classes=40):
        super().__init__()
        self.feat = nn.Sequential(nn.Conv1d(3, 64, 1), nn.BatchNorm1d(64), nn.ReLU(),
                                  nn.Conv1d(64, 256, 1), nn.BatchNorm1d(256), nn.ReLU())
        self.head = nn.Sequential(nn.Linear(256, 128), nn.ReLU(), nn.Dropout(0.3), nn.Linear(128, num_classes))

    def forward(self, pts):
        x = self.feat(pts.transpose(1, 2))
        return self.head(x.max(dim=2).values)


class NeuralNetClassifier:
    def __init__(self, module, lr=1e-3, max_epochs=10, batch_size=32, device="cuda"):
        self.module_ = module.to(device)
        self.device = device
        self.max_epochs = max_epochs
        self.batch_size = batch_size
        self.criterion_ = nn.CrossEntropyLoss()
        self.optimizer_ = torch.optim.Adam(self.module_.parameters(), lr=lr)

    def infer(self, Xi):
        return self.module_(Xi.to(self.device))

    def train_step(self, Xi, yi):
        self.module_.train()
        self.optimizer_.zero_grad()
        y_pred = self.infer(Xi)
        loss = self.criterion_(y_pred, yi.to(self.device))
        loss.backward()
        self.optimizer_.step()
        return loss.item()

    def validation_step(self, Xi, yi):
        self.module_.eval()
        y_pred = self.infer(Xi)  # expect: validation-in-train-mode
        loss = self.criterion_(y_pred, yi.to(self.device))
        return loss.item()

    def fit(self, X, y, X_valid, y_valid):
        train_loader = DataLoader(TensorDataset(X, y), batch_size=self.batch_size, shuffle=True)
        valid_loader = DataLoader(TensorDataset(X_valid, y_valid), batch_size=self.batch_size)
        for epoch in range(self.max_epochs):
            train_losses = [self.train_step(Xi, yi) for Xi, yi in train_loader]
            valid_losses = [self.validation_step(Xi, yi) for Xi, yi in valid_loader]
            print(epoch, sum(train_losses) / len(train_losses), sum(valid_losses) / len(valid_losses))
        return self


if __name__ == "__main__":
    X = torch.randn(512, 1024, 3)
    y = torch.randint(0, 40, (512,))
    net = NeuralNetClassifier(PointNetLite(), max_epochs=2)
    net.fit(X[:400], y[:400], X[400:], y[400:])
