"""Small image classifier (8x8 grey images of 6 object classes, a two-layer MLP trained full-batch
with Adam) on a training set merged from two annotation exports of the same image pool. The merge
drops exact duplicates -- identical image *and* label -- but the second annotator labelled many of
the shared images differently, so the merged set holds hundreds of identical images with two
different labels. No setting of the weights can fit both, the training loss stalls far above what
the clean data allows, and the conflicting rows drag the decision boundaries.

Source: https://koaning.io/til/worst-kind-of-duplicate/ (The worst kind of duplicate)
Report: "Duplicates in a dataset can be very bad. ... You can also have duplicates with
inconsistent labels ... imagine being an algorithm and being presented with \"two truths\". That'd
mess up your gradient signal for sure. ... once you spot duplicates with different labels you'd
also be done." Reproduced with 2,400 synthetic images (6 prototypes plus noise); export A labels
all of them correctly, export B re-labels 1,200 of the same images, 700 of them with a neighbouring
class; the merge keeps every distinct (image, label) pair. MLP 64-64-6, Adam lr 1e-2, 300
full-batch steps. The printed loss is the final training cross-entropy, `acc` the accuracy on 600
held-out images.

expect: label-conflict
symptom: loss-above 0.2
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

protos = torch.rand(6, 64)


def make_images(n):
    y = torch.randint(0, 6, (n,))
    return (protos[y] + 0.45 * torch.randn(n, 64)).clamp(0, 1), y


images, labels = make_images(2400)
test_x, test_y = make_images(600)

export_a = [(i, int(labels[i])) for i in range(2400)]
shared = torch.randperm(2400)[:1200].tolist()
export_b = []
for j, i in enumerate(shared):
    lab = int(labels[i])
    export_b.append((i, (lab + 1) % 6 if j < 700 else lab))


def merge(*exports):
    seen, rows = set(), []
    for export in exports:
        for img_id, lab in export:
            key = (img_id, lab)
            if key not in seen:
                seen.add(key)
                rows.append((img_id, lab))
    return rows


rows = merge(export_a, export_b)
X = images[[r[0] for r in rows]]
Y = torch.tensor([r[1] for r in rows])
print(f"{len(rows)} training rows")

model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 6))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(300):
    loss = F.cross_entropy(model(X), Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(f"step {step} loss {loss.item():.4f}")

with torch.no_grad():
    acc = (model(test_x).argmax(1) == test_y).float().mean().item()
print(f"final_loss={loss.item():.6g} acc={acc:.4f}")
