"""Next-bit LSTM predictor for a binary control sequence -- fixed by giving the single output unit a sigmoid, the
activation that matches a one-unit binary cross-entropy output, instead of a softmax over one element (nothing else
changed).
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)


def control_sequence(n):
    bits = torch.randint(0, 2, (n,)).float()
    for t in range(3, n):
        nxt = float(bits[t - 1] != bits[t - 3])
        bits[t] = 1 - nxt if torch.rand(()) < 0.05 else nxt
    return bits


def windows(bits):
    X = torch.stack([bits[t - 3:t] for t in range(3, len(bits))]).unsqueeze(2)
    return X, bits[3:]


class NextBit(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(1, 8, batch_first=True)
        self.dense = nn.Linear(8, 1)
        self.act = nn.Sigmoid()

    def forward(self, x):
        h, _ = self.lstm(x)
        return self.act(self.dense(h[:, -1])).squeeze(1)


X_tr, y_tr = windows(control_sequence(12000))
X_te, y_te = windows(control_sequence(3000))
model = NextBit()
opt = torch.optim.Adagrad(model.parameters(), lr=0.1)
loss_fn = nn.BCELoss()
for epoch in range(10):
    for i in range(0, len(X_tr), 256):
        loss = loss_fn(model(X_tr[i:i + 256]), y_tr[i:i + 256])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        p = model(X_te)
    print(f"epoch {epoch} loss {loss.item():.4f} acc {((p > 0.5).float() == y_te).float().mean().item():.4f}")

with torch.no_grad():
    p = model(X_te)
    test_loss = loss_fn(p, y_te).item()
    acc = ((p > 0.5).float() == y_te).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
