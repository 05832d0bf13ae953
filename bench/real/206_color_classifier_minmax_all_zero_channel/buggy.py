"""Small colour classifier in the style of a browser teaching sketch: each example is an (r, g, b)
triple, the inputs are min-max normalised per channel with (v - min) / (max - min) over the
collected data, and a 3-16-16-K MLP is trained with cross-entropy on minibatches cut by hand
from a shuffled index. The user collected examples for only the red-ish and green-ish classes
this time, so the blue channel is 0 in every example: max == min for that channel, the
normalisation divides 0 by 0 and the whole blue column becomes NaN, which makes every logit and
every loss NaN.

Source: https://github.com/ml5js/ml5-next-gen/issues/204 (`normalizeData()` does not handle only zeros in one of the inputs to the neural net)
Report: "If you go to this example and comment out all examples for one class, e.g. all the
\"blue-ish\" objects, training fails with infinite loss, because the normalized data has `NaN`s in
the third coordinate of xs" -- maintainer: "the code uses `(value - min) / (max - min)` to compute
the normalized values. This will divide by zero if `min == max`". Reproduced with 1,200 synthetic
colour samples of two classes (red-ish: high r, green-ish: high g, overlapping in the middle,
b = 0 for all), an 80/20 split, SGD with momentum lr 0.05, batches of 32 sliced from a permutation,
15 epochs. The printed loss is the mean training loss of the last epoch, `acc` the validation
accuracy.

expect: constant-feature
symptom: nonfinite
batch: 12
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

n = 1200
labels = torch.randint(0, 2, (n,))
base = torch.where(labels.unsqueeze(1) == 0, torch.tensor([200.0, 90.0]), torch.tensor([90.0, 190.0]))
rg = (base + 45 * torch.randn(n, 2)).clamp(0, 255)
xs = torch.cat([rg, torch.zeros(n, 1)], 1)

lo, hi = xs.min(0).values, xs.max(0).values
xs_n = (xs - lo) / (hi - lo)

perm = torch.randperm(n)
tr, va = perm[:960], perm[960:]
model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

for epoch in range(15):
    order = tr[torch.randperm(len(tr))]
    total, count = 0.0, 0
    for i in range(0, len(order), 32):
        idx = order[i:i + 32]
        loss = F.cross_entropy(model(xs_n[idx]), labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
        count += len(idx)
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    acc = (model(xs_n[va]).argmax(1) == labels[va]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
