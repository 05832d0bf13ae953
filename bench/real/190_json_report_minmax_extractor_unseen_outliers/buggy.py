"""Malware-report classifier on numeric fields extracted from JSON sandbox reports (per-field min-max scaling whose min/max come from a schema computed on a sample of the reports, an MLP, binary cross-entropy with logits, SGD with momentum) where a handful of reports carry values orders of magnitude beyond anything in the schema sample -- a dropped file of several GB, a process that made millions of registry writes: min-max scaling maps them to values in the thousands, those rows produce huge gradients, the weights are thrown far off and the network ends up predicting little more than the base rate.

Source: https://github.com/CTUAvastLab/JsonGrinder.jl/issues/120 (Better handling of outliers for numeric extractors)
Report: "Numeric scalar extractor now performs min-max normalization, which is very sensitive to
outliers. Large, during schema computation unseen outliers can be transformed to large values,
leading to exploding gradient. We could fix this by applying following function at the end of
scalar numeric extractor: f(x) = x if x in [0, 1]; f(x) = ln(x) + 1 if x > 1; f(x) = -ln(-x + 1)
if x < 0". Reproduced with 6,000 synthetic reports of 10 heavy-tailed count / size fields
(log-normal, malicious reports shifted), of which 0.5% carry a field 10^3-10^4 times its usual
size, a schema (per-field min / max) computed on the first 400 reports, an MLP 10-64-32-1 with
ReLU, SGD lr 0.05 momentum 0.9, DataLoader batches of 64, 8 epochs. The printed loss is the
training BCE of the last epoch, `acc` the held-out accuracy.

expect: data-outlier
symptom: loss-above 0.55
batch: 11
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

FIELDS = 10


def make_reports(n):
    malicious = (torch.rand(n) < 0.4).float()
    mu = torch.linspace(2, 8, FIELDS)
    shift = torch.tensor([0.8, -0.5, 0.6, 0.0, 0.7, -0.6, 0.4, 0.5, -0.3, 0.6])
    logv = mu + shift * malicious[:, None] + 0.7 * torch.randn(n, FIELDS)
    values = torch.exp(logv)
    rows = torch.rand(n) < 0.005
    cols = torch.randint(0, FIELDS, (n,))
    values[rows, cols[rows]] *= 10 ** (3 + torch.rand(int(rows.sum())))
    return values, malicious


class ScalarExtractor:
    def __init__(self, schema_sample):
        self.lo = schema_sample.min(0).values
        self.hi = schema_sample.max(0).values

    def __call__(self, x):
        return (x - self.lo) / (self.hi - self.lo)


X, y = make_reports(7000)
X_train, y_train, X_test, y_test = X[:6000], y[:6000], X[6000:], y[6000:]
extract = ScalarExtractor(X_train[:400])
F_train, F_test = extract(X_train), extract(X_test)

model = nn.Sequential(nn.Linear(FIELDS, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
loader = DataLoader(TensorDataset(F_train, y_train), batch_size=64, shuffle=True)

for epoch in range(8):
    total, count = 0.0, 0
    for xb, yb in loader:
        loss = F.binary_cross_entropy_with_logits(model(xb).squeeze(1), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(yb)
        count += len(yb)
    print(f"epoch {epoch} loss {total / count:.4f}")

with torch.no_grad():
    acc = ((model(F_test).squeeze(1) > 0).float() == y_test).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
