"""IMDB bag-of-words sentiment model used to compare L1/L2/dropout regularisation."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class FeedForwardNN(nn.Module):
    def __init__(self, input_dim, hidden_dim=100, dropout=0.5):
        super().__init__()
        self.linear1 = nn.Linear(input_dim, hidden_dim)
        self.linear2 = nn.Linear(hidden_dim, hidden_dim)
        self.linear3 = nn.Linear(hidden_dim, 1)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        out = F.relu(self.linear1(x))
        out = self.dropout(out)
        out = F.relu(self.linear2(out))
        return self.linear3(out).squeeze(1)


def l1_penalty(model):
    return sum(p.abs().sum() for name, p in model.named_parameters() if "weight" in name)


def run(train_x, train_y, test_x, test_y, reg="l1", lam=1e-4, epochs=5):
    model = FeedForwardNN(train_x.size(1)).to(device)
    criterion = nn.BCEWithLogitsLoss()
    weight_decay = lam if reg == "l2" else 0.0
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=weight_decay)
    train_loader = DataLoader(TensorDataset(train_x, train_y), batch_size=64, shuffle=True)
    test_loader = DataLoader(TensorDataset(test_x, test_y), batch_size=256, shuffle=False)

    for epoch in range(epochs):
        model.train()
        total = 0.0
        for x, y in train_loader:
            x, y = x.to(device), y.float().to(device)
            optimizer.zero_grad()
            logits = model(x)
            loss = criterion(torch.sigmoid(logits), y)  # expect: sigmoid-before-bce-with-logits
            if reg == "l1":
                loss = loss + lam * l1_penalty(model)
            loss.backward()
            optimizer.step()
            total += loss.item()

        model.eval()
        correct, seen = 0, 0
        with torch.no_grad():
            for x, y in test_loader:
                x, y = x.to(device), y.to(device)
                pred = (model(x) > 0).long()
                correct += (pred == y.long()).sum().item()
                seen += y.size(0)
        print(f"[{reg}] epoch {epoch} loss {total / max(len(train_loader), 1):.4f} acc {correct / max(seen, 1):.4f}")
    return model
