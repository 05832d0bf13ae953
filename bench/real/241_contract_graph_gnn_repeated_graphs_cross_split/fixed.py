"""Contract-function vulnerability GNN -- fixed: repeated extractions are collapsed to one graph per
distinct function before the 80/20 split, so no validation graph has a copy in the training set
(nothing else changed).
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

NODES, TYPES, DISTINCT = 12, 6, 1000
CALL, STORE, CHECK = 0, 1, 2


def make_function():
    types = torch.randint(0, TYPES, (NODES,))
    adj = torch.zeros(NODES, NODES)
    for i in range(NODES - 1):
        adj[i, i + 1] = 1.0
        if torch.rand(()) < 0.3:
            adj[i, int(torch.randint(i + 1, NODES, ()))] = 1.0
    guarded = bool((types == CHECK).any())
    vulnerable = bool((adj[types == CALL][:, types == STORE] > 0).any()) and not guarded
    label = int(vulnerable) ^ int(torch.rand(()) < 0.15)
    return F.one_hot(types, TYPES).float(), adj, label


class GNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Linear(TYPES, 48), nn.Linear(48, 48)
        self.m1, self.m2 = nn.Linear(TYPES, 48), nn.Linear(48, 48)
        self.out = nn.Linear(48, 2)

    def forward(self, x, adj):
        h = F.relu(self.l1(x) + self.m1(adj.transpose(1, 2) @ x))
        h = F.relu(self.l2(h) + self.m2(adj.transpose(1, 2) @ h))
        return self.out(h.sum(1))


functions = [make_function() for _ in range(DISTINCT)]
copies = torch.randint(2, 9, (DISTINCT,))
rows = [functions[i] for i in range(DISTINCT) for _ in range(int(copies[i]))]
X = torch.stack([r[0] for r in rows])
A = torch.stack([r[1] for r in rows])
Y = torch.tensor([r[2] for r in rows])

source = torch.repeat_interleave(torch.arange(DISTINCT), copies)
first = torch.ones(len(Y), dtype=torch.bool)
first[1:] = source[1:] != source[:-1]
unique_idx = torch.nonzero(first).flatten()
perm = unique_idx[torch.randperm(len(unique_idx))]
n_val = len(perm) // 5
val_idx, train_idx = perm[:n_val], perm[n_val:]

model = GNN()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(20):
    order = train_idx[torch.randperm(len(train_idx))]
    for i in range(0, len(order), 64):
        idx = order[i:i + 64]
        loss = F.cross_entropy(model(X[idx], A[idx]), Y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(X[val_idx], A[val_idx])
        val_loss = F.cross_entropy(logits, Y[val_idx]).item()
        train_loss = F.cross_entropy(model(X[train_idx], A[train_idx]), Y[train_idx]).item()
    print(f"epoch {epoch} train {train_loss:.4f} val {val_loss:.4f}")

acc = (logits.argmax(1) == Y[val_idx]).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
