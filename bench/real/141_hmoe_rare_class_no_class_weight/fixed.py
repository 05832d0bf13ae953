"""Hierarchical mixture of experts on a 6 %-minority tabular set -- fixed as in the PR: fit() takes
class_weight="balanced" (n_samples / (n_classes * count) per class), combined with the sample
weights and normalised to mean 1, so the rare class counts as much as the others in the loss;
nothing else changed.

Source: https://github.com/cgrtml/neural-trees/pull/75 (Weight the loss in GALNetwork and HierarchicalMixtureOfExperts)
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

D = 8
centers = torch.tensor([[1.0, 0.0, 0.5, 0.0, 0.0, 0.3, 0.0, 0.0],
                        [-1.0, 0.5, 0.0, 0.0, 0.2, 0.0, 0.0, 0.0],
                        [0.0, -0.65, -0.45, 0.3, 0.0, 0.0, 0.2, 0.0]])


def make_rows(n):
    y = torch.multinomial(torch.tensor([0.52, 0.42, 0.06]), n, replacement=True)
    x = centers[y] + 0.8 * torch.randn(n, D)
    return x, y


X_train, y_train = make_rows(600)
X_test, y_test = make_rows(1200)
mu, sd = X_train.mean(0), X_train.std(0)
X_train, X_test = (X_train - mu) / sd, (X_test - mu) / sd


class _HMoENet(nn.Module):
    def __init__(self, d, n_classes, depth):
        super().__init__()
        self.depth = depth
        self.gates = nn.Linear(d, 2 ** depth - 1)
        self.experts = nn.Linear(d, n_classes * 2 ** depth)
        self.n_classes = n_classes

    def forward(self, x):
        g = torch.sigmoid(self.gates(x))                 # P(go left) at each inner node
        leaf_p = torch.ones(x.shape[0], 1)
        node = 0
        for level in range(self.depth):
            n = 2 ** level
            gl = g[:, node:node + n]
            leaf_p = torch.stack([leaf_p * gl, leaf_p * (1 - gl)], dim=2).reshape(x.shape[0], 2 * n)
            node += n
        expert_p = F.softmax(self.experts(x).view(x.shape[0], -1, self.n_classes), -1)
        return (leaf_p.unsqueeze(-1) * expert_p).sum(1)  # mixture of expert class probabilities


class HierarchicalMixtureOfExperts:
    def __init__(self, depth=3, max_epochs=25, lr=0.01, batch_size=32, class_weight=None):
        self.depth, self.max_epochs, self.lr = depth, max_epochs, lr
        self.batch_size, self.class_weight = batch_size, class_weight

    def fit(self, X, y, sample_weight=None):
        n_classes = int(y.max()) + 1
        self.net_ = _HMoENet(X.shape[1], n_classes, self.depth)
        w = torch.ones(len(y)) if sample_weight is None else sample_weight.clone()
        if self.class_weight == "balanced":
            counts = torch.bincount(y, minlength=n_classes).float()
            w = w * (len(y) / (n_classes * counts))[y]
            w = w / w.mean()
        opt = torch.optim.Adam(self.net_.parameters(), lr=self.lr)
        for epoch in range(self.max_epochs):
            perm = torch.randperm(len(y))
            total = 0.0
            for b in range(0, len(y), self.batch_size):
                idx = perm[b:b + self.batch_size]
                p = self.net_(X[idx])
                nll = -torch.log(p.gather(1, y[idx, None]).squeeze(1) + 1e-9)
                loss = (w[idx] * nll).sum() / w[idx].sum()
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += loss.item() * len(idx)
            self.loss_ = total / len(y)
        return self

    def predict(self, X):
        with torch.no_grad():
            return self.net_(X).argmax(1)


clf = HierarchicalMixtureOfExperts(depth=3, max_epochs=25, class_weight="balanced").fit(X_train, y_train)
pred = clf.predict(X_test)
overall = (pred == y_test).float().mean().item()
rare = y_test == 2
recall = (pred[rare] == 2).float().mean().item()
print(f"test accuracy {overall:.3f}  rare-class predictions {int((pred == 2).sum())}")
print(f"final_loss={clf.loss_:.6g} acc={recall:.4f}")
