"""Tabular binary classifier trained offline and served behind a small prediction API."""
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self, input_dim):
        super().__init__()
        self.fc1 = nn.Linear(input_dim, 270)
        self.fc2 = nn.Linear(270, 2)

    def forward(self, x):
        x = self.fc1(x)
        x = F.dropout(x, p=0.1)  # expect: functional-dropout-always-on
        x = F.relu(x)
        return self.fc2(x)


def load_frame(path):
    df = pd.read_csv(path)
    y = torch.tensor(df.pop("target").values, dtype=torch.long)
    x = torch.tensor(df.values, dtype=torch.float32)
    x = (x - x.mean(dim=0)) / (x.std(dim=0) + 1e-6)
    return x, y


def train_model(csv_path, epochs=30, lr=1e-3):
    x, y = load_frame(csv_path)
    loader = DataLoader(TensorDataset(x, y), batch_size=128, shuffle=True)
    model = Net(x.shape[1])
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        epoch_loss = 0.0
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            optimizer.step()
            epoch_loss += loss.item() * xb.size(0)
        print(f"epoch {epoch}: {epoch_loss / len(loader.dataset):.4f}")
    torch.save(model.state_dict(), "model.pt")
    return model


def predict(model, features):
    model.eval()
    with torch.no_grad():
        logits = model(torch.tensor([features], dtype=torch.float32))
        return torch.softmax(logits, dim=1)[0, 1].item()


if __name__ == "__main__":
    trained = train_model("train.csv")
    print(predict(trained, [0.0] * trained.fc1.in_features))
