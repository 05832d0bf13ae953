"""Multi-task toxicity classifier for Tox21-style data (12 assay endpoints per molecule, Morgan-fingerprint-like bit vectors, an MLP with one sigmoid logit per task, BCE-with-logits, Adam) whose label matrix keeps the missing assay results as NaN -- about a fifth of the molecule/assay pairs were never measured: the NaN targets go straight into the loss, the first batch already gives loss = NaN and the NaN gradients wipe out the weights.

Source: https://github.com/deepmodeling/Uni-Mol/issues/162 (Missing values in tox21 dataset)
Question: "How did you handle NaN target values in the tox21 dataset?"; maintainer's answer: "We
replaced the positions of the `NaN` labels with `-1` and filtered these positions in the loss
calculation" (their multi-task cross-entropy masks the -1 entries). Reproduced with a DataLoader
over 4,000 synthetic molecules (1,024-bit fingerprints from random substructure sets; each assay
is active when certain substructure bits co-occur; ~20% of the labels missing, stored as NaN as
read from the csv), an MLP 1024-512-256-12 with ReLU, dropout 0.2 and batch-norm, Adam lr 1e-3,
`F.binary_cross_entropy_with_logits(logits, y)` over all 12 columns. The printed loss is the mean
training loss of the last epoch (of 5), `acc` the mean accuracy over the measured held-out labels.

expect: data-nonfinite
symptom: nonfinite
batch: 10
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

N_BITS, N_TASKS = 1024, 12
g = torch.Generator().manual_seed(7)
substructures = [torch.randint(0, N_BITS, (12,), generator=g) for _ in range(40)]
task_rules = [torch.randint(0, 40, (3,), generator=g) for _ in range(N_TASKS)]


def make_molecules(n):
    X = (torch.rand(n, N_BITS) < 0.03).float()
    present = torch.rand(n, 40) < 0.25
    for s in range(40):
        X[present[:, s].nonzero().squeeze(1).unsqueeze(1), substructures[s].unsqueeze(0)] = 1.0
    Y = torch.zeros(n, N_TASKS)
    for t, rule in enumerate(task_rules):
        score = present[:, rule].float().sum(1) + 0.3 * torch.randn(n)
        Y[:, t] = (score > 1.5).float()
    Y[torch.rand(n, N_TASKS) < 0.2] = float("nan")  # assay not measured for this molecule
    return X, Y


def multitask_loss(logits, y):
    return F.binary_cross_entropy_with_logits(logits, y)


train_x, train_y = make_molecules(4000)
test_x, test_y = make_molecules(1000)
loader = DataLoader(TensorDataset(train_x, train_y), batch_size=64, shuffle=True)

model = nn.Sequential(
    nn.Linear(N_BITS, 512), nn.BatchNorm1d(512), nn.ReLU(), nn.Dropout(0.2),
    nn.Linear(512, 256), nn.BatchNorm1d(256), nn.ReLU(), nn.Dropout(0.2),
    nn.Linear(256, N_TASKS),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(5):
    model.train()
    total, count = 0.0, 0
    for x, y in loader:
        loss = multitask_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
        count += 1
    print(f"epoch {epoch} loss {total / count:.4f}")

model.eval()
with torch.no_grad():
    pred = (model(test_x) > 0).float()
    measured = ~torch.isnan(test_y)
    acc = (pred[measured] == test_y[measured]).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
