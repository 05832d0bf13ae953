"""Federated personalised training (local SGD steps + server averaging): NaN train loss.

Source: https://github.com/CharlieDinh/pFedMe/issues/11
Report: "why train loss will be nan?" - maintainer: "the training loss is nan when the learning
rate is large." Reproduced with a FedAvg-style loop over clients, multinomial logistic regression,
local SGD written by hand.

expect: lr-too-high
symptom: final-loss-ratio 3
"""
import argparse

import torch
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
ap.add_argument("--learning_rate", type=float, default=5.0)
args = ap.parse_args()
torch.manual_seed(args.seed)

num_users, dim, n_cls = 10, 60, 10
W_true = torch.randn(dim, n_cls)
clients = []
for u in range(num_users):
    shift = torch.randn(dim) * 2  # non-iid: each user has its own feature offset
    X = torch.randn(200, dim) * 3 + shift
    y = (X @ W_true + torch.randn(200, n_cls)).argmax(1)
    clients.append((X, y))

global_w = torch.zeros(dim, n_cls)
global_b = torch.zeros(n_cls)
losses = []
for glob_iter in range(20):
    local_models = []
    for X, y in clients:
        w = global_w.clone().requires_grad_(True)
        b = global_b.clone().requires_grad_(True)
        for local_epoch in range(5):
            idx = torch.randint(0, 200, (20,))
            loss = F.cross_entropy(X[idx] @ w + b, y[idx])
            gw, gb = torch.autograd.grad(loss, [w, b])
            with torch.no_grad():
                w -= args.learning_rate * gw
                b -= args.learning_rate * gb
        local_models.append((w.detach(), b.detach()))
    global_w = torch.stack([m[0] for m in local_models]).mean(0)
    global_b = torch.stack([m[1] for m in local_models]).mean(0)
    train_loss = sum(F.cross_entropy(X @ global_w + global_b, y).item() for X, y in clients) / num_users
    losses.append(train_loss)
    # a training step of the "server" so that each round is one optimiser step
print(f"final_loss={sum(losses[-3:]) / 3:.6g} acc={0.0:.4f}")
