"""Loan-default ReLU MLP -- fixed by training with learning rate 0.01 instead of 1.0, so the momentum steps
no longer push the second hidden layer into the region where its ReLUs are off for every applicant
(nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

D = 16
mix = torch.randn(D, 8)


def applicants(n):
    x = torch.randn(n, D)
    score = torch.tanh(x @ mix / 3).sum(1) + 0.3 * x[:, 0] * x[:, 1]
    return x, (score > 0).float()


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)

    def fit_epoch(self, loader):
        self.model.train()
        total = 0.0
        for xb, yb in loader:
            loss = F.binary_cross_entropy_with_logits(self.model(xb).squeeze(1), yb)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            total += loss.item() * len(xb)
        return total / len(loader.dataset)

    @torch.no_grad()
    def evaluate(self, x, y):
        self.model.eval()
        logits = self.model(x).squeeze(1)
        return F.binary_cross_entropy_with_logits(logits, y).item(), ((logits > 0).float() == y).float().mean().item()


X_train, y_train = applicants(8000)
X_val, y_val = applicants(2000)
model = nn.Sequential(nn.Linear(D, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
trainer = Trainer(model, lr=0.01)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)

for epoch in range(8):
    train_loss = trainer.fit_epoch(loader)
    val_loss, val_acc = trainer.evaluate(X_val, y_val)
    print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f} acc {val_acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
