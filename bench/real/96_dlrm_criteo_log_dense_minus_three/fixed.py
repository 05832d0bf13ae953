"""DLRM click-through model on Criteo-style data -- fixed as the pull request does: the dense features
are shifted by their minimum, dense_np -= dense_np.min() - 2, before the log (nothing else changed).

Source: https://github.com/meta-pytorch/torchrec/pull/2150 (Fix bug in criteo.py that caused NaN issues)
Report: "The original script simply added 3 to the target value before taking the log. This led
to the issue that in data preprocessing, if there was a value of -3, it would result in a value
of -inf" (facebookresearch/dlrm#363: NaN loss on Criteo Kaggle); the fix shifts by the minimum
instead: dense_np -= dense_np.min() - 2 before the log. Reproduced with the preprocessing step
on synthetic Criteo-like rows (13 integer count features, the second one allowed down to -3
as Criteo's I2 is; 8 hashed categorical features; clicks from a logistic model) and a small
DLRM (bottom MLP, embedding tables, pairwise dot interactions, top MLP, BCEWithLogitsLoss,
Adagrad as in torchrec's example); `acc` is the held-out click accuracy.

expect: data-nonfinite
symptom: nonfinite
batch: 5
"""
import argparse

import numpy as np
import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
np.random.seed(args.seed)
torch.set_num_threads(1)

N_DENSE, N_SPARSE, HASH = 13, 8, 1000


def raw_rows(n):
    dense = np.random.poisson(np.random.gamma(1.0, 20.0, (n, N_DENSE))).astype(np.float32)
    dense[:, 1] = np.random.geometric(0.05, n) - 4                 # I2-like column: min -3
    sparse = np.random.zipf(1.6, (n, N_SPARSE)) % HASH
    w_d = np.random.RandomState(0).randn(N_DENSE) * 0.4
    w_s = np.random.RandomState(1).randn(N_SPARSE, HASH)
    logit = (np.log1p(np.abs(dense)) - 2.5) @ w_d + w_s[np.arange(N_SPARSE), sparse].sum(1) * 0.5 - 0.5
    label = (np.random.rand(n) < 1 / (1 + np.exp(-logit))).astype(np.float32)
    return dense, sparse, label


def tsv_to_npys(dense_np, sparse_np, label_np):
    dense_np -= dense_np.min() - 2
    dense_np = np.log(dense_np, dtype=np.float32)
    return torch.from_numpy(dense_np), torch.from_numpy(sparse_np).long(), torch.from_numpy(label_np)


class DLRM(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.bottom = nn.Sequential(nn.Linear(N_DENSE, 64), nn.ReLU(), nn.Linear(64, d), nn.ReLU())
        self.tables = nn.ModuleList([nn.Embedding(HASH, d) for _ in range(N_SPARSE)])
        n_f = N_SPARSE + 1
        self.top = nn.Sequential(nn.Linear(d + n_f * (n_f - 1) // 2, 64), nn.ReLU(), nn.Linear(64, 1))
        self.li, self.lj = torch.triu_indices(n_f, n_f, 1)

    def forward(self, dense, sparse):
        x = self.bottom(dense)
        feats = torch.stack([x] + [t(sparse[:, k]) for k, t in enumerate(self.tables)], 1)
        inter = feats @ feats.transpose(1, 2)
        return self.top(torch.cat([x, inter[:, self.li, self.lj]], 1)).squeeze(1)


dense, sparse, label = tsv_to_npys(*raw_rows(24000))
n_train = 20000
model = DLRM()
optimizer = torch.optim.Adagrad(model.parameters(), lr=0.02)
criterion = nn.BCEWithLogitsLoss()
losses = []
for epoch in range(3):
    perm = torch.randperm(n_train)
    for i in range(0, n_train, 256):
        idx = perm[i:i + 256]
        loss = criterion(model(dense[idx], sparse[idx]), label[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-78:]) / 78:.4f}")

with torch.no_grad():
    pred = model(dense[n_train:], sparse[n_train:]) > 0
    acc = (pred.float() == label[n_train:]).float().mean().item()
print(f"final_loss={sum(losses[-20:]) / 20:.6g} acc={acc:.4f}")
