"""Credit-risk 5-fold cross-validation -- fixed as in the repository: each fold is validated on its
held-out rows (`data[val_idx]`) instead of the rows it was trained on; nothing else changed.
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

n = 1000
numeric = torch.randn(n, 7)
cats = [torch.randint(0, k, (n,)) for k in (4, 5, 10, 5)]
onehot = torch.cat([F.one_hot(c, k).float() for c, k in zip(cats, (4, 5, 10, 5))], 1)
data_x = torch.cat([numeric, onehot], 1)
cat_effect = torch.randn(24) * 0.8
logit = (numeric[:, :4] @ torch.tensor([1.0, -0.8, 0.6, 0.4]) + onehot @ cat_effect
         + 0.5 * numeric[:, 4] * numeric[:, 5] - 0.9)
data_y = (torch.rand(n) < torch.sigmoid(logit)).float()

folds = torch.randperm(n).chunk(5)
val_losses, val_accs = [], []
for k in range(5):
    val_idx = folds[k]
    train_idx = torch.cat([folds[j] for j in range(5) if j != k])
    train_x, train_y = data_x[train_idx], data_y[train_idx]
    val_x, val_y = data_x[val_idx], data_y[val_idx]

    model = nn.Sequential(nn.Linear(31, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(10):
        order = torch.randperm(len(train_x))
        for i in range(0, len(order), 50):
            idx = order[i:i + 50]
            loss = F.binary_cross_entropy_with_logits(model(train_x[idx]).squeeze(1), train_y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        logits = model(val_x).squeeze(1)
        val_losses.append(F.binary_cross_entropy_with_logits(logits, val_y).item())
        val_accs.append(((logits > 0).float() == val_y).float().mean().item())
    print(f"fold {k} train_loss {loss.item():.4f} val_loss {val_losses[-1]:.4f} val_acc {val_accs[-1]:.4f}")

print(f"final_loss={sum(val_losses) / 5:.6g} acc={sum(val_accs) / 5:.4f}")
