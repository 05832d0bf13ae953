"""Unsupervised domain adaptation with Minimum Class Confusion on the unlabeled target batch."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def probability_scaling(logits, temperature=1.0):
    return F.softmax(logits / temperature, dim=1)


def mcc_loss(y, T=2.5):
    y_scaled = probability_scaling(y, temperature=T)
    H = -torch.sum(y_scaled * torch.log(y_scaled), dim=1)  # expect: unguarded-zero, log-of-softmax
    W = 1 + torch.exp(-H)
    W = y.shape[0] * W / torch.sum(W)
    C = (y_scaled * W.unsqueeze(1)).T @ y_scaled
    C = C / torch.sum(C, dim=1)
    return (torch.sum(C) - torch.trace(C)) / C.shape[0]


class DANetwork(nn.Module):
    def __init__(self, in_dim=256, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU())
        self.classifier = nn.Linear(64, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x))


def train(model, source_loader, target_loader, epochs=20, mcc_weight=1.0, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for epoch in range(epochs):
        model.train()
        total = 0.0
        for (xs, ys), (xt, _) in zip(source_loader, target_loader):
            optimizer.zero_grad()
            loss = F.cross_entropy(model(xs), ys) + mcc_weight * mcc_loss(model(xt))
            loss.backward()
            optimizer.step()
            total += loss.item()
        print(f"epoch {epoch} loss {total:.3f}")
