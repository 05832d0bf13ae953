"""Sensor-calibration regression written as a small Trainer class: a linear model maps a raw pressure-sensor reading (centred, spread of about 12 units) and two auxiliary channels to the reference pressure, trained full-batch with plain SGD on the MSE. With inputs of that spread the curvature of the MSE along the sensor weight is about 2 * E[x^2] ~ 290, so plain gradient descent is only stable for learning rates below about 2 / 290 ~ 0.007; the trainer uses lr = 0.01, every step overshoots the minimum by more than it started from, and the loss grows geometrically until it overflows.

Source: https://github.com/pytorch/pytorch/issues/23142 (Simple Linear Regression under PyTorch diverges)
Report: "I am using a very basic linear regression ... X = torch.randn(100, 1)*10 ... optimizer = torch.optim.SGD(model.parameters(),
lr = 0.01) ... Any idea why this is diverging? ... epoch: 0 loss: 36.4 epoch: 1 loss: 43.9 epoch: 2 loss: 53.5 ... epoch: 7 loss:
156.4" -- the same user's report of the same course code elsewhere was answered "I have solved this problem by dramatically
decreasing the learning rate". Reproduced with synthetic readings (spread about 12) plus two small auxiliary channels and a
linear target with noise; the fix lowers the rate to 0.002. The printed loss is the held-out MSE, `acc` the fraction of held-out
readings calibrated to within 2 units.

expect: lr-too-high
symptom: loss-above 1000
batch: 28
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

LR, EPOCHS = 0.01, 1500


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
