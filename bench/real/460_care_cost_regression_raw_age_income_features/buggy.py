"""Monthly care-cost regression for elderly clients: a linear model predicts the monthly spending (in hundreds) from four raw client attributes -- age in years (65-100), yearly income in thousands (10-120), number of prescriptions (0-12) and years at the residence (0-30) -- trained full-batch with plain SGD (lr 1e-3) on the MSE. The attributes are fed in their natural units: the age and income columns are in the tens to hundreds, so the MSE surface is thousands of times steeper along their weights than a learning rate of 1e-3 can follow; every step overshoots further than the last, the weights and predictions grow geometrically, and the loss overflows to inf and then NaN.

Source: https://github.com/pytorch/pytorch/issues/149827 (Why has my linear regression always been NaN?)
Report: "ages = torch.tensor([[65], [70], [75], [80], [85], [90], [95], [100]]) ... spendings = torch.tensor([[200], [250], ...
[550]]) ... optimizer = optim.SGD(model.parameters(), lr=0.001) ... Why has my linear regression always been NaN?" Reproduced with
synthetic clients whose four attributes are kept in their raw units and a linear model trained with SGD at lr 1e-3; the fix
standardises each attribute with the training mean and standard deviation before training. The printed loss is the held-out
MSE (in hundreds squared), `acc` the fraction of held-out clients predicted within 0.5 (fifty units of spending).

expect: data-unnormalized
symptom: nonfinite
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


def clients(n):
    age = 65 + 35 * torch.rand(n)
    income = 10 + 110 * torch.rand(n)
    prescriptions = torch.randint(0, 13, (n,)).float()
    tenure = 30 * torch.rand(n)
    x = torch.stack([age, income, prescriptions, tenure], 1)
    y = 2.0 + 0.08 * (age - 65) + 0.015 * income + 0.2 * prescriptions - 0.02 * tenure + 0.2 * torch.randn(n)
    return x, y[:, None]


def prepare(x, reference):
    return x


X_train_raw, y_train = clients(1000)
X_test_raw, y_test = clients(400)
X_train, X_test = prepare(X_train_raw, X_train_raw), prepare(X_test_raw, X_train_raw)
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=1e-3)

for step in range(3000):
    loss = F.mse_loss(model(X_train), y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 500 == 499:
        with torch.no_grad():
            pred = model(X_test)
            test_mse = F.mse_loss(pred, y_test).item()
            acc = ((pred - y_test).abs() < 0.5).float().mean().item()
        print(f"step {step + 1} train {loss.item():.4g} test {test_mse:.4g} within0.5 {acc:.3f}")

print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
