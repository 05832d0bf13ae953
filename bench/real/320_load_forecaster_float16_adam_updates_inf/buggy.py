"""Short-term electricity-load forecaster (an MLP that maps the last 48 half-hourly readings of a feeder to the next reading), stored and trained entirely in float16 -- parameters, inputs and optimiser state -- with full-batch Adam at lr 3e-3 and the default eps=1e-8. Adam's second moment after the first step is 0.001*g^2; for any gradient entry below about 8e-3 in magnitude that product is under float16's smallest subnormal and becomes exactly 0, and eps itself rounds to 0 in float16, so the step divides a nonzero first moment by 0 and writes +/-Inf into the weights. From the first update on the forecasts and the loss are NaN.

Source: https://github.com/FluxML/Optimisers.jl/issues/167 (Adam optimizer can produce NaNs with Float16 due to small epsilon)
Report: "I have found a bug in Adam's optimiser when used with Float16 ... x = Float16[0.579, -0.729,
0.5493], δx = Float16[-0.001497, 0.0001875, -0.013176] ... after update x = Float16[Inf, -Inf,
0.5493] ... because default ϵ is in Float64 and it is too small. When I initialize Adam with
different epsilon as Optimisers.Adam(1e-4, (0.9, 0.999), eps(Float16)), it works well." Reproduced
in PyTorch with 3,000 synthetic 48-step windows of a daily-cycle load curve with weather drift and
noise (standardised), an MLP 48-64-64-1 cast with .half(), full-batch torch.optim.Adam(lr 3e-3)
for 300 steps. The printed loss is the MSE on 800 later windows, `acc` their R^2.

expect: fp16-underflow
symptom: nonfinite
batch: 19
"""
import argparse
import math

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

WINDOW, STEPS = 48, 3900
t = torch.arange(STEPS + WINDOW).float()
drift = torch.cumsum(0.05 * torch.randn(STEPS + WINDOW), 0)
load = (torch.sin(2 * math.pi * t / 48) + 0.4 * torch.sin(4 * math.pi * t / 48 + 1.0)
        + 0.1 * drift + 0.15 * torch.randn(STEPS + WINDOW))
load = (load - load.mean()) / load.std()
X = torch.stack([load[i:i + WINDOW] for i in range(STEPS)])
y = load[WINDOW:WINDOW + STEPS].unsqueeze(1)
X_train, y_train, X_test, y_test = X[:3000], y[:3000], X[3100:], y[3100:]

model = nn.Sequential(nn.Linear(WINDOW, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh(), nn.Linear(64, 1)).half()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
Xh, yh = X_train.half(), y_train.half()

for step in range(300):
    loss = ((model(Xh).float() - y_train) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} train mse {loss.item():.4f}")

with torch.no_grad():
    test_mse = ((model(X_test.half()).float() - y_test) ** 2).mean().item()
r2 = 1 - test_mse / y_test.var(unbiased=False).item()
print(f"final_loss={test_mse:.6g} acc={r2:.4f}")
