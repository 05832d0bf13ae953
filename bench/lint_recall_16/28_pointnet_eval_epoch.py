"""PointNet++-style semantic segmentation: train and evaluate one epoch at a time."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class PointSegNet(nn.Module):
    def __init__(self, in_ch=3, num_classes=13):
        super().__init__()
        self.mlp1 = nn.Sequential(nn.Conv1d(in_ch, 64, 1), nn.BatchNorm1d(64), nn.ReLU())
        self.mlp2 = nn.Sequential(nn.Conv1d(64, 128, 1), nn.BatchNorm1d(128), nn.ReLU())
        self.head = nn.Sequential(nn.Conv1d(128 + 128, 128, 1), nn.BatchNorm1d(128), nn.ReLU(),
                                  nn.Dropout(0.5), nn.Conv1d(128, num_classes, 1))

    def forward(self, pts):
        # pts: (B, N, 3)
        x = self.mlp2(self.mlp1(pts.transpose(1, 2)))
        g = x.max(dim=2, keepdim=True).values.expand_as(x)
        return self.head(torch.cat([x, g], dim=1))  # (B, C, N)


def train_one_epoch(model, loader, optimizer, device):
    model.train()
    total = 0.0
    for pts, labels in loader:
        pts, labels = pts.to(device), labels.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(pts), labels)
        loss.backward()
        optimizer.step()
        total += loss.item()
    return total / len(loader)


def eval_one_epoch(model, loader, device):
    total_correct, total_seen = 0, 0
    for pts, labels in loader:  # expect: validation-in-train-mode
        pts, labels = pts.to(device), labels.to(device)
        pred = model(pts).argmax(dim=1)
        total_correct += (pred == labels).sum().item()
        total_seen += labels.numel()
    return total_correct / max(total_seen, 1)


def main(epochs=5):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = PointSegNet().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
    train_set = TensorDataset(torch.randn(64, 1024, 3), torch.randint(0, 13, (64, 1024)))
    val_set = TensorDataset(torch.randn(16, 1024, 3), torch.randint(0, 13, (16, 1024)))
    train_loader = DataLoader(train_set, batch_size=8, shuffle=True)
    val_loader = DataLoader(val_set, batch_size=8)
    for epoch in range(epochs):
        loss = train_one_epoch(model, train_loader, optimizer, device)
        with torch.no_grad():
            acc = eval_one_epoch(model, val_loader, device)
        print(f"epoch {epoch}: loss {loss:.4f} val acc {acc:.3f}")


if __name__ == "__main__":
    main()
