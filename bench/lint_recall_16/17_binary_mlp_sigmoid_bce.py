"""Binary digit classifier (is it a '0'?) with a sigmoid output layer."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class NeuralNet1(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.linear1 = nn.Linear(input_size, hidden_size)
        self.relu = nn.ReLU()
        self.linear2 = nn.Linear(hidden_size, 1)

    def forward(self, x):
        out = self.relu(self.linear1(x))
        out = self.linear2(out)
        # sigmoid at the end
        return torch.sigmoid(out)


def main(epochs=5):
    x = torch.randn(2000, 28 * 28)
    y = (torch.rand(2000) < 0.1).float().unsqueeze(1)
    train_loader = DataLoader(TensorDataset(x[:1600], y[:1600]), batch_size=64, shuffle=True)
    val_loader = DataLoader(TensorDataset(x[1600:], y[1600:]), batch_size=256)

    model = NeuralNet1(input_size=28 * 28, hidden_size=5)
    criterion = nn.BCELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

    for epoch in range(epochs):
        model.train()
        for xb, yb in train_loader:
            y_pred = model(xb)
            loss = criterion(y_pred, yb)  # expect: sigmoid-before-bce
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

        model.eval()
        correct = 0
        with torch.no_grad():
            for xb, yb in val_loader:
                correct += ((model(xb) > 0.5).float() == yb).sum().item()
        print(f"epoch {epoch}: val acc {correct / 400:.3f}")


if __name__ == "__main__":
    main()
