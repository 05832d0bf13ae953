"""Breast-ultrasound lesion classifier (benign / malignant) on frames taken from short video clips: 16x16 frame crops, an MLP (256 inputs, 64 ReLU, 32 ReLU, 2 logits), cross-entropy, AdamW lr 1e-3, micro-batches of 32 sliced by hand with gradients accumulated over 2 micro-batches per optimiser step, 5 epochs. The dataset is read from `benign/<clip>/` and `malignant/<clip>/` folders, and a number of clips were copied into both folders -- the very same frames carry both labels. For those inputs no answer can be right for both copies, the network is pulled to 50/50 on them and on look-alike malignant lesions, and the training loss stalls at the floor the conflicting copies set.

Source: https://github.com/jhl-Det/CVA-Net/issues/27 (Duplicate frames both in benign/ and malignant/ categories.)
Report: "I ... found 10 instances of video directories that contain identical images both in benign and
malignant category ... I have doubts it may impact classification performance given both categories, benign
and malignant, are associated with identical frames" -- a later reply: "I used the original dataset for
training, and the APs of the two classes are very different". Reproduced with 200 synthetic clips (100 per
class, 10 frames each, lesion shape and texture differing between classes) of which 25 malignant clips are
copied into the benign folder -- more than in the report, so the effect is measurable in a short run -- and
the model above. The printed loss is the mean training cross-entropy of the last epoch, `acc` the accuracy on
400 frames of separate clips with correct labels.

expect: label-conflict
symptom: loss-above 0.15
batch: 22
"""
import argparse
import hashlib

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

SIDE, FRAMES = 16, 10
yy, xx = torch.meshgrid(torch.linspace(-1, 1, SIDE), torch.linspace(-1, 1, SIDE), indexing="ij")


def make_clip(malignant):
    cy, cx = (0.15 * torch.randn(2)).tolist()
    r = ((yy - cy) ** 2 + (xx - cx) ** 2).sqrt()
    edge = 0.35 + (0.12 * torch.sin(7 * torch.atan2(yy - cy, xx - cx)) if malignant else 0.0)
    lesion = (r < edge).float() * (0.5 if malignant else 1.0)
    speckle = 0.3 * (1 + malignant)
    return torch.stack([lesion + speckle * torch.randn(SIDE, SIDE) for _ in range(FRAMES)])


folders = {"benign": [make_clip(False) for _ in range(100)], "malignant": [make_clip(True) for _ in range(100)]}
folders["benign"] += folders["malignant"][:25]


def load_frames(folders):
    frames, labels = [], []
    for label, name in enumerate(["benign", "malignant"]):
        for clip in folders[name]:
            frames.append(clip.reshape(FRAMES, -1))
            labels += [label] * FRAMES
    return torch.cat(frames), torch.tensor(labels)


X, y = load_frames(folders)
test_clips = [(make_clip(m), m) for m in [False, True] * 20]
X_test = torch.cat([c.reshape(FRAMES, -1) for c, _ in test_clips])
y_test = torch.tensor([int(m) for _, m in test_clips for _ in range(FRAMES)])

model = nn.Sequential(nn.Linear(SIDE * SIDE, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
MICRO, ACCUM = 32, 2

for epoch in range(5):
    perm = torch.randperm(len(X))
    total = 0.0
    for i, start in enumerate(range(0, len(X), MICRO)):
        idx = perm[start:start + MICRO]
        loss = F.cross_entropy(model(X[idx]), y[idx])
        (loss / ACCUM).backward()
        total += loss.item() * len(idx)
        if i % ACCUM == ACCUM - 1:
            opt.step()
            opt.zero_grad()
    print(f"epoch {epoch} train loss {total / len(X):.4f}")

with torch.no_grad():
    acc = (model(X_test).argmax(1) == y_test).float().mean().item()
print(f"final_loss={total / len(X):.6g} acc={acc:.4f}")
