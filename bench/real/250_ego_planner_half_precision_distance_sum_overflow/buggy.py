"""Ego-vehicle planner for a driving-scene dataset (ego speed history plus the 16 surrounding agents
given as ego-relative offsets in metres; an MLP predicts 8 future ego waypoints; Adam, DataLoader
minibatches). The run is switched to 16-bit precision by casting the model and every batch to
float16. Inside the forward pass the planner derives each agent's distance from the ego as
sqrt(dx*dx + dy*dy) in the working dtype: for any agent farther than 256 m the sum of the two squares
exceeds 65504, the largest float16 value, the addition overflows to inf, the inf distance feature turns
the hidden activations into inf/NaN, and the loss is NaN from the first batches on.

Source: https://github.com/motional/nuplan-devkit/issues/91 (training_loss is 'nan')
Report: "I have solved this problem. The reason is that FP16 was used for high efficiency, but the
overflow occurred in some addition operations, thus leaded to 'nan' data. My solution is to modify
the config file ... precision: 32 # 16". Reproduced with 3,000 synthetic scenes (agents within +-250 m
of the ego, half of them in the ego lane; the ego slows down behind a close lead vehicle), MLP
(4 + 16x3 inputs, 128-128 hidden, 16 outputs), Adam lr 1e-3, batch 64, 20 epochs, everything in
float16. The printed loss is the validation average displacement error in metres on 600 scenes,
`acc` the fraction of validation scenes whose final waypoint is within 2 m.

expect: fp16-overflow
symptom: nonfinite
batch: 15
"""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

PRECISION = torch.float16
AGENTS, HORIZON, DT = 16, 8, 0.5


def scenes(n):
    v = 2 + 13 * torch.rand(n, 1)
    hist = v + 0.3 * torch.randn(n, 4)
    dx = 500 * torch.rand(n, AGENTS) - 250
    in_lane = torch.rand(n, AGENTS) < 0.5
    dy = torch.where(in_lane, 1.5 * torch.randn(n, AGENTS), 500 * torch.rand(n, AGENTS) - 250)
    ahead = (dx > 0) & (dy.abs() < 4)
    d_front = torch.where(ahead, dx, torch.full_like(dx, 250.0)).min(1, keepdim=True).values
    factor = 0.6 + 0.4 * torch.sigmoid((d_front - 30) / 8)
    t = DT * torch.arange(1, HORIZON + 1).float()
    x_fut = v * factor * t
    y_fut = 0.02 * torch.randn(n, 1) * t ** 2
    agents = torch.stack([dx, dy], 2)
    return hist, agents, torch.cat([x_fut, y_fut], 1)


class Planner(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4 + AGENTS * 3, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                                 nn.Linear(128, 2 * HORIZON))

    def forward(self, hist, agents):
        dx, dy = agents[..., 0], agents[..., 1]
        dist = torch.sqrt(dx * dx + dy * dy)
        feats = torch.cat([hist / 10, dx / 100, dy / 100, dist / 100], 1)
        return self.net(feats) * 10


train = TensorDataset(*scenes(3000))
val_hist, val_agents, val_y = scenes(600)
model = Planner().to(PRECISION)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(train, batch_size=64, shuffle=True)
for epoch in range(20):
    total, count = 0.0, 0
    for hist, agents, y in loader:
        pred = model(hist.to(PRECISION), agents.to(PRECISION))
        loss = ((pred.float() - y) ** 2).mean() / 10
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(y)
        count += len(y)
    if epoch % 3 == 0:
        print(f"epoch {epoch} train loss {total / count:.4f}")

with torch.no_grad():
    pred = model(val_hist.to(PRECISION), val_agents.to(PRECISION)).float()
    px, py = pred[:, :HORIZON], pred[:, HORIZON:]
    tx, ty = val_y[:, :HORIZON], val_y[:, HORIZON:]
    err = torch.sqrt((px - tx) ** 2 + (py - ty) ** 2)
    ade = err.mean().item()
    acc = (err[:, -1] < 2.0).float().mean().item()
print(f"final_loss={ade:.6g} acc={acc:.4f}")
