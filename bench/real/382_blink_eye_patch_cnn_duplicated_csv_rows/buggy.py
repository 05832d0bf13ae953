"""Blink estimator (open / closed eye) on 16x16 grey eye patches: a small CNN (conv 1->8 3x3, max-pool, conv 8->16 3x3, max-pool, linear to 2 logits), cross-entropy, Adam lr 2e-3, mini-batches of 64 sliced by hand from a shuffled index, a fixed budget of 220 steps. The training list is read from per-subject label CSVs (frame id, blink label) that contain the same rows many times over: for a few recording sessions every frame was appended again on each export, so 60 frames -- open eyes of four subjects under one lighting -- each appear 60 times. Sampling by row then draws those few frames in most batches, the budget is spent on them, and the estimator learns the rest of the eyes (other subjects, lighting, the closed class) far less well.

Source: https://github.com/Tobias-Fischer/rt_gene/pull/57 (Removed duplicated rows in dataset that are causing sampling bias)
Report: "Removed duplicated rows in dataset that are causing sampling bias ... The cleaning was done using
the following R code ... `df %>% group_by(V1) %>% ...` ... I would suggest that the networks would need
re-training on this dataset." Reproduced with 1,800 distinct synthetic eye patches (an eyelid aperture, iris
and lighting varying by subject; closed eyes show a thin dark lid line) and the duplicated rows above -- more
copies than in the report so the effect shows in a short run. The printed loss is the cross-entropy on 800
held-out patches, `acc` the held-out accuracy.

expect: data-duplicates
symptom: final-loss-ratio 1.25
batch: 23
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

S = 16
yy, xx = torch.meshgrid(torch.linspace(-1, 1, S), torch.linspace(-1, 1, S), indexing="ij")


def patches(n):
    closed = (torch.rand(n) < 0.4).long()
    aperture = torch.where(closed.bool(), 0.03 + 0.08 * torch.rand(n), 0.16 + 0.22 * torch.rand(n)).view(n, 1, 1)
    cx = 0.3 * torch.randn(n, 1, 1)
    light = 0.4 + 0.5 * torch.rand(n, 1, 1)
    eye = (yy.abs() < aperture * (1 - xx ** 2).clamp(min=0).sqrt() * 2).float()
    iris = ((xx - cx) ** 2 + yy ** 2 < 0.12).float() * eye
    img = light * (1 - 0.5 * eye - 0.4 * iris) + 0.15 * torch.randn(n, S, S)
    return img.unsqueeze(1), closed


frames, labels = patches(1800)
dup_frames = torch.nonzero(labels == 0).flatten()[:60]
csv_rows = torch.cat([torch.arange(1800), dup_frames.repeat(60)])
X_test, y_test = patches(800)


def read_label_rows(rows):
    return rows


rows = read_label_rows(csv_rows)
model = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(16 * 4 * 4, 2),
)
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

step = 0
while step < 220:
    order = rows[torch.randperm(len(rows))]
    for i in range(0, len(order) - 63, 64):
        ids = order[i:i + 64]
        loss = F.cross_entropy(model(frames[ids]), labels[ids])
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 55 == 0:
            print(f"step {step}: batch loss {loss.item():.4f}")
        if step == 220:
            break

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
