"""MLP fitting y = x**3 on x = 1..4000 with raw inputs and targets: it cannot learn the curve.

Source: https://discuss.pytorch.org/t/neural-network-could-not-learn-on-this-type-of-data-why/96648
Report: a 1-50-1 ReLU network trained with Adam(1e-3) and MSELoss on input = 1..3999 and
target = input**3 does not learn; ptrblck's answer: normalise the input (which is usually done
anyway) and also the target, train on the normalised target and un-normalise the predictions
afterwards ("which can successfully learn the data using this approach"). Reproduced with the
thread's network, data and optimizer; `acc` is R^2 of the predictions on the original scale.

expect: data-unnormalized
symptom: acc-below 0.5
batch: 2
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)


class Network(nn.Module):
    def __init__(self):
        super(Network, self).__init__()
        self.fc1 = nn.Linear(in_features=1, out_features=50, bias=True)
        self.fc2 = nn.Linear(in_features=50, out_features=1, bias=True)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = self.fc2(x)
        return x


model = Network()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.MSELoss()

input = torch.arange(1, 4000).float()
target = input ** 3
input = input.unsqueeze(1)
target = target.unsqueeze(1)
target_train = target
input_mean, input_std = 0.0, 1.0
target_mean, target_std = 0.0, 1.0

losses = []
for epoch in range(800):
    optimizer.zero_grad()
    out = model((input - input_mean) / input_std)
    loss = criterion(out, target_train)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())

with torch.no_grad():
    pred = model((input - input_mean) / input_std) * target_std + target_mean
    r2 = 1 - ((pred - target) ** 2).mean().item() / target.var().item()
print(f"final_loss={sum(losses[-10:]) / 10:.6g} acc={r2:.4f}")
