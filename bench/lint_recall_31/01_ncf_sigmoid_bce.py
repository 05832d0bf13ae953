"""Neural collaborative filtering on implicit feedback (GMF + MLP towers)."""
import argparse

import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset


class NeuMF(nn.Module):
    def __init__(self, n_users, n_items, factors=8, layers=3, dropout=0.0):
        super().__init__()
        self.user_gmf = nn.Embedding(n_users, factors)
        self.item_gmf = nn.Embedding(n_items, factors)
        self.user_mlp = nn.Embedding(n_users, factors * (2 ** (layers - 1)))
        self.item_mlp = nn.Embedding(n_items, factors * (2 ** (layers - 1)))
        blocks = []
        for i in range(layers):
            width = factors * (2 ** (layers - i))
            blocks += [nn.Dropout(dropout), nn.Linear(width, width // 2), nn.ReLU()]
        self.mlp = nn.Sequential(*blocks)
        self.head = nn.Linear(factors * 2, 1)

    def forward(self, user, item):
        gmf = self.user_gmf(user) * self.item_gmf(item)
        mlp = self.mlp(torch.cat([self.user_mlp(user), self.item_mlp(item)], dim=-1))
        score = self.head(torch.cat([gmf, mlp], dim=-1))
        return torch.sigmoid(score).view(-1)


def hit_ratio(model, users, items, k, device):
    model.eval()
    with torch.no_grad():
        scores = model(users.to(device), items.to(device))
        top = torch.topk(scores, k).indices
    return float((top == 0).any())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=20)
    parser.add_argument("--lr", type=float, default=1e-3)
    args = parser.parse_args()

    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    users = torch.randint(0, 600, (50000,))
    items = torch.randint(0, 3700, (50000,))
    labels = torch.randint(0, 2, (50000,)).float()
    loader = DataLoader(TensorDataset(users, items, labels), batch_size=256, shuffle=True)

    model = NeuMF(600, 3700).to(device)
    loss_function = nn.BCELoss()
    optimizer = optim.Adam(model.parameters(), lr=args.lr)

    for epoch in range(args.epochs):
        model.train()
        for user, item, label in loader:
            user, item, label = user.to(device), item.to(device), label.to(device)
            optimizer.zero_grad()
            prediction = model(user, item)
            loss = loss_function(prediction, label)  # expect: sigmoid-before-bce
            loss.backward()
            optimizer.step()
        hr = hit_ratio(model, users[:100], items[:100], 10, device)
        print(f"epoch {epoch:03d} HR@10 {hr:.3f}")


if __name__ == "__main__":
    main()
