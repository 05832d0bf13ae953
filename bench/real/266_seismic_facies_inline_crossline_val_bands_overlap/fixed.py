"""Seismic facies classifier -- fixed as the issue asks: a trace is used for training only if it
lies on neither a validation inline nor a validation crossline, so the training and validation
traces are disjoint. Nothing else changed.
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

IL, XL, T, FACIES = 60, 60, 48, 5
wavelets = torch.randn(FACIES, T)


def survey():
    il, xl = torch.meshgrid(torch.arange(IL).float(), torch.arange(XL).float(), indexing="ij")
    phase = torch.rand(3) * 2 * math.pi
    depth = (il / IL * 2 + torch.sin(xl / XL * 3 + phase[0]) + 0.7 * torch.sin(il / IL * 4 + phase[1])
             + 0.3 * torch.randn(IL, XL))
    facies = ((depth - depth.min()) / (depth.max() - depth.min()) * FACIES).long().clamp(max=FACIES - 1)
    traces = wavelets[facies] + 3.0 * torch.randn(IL, XL, T)
    return traces, facies


traces, facies = survey()
band = max(1, IL // 10)
val_il = torch.zeros(IL, dtype=torch.bool)
val_il[:band] = val_il[-band:] = True
val_xl = torch.zeros(XL, dtype=torch.bool)
val_xl[:band] = val_xl[-band:] = True
on_val_il = val_il[:, None].expand(IL, XL)
on_val_xl = val_xl[None, :].expand(IL, XL)

train_mask = ~on_val_il & ~on_val_xl
val_mask = on_val_il | on_val_xl

X, y = traces[train_mask], facies[train_mask]
X_val, y_val = traces[val_mask], facies[val_mask]
print(f"train traces {len(X)}  val traces {len(X_val)}")

model = nn.Sequential(nn.Linear(T, 256), nn.ReLU(), nn.Linear(256, 128), nn.ReLU(), nn.Linear(128, FACIES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
loader = DataLoader(TensorDataset(X, y), batch_size=128, shuffle=True)

for epoch in range(8):
    model.train()
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        logits = model(X_val)
        val_loss = F.cross_entropy(logits, y_val).item()
        acc = (logits.argmax(1) == y_val).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val_loss:.4f} acc {acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
