"""Handwritten-digit MLP -- fixed by keeping PyTorch's default random initialisation of the hidden and
output layers (the loop that set every weight and bias to zero is removed), so the hidden units
start different and learn different features (nothing else changed).
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

strokes = (torch.rand(10, 8, 8) < 0.3).float()


def digits(n):
    y = torch.randint(0, 10, (n,))
    img = strokes[y]
    shift = torch.randint(-1, 2, (n,))
    img = torch.stack([torch.roll(im, int(s), dims=1) for im, s in zip(img, shift)])
    img = (img + 0.35 * torch.randn(n, 8, 8)).clamp(0, 1)
    return img.reshape(n, 64), y


X_train, y_train = digits(6000)
X_test, y_test = digits(2000)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(64, 64)
        self.out = nn.Linear(64, 10)

    def forward(self, x):
        return self.out(torch.sigmoid(self.hidden(x)))


model = MLP()
opt = torch.optim.SGD(model.parameters(), lr=0.5)

for epoch in range(15):
    perm = torch.randperm(len(X_train))
    for i in range(0, len(perm), 100):
        idx = perm[i:i + 100]
        loss = F.cross_entropy(model(X_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X_test)
        test_loss = F.cross_entropy(logits, y_test).item()
        acc = (logits.argmax(1) == y_test).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} test {test_loss:.4f} acc {acc:.4f}")

print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
