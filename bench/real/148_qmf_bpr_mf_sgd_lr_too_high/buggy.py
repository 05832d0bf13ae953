"""BPR matrix factorisation (qmf-style: user/item factors plus item biases, sampled (user, positive, negative) triples, plain SGD with L2 regularisation) run with an initial learning rate of 120: the factor norms blow up within the first epoch and train/test losses are infinite/NaN from then on.

Source: https://github.com/quora/qmf/issues/11 (train/test infinite loss)
Report: "every now and then, both train and test loss are infinite from the beginning until the
end of the process"; the maintainer: "if this is BPR, did you try using a smaller learning rate?
(--init_learning_rate=<x>)"; the reporter: "Yes that worked." Reproduced with qmf's BPR training
loop in PyTorch (factors of dimension 32 initialised N(0, 0.01), item biases, per-epoch sampling of
one unobserved item per observed pair, mini-batches of 64 triples through a DataLoader, SGD with
the learning rate decayed by 0.95 per epoch, L2 penalty on the touched rows) with
init_learning_rate=120, on a synthetic implicit-feedback matrix of 800 users x 600 items. The
printed loss is the mean BPR loss (-log sigmoid(x_ui - x_uj)) of the last epoch, `acc` the test
AUC (held-out positive ranked above a random unobserved item).

expect: lr-too-high
symptom: nonfinite
batch: 8
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_USERS, N_ITEMS = 800, 600
init_learning_rate = 120.0
lr_decay = 0.95
reg = 0.01
n_epochs = 12

U0, V0 = torch.randn(N_USERS, 6), torch.randn(N_ITEMS, 6)
pop = torch.linspace(1.5, -1.5, N_ITEMS)[torch.randperm(N_ITEMS)]
score = U0 @ V0.T + pop
R = score > score.quantile(0.95)
pos = R.nonzero()
perm = torch.randperm(len(pos))
test_pos, train_pos = pos[perm[:3000]], pos[perm[3000:]]
R_train = torch.zeros_like(R)
R_train[train_pos[:, 0], train_pos[:, 1]] = True


class BPRModel(nn.Module):
    def __init__(self, n_users, n_items, dim):
        super().__init__()
        self.user_factors = nn.Embedding(n_users, dim)
        self.item_factors = nn.Embedding(n_items, dim)
        self.item_bias = nn.Embedding(n_items, 1)
        nn.init.normal_(self.user_factors.weight, std=0.01)
        nn.init.normal_(self.item_factors.weight, std=0.01)
        nn.init.zeros_(self.item_bias.weight)

    def score(self, u, i):
        return (self.user_factors(u) * self.item_factors(i)).sum(-1) + self.item_bias(i).squeeze(-1)


def sample_negatives(users):
    neg = torch.randint(0, N_ITEMS, (len(users),))
    for _ in range(5):
        bad = R_train[users, neg]
        if not bad.any():
            break
        neg[bad] = torch.randint(0, N_ITEMS, (int(bad.sum()),))
    return neg


model = BPRModel(N_USERS, N_ITEMS, 32)
optimizer = torch.optim.SGD(model.parameters(), lr=init_learning_rate)
for epoch in range(n_epochs):
    users, items = train_pos[:, 0], train_pos[:, 1]
    negs = sample_negatives(users)
    loader = DataLoader(TensorDataset(users, items, negs), batch_size=64, shuffle=True)
    total, count = 0.0, 0
    for u, i, j in loader:
        x_uij = model.score(u, i) - model.score(u, j)
        loss = -F.logsigmoid(x_uij).mean()
        penalty = reg * (model.user_factors(u).pow(2).sum(-1) + model.item_factors(i).pow(2).sum(-1)
                         + model.item_factors(j).pow(2).sum(-1)).mean()
        optimizer.zero_grad()
        (loss + penalty).backward()
        optimizer.step()
        total += loss.item()
        count += 1
    for g in optimizer.param_groups:
        g["lr"] *= lr_decay
    print(f"epoch {epoch} train bpr loss {total / count:.4f}")

with torch.no_grad():
    u, i = test_pos[:, 0], test_pos[:, 1]
    j = sample_negatives(u)
    acc = (model.score(u, i) > model.score(u, j)).float().mean().item()
print(f"final_loss={total / count:.6g} acc={acc:.4f}")
