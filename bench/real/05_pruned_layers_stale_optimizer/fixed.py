"""Fixed version of 05_pruned_layers_stale_optimizer/buggy.py (the source and the report are in its docstring).

Fix: re-create the optimizer from the sped-up model's parameters.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)

X = torch.randn(3000, 20)
y = (torch.sin(X[:, :5]).sum(1) + 0.3 * X[:, 5:10].pow(2).sum(1) > 1.0).long()

model = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)


def speedup(model, keep=48):
    """Replace each hidden Linear by a smaller one holding the kept (largest-norm) units."""
    l1, l2, l3 = model[0], model[2], model[4]
    k1 = l1.weight.norm(dim=1).topk(keep).indices
    k2 = l2.weight.norm(dim=1).topk(keep).indices
    n1, n2, n3 = nn.Linear(20, keep), nn.Linear(keep, keep), nn.Linear(keep, 2)
    with torch.no_grad():
        n1.weight.copy_(l1.weight[k1]); n1.bias.copy_(l1.bias[k1])
        n2.weight.copy_(l2.weight[k2][:, k1]); n2.bias.copy_(l2.bias[k2])
        n3.weight.copy_(l3.weight[:, k2]); n3.bias.copy_(l3.bias)
    model[0], model[2], model[4] = n1, n2, n3


# prune the freshly initialised model, then fine-tune (the pruning flow of the report)
speedup(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

losses = []
for step in range(400):
    idx = torch.randint(0, 3000, (64,))
    loss = F.cross_entropy(model(X[idx]), y[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    losses.append(loss.item())

with torch.no_grad():
    acc = (model(X).argmax(1) == y).float().mean().item()
print(f"final_loss={sum(losses[-50:]) / 50:.6g} acc={acc:.4f}")
