"""Fault: bad-init. A deep MLP whose weights are re-initialised with nn.init.normal_(w,
std=1.0) ("unit normal is a standard choice"). With fan-in 256, each layer multiplies
the activation scale by ~sqrt(256/2) = 11: after 6 layers the logits are ~1e6, the first
loss is in the hundreds of thousands and training never recovers. Kaiming init (std =
sqrt(2/fan_in)) keeps the scale constant.

Mechanism: initialisation scale far from variance-preserving; activations grow with depth.
"""
import argparse

import torch
from torch import nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--steps", type=int, default=200)
args = ap.parse_args()
torch.manual_seed(args.seed)

layers = []
d = 64
for i in range(6):
    layers += [nn.Linear(d, 256), nn.ReLU()]
    d = 256
layers.append(nn.Linear(256, 10))
model = nn.Sequential(*layers)
for m in model.modules():
    if isinstance(m, nn.Linear):
        nn.init.normal_(m.weight, std=1.0)
        nn.init.zeros_(m.bias)

X = torch.randn(4096, 64)
y = (X[:, :10] + 0.3 * torch.randn(4096, 10)).argmax(1)
opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
for step in range(args.steps):
    i = torch.randint(0, 4096, (128,))
    loss = nn.functional.cross_entropy(model(X[i]), y[i])
    opt.zero_grad()
    loss.backward()
    opt.step()
