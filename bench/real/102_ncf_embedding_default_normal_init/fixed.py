"""Neural collaborative-filtering recommender -- fixed with the report's workaround: the embedding tables
are initialised by hand at the scale nn.Linear uses, U(-1/sqrt(64), 1/sqrt(64)), instead of
nn.Embedding's N(0, 1) (nothing else changed).

Source: https://github.com/pytorch/pytorch/issues/3121 (Better initialization in Embedding class)
Report: "I noticed that the weight initialization in the Embedding class is
self.weight.data.normal_(0, 1). It took me many hours to find out the reason why my net did not
train. The values are too high. I suggest to initialize with the same option as other linear
layers. A workaround to this is just to make the initialization yourself." Reproduced with a
NeuMF-style model (GMF branch: element-wise product of 64-d user and item embeddings; MLP
branch on their concatenation; both into a logit) trained with BCEWithLogitsLoss and Adam
on synthetic implicit feedback (600 users x 300 items, 4 negatives per positive, preferences
from a low-rank model); `acc` is the held-out hit accuracy (positive scored above its negative).

expect: bad-init
symptom: acc-below 0.75
batch: 5
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

N_USERS, N_ITEMS, K = 600, 300, 64
pu, qi = torch.randn(N_USERS, 8), torch.randn(N_ITEMS, 8)


def sample(n):
    u = torch.randint(0, N_USERS, (n,))
    cand = torch.randint(0, N_ITEMS, (n, 8))
    pos = cand.gather(1, (pu[u].unsqueeze(1) * qi[cand]).sum(-1).argmax(1, keepdim=True)).squeeze(1)
    neg = torch.randint(0, N_ITEMS, (n, 4))
    users = torch.cat([u, u.repeat_interleave(4)])
    items = torch.cat([pos, neg.flatten()])
    labels = torch.cat([torch.ones(n), torch.zeros(4 * n)])
    return users, items, labels, (u, pos, neg[:, 0])


class NeuMF(nn.Module):
    def __init__(self):
        super().__init__()
        self.user_gmf, self.item_gmf = nn.Embedding(N_USERS, K), nn.Embedding(N_ITEMS, K)
        self.user_mlp, self.item_mlp = nn.Embedding(N_USERS, K), nn.Embedding(N_ITEMS, K)
        self.mlp = nn.Sequential(nn.Linear(2 * K, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.predict = nn.Linear(K + 32, 1)
        for emb in (self.user_gmf, self.item_gmf, self.user_mlp, self.item_mlp):
            nn.init.uniform_(emb.weight, -1 / K ** 0.5, 1 / K ** 0.5)

    def forward(self, u, i):
        gmf = self.user_gmf(u) * self.item_gmf(i)
        mlp = self.mlp(torch.cat([self.user_mlp(u), self.item_mlp(i)], 1))
        return self.predict(torch.cat([gmf, mlp], 1)).squeeze(1)


users, items, labels, _ = sample(40000)
_, _, _, (tu, tpos, tneg) = sample(2000)
model = NeuMF()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
losses = []
for epoch in range(4):
    perm = torch.randperm(len(users))
    for i in range(0, len(perm), 256):
        idx = perm[i:i + 256]
        loss = F.binary_cross_entropy_with_logits(model(users[idx], items[idx]), labels[idx])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    print(f"epoch {epoch} loss {sum(losses[-100:]) / 100:.4f}")

with torch.no_grad():
    acc = (model(tu, tpos) > model(tu, tneg)).float().mean().item()
print(f"final_loss={sum(losses[-100:]) / 100:.6g} acc={acc:.4f}")
