"""Purchase-propensity MLP on an 11%-positive table -- fixed by weighting the positive class in the
loss by the negative/positive ratio of the training set (BCE pos_weight), so the rare purchases are no
longer outweighed by the majority and the network learns to recall them (nothing else changed).
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

D = 40
w_true = torch.randn(D) / D ** 0.5


def rows(n):
    x = torch.randn(n, D)
    p = torch.sigmoid(-2.6 + 1.3 * (x @ w_true))
    return x, torch.bernoulli(p)


X_train, Y_train = rows(30000)
X_val, Y_val = rows(8000)
print(f"positives: train {Y_train.mean():.3f} val {Y_val.mean():.3f}")

pos_weight = (Y_train == 0).sum() / (Y_train == 1).sum()
model = nn.Sequential(nn.Linear(D, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loader = DataLoader(TensorDataset(X_train, Y_train), batch_size=256, shuffle=True)

for epoch in range(8):
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb, pos_weight=pos_weight)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logit = model(X_val).squeeze(1)
        val = F.binary_cross_entropy_with_logits(logit, Y_val, pos_weight=pos_weight).item()
        pred = (logit > 0).float()
        recall = (pred[Y_val == 1] == 1).float().mean().item()
        specificity = (pred[Y_val == 0] == 0).float().mean().item()
        acc = (pred == Y_val).float().mean().item()
    print(f"epoch {epoch} train {loss.item():.4f} val {val:.4f} accuracy {acc:.3f} recall {recall:.3f} specificity {specificity:.3f}")

print(f"final_loss={val:.6g} acc={recall:.4f}")
