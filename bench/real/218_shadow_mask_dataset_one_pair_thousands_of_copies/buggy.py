"""Shadow-mask generator (an 8x8 object mask plus a one-hot light direction in, the 8x8 shadow mask
out; an MLP with per-pixel BCE, Adam, a fixed budget of minibatch steps drawn from the training
list). The downloaded training list contains one image pair thousands of times over: most of every
minibatch is that single pair, so the fixed step budget is spent memorising it while the 800
genuine pairs are seen a few times each, and the model generalises poorly to new objects.

Source: https://github.com/bcmi/Object-Shadow-Generation-Dataset-DESOBAv2/issues/13 (duplicate images in dataset)
Report: "I downloaded the high-res version of your dataset and found that this image below shows up
in the dataset for thousands of times with masks seem identical to me. ... I trained a shadow
removal model and found it overfitting on this image." (the maintainers answered by updating the
download). Reproduced with 800 synthetic object/shadow pairs (random blobs, shadow = the object
shifted away from one of four light directions) plus 4,000 copies of one pair in the list, an MLP
68-128-64, Adam lr 2e-3, 500 steps of 64 pairs sampled from the list. The printed loss is the
per-pixel BCE on 400 new objects, `acc` their pixel accuracy.

expect: data-duplicates
symptom: final-loss-ratio 1.5
batch: 13
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
train_idx = torch.arange(len(x_list))

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
