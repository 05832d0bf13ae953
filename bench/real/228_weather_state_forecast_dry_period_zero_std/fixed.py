"""Gridded weather forecaster -- fixed along the lines the issue proposes: a field whose training
standard deviation is 0 is not divided by it (its std is replaced by 1, so the dry rain field stays
0 instead of becoming NaN; nothing else changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

G, F_, STEPS = 6, 5, 1500
yy, xx = torch.meshgrid(torch.arange(G).float(), torch.arange(G).float(), indexing="ij")
phase = torch.rand(4) * 6.28
speed = torch.rand(4) * 0.05 + 0.02
fields = []
for t in range(STEPS):
    layers = []
    for f in range(4):
        w = torch.sin(0.6 * xx + 0.4 * yy - speed[f] * t * 6 + phase[f]) * (1 + 0.3 * torch.sin(torch.tensor(t / 90.0)))
        layers.append([15.0, 1010.0, 0.0, 0.0][f] + [8.0, 12.0, 5.0, 5.0][f] * w)
    rain = torch.zeros(G, G) if t < 1000 else torch.relu(torch.sin(0.5 * xx - 0.05 * t)) * 2.0
    layers.append(rain)
    fields.append(torch.stack(layers))
state = torch.stack(fields) + 0.05 * torch.randn(STEPS, F_, G, G)
state[:1000, 4] = 0.0

train_state = state[:1000]
mean = train_state.mean(dim=(0, 2, 3), keepdim=True)
std = train_state.std(dim=(0, 2, 3), keepdim=True)
std = torch.where(std > 0, std, torch.ones_like(std))
z = (state - mean) / std

inputs = torch.cat([z[1:-1], z[:-2]], dim=1).flatten(1)
targets = z[2:].flatten(1)
x_tr, y_tr = inputs[:997], targets[:997]
x_va, y_va = inputs[1000:], targets[1000:]
persist_va = z[1:-1][1000:].flatten(1)

model = nn.Sequential(nn.Linear(2 * F_ * G * G, 256), nn.ReLU(), nn.Linear(256, F_ * G * G))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(8):
    perm = torch.randperm(len(x_tr))
    for i in range(0, len(perm), 50):
        idx = perm[i:i + 50]
        loss = ((model(x_tr[idx]) - y_tr[idx]) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        pv = model(x_va)
    k = 4 * G * G
    val = ((pv[:, :k] - y_va[:, :k]) ** 2).mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f}")

err_model = ((pv[:, :k] - y_va[:, :k]) ** 2).mean(1)
err_persist = ((persist_va[:, :k] - y_va[:, :k]) ** 2).mean(1)
acc = (err_model < err_persist).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
