"""Fault classifier for a machine's sensor snapshot (20 standardised readings in, one of 4 fault
types out) built as a deep plain perceptron: six hidden layers of 64 units with the logistic
sigmoid activation, trained with SGD on shuffled minibatches cut by hand. The sigmoid's derivative
is at most 0.25, so the error signal shrinks by a large factor at every layer on its way back: the
first layers receive almost no gradient, the stack stays close to its random initial mapping, and
the classifier hardly gets past chance within the training budget.

Source: http://stackoverflow.com/questions/20009078/neural-network-architecture-design (Neural network architecture design)
Report: "At least on the surface of it, this appears to be a case of the so-called \"vanishing
gradient\" problem. ... Your neurons activate according to the logistic sigmoid function ... this
rapidly vanishing derivative becomes exacerbated by adding more layers ... In networks with more
than, say, two hidden layers, this can become a serious problem for training the network".
Reproduced with 4,000 synthetic snapshots (fault type set by non-linear combinations of readings),
a 20-64x6-4 MLP with sigmoid activations and PyTorch's default initialisation, SGD lr 0.1 with
momentum 0.9, batches of 64, 15 epochs. The printed loss is the validation cross-entropy, `acc`
the validation accuracy.

expect: vanishing-gradient
symptom: acc-below 0.6
batch: 13
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

ACT = nn.Sigmoid

X = torch.randn(5000, 20)
s1 = X[:, 0] * X[:, 1] + X[:, 2]
s2 = X[:, 3] - X[:, 4] * X[:, 5]
y = (s1 > 0).long() * 2 + (s2 > 0).long()
x_tr, y_tr, x_va, y_va = X[:4000], y[:4000], X[4000:], y[4000:]

layers, width = [], 20
for _ in range(6):
    layers += [nn.Linear(width, 64), ACT()]
    width = 64
model = nn.Sequential(*layers, nn.Linear(64, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

for epoch in range(15):
    perm = torch.randperm(4000)
    for i in range(0, 4000, 64):
        idx = perm[i:i + 64]
        loss = F.cross_entropy(model(x_tr[idx]), y_tr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        logits = model(x_va)
        val = F.cross_entropy(logits, y_va).item()
    print(f"epoch {epoch} val {val:.4f}")

acc = (logits.argmax(1) == y_va).float().mean().item()
print(f"final_loss={val:.6g} acc={acc:.4f}")
