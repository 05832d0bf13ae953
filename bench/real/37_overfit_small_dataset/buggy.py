"""Large network, few samples, many epochs: validation loss rises while training loss falls.

Source: https://github.com/keras-team/keras/issues/3755
Report: "the training loss keeps decreasing and training accuracy keeps increasing until
convergence. But the validation loss started increasing"; answer: the model is overfitting the
training data. Fix applied here: weight decay, dropout and early stopping on the validation loss.
`final_loss` below is the VALIDATION loss of the model the script ends with.

expect: overfitting
symptom: final-loss-ratio 1.5
"""
import argparse
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

w = torch.randn(30, 4)
def make(n):
    X = torch.randn(n, 30)
    y = (X @ w + 1.5 * torch.randn(n, 4)).argmax(1)
    return X, y

X_tr, y_tr = make(120)
X_val, y_val = make(400)
model = nn.Sequential(nn.Linear(30, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 4))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
patience = None
best, best_state, val_hist = float("inf"), None, []
for epoch in range(150):
    model.train()
    for i in range(0, 120, 20):
        loss = F.cross_entropy(model(X_tr[i:i + 20]), y_tr[i:i + 20])
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        val = F.cross_entropy(model(X_val), y_val).item()
    val_hist.append(val)
    if val < best:
        best, best_state, bad = val, copy.deepcopy(model.state_dict()), 0
    elif patience is not None:
        bad += 1
        if bad > patience:
            break
if patience is not None:
    model.load_state_dict(best_state)
model.eval()
with torch.no_grad():
    val = F.cross_entropy(model(X_val), y_val).item()
    acc = (model(X_val).argmax(1) == y_val).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
