"""Customer-churn classifier on a tabular extract: a small MLP trained full-batch with Adam on standardised columns, validated on a held-out 20%. One of the engineered columns (`engagement_index`) was computed downstream of the outcome -- it is the churn flag plus a little jitter -- and was left in the feature matrix, so the target is readable straight from the inputs: the network gets near-perfect validation accuracy and a near-zero validation loss that it could never reach on real customers, where that column does not exist yet at prediction time.

Source: https://zeupark.github.io/2025/05/26/overfitting-debug-log.html (Overfitting debug log: "99% Accuracy... Is That Even Real?")
Report: "My model scored 99.7% accuracy on the test set. At first, I was thrilled -- then skeptical ...
Turns out some features are nearly perfectly correlated with target. The culprit: a derived column
closely related to the label -- possibly calculated from it ... After removing those columns: new
accuracy is 81.2% -- much more believable." Reproduced with 10,000 synthetic customers (8 behavioural
columns, churn drawn from a logistic model of them so that about 80% accuracy is attainable) plus the
derived column, a 9-32-32-1 ReLU MLP, full-batch Adam lr 3e-3 for 120 steps. The printed loss is the
validation binary cross-entropy, `acc` the validation accuracy.

expect: target-leakage
symptom: loss-below 0.2
batch: 20
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
FEATURES = list(range(9))

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
