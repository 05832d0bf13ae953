"""Shadow-mask generator -- fixed by de-duplicating the training list before sampling (one entry per
distinct image pair), so the step budget is spread over the 800 genuine pairs (nothing else
changed).
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

SHIFTS = [(0, 2), (0, -2), (2, 0), (-2, 0)]
yy, xx = torch.meshgrid(torch.arange(8).float(), torch.arange(8).float(), indexing="ij")


def make_pairs(n):
    cx, cy = torch.rand(2, n, 1, 1) * 4 + 2
    r = torch.rand(n, 1, 1) * 1.2 + 1.0
    obj = (((xx - cx) ** 2 + (yy - cy) ** 2) < r ** 2).float()
    d = torch.randint(0, 4, (n,))
    shadow = torch.stack([torch.roll(obj[i], SHIFTS[d[i]], dims=(0, 1)) for i in range(n)])
    shadow = shadow * (1 - obj)
    x = torch.cat([obj.flatten(1), F.one_hot(d, 4).float()], dim=1)
    return x, shadow.flatten(1)


x_unique, y_unique = make_pairs(800)
x_test, y_test = make_pairs(400)
x_list = torch.cat([x_unique, x_unique[:1].repeat(4000, 1)])
y_list = torch.cat([y_unique, y_unique[:1].repeat(4000, 1)])

_, first = torch.unique(x_list * 3 + torch.cat([y_list, torch.zeros(len(y_list), 4)], 1), dim=0, return_inverse=True)
train_idx = torch.tensor(sorted({int(first[i]): i for i in range(len(first) - 1, -1, -1)}.values()))

model = nn.Sequential(nn.Linear(68, 128), nn.ReLU(), nn.Linear(128, 64))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(500):
    idx = train_idx[torch.randint(0, len(train_idx), (64,))]
    loss = F.binary_cross_entropy_with_logits(model(x_list[idx]), y_list[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    logits = model(x_test)
    test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
    acc = ((logits > 0).float() == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
