"""Smart-contract vulnerability detector (each contract function is a small graph of 12 typed
nodes -- calls, storage writes, checks, arithmetic -- classified as reentrancy-vulnerable or not by
a two-layer graph network with sum pooling, minibatch Adam) trained on a corpus that contains many
repeated graphs: the same function appears in several contracts and was extracted once per
contract, byte-identical. The corpus is split into training and validation *after* extraction, so
most validation graphs have an identical copy in the training set; the network memorises the labels
of the graphs it has seen (including the cases its features cannot explain) and the validation loss
reports recall of seen functions rather than detection on new code.

Source: https://github.com/Messi-Q/GNNSCVulDetector/issues/3 (Training set duplication problem)
Report: "Why is there a lot of repeated data in this training set, and so is the validation set?
Why do you need to do this?" Reproduced with 1,000 distinct synthetic function graphs (random typed
nodes and control-flow edges; vulnerable when an external call flows straight into a storage write
and the function has no check, with 15% of labels flipped by facts the graph does not show, e.g. a
guard modifier), each extracted 2 to 8 times -- about 5,000 graphs -- and a random 80/20 split of
the extracted graphs. GNN 6-48-48-2, Adam lr 3e-3, batch 64, 20 epochs. The printed loss is the
validation cross-entropy, `acc` the validation accuracy.

expect: data-leakage
symptom: loss-below 0.33
batch: 14
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

perm = torch.randperm(len(Y))
n_val = len(Y) // 5
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
