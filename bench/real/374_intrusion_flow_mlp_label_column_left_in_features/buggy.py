"""Network-intrusion detector on flow records: a table of 12 per-flow statistics (durations, byte and packet counts, flag ratios -- several heavy-tailed, so log-scaled and standardised) with the attack/normal label stored as the last column; an MLP (inputs, 64 ReLU, 32 ReLU, 1 logit), BCE, Adam lr 1e-3, DataLoader batches of 128, 8 epochs, scored on a held-out 20%. The feature matrix is taken as every column of the table, `table[:, :]`, so the label itself goes into the network as an input in both the training and the test split. The model reads the answer from that column: training and test loss collapse towards zero and the reported test accuracy is near perfect, while the real features only support far lower performance.

Source: https://github.com/vinayakumarr/Kalasalingam/issues/2 (Response Variable Is Included in the Training Data!)
Report: "I think you have included the response variable in the training data. I tried to reproduce your
results. The train accuracy of 99% matched but my test accuracy was only around 70% without including the
response in the training data." Reproduced with 10,000 synthetic flows whose label depends noisily on the
statistics, and the model above. The printed loss is the test BCE, `acc` the test accuracy.

expect: target-leakage
symptom: loss-below 0.1
batch: 22
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

STATS, N = 12, 10000
w_attack = torch.randn(STATS)


def make_flows(n):
    raw = torch.exp(1.5 * torch.randn(n, STATS) + torch.linspace(0, 6, STATS))
    feats = torch.log1p(raw)
    feats = (feats - feats.mean(0)) / feats.std(0)
    label = ((feats @ w_attack) / STATS ** 0.5 + 0.8 * torch.randn(n) > 0.3).float()
    return torch.cat([feats, label[:, None]], dim=1)


table = make_flows(N)
X, y = table[:, :], table[:, -1]
n_train = int(0.8 * N)
loader = DataLoader(TensorDataset(X[:n_train], y[:n_train]), batch_size=128, shuffle=True)
X_test, y_test = X[n_train:], y[n_train:]
model = nn.Sequential(nn.Linear(X.shape[1], 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(8):
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        test = F.binary_cross_entropy_with_logits(model(X_test).squeeze(1), y_test).item()
    print(f"epoch {epoch} train loss {loss.item():.4f} test loss {test:.4f}")

with torch.no_grad():
    logits = model(X_test).squeeze(1)
    test_loss = F.binary_cross_entropy_with_logits(logits, y_test).item()
    acc = ((logits > 0).float() == y_test).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
