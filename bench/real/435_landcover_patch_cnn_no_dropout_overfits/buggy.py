"""Land-cover classifier for 4-band 12x12 satellite patches (8 classes): a small CNN (two conv blocks, a 96-unit dense layer, no regularization) trained with Adam for a fixed 600 steps of batch 32 on 500 labelled patches, where each class is a spectral-textural template seen through a random shift, per-band gain jitter and heavy sensor noise. With ~40 passes over 500 patches and nothing restraining it, the network memorizes the training patches: training loss heads to ~0 while the held-out loss bottoms out after 200-300 steps and then climbs steadily -- high train accuracy, much lower validation accuracy, a textbook overfit.

Source: https://github.com/keras-team/keras-tuner/issues/167 (val_accuracy is low)
Report: "the log show that the accuracy is high (about 0.98), but the val_accuracy is low (about 0.6) ... loss:
0.0350 - accuracy: 0.9882 - val_loss: 2.6765 - val_accuracy: 0.5934" -- "you are probably overfitting" -- "Common
things to try would be using a smaller model and/or adding dropout" -- "I'll add dropout and try it again".
Reproduced with 500 synthetic training patches and 2,000 held-out patches; the fix adds dropout to the same network.
The printed loss is the final held-out cross-entropy; `acc` is the held-out accuracy.

expect: overfitting
symptom: final-loss-ratio 1.2
batch: 26
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

N_CLASSES, BANDS, S, N_TRAIN, STEPS = 8, 4, 12, 500, 600
DROP = 0.0
templates = F.avg_pool2d(torch.randn(N_CLASSES, BANDS, S + 4, S + 4), 3, 1, 1)


def patches(n):
    y = torch.randint(0, N_CLASSES, (n,))
    out = torch.empty(n, BANDS, S, S)
    for k in range(n):
        dy, dx = torch.randint(0, 5, (2,)).tolist()
        out[k] = templates[y[k], :, dy:dy + S, dx:dx + S]
    out = out * (1 + 0.3 * torch.randn(n, BANDS, 1, 1)) + 1.2 * torch.randn(n, BANDS, S, S)
    return out, y


X_tr, y_tr = patches(N_TRAIN)
X_te, y_te = patches(2000)
model = nn.Sequential(nn.Conv2d(BANDS, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(DROP / 2),
                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Dropout(DROP / 2),
                      nn.Flatten(), nn.Linear(32 * 9, 96), nn.ReLU(), nn.Dropout(DROP), nn.Linear(96, N_CLASSES))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
perm, pos = torch.randperm(N_TRAIN), 0
for step in range(STEPS):
    if pos + 32 > N_TRAIN:
        perm, pos = torch.randperm(N_TRAIN), 0
    idx = perm[pos:pos + 32]
    pos += 32
    model.train()
    loss = F.cross_entropy(model(X_tr[idx]), y_tr[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 99:
        model.eval()
        with torch.no_grad():
            test_loss = F.cross_entropy(model(X_te), y_te).item()
        print(f"step {step + 1} train loss {loss.item():.4f} held-out loss {test_loss:.4f}")

model.eval()
with torch.no_grad():
    logits = model(X_te)
    test_loss = F.cross_entropy(logits, y_te).item()
    acc = (logits.argmax(1) == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
