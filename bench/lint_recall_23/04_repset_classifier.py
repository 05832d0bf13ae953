"""Set classification with learned hidden sets (RepSet-style), trained with cross entropy."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.parameter import Parameter
from torch.utils.data import DataLoader, TensorDataset


class HiddenSetNet(nn.Module):
    def __init__(self, n_hidden_sets, n_elements, d, n_classes):
        super().__init__()
        self.n_hidden_sets = n_hidden_sets
        self.n_elements = n_elements
        self.Wc = Parameter(torch.empty(d, n_hidden_sets * n_elements).uniform_(-1, 1))
        self.fc1 = nn.Linear(n_hidden_sets, 32)
        self.fc2 = nn.Linear(32, n_classes)

    def forward(self, X):
        t = F.relu(torch.matmul(X, self.Wc))
        t = t.view(t.size(0), t.size(1), self.n_elements, self.n_hidden_sets)
        t, _ = torch.max(t, dim=2)
        t = torch.sum(t, dim=1)
        t = F.relu(self.fc1(t))
        return F.log_softmax(self.fc2(t), dim=1)


def run_epoch(model, loader, optimizer):
    model.train()
    total, correct, loss_sum = 0, 0, 0.0
    for X, y in loader:
        optimizer.zero_grad()
        out = model(X)
        loss = F.cross_entropy(out, y)  # expect: softmax-before-cross-entropy
        loss.backward()
        optimizer.step()
        loss_sum += loss.item() * X.size(0)
        correct += (out.argmax(dim=1) == y).sum().item()
        total += X.size(0)
    return loss_sum / total, correct / total


def main():
    X = torch.randn(600, 20, 16)
    y = torch.randint(0, 4, (600,))
    loader = DataLoader(TensorDataset(X, y), batch_size=32, shuffle=True)
    model = HiddenSetNet(n_hidden_sets=8, n_elements=5, d=16, n_classes=4)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(20):
        loss, acc = run_epoch(model, loader, optimizer)
        print(f"epoch {epoch:02d} loss {loss:.4f} acc {acc:.3f}")


if __name__ == "__main__":
    main()
