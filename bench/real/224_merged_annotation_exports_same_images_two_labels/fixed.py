"""Image classifier on merged annotation exports -- fixed as the post suggests: the merge treats an
image that is already present as a duplicate whatever its label (the key is the image id alone,
the first export's label is kept), so no image carries two labels (nothing else changed).
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
            key = img_id
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
