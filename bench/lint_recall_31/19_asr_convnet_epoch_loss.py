"""Frame-level phone classifier (ConvNet) for ASR, trained with cross-entropy on aligned labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset
from tqdm import tqdm

NUM_LABELS = 46


class ConvNet(nn.Module):
    def __init__(self, in_ch=2, n_labels=NUM_LABELS):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(in_ch, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.BatchNorm2d(64), nn.ReLU(),
            nn.AdaptiveAvgPool2d((4, 4)),
        )
        self.fc = nn.Linear(64 * 16, n_labels)

    def forward(self, x):
        return self.fc(self.features(x).flatten(1))


class ConvModel:
    def __init__(self, use_cuda=False, lr=1e-3):
        self.device = torch.device("cuda" if use_cuda and torch.cuda.is_available() else "cpu")
        self.encoder = ConvNet().to(self.device)
        self.loss = nn.CrossEntropyLoss()
        self.optimizer = torch.optim.Adam(self.encoder.parameters(), lr=lr)

    def train_epoch(self, data_loader):
        self.encoder.train()
        epoch_loss = 0.0
        for xs, ys in tqdm(data_loader, desc="training"):
            xs, ys = xs.to(self.device), ys.to(self.device)
            self.optimizer.zero_grad()
            y_hats = self.encoder(xs)
            loss = self.loss(y_hats, ys)
            epoch_loss += loss  # expect: running-loss-keeps-graph
            loss.backward()
            self.optimizer.step()
        return epoch_loss / len(data_loader)

    def test(self, data_loader):
        self.encoder.eval()
        correct, total = 0, 0
        with torch.no_grad():
            for xs, ys in data_loader:
                xs, ys = xs.to(self.device), ys.to(self.device)
                pred = F.softmax(self.encoder(xs), dim=1).argmax(dim=1)
                correct += (pred == ys).sum().item()
                total += ys.size(0)
        return correct / max(total, 1)


if __name__ == "__main__":
    feats = torch.randn(2048, 2, 129, 21)
    labels = torch.randint(0, NUM_LABELS, (2048,))
    train_loader = DataLoader(TensorDataset(feats[:1800], labels[:1800]), batch_size=64, shuffle=True)
    test_loader = DataLoader(TensorDataset(feats[1800:], labels[1800:]), batch_size=64)
    model = ConvModel()
    for epoch in range(3):
        print(epoch, model.train_epoch(train_loader), model.test(test_loader))
