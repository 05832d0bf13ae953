"""Information-plane style experiment network: a 12-bit binary input is classified by a deep, narrow tanh MLP (12-10-7-5-4-3-2) trained full-batch with plain SGD on cross-entropy. The experiment configuration initialises every bias to a large constant (3.0) "to start the units off-centre", so each layer's pre-activations sit around +3 for every input and every tanh is pinned near +1, where its slope is about 0.01: the hidden representations are nearly identical for all inputs, the gradient that reaches the weights is a few hundredths of what it should be at each layer, and the network stays at the class prior for the whole run.

Source: https://github.com/neuroinfo-os/deep-bottleneck/issues/168 (Why is no learning happening with big initial biases?)
Report: "Why is no learning happening with big initial biases? see run 868/869" (left "unsolved and
postponed"). Reproduced with all 4,096 12-bit patterns labelled by a fixed random sparse rule
(sign of a weighted sum of a few bits and two bit products, balanced to about 50/50), 80 % used for
training; the tanh MLP above with default PyTorch weight init and every bias set to 3.0,
full-batch SGD lr 0.5 for 600 steps. The printed loss is the cross-entropy on the held-out
patterns, `acc` the accuracy there.

expect: saturated-activation
symptom: acc-below 0.65
batch: 19
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

BITS = 12
patterns = ((torch.arange(2 ** BITS)[:, None] >> torch.arange(BITS)) & 1).float()
signs = 2 * patterns - 1
w = torch.zeros(BITS)
w[torch.randperm(BITS)[:5]] = torch.randn(5)
score = signs @ w + 0.8 * signs[:, 0] * signs[:, 1] - 0.8 * signs[:, 2] * signs[:, 3]
labels = (score > score.median()).long()
order = torch.randperm(len(patterns))
train_idx, test_idx = order[:3277], order[3277:]

sizes = [BITS, 10, 7, 5, 4, 3]
layers = []
for a, b in zip(sizes[:-1], sizes[1:]):
    layers += [nn.Linear(a, b), nn.Tanh()]
model = nn.Sequential(*layers, nn.Linear(sizes[-1], 2))
with torch.no_grad():
    for m in model:
        if isinstance(m, nn.Linear):
            m.bias.fill_(3.0)
opt = torch.optim.SGD(model.parameters(), lr=0.5)

X = signs
for step in range(600):
    loss = F.cross_entropy(model(X[train_idx]), labels[train_idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step} train {loss.item():.4f}")

with torch.no_grad():
    logits = model(X[test_idx])
    test_loss = F.cross_entropy(logits, labels[test_idx]).item()
    acc = (logits.argmax(1) == labels[test_idx]).float().mean().item()
print(f"final_loss={test_loss:.6g} acc={acc:.4f}")
