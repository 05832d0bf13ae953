# Source: https://github.com/nshaud/DeepHyperX/issues/51
# Pitfall: the per-epoch validation helper runs the network under no_grad but never switches it to
#   eval mode, so dropout and batch-norm behave as in training and the validation score is skewed.
# Reproduced in our own words, not the original code.
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


class SpectralCNN(nn.Module):
    def __init__(self, n_bands=103, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 20, 11), nn.BatchNorm1d(20), nn.ReLU(), nn.MaxPool1d(3),
            nn.Conv1d(20, 40, 5), nn.BatchNorm1d(40), nn.ReLU(), nn.AdaptiveAvgPool1d(4),
        )
        self.classifier = nn.Sequential(nn.Flatten(), nn.Dropout(0.5), nn.Linear(160, n_classes))

    def forward(self, x):
        return self.classifier(self.features(x.unsqueeze(1)))


def val(net, data_loader, device="cpu", ignored_labels=(0,)):
    accuracy, total = 0.0, 0
    for data, target in data_loader:
        with torch.no_grad():
            data, target = data.to(device), target.to(device)
            output = net(data)  # expect: validation-in-train-mode
            _, output = torch.max(output, dim=1)
            for out, pred in zip(output.view(-1), target.view(-1)):
                if pred.item() in ignored_labels:
                    continue
                accuracy += out.item() == pred.item()
                total += 1
    return accuracy / max(total, 1)


def train(net, optimizer, criterion, data_loader, epoch, device="cpu", val_loader=None):
    for e in range(1, epoch + 1):
        net.train()
        avg_loss = 0.0
        for data, target in data_loader:
            data, target = data.to(device), target.to(device)
            optimizer.zero_grad()
            loss = criterion(net(data), target)
            loss.backward()
            optimizer.step()
            avg_loss += loss.item()
        metric = val(net, val_loader, device=device) if val_loader is not None else float("nan")
        print(f"epoch {e}: train loss {avg_loss / len(data_loader):.4f}, val acc {metric:.3f}")


if __name__ == "__main__":
    X, y = torch.randn(2000, 103), torch.randint(0, 10, (2000,))
    train_loader = DataLoader(TensorDataset(X[:1600], y[:1600]), batch_size=64, shuffle=True)
    val_loader = DataLoader(TensorDataset(X[1600:], y[1600:]), batch_size=256)
    model = SpectralCNN()
    train(model, optim.Adam(model.parameters(), lr=1e-3), nn.CrossEntropyLoss(ignore_index=0),
          train_loader, epoch=5, val_loader=val_loader)
