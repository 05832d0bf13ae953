"""Font recogniser on rendered text patches: a small CNN classifies 20x20 grey patches into 10 typefaces. The dataset is enlarged with augmentation (three jittered copies of every rendered patch: a one-pixel shift plus noise) and only then randomly split 80/20 into train and validation, so nearly every validation patch has sibling copies of the same rendered text in the training set. The network recognises the memorised text rather than the typeface, and the validation loss and accuracy report far better performance than it has on unseen text.

Source: https://github.com/robinreni96/Font_Recognition-DeepFont/issues/2 (issue with training/testing partition)
Report: "The only mistake I see is that, first, you apply the data augmentation technique, then, you
split your data in train and test. This means that you may be adding an example on train set and its
augmented version to the test set. This may lead to overestimated performance on your test set ...
The easy fix is, fist split in train test, and then apply augmentation on both datasets." Reproduced
with 4,000 synthetic rendered patches (a faint per-typeface stroke texture under strong per-patch text
content), 3 augmented copies each, a two-conv CNN, Adam lr 1e-3, batch 64, 4 epochs. The printed loss
is the validation cross-entropy, `acc` the validation accuracy.

expect: data-leakage
symptom: loss-below 0.35
batch: 20
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

C, S, COPIES = 10, 20, 3
q, _ = torch.linalg.qr(torch.randn(S * S, C))
typeface = (q.T * S).reshape(C, 1, S, S)


def render(n):
    y = torch.randint(C, (n,))
    text = (torch.rand(n, 1, S, S) < 0.3).float() * 2 - 1
    text = F.avg_pool2d(text, 3, 1, 1) * 2
    return 0.3 * typeface[y] + text, y


def augment(x, y):
    xs, ys = [], []
    for _ in range(COPIES):
        dx, dy = torch.randint(-1, 2, (2,)).tolist()
        xs.append(torch.roll(x, (dx, dy), (2, 3)) + 0.3 * torch.randn_like(x))
        ys.append(y)
    return torch.cat(xs), torch.cat(ys)


def split(x, y, frac=0.8):
    p = torch.randperm(len(x))
    cut = int(frac * len(x))
    return x[p[:cut]], y[p[:cut]], x[p[cut:]], y[p[cut:]]


X, Y = render(4000)
X_aug, Y_aug = augment(X, Y)
X_train, Y_train, X_val, Y_val = split(X_aug, Y_aug)

model = nn.Sequential(
    nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Linear(32 * 25, 128), nn.ReLU(), nn.Linear(128, C))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(4):
    model.train()
    perm = torch.randperm(len(X_train))
    total = 0.0
    for i in range(0, len(X_train), 64):
        idx = perm[i:i + 64]
        loss = F.cross_entropy(model(X_train[idx]), Y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    model.eval()
    with torch.no_grad():
        logits = model(X_val)
        val_loss = F.cross_entropy(logits, Y_val).item()
        val_acc = (logits.argmax(1) == Y_val).float().mean().item()
    print(f"epoch {epoch} train {total / len(X_train):.4f} val {val_loss:.4f} acc {val_acc:.3f}")

print(f"final_loss={val_loss:.6g} acc={val_acc:.4f}")
