"""Subscriber-churn classifier written as a from-scratch sigmoid network (18 standardised account
features, two sigmoid hidden layers of 64 units, sigmoid output with binary cross-entropy, plain SGD on
minibatches sliced by hand). The weight matrices are initialised by hand with torch.randn scaled by 5,
i.e. unit-scale-and-larger weights regardless of fan-in. Each hidden pre-activation is then a sum of
18-64 terms of size ~5, so nearly every hidden unit sits at 0 or 1 for every customer, the local
derivative s(1-s) is ~0, the hidden layers pass back almost no gradient, and the network barely
moves from its initial guess: training stalls well above what the same network reaches with small
initial weights.

Source: https://datascience.stackexchange.com/questions/16911/how-does-sigmoid-saturate-with-large-weights (How does sigmoid saturate with large weights?)
Report: "In cs231n course, it is mentioned that 'If the initial weights are too large then most
neurons would become saturated and the network will barely learn.' How do the neurons get
saturated?" -- answer: "When the weights w_i are too large (positive or negative), z tends to be large
as well, driving the output of the sigmoid to the far left (value 0) or far right (value 1). These
are saturation regions where the gradient/derivative is too small, slowing down learning."
Reproduced with 5,000 synthetic customers (churn driven by a nonlinear mix of tenure, usage drop,
support calls and price changes), network 18-64-64-1, SGD lr 0.1 momentum 0.9, batch 100, 12 epochs.
The printed loss is the validation BCE on 1,500 customers, `acc` the validation accuracy.

expect: saturated-activation
symptom: final-loss-ratio 1.5
batch: 15
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

FEATS, HIDDEN = 18, 64


def customers(n):
    x = torch.randn(n, FEATS)
    score = -1.2 * x[:, 0] + 0.9 * torch.relu(x[:, 1]) + 0.7 * x[:, 2] * x[:, 3] + 0.6 * x[:, 4] - 0.5 * x[:, 5] ** 2
    return x, (score + 0.4 * torch.randn(n) > 0).float()


def init_weight(n_in, n_out):
    return (torch.randn(n_in, n_out) * 5.0).requires_grad_()


x_train, y_train = customers(5000)
x_val, y_val = customers(1500)
W1, W2, W3 = init_weight(FEATS, HIDDEN), init_weight(HIDDEN, HIDDEN), init_weight(HIDDEN, 1)
b1, b2, b3 = (torch.zeros(d, requires_grad=True) for d in (HIDDEN, HIDDEN, 1))
params = [W1, b1, W2, b2, W3, b3]


def forward(x):
    h1 = torch.sigmoid(x @ W1 + b1)
    h2 = torch.sigmoid(h1 @ W2 + b2)
    return (h2 @ W3 + b3).squeeze(1)


opt = torch.optim.SGD(params, lr=0.1, momentum=0.9)
BATCH = 100
for epoch in range(12):
    perm = torch.randperm(len(x_train))
    total = 0.0
    for i in range(0, len(x_train), BATCH):
        idx = perm[i:i + BATCH]
        loss = F.binary_cross_entropy_with_logits(forward(x_train[idx]), y_train[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(idx)
    if epoch % 3 == 0:
        print(f"epoch {epoch} train bce {total / len(x_train):.4f}")

with torch.no_grad():
    logits = forward(x_val)
    val_loss = F.binary_cross_entropy_with_logits(logits, y_val).item()
    acc = ((logits > 0).float() == y_val).float().mean().item()
print(f"final_loss={val_loss:.6g} acc={acc:.4f}")
