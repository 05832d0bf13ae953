"""Weld-quality classifier on raw process readings (20 sensor channels such as current, voltage, wire
feed and temperatures, in their native units, values in the hundreds; a one-hidden-layer tanh network
with a tanh output trained on +-1 targets with MSE and SGD from a DataLoader). The readings are fed in
unscaled: every hidden pre-activation is a sum of twenty values in the hundreds, so it sits far out on
the flat part of tanh for every sample, the hidden units output the same +-1 pattern for good and bad
welds, and their derivative 1 - tanh^2 is ~0, so the first layer cannot learn its way out. Only the
output layer trains, on constant features, and the classifier stays at chance level (~50%).

Source: https://stackoverflow.com/questions/61392480/gradient-descent-with-tanh-0-gradient-on-incorrect-classification (Gradient descent with tanh: 0 gradient on incorrect classification)
Report: "The derivative of the tanh(x) activation function is 1-tanh^2(x) ... When tanh(x) is equal to
1 or -1, the term tanh^2(x) becomes 1 ... the gradient of the loss becomes 0, and so the weights do not
update." -- answer: "the gradients do become dampened for x of higher absolute value, so you should:
z-normalize your inputs and initialize weights in network the right way". Reproduced with 4,000
synthetic welds (channel means 80-400, stds 5-40; the weld is bad when a nonlinear combination of
standardised current, voltage and temperature deviations leaves a band), network 20-32-1 with tanh,
SGD lr 0.05 momentum 0.9, batch 64, 15 epochs. The printed loss is the validation MSE on 1,000 welds,
`acc` the validation accuracy.

expect: saturated-activation
symptom: acc-below 0.72
batch: 15
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

CHANNELS = 20
means = 80 + 320 * torch.rand(CHANNELS)
stds = 5 + 35 * torch.rand(CHANNELS)


def welds(n):
    z = torch.randn(n, CHANNELS)
    score = z[:, 0] * z[:, 1] + 0.8 * z[:, 2] ** 2 - 0.6 * z[:, 3] + 0.3 * torch.randn(n)
    y = torch.where(score > 0.6, 1.0, -1.0)
    return means + stds * z, y


def prepare(x):
    return x


x_train, y_train = welds(4000)
x_val, y_val = welds(1000)
train = DataLoader(TensorDataset(prepare(x_train), y_train), batch_size=64, shuffle=True)
xv = prepare(x_val)

model = nn.Sequential(nn.Linear(CHANNELS, 32), nn.Tanh(), nn.Linear(32, 1), nn.Tanh())
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
for epoch in range(15):
    total = 0.0
    for xb, yb in train:
        loss = F.mse_loss(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
    if epoch % 5 == 0:
        print(f"epoch {epoch} train mse {total / len(y_train):.4f}")

with torch.no_grad():
    out = model(xv).squeeze(1)
    val_mse = F.mse_loss(out, y_val).item()
    acc = ((out > 0).float() * 2 - 1 == y_val).float().mean().item()
print(f"final_loss={val_mse:.6g} acc={acc:.4f}")
