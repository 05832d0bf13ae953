"""Sensor-calibration regression with a small Trainer class: the same program with the SGD learning rate lowered from 0.01 to 0.002, below the 2 / curvature limit set by the sensor reading's spread, so full-batch gradient descent converges instead of overshooting further on every step.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

LR, EPOCHS = 0.002, 1500


def readings(n):
    raw = 12.0 * torch.randn(n, 1)
    aux = torch.randn(n, 2)
    x = torch.cat([raw, aux], 1)
    y = 0.9 * raw + 1.5 * aux[:, :1] - 0.5 * aux[:, 1:] + 4.0 + torch.randn(n, 1)
    return x, y


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.opt = torch.optim.SGD(model.parameters(), lr=lr)
        self.history = []

    def step(self, x, y):
        loss = F.mse_loss(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self, x, y):
        pred = self.model(x)
        return F.mse_loss(pred, y).item(), ((pred - y).abs() < 2.0).float().mean().item()

    def fit(self, x, y, x_val, y_val, epochs):
        for epoch in range(epochs):
            train_loss = self.step(x, y)
            val_loss, val_acc = self.evaluate(x_val, y_val)
            self.history.append((train_loss, val_loss))
            if epoch % 250 == 0 or epoch == epochs - 1:
                print(f"epoch {epoch} train {train_loss:.4g} val {val_loss:.4g} within2 {val_acc:.3f}")
        return val_loss, val_acc


X_train, y_train = readings(400)
X_val, y_val = readings(200)
trainer = Trainer(nn.Linear(3, 1), lr=LR)
val_loss, val_acc = trainer.fit(X_train, y_train, X_val, y_val, EPOCHS)
print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
