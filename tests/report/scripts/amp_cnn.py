"""A small CNN on random images under float16 autocast with a GradScaler (CPU), whose
large initial scale makes the scaler skip steps and back off: the report's scaler plot.
Arguments: --steps N."""
import argparse

import torch
from torch import nn

p = argparse.ArgumentParser()
p.add_argument("--steps", type=int, default=40)
a = p.parse_args()

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 4),
)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 40, growth_interval=10)
for step in range(a.steps):
    x = torch.randn(16, 3, 16, 16)
    y = torch.randint(0, 4, (16,))
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16):
        loss = nn.functional.cross_entropy(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
print("done", a.steps, "scale", scaler.get_scale())
