"""Radiology pathology classifier on per-image descriptors (48 intensity, texture and shape statistics of a scan patch, 8 pathology classes), an MLP (48 -> 96 ReLU -> 96 ReLU -> 8) trained with Adam lr 1e-3 for a fixed budget of 250 mini-batch steps from a shuffled DataLoader (batches of 64). The image collection holds many byte-identical files under different names -- the same ankle and foot scans filed twice, neighbouring slices exported as separate studies -- and the loader keeps them all: 50 scans appear 50 times each, so almost two rows in three of the training table are copies of the same 50 images. Most of the step budget is spent re-fitting those few scans, the rest of the distribution is seen rarely, and the classifier generalises far worse than one trained on the de-duplicated table.

Source: https://github.com/BMEII-AI/RadImageNet/issues/17 (Duplicates in RadImageNet dataset)
Report: "While working with it, I discovered that there are quite some duplicate entries, when checking the
MD5 hash of the files ... Same pathology, e.g. `MR/af/hematoma/foot079779.png` and
`MR/af/hematoma/ankle053088.png` ... Neighboring samples, e.g. `US/gb/usn309850.png` and
`US/gb/usn309851.png` ... those duplicates are just creating an imbal[ance]". Reproduced with 1,500 distinct
synthetic scans (class-dependent nonlinear descriptor patterns plus noise) and 50 of them repeated 50 times
-- far more than in the report, so the effect shows in a short run. The printed loss is the cross-entropy
on 1,000 held-out scans, `acc` the held-out accuracy.

expect: data-duplicates
symptom: final-loss-ratio 1.25
batch: 23
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

K, D = 8, 48
centers = torch.randn(K, 3, D) * 1.1


def scans(n):
    y = torch.randint(0, K, (n,))
    mode = torch.randint(0, 3, (n,))
    x = centers[y, mode] + torch.randn(n, D)
    x[:, :8] = torch.tanh(x[:, :8]) + 0.4 * x[:, 8:16] * x[:, 16:24]
    return x, y


X_unique, y_unique = scans(1500)
copies = torch.randint(0, 1500, (50,)).repeat_interleave(50)
X_files = torch.cat([X_unique, X_unique[copies]])
y_files = torch.cat([y_unique, y_unique[copies]])
X_test, y_test = scans(1000)


def load_table(x, y):
    return x, y


X_train, y_train = load_table(X_files, y_files)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(D, 96), nn.ReLU(), nn.Linear(96, 96), nn.ReLU(), nn.Linear(96, K))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

step = 0
while step < 250:
    for xb, yb in loader:
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        if step % 50 == 0:
            print(f"step {step}: batch loss {loss.item():.4f}")
        if step == 250:
            break

with torch.no_grad():
    logits = model(X_test)
    test_loss = F.cross_entropy(logits, y_test).item()
    acc = (logits.argmax(1) == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
