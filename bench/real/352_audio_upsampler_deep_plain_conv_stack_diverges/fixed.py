"""Deep plain audio super-resolution stack -- fixed with the gradient clipping the maintainer lists (and
that VDSR-style recipes pair with their high learning rate): the gradient norm is clipped to 0.05 before
every SGD step, so the updates stay bounded and the outputs cannot blow up (nothing else changed).
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

FRAME = 64


def frames(n):
    t = torch.linspace(0, 1, FRAME)
    freq = torch.randint(1, 8, (n, 3)).float()
    amp, phase = torch.rand(n, 3), 6.28 * torch.rand(n, 3)
    full = (amp[:, :, None] * torch.sin(6.28 * freq[:, :, None] * t + phase[:, :, None])).sum(1)[:, None]
    low = F.interpolate(F.avg_pool1d(full, 4), scale_factor=4, mode="linear", align_corners=False)
    return low, full


layers = [nn.Conv1d(1, 32, 3, padding=1), nn.ReLU()]
for _ in range(10):
    layers += [nn.Conv1d(32, 32, 3, padding=1), nn.ReLU()]
layers += [nn.Conv1d(32, 1, 3, padding=1)]
net = nn.Sequential(*layers)
for m in net:
    if isinstance(m, nn.Conv1d):
        nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        nn.init.zeros_(m.bias)

X_train, y_train = frames(4000)
X_test, y_test = frames(500)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)

for epoch in range(6):
    order = torch.randperm(len(X_train))
    for i in range(0, len(order), 64):
        idx = order[i:i + 64]
        loss = F.mse_loss(net(X_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 0.05)
        opt.step()
    with torch.no_grad():
        out = net(X_test)
        test_mse = F.mse_loss(out, y_test).item()
        better = (((out - y_test) ** 2).mean((1, 2)) < ((X_test - y_test) ** 2).mean((1, 2))).float().mean().item()
    print(f"epoch {epoch} test mse {test_mse:.5f} better than input {better:.3f}")

print(f"final_loss={test_mse:.6g} acc={better:.4f}")
