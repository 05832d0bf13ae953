"""Neural collaborative filtering (NeuMF, cornac's PyTorch backend) trained with nn.BCELoss(reduction="sum") and the SGD learner: the gradient grows with the 256-pair batch, the predictions saturate and training stalls at a high loss.

Source: https://github.com/PreferredAI/cornac/pull/537 (PyTorch_NCF fix, normalize running loss)
Report: the PR points at the PyTorch NCF model's nn.BCELoss(reduction="sum") ("default is
reduction='mean'"); the maintainer: "Normalizing the loss by the size of mini-batch will help
learning be more stable, less sensitive to the size of mini-batch. Think of them as doing SGD
using the centroid of mini-batch. I would suggest to keep the reduction='mean'". Reproduced with
cornac's NCF training shape (NeuMF = GMF + MLP towers over user/item embeddings, sigmoid output,
4 sampled negatives per observed pair each epoch, batch_size=256, learner "sgd" =
torch.optim.SGD, lr=1.0, hand-sliced mini-batches) on a synthetic implicit-feedback matrix of
600 users x 400 items; the printed loss is the mean per-pair BCE of the last epoch, `acc` the
share of held-out positive items ranked above a random unobserved item of the same user (AUC).

expect: loss-reduction
symptom: final-loss-ratio 2
batch: 6
"""
import argparse

import torch
import torch.nn as nn

ap = argparse.ArgumentParser()
ap.add_argument("--seed", type=int, default=0)
args = ap.parse_args()
torch.manual_seed(args.seed)
torch.set_num_threads(1)

N_USERS, N_ITEMS, K = 600, 400, 4
U, V = torch.randn(N_USERS, K), torch.randn(N_ITEMS, K)
score = U @ V.T + 0.3 * torch.randn(N_USERS, N_ITEMS)
R = score > score.quantile(0.92)                         # ~8 % observed interactions
pos = R.nonzero()
perm = torch.randperm(len(pos))
test_pos, train_pos = pos[perm[:2000]], pos[perm[2000:]]
R_train = torch.zeros_like(R)
R_train[train_pos[:, 0], train_pos[:, 1]] = True


def sample_negatives(users, n_neg):
    u = users.repeat_interleave(n_neg)
    i = torch.randint(0, N_ITEMS, (len(u),))
    keep = ~R[u, i]
    return u[keep], i[keep]


class NeuMF(nn.Module):
    def __init__(self, num_factors=8, layers=(64, 32, 16, 8)):
        super().__init__()
        self.user_gmf, self.item_gmf = nn.Embedding(N_USERS, num_factors), nn.Embedding(N_ITEMS, num_factors)
        self.user_mlp, self.item_mlp = nn.Embedding(N_USERS, layers[0] // 2), nn.Embedding(N_ITEMS, layers[0] // 2)
        for e in (self.user_gmf, self.item_gmf, self.user_mlp, self.item_mlp):
            nn.init.normal_(e.weight, std=0.01)
        mlp = []
        for a, b in zip(layers[:-1], layers[1:]):
            mlp += [nn.Linear(a, b), nn.ReLU()]
        self.mlp = nn.Sequential(*mlp)
        self.predict = nn.Linear(num_factors + layers[-1], 1)

    def forward(self, u, i):
        gmf = self.user_gmf(u) * self.item_gmf(i)
        mlp = self.mlp(torch.cat([self.user_mlp(u), self.item_mlp(i)], -1))
        return torch.sigmoid(self.predict(torch.cat([gmf, mlp], -1))).squeeze(-1)


model = NeuMF()
criterion = nn.BCELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1.0)
batch_size, num_neg = 256, 4
for epoch in range(30):
    neg_u, neg_i = sample_negatives(train_pos[:, 0], num_neg)
    users = torch.cat([train_pos[:, 0], neg_u])
    items = torch.cat([train_pos[:, 1], neg_i])
    labels = torch.cat([torch.ones(len(train_pos)), torch.zeros(len(neg_u))])
    order = torch.randperm(len(users))
    sum_loss, count = 0.0, 0
    for b in range(0, len(order), batch_size):
        idx = order[b:b + batch_size]
        preds = model(users[idx], items[idx])
        loss = criterion(preds, labels[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        sum_loss += nn.functional.binary_cross_entropy(preds.detach(), labels[idx], reduction="sum").item()
        count += len(idx)
    print(f"epoch {epoch} loss {sum_loss / count:.4f}")

with torch.no_grad():
    neg_i = torch.randint(0, N_ITEMS, (len(test_pos),))
    ok = ~R[test_pos[:, 0], neg_i]
    p_pos = model(test_pos[:, 0], test_pos[:, 1])[ok]
    p_neg = model(test_pos[:, 0], neg_i)[ok]
    acc = (p_pos > p_neg).float().mean().item()
print(f"final_loss={sum_loss / count:.6g} acc={acc:.4f}")
