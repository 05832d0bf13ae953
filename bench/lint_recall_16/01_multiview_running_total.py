"""Multi-view shape classifier: one training epoch with a running loss total."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class ViewPool(nn.Module):
    def __init__(self, feat_dim=64, n_classes=40):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(128, feat_dim), nn.ReLU())
        self.head = nn.Linear(feat_dim, n_classes)

    def forward(self, views):
        # views: (batch, n_views, 128)
        feats = self.encoder(views)
        pooled = feats.max(dim=1).values
        return self.head(pooled)


def make_loader(n=512, n_views=12):
    views = torch.randn(n, n_views, 128)
    labels = torch.randint(0, 40, (n,))
    return DataLoader(TensorDataset(views, labels), batch_size=32, shuffle=True)


def train_one_epoch(model, loader, optimizer, criterion, device):
    model.train()
    total_loss = 0.0
    n_batches = 0
    for views, labels in loader:
        views, labels = views.to(device), labels.to(device)
        optimizer.zero_grad()
        logits = model(views)
        loss = criterion(logits, labels)
        loss.backward()
        optimizer.step()
        total_loss += loss  # expect: running-loss-keeps-graph
        n_batches += 1
    return total_loss / max(n_batches, 1)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = ViewPool().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    loader = make_loader()
    for epoch in range(5):
        avg = train_one_epoch(model, loader, optimizer, criterion, device)
        print(f"epoch {epoch}: loss {float(avg):.4f}")


if __name__ == "__main__":
    main()
