"""Small CNN regressor on image features, trained with MSE against a per-sample scalar target."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                                  nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.fc = nn.Linear(32, 1)

    def forward(self, x):
        return self.fc(self.conv(x).flatten(1))


def train(model, x, y, epochs=20, device="cuda"):
    loader = DataLoader(TensorDataset(x, y), batch_size=100, shuffle=True)
    model.to(device)
    loss = torch.nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        model.train()
        running = 0.0
        for a_in, b in loader:
            a_in, b = a_in.to(device), b.to(device)
            a = model(a_in)
            output = loss(a, b)  # expect: loss-shape-broadcast
            optimizer.zero_grad()
            output.backward()
            optimizer.step()
            running += output.item()
        print(f"epoch {epoch}: {running / len(loader):.4f}")


if __name__ == "__main__":
    images = torch.randn(1000, 3, 32, 32)
    targets = torch.randn(1000)
    train(Regressor(), images, targets)
