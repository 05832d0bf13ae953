"""Speech-frame phone classifier with 7 sigmoid layers -- fixed with discriminative pretraining, as the
reporter did: the network is grown one hidden layer at a time (each stage adds a new top hidden layer
and a fresh output layer and trains the whole stack for 2 epochs), so every layer starts from weights
that already carry the class signal. Same total number of epochs; nothing else changed.
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

FEATS, PHONES, HIDDEN, LAYERS = 39, 8, 256, 7
centres = 1.2 * torch.randn(PHONES, 2, FEATS)


def frames(n):
    y = torch.randint(0, PHONES, (n,))
    k = torch.randint(0, 2, (n,))
    return centres[y, k] + torch.randn(n, FEATS), y


x_train, y_train = frames(6000)
x_val, y_val = frames(1500)
loader = DataLoader(TensorDataset(x_train, y_train), batch_size=64, shuffle=True)


def run_epochs(model, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.5)
    for _ in range(epochs):
        total = 0.0
        for xb, yb in loader:
            loss = F.cross_entropy(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(yb)
    return total / len(x_train)


def block(n_in):
    return nn.Sequential(nn.Linear(n_in, HIDDEN), nn.Sigmoid())


hidden = []
for stage in range(7):
    hidden.append(block(FEATS if not hidden else HIDDEN))
    model = nn.Sequential(*hidden, nn.Linear(HIDDEN, PHONES))
    train_loss = run_epochs(model, 2)
    print(f"stage {stage} layers {len(hidden)} train loss {train_loss:.4f}")

with torch.no_grad():
    out = model(x_val)
    val_loss = F.cross_entropy(out, y_val).item()
    acc = (out.argmax(1) == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
