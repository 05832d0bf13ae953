"""Seismic facies classifier (MLP on 48-sample amplitude traces, 5 facies, cross-entropy) for a
synthetic 3-D survey of 60 inlines x 60 crosslines. The preparation script holds out validation data
the way the Dutch F3 scripts did: the first and last 10% of the INLINES are validation inline
sections, the first and last 10% of the CROSSLINES are validation crossline sections, and training
takes every remaining inline section and every remaining crossline section. Because this is done for
the two directions separately, a trace that lies on a validation inline but on a training crossline
is in both sets: most validation traces are also training traces, and the validation loss measures
recall of memorised traces rather than performance on unseen parts of the survey.

Source: https://github.com/microsoft/seismic-deeplearning/issues/233 (Dutch F3 validation data partially overlaps with training data, leads to overly inflated validation results in Tensorboard)
Report: "the way the validation data is extracted involves taking 10% off each end of the volume for
validation. However, since this is done for inline and crossline separately, we get an overlap region
which is used for both training and validation." Reproduced with a layered synthetic survey (facies
from gently dipping, laterally varying layer boundaries; each trace a facies-specific wavelet
response plus strong trace noise), the two-direction split above, Adam (lr 1e-3, weight decay
1e-4) for 8 epochs of batch 128. The printed loss is the validation cross-entropy of the last
epoch, `acc` the validation accuracy.

expect: data-leakage
symptom: loss-below 0.45
batch: 16
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

train_mask = ~on_val_il | ~on_val_xl
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
