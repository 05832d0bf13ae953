"""Graph-network particle-flow reconstruction: training and validation epochs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLPF(nn.Module):
    def __init__(self, in_dim=25, hidden=256, num_classes=6):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(in_dim, hidden), nn.ELU(), nn.Linear(hidden, hidden), nn.ELU())
        self.cls = nn.Linear(hidden, num_classes)
        self.reg = nn.Linear(hidden, 5)

    def forward(self, x):
        h = self.enc(x)
        return self.cls(h), self.reg(h)


def mlpf_loss(pred_cls, pred_reg, ygen_cls, ygen_reg):
    loss_cls = F.cross_entropy(pred_cls.reshape(-1, pred_cls.shape[-1]), ygen_cls.reshape(-1))
    loss_reg = F.mse_loss(pred_reg, ygen_reg)
    return loss_cls + loss_reg


def train_epoch(model, loader, optimizer, device):
    model.train()
    total, n = 0.0, 0
    for X, ygen_cls, ygen_reg in loader:
        X, ygen_cls, ygen_reg = X.to(device), ygen_cls.to(device), ygen_reg.to(device)
        pred_cls, pred_reg = model(X)
        loss = mlpf_loss(pred_cls, pred_reg, ygen_cls, ygen_reg)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        n += 1
    return total / max(n, 1)


def valid_epoch(model, loader, device):
    model.eval()
    total, n = 0.0, 0
    for X, ygen_cls, ygen_reg in loader:
        X, ygen_cls, ygen_reg = X.to(device), ygen_cls.to(device), ygen_reg.to(device)
        pred_cls, pred_reg = model(X)  # expect: validation-in-train-mode
        loss = mlpf_loss(pred_cls, pred_reg, ygen_cls, ygen_reg)
        total += loss.item()
        n += 1
    return total / max(n, 1)


def train_mlpf(model, train_loader, valid_loader, epochs=10, device="cuda"):
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    best = float("inf")
    for epoch in range(epochs):
        tl = train_epoch(model, train_loader, optimizer, device)
        vl = valid_epoch(model, valid_loader, device)
        if vl < best:
            best = vl
            torch.save(model.state_dict(), "best_weights.pth")
        print(f"epoch {epoch}: train {tl:.4f} valid {vl:.4f}")
