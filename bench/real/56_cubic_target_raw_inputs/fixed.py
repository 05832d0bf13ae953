"""Fixed version of /buggy.py (the source and the report are in its docstring).

Fix: normalise the input and the target (train on the normalised target, un-normalise the predictions).
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
input_mean, input_std = torch.mean(input), torch.std(input)
target_mean, target_std = torch.mean(target), torch.std(target)
target_train = (target - target_mean) / target_std

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
