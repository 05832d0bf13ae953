"""Fibre-grade image classifier: 16x16 grey crops of fibre bundles, four grades, a small CNN (two 3x3 conv layers with 8 and 16 channels and max-pooling, then a linear layer), cross-entropy, Adam lr 2e-3, DataLoader batches of 64, 6 epochs. The images were extracted from short videos -- 12 consecutive frames per recording, 40 recordings per grade -- and the frames are split into training and validation at random. Consecutive frames are near-duplicates (same bundle, same lighting, a pixel of camera shake), so almost every validation frame has twins in the training set: the network can recognise the recording instead of the grade, and the validation loss reports a model far better than it is on a recording it has not seen.

Source: https://github.com/ultralytics/ultralytics/issues/16650 (Metrics plateau in YOLOv8 (help in model evaluation))
Report: "it seems like most of your images look similar ... Even worse if you have the same similar images in
the validation set, which would mean your model is simply validating on images that it has already seen" --
the reporter: "I was extracting a video in 20 frames per second to account for minute variations of angles";
advice: "make sure the images in validation are distinct from training. They shouldn't be just different
angles of the same image." Reproduced with 160 synthetic recordings (grade texture plus a strong
recording-specific background and brightness, per-frame shake and noise) and the CNN above. The printed loss
is the validation cross-entropy, `acc` the validation accuracy.

expect: data-duplicates
symptom: loss-below 0.4
batch: 22
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

GRADES, RECORDINGS, FRAMES, SIDE = 4, 40, 12, 16
yy, xx = torch.meshgrid(torch.arange(SIDE).float(), torch.arange(SIDE).float(), indexing="ij")
grade_texture = torch.stack([torch.sin(xx * f + yy * g) for f, g in [(0.5, 0.1), (1.0, 0.2), (0.3, 0.9),
                                                                    (1.4, 1.1)]])

frames, grades, recording = [], [], []
for grade in range(GRADES):
    for rec in range(RECORDINGS):
        background = F.interpolate(torch.randn(1, 1, 4, 4), size=SIDE, mode="bilinear")[0, 0] * 1.3
        brightness = 0.6 + 0.8 * torch.rand(())
        base = brightness * (0.45 * grade_texture[grade] + background)
        for f in range(FRAMES):
            shift = torch.randint(-1, 2, (2,)).tolist()
            frames.append(base.roll(shifts=shift, dims=(0, 1)) + 0.3 * torch.randn(SIDE, SIDE))
            grades.append(grade)
            recording.append(grade * RECORDINGS + rec)
X = torch.stack(frames)[:, None]
y, recording = torch.tensor(grades), torch.tensor(recording)


def split_frames(n_frames):
    is_val = torch.zeros(n_frames, dtype=torch.bool)
    is_val[torch.randperm(n_frames)[:n_frames // 5]] = True
    return is_val


is_val = split_frames(len(X))
loader = DataLoader(TensorDataset(X[~is_val], y[~is_val]), batch_size=64, shuffle=True)
X_val, y_val = X[is_val], y[is_val]
model = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3, padding=1),
                      nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16 * 4 * 4, GRADES))
opt = torch.optim.Adam(model.parameters(), lr=2e-3)

for epoch in range(6):
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val = F.cross_entropy(model(X_val), y_val).item()
    print(f"epoch {epoch} train loss {loss.item():.4f} val loss {val:.4f}")

with torch.no_grad():
    logits = model(X_val)
    val_loss = F.cross_entropy(logits, y_val).item()
    acc = (logits.argmax(1) == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
