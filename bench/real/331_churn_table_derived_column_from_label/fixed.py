"""Customer-churn MLP on a tabular extract -- fixed by dropping the derived `engagement_index`
column (computed from the churn outcome itself) from the feature list, so the model only sees the
behavioural columns available at prediction time (nothing else changed).
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

N = 10000
behaviour = torch.randn(N, 8)
w_true = torch.tensor([1.2, -0.9, 0.7, 0.0, 0.5, -0.4, 0.0, 0.3])
churn = torch.bernoulli(torch.sigmoid(behaviour @ w_true * 1.6)).float()
engagement_index = churn * 1.0 + 0.15 * torch.randn(N)
table = torch.cat([behaviour, engagement_index[:, None]], 1)
FEATURES = list(range(8))

X = table[:, FEATURES]
perm = torch.randperm(N)
tr, va = perm[: int(0.8 * N)], perm[int(0.8 * N):]
mu, sd = X[tr].mean(0), X[tr].std(0)
X = (X - mu) / sd
model = nn.Sequential(nn.Linear(X.shape[1], 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)

for step in range(120):
    logit = model(X[tr]).squeeze(1)
    loss = F.binary_cross_entropy_with_logits(logit, churn[tr])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 25 == 0 or step == 119:
        with torch.no_grad():
            vlogit = model(X[va]).squeeze(1)
            vloss = F.binary_cross_entropy_with_logits(vlogit, churn[va]).item()
            vacc = ((vlogit > 0).float() == churn[va]).float().mean().item()
        print(f"step {step} train {loss.item():.4f} val {vloss:.4f} acc {vacc:.3f}")

print(f"final_loss={vloss:.6g} acc={vacc:.4f}")
