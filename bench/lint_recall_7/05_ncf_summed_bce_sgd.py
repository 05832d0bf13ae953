# Source: https://github.com/PreferredAI/cornac/pull/537
# Pitfall: the neural collaborative filtering trainer sums the BCE loss over the mini-batch, so with
#   the SGD learner each step grows with batch_size and the learning rate no longer means anything.
# Reproduced in our own words, not the original code.
import argparse

import numpy as np
import torch
import torch.nn as nn


class GMFPlusMLP(nn.Module):
    def __init__(self, n_users, n_items, k=16, layers=(64, 32, 16)):
        super().__init__()
        self.u_gmf = nn.Embedding(n_users, k)
        self.i_gmf = nn.Embedding(n_items, k)
        self.u_mlp = nn.Embedding(n_users, layers[0] // 2)
        self.i_mlp = nn.Embedding(n_items, layers[0] // 2)
        mlp = []
        for a, b in zip(layers[:-1], layers[1:]):
            mlp += [nn.Linear(a, b), nn.ReLU()]
        self.mlp = nn.Sequential(*mlp)
        self.out = nn.Linear(k + layers[-1], 1)

    def forward(self, users, items):
        gmf = self.u_gmf(users) * self.i_gmf(items)
        deep = self.mlp(torch.cat([self.u_mlp(users), self.i_mlp(items)], dim=1))
        return self.out(torch.cat([gmf, deep], dim=1)).squeeze(-1)


def get_optimizer(params, learner, lr, reg):
    if learner == "sgd":
        return torch.optim.SGD(params, lr=lr, weight_decay=reg)
    if learner == "adagrad":
        return torch.optim.Adagrad(params, lr=lr, weight_decay=reg)
    return torch.optim.Adam(params, lr=lr, weight_decay=reg)


def fit(model, interactions, args):
    criteria = nn.BCEWithLogitsLoss(reduction="sum")  # expect: summed-loss-step
    optimizer = get_optimizer(model.parameters(), args.learner, args.lr, args.reg)
    rng = np.random.default_rng(0)
    users, items, labels = interactions
    for epoch in range(args.epochs):
        model.train()
        order = rng.permutation(len(users))
        sum_loss, count = 0.0, 0
        for start in range(0, len(order), args.batch_size):
            idx = torch.as_tensor(order[start:start + args.batch_size])
            optimizer.zero_grad()
            logits = model(users[idx], items[idx])
            loss = criteria(logits, labels[idx])
            loss.backward()
            optimizer.step()
            sum_loss += loss.item()
            count += len(idx)
        print(f"epoch {epoch}: loss/sample {sum_loss / count:.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--learner", default="sgd", choices=["sgd", "adagrad", "adam"])
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--reg", type=float, default=0.0)
    parser.add_argument("--batch_size", type=int, default=256)
    parser.add_argument("--epochs", type=int, default=5)
    args = parser.parse_args()

    n_users, n_items, n = 300, 800, 20000
    data = (torch.randint(0, n_users, (n,)), torch.randint(0, n_items, (n,)),
            torch.randint(0, 2, (n,)).float())
    fit(GMFPlusMLP(n_users, n_items), data, args)
