"""Next-step forecaster for a small gridded weather state (temperature, pressure, wind u/v and
rain rate on a 6x6 grid; the state at t and t-1 in, the state at t+1 out, an MLP trained on whole
time windows with Adam). Every state field is standardised with its mean and standard deviation
over the training period. The chosen training period is a dry spell, so the rain-rate field is 0
everywhere and its standard deviation is 0: standardising divides 0 by 0, the whole rain channel
becomes NaN, and so do the predictions and the loss -- without any error being raised.

Source: https://github.com/mllam/neural-lam/issues/136 (State standardization causes `NaN` if field's std is 0.)
Report: "In the case state values are all the same and the standard deviation is 0, the
standardization returns a `NaN` field, due to division by zero. While this does not cause an
immediate error, the predictions are as a consequence all `NaN`. ... for test runs this is not
unlikely, e.g. rain rates might be all 0 if a time-period without rain has been chosen."
Reproduced with a synthetic 1,500-step simulation of four advected, smoothly varying fields plus a
rain field that is zero throughout the 1,000-step training period, an MLP 360-256-180, Adam lr
1e-3, batches of 50 cut by hand, 8 epochs. The printed loss is the validation MSE in standardised
units over the four non-rain fields, `acc` the share of validation steps beating persistence.

expect: constant-feature
symptom: nonfinite
batch: 13
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
