"""Train the target CNN that a black-box (ZOO) attack is later run against; track val accuracy."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MNISTModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, 32, 3), nn.ReLU(), nn.Conv2d(32, 32, 3), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3), nn.ReLU(), nn.Conv2d(64, 64, 3), nn.ReLU(), nn.MaxPool2d(2),
        )
        self.classifier = nn.Sequential(
            nn.Flatten(), nn.Linear(64 * 4 * 4, 200), nn.ReLU(), nn.Dropout(0.5),
            nn.Linear(200, 200), nn.ReLU(), nn.Linear(200, 10),
        )

    def forward(self, x):
        return self.classifier(self.features(x))


class Trainer:
    def __init__(self, model, lr=0.01, device="cpu"):
        self.model = model.to(device)
        self.device = device
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True)

    def train_epoch(self, loader):
        self.model.train()
        for x, y in loader:
            x, y = x.to(self.device), y.to(self.device)
            loss = F.cross_entropy(self.model(x), y)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()

    def validate(self, loader):
        correct, total = 0, 0
        with torch.no_grad():
            for x, y in loader:
                x, y = x.to(self.device), y.to(self.device)
                logits = self.model(x)  # expect: validation-in-train-mode
                correct += (logits.argmax(dim=1) == y).sum().item()
                total += y.size(0)
        return correct / max(total, 1)

    def fit(self, train_loader, val_loader, epochs=10):
        best = 0.0
        for epoch in range(epochs):
            self.train_epoch(train_loader)
            acc = self.validate(val_loader)
            if acc > best:
                best = acc
                torch.save(self.model.state_dict(), "mnist_target.pt")
            print(f"epoch {epoch}: val acc {acc:.4f} (best {best:.4f})")


if __name__ == "__main__":
    x, y = torch.randn(1200, 1, 28, 28), torch.randint(0, 10, (1200,))
    trainer = Trainer(MNISTModel())
    trainer.fit(DataLoader(TensorDataset(x[:1000], y[:1000]), batch_size=64, shuffle=True),
                DataLoader(TensorDataset(x[1000:], y[1000:]), batch_size=200), epochs=3)
