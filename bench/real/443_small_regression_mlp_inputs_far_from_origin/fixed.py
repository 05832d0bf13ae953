"""Small 1-D regression fit with a two-sigmoid-layer network trained by full-batch gradient descent: the same program with x standardized (training mean and standard deviation) before it enters the network, so the first layer is no longer saturated and the network fits the curve.
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def curve(x):
    return torch.sin(0.6 * (x - 45.0)) + 0.1 * (x - 45.0)


x_tr = 40 + 10 * torch.rand(100, 1)
y_tr = curve(x_tr) + 0.05 * torch.randn_like(x_tr)
x_te = 40 + 10 * torch.rand(200, 1)
y_te = curve(x_te)


X_MEAN, X_STD = x_tr.mean(), x_tr.std()


def prepare(x):
    return (x - X_MEAN) / X_STD


model = nn.Sequential(nn.Linear(1, 8), nn.Sigmoid(), nn.Linear(8, 8), nn.Sigmoid(), nn.Linear(8, 1))
for m in model:
    if isinstance(m, nn.Linear):
        nn.init.xavier_uniform_(m.weight)
        nn.init.zeros_(m.bias)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = nn.MSELoss()

inputs = prepare(x_tr)
for step in range(3000):
    loss = loss_fn(model(inputs), y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 500 == 0:
        print(f"step {step} train mse {loss.item():.4f}")

with torch.no_grad():
    pred = model(prepare(x_te))
    test_mse = loss_fn(pred, y_te).item()
    acc = ((pred - y_te).abs() < 0.2).float().mean().item()
print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
