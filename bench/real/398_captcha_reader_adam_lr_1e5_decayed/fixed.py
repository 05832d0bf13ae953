"""Four-digit captcha reader -- fixed by starting Adam at a learning rate of 1e-3 instead of 1e-5 (the
same 0.9-per-epoch decay), as the reply suggests; nothing else changed.
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

INIT_LR = 1e-3
glyphs = (torch.rand(10, 16, 12) < 0.4).float()


def make_captchas(n):
    digits = torch.randint(0, 10, (n, 4))
    img = torch.cat([glyphs[digits[:, k]] for k in range(4)], dim=2)
    img = img * (0.7 + 0.6 * torch.rand(n, 1, 1)) + 0.5 * torch.randn(n, 16, 48)
    return img.flatten(1), digits


X_train, y_train = make_captchas(5000)
X_test, y_test = make_captchas(1000)
model = nn.Sequential(nn.Linear(768, 256), nn.ReLU(), nn.Linear(256, 40))
opt = torch.optim.Adam(model.parameters(), lr=INIT_LR)
sched = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
loader = DataLoader(TensorDataset(X_train, y_train), batch_size=64, shuffle=True)


def captcha_loss(logits, digits):
    return F.cross_entropy(logits.view(-1, 10), digits.reshape(-1)) * 4


for epoch in range(8):
    total = 0.0
    for xb, yb in loader:
        loss = captcha_loss(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(xb)
    sched.step()
    print(f"epoch {epoch} lr {sched.get_last_lr()[0]:.3g} loss {total / len(X_train):.4f}")

with torch.no_grad():
    logits = model(X_test).view(-1, 4, 10)
    test_loss = F.cross_entropy(logits.reshape(-1, 10), y_test.reshape(-1)).item()
    acc = (logits.argmax(2) == y_test).all(1).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
