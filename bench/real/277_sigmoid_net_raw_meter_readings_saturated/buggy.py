"""Backpropagation network in the AForge/Accord style -- two hidden layers of logistic sigmoid
units and a sigmoid output, squared error, plain SGD on mini-batches -- classifying whether a
household's electricity meter belongs to the high-tariff group from four raw readings (monthly kWh,
peak kW, floor area in square feet, number of occupants). The readings go in unscaled: with values in
the hundreds and thousands and weights drawn around +-0.5, the first-layer pre-activations are in the
hundreds, every sigmoid sits flat at 0 or 1 with derivative ~0, and the network never gets off its
starting point beyond the output bias -- it predicts the majority class.

Source: https://github.com/accord-net/framework/issues/146 (Assistance with Neural Network Implementation)
Report: maintainer: "you have to normalize your outputs to the interval of the output of the
activation function (i.e. [-1,1] for BipolarSigmoid, [0,1] for Sigmoid)"; reporter: "Yes, I figured
out through trial and error that the inputs had to be scaled between 0 and 1. That threw me for a
bit as other libraries I have used ... the inputs only had to be close to the -1:1 range."
Reproduced with 4,000 synthetic households (tariff group from a rule on consumption per square foot
and peak load), a 4-16-8-1 sigmoid network with uniform(-0.5, 0.5) weights, SGD (lr 0.5) for 30
epochs of batch 32. The printed loss is the mean squared error on 1,000 held-out households, `acc`
the accuracy there.

expect: saturated-activation
symptom: acc-below 0.8
batch: 16
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def households(n):
    area = 500 + 3000 * torch.rand(n)
    occupants = torch.randint(1, 7, (n,)).float()
    kwh = area * (0.15 + 0.25 * torch.rand(n)) + 60 * occupants
    peak = 1.5 + kwh / 250 * (0.5 + torch.rand(n))
    y = ((kwh / area > 0.32) | (peak > 9)).float()
    return torch.stack([kwh, peak, area, occupants], 1), y


X_train, y_train = households(4000)
X_test, y_test = households(1000)


def prepare(x):
    return x


model = nn.Sequential(nn.Linear(4, 16), nn.Sigmoid(), nn.Linear(16, 8), nn.Sigmoid(),
                      nn.Linear(8, 1), nn.Sigmoid())
with torch.no_grad():
    for layer in model:
        if isinstance(layer, nn.Linear):
            layer.weight.uniform_(-0.5, 0.5)
            layer.bias.uniform_(-0.5, 0.5)
opt = torch.optim.SGD(model.parameters(), lr=0.5)
Xp, Xp_test = prepare(X_train), prepare(X_test)

for epoch in range(30):
    order = torch.randperm(len(Xp))
    for i in range(0, len(Xp), 32):
        idx = order[i:i + 32]
        loss = ((model(Xp[idx]).squeeze(1) - y_train[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        out = model(Xp_test).squeeze(1)
        test_mse = ((out - y_test) ** 2).mean().item()
        acc = ((out > 0.5).float() == y_test).float().mean().item()
    if epoch % 5 == 4:
        print(f"epoch {epoch} test mse {test_mse:.4f} acc {acc:.3f}")

print(f"final_loss={test_mse:.6g} acc={acc:.4f}")
