"""Next-purchase-category predictor -- fixed by raising the SGD learning rate from 1e-5 to 0.03, in the
range the source recommends (momentum 0.9, Nesterov and the 1e-6 decay kept) (nothing else
changed).
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

LR = 0.03
CATS = 8
prior = torch.tensor([1.6, 0.6, 0.4, 0.2, 0.0, -0.2, -0.4, -0.6])
profile = torch.randn(20, CATS) * 0.9


def shoppers(n):
    x = torch.randn(n, 20)
    logits = prior + torch.tanh(x @ profile) * 2.2 + 0.6 * (x[:, :8] * x[:, 8:16])
    return x, torch.distributions.Categorical(logits=logits).sample()


Xtr, ytr = shoppers(30000)
Xte, yte = shoppers(6000)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, CATS))
opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9, nesterov=True)
decay = torch.optim.lr_scheduler.LambdaLR(opt, lambda it: 1.0 / (1.0 + 1e-6 * it))
loader = DataLoader(TensorDataset(Xtr, ytr), batch_size=128, shuffle=True)

for epoch in range(4):
    model.train()
    total, correct = 0.0, 0
    for xb, yb in loader:
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        decay.step()
        total += loss.item() * len(xb)
        correct += (out.argmax(1) == yb).sum().item()
    model.eval()
    with torch.no_grad():
        logits = model(Xte)
        val = F.cross_entropy(logits, yte).item()
        acc = (logits.argmax(1) == yte).float().mean().item()
    print(f"Epoch {epoch + 1}/4 - loss: {total / len(Xtr):.4f} - acc: {correct / len(Xtr):.4f} - val_loss: {val:.4f} - val_acc: {acc:.4f}")

print(f"final_loss={val:.6g} acc={acc:.4f}")
